//! Field arithmetic on eight elements at once, written once over a [`LaneBackend`].
//!
//! [`Field52x8`] holds one prime field's constants broadcast to eight lanes; an [`Fe`] holds
//! limb i of eight elements in vector i (limb-sliced), in the Montgomery form of
//! [`Field52`]. A Montgomery product costs 4L² `madd52` operations plus O(L) shifts, adds and
//! a conditional subtraction (L(L+1) + 2L² for a square); an addition or subtraction O(L).
//! On [`crate::ifma::Avx512Ifma`] that is about 4.5 times the throughput of arkworks' scalar
//! assembly multiplication for BN254's base field.
//!
//! Every function is `#[inline(always)]`: callers run whole kernels through
//! [`LaneBackend::run`], inside which everything inlines onto the intrinsics.

use super::backend::LaneBackend;
use super::field::{Field52, MASK};

/// Eight field elements, limb-sliced: `self.0[i]` holds limb i of every lane.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fe<B: LaneBackend, const L: usize>(pub [B::V; L]);

/// Eight u64 lanes in memory, aligned as a vector register: where kernels spill vectors of any
/// backend (see [`Field52x8::spill`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[repr(C, align(64))]
pub(crate) struct Lane8(pub [u64; 8]);

/// One prime field's constants broadcast to eight lanes, with the lane-wise arithmetic.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Field52x8<B: LaneBackend, const L: usize> {
    backend: B,
    p: [B::V; L],
    pinv: B::V,
    mask: B::V,
    zero: B::V,
}

impl<const L: usize> Field52<L> {
    /// The vector constants of this field on `backend`.
    #[inline(always)]
    pub(crate) fn broadcast<B: LaneBackend>(&self, backend: B) -> Field52x8<B, L> {
        Field52x8 {
            backend,
            p: core::array::from_fn(|i| backend.splat(self.p[i])),
            pinv: backend.splat(self.pinv),
            mask: backend.splat(MASK),
            zero: backend.zero(),
        }
    }
}

// Limb loops index several limb arrays in step (operands, p, the result); an index reads
// clearer than zipped iterators and unrolls to the same code.
#[allow(clippy::needless_range_loop)]
impl<B: LaneBackend, const L: usize> Field52x8<B, L> {
    /// Eight copies of a scalar element.
    #[inline(always)]
    pub(crate) fn splat(&self, x: &[u64; L]) -> Fe<B, L> {
        Fe(core::array::from_fn(|i| self.backend.splat(x[i])))
    }

    /// Zero in every lane.
    #[inline(always)]
    pub(crate) fn zero(&self) -> Fe<B, L> {
        Fe([self.zero; L])
    }

    /// Subtracts p where t ≥ p (t < 2p, limbs normalised).
    #[inline(always)]
    fn reduce_once(&self, t: [B::V; L]) -> Fe<B, L> {
        let v8 = self.backend;
        let mut d = [self.zero; L];
        let mut borrow = self.zero;
        for i in 0..L {
            let v = v8.add(v8.sub(t[i], self.p[i]), borrow);
            borrow = v8.sar52(v);
            d[i] = v8.and(v, self.mask);
        }
        // borrow = -1 where t < p: keep t there.
        let keep_t = v8.ne(borrow, self.zero);
        Fe(core::array::from_fn(|i| v8.blend(keep_t, d[i], t[i])))
    }

    /// Adds the product a·b of limbs into the columns at k = i + j: low half at k, high
    /// half at k + 1, columns below L in `lo` and the others in `hi`.
    #[inline(always)]
    fn madd(&self, lo: &mut [B::V; L], hi: &mut [B::V; L], k: usize, a: B::V, b: B::V) {
        let v8 = self.backend;
        if k < L {
            lo[k] = v8.madd52lo(lo[k], a, b);
        } else {
            hi[k - L] = v8.madd52lo(hi[k - L], a, b);
        }
        if k + 1 < L {
            lo[k + 1] = v8.madd52hi(lo[k + 1], a, b);
        } else if k + 1 < 2 * L {
            hi[k + 1 - L] = v8.madd52hi(hi[k + 1 - L], a, b);
        }
    }

    /// a·b (Montgomery product), lane by lane.
    #[inline(always)]
    pub(crate) fn mul(&self, a: &Fe<B, L>, b: &Fe<B, L>) -> Fe<B, L> {
        let (a, b) = (&a.0, &b.0);
        // Columns of the schoolbook product, then word-by-word Montgomery reduction. Column k
        // gathers at most 4L terms below 2^52 plus carries: far below 2^64.
        let mut lo = [self.zero; L];
        let mut hi = [self.zero; L];
        for i in 0..L {
            for j in 0..L {
                self.madd(&mut lo, &mut hi, i + j, a[i], b[j]);
            }
        }
        self.redc(lo, hi)
    }

    /// a², with each cross product a_i·a_j (i < j) formed once and doubled: L(L+1) products
    /// instead of 2L², the reduction unchanged.
    #[inline(always)]
    pub(crate) fn square(&self, a: &Fe<B, L>) -> Fe<B, L> {
        let v8 = self.backend;
        let a = &a.0;
        let mut lo = [self.zero; L];
        let mut hi = [self.zero; L];
        for i in 0..L {
            for j in i + 1..L {
                self.madd(&mut lo, &mut hi, i + j, a[i], a[j]);
            }
        }
        // Columns hold fewer than 2L terms below 2^52: doubling stays below 2^64.
        for c in lo.iter_mut().chain(hi.iter_mut()) {
            *c = v8.add(*c, *c);
        }
        for i in 0..L {
            self.madd(&mut lo, &mut hi, 2 * i, a[i], a[i]);
        }
        self.redc(lo, hi)
    }

    /// Montgomery reduction of a product given as columns: `lo` the low L, `hi` the high L.
    #[inline(always)]
    fn redc(&self, mut lo: [B::V; L], mut hi: [B::V; L]) -> Fe<B, L> {
        let v8 = self.backend;
        for i in 0..L {
            let m = v8.and(v8.madd52lo(self.zero, lo[i], self.pinv), self.mask);
            for j in 0..L {
                self.madd(&mut lo, &mut hi, i + j, m, self.p[j]);
            }
            let carry = v8.shr52(lo[i]);
            if i + 1 < L {
                lo[i + 1] = v8.add(lo[i + 1], carry);
            } else {
                hi[0] = v8.add(hi[0], carry);
            }
        }
        let mut carry = self.zero;
        for h in hi.iter_mut() {
            let v = v8.add(*h, carry);
            *h = v8.and(v, self.mask);
            carry = v8.shr52(v);
        }
        self.reduce_once(hi)
    }

    /// a + b.
    #[inline(always)]
    pub(crate) fn add(&self, a: &Fe<B, L>, b: &Fe<B, L>) -> Fe<B, L> {
        let v8 = self.backend;
        let mut s = [self.zero; L];
        let mut carry = self.zero;
        for i in 0..L {
            let v = v8.add(v8.add(a.0[i], b.0[i]), carry);
            carry = v8.shr52(v);
            s[i] = v8.and(v, self.mask);
        }
        self.reduce_once(s)
    }

    /// a - b.
    #[inline(always)]
    pub(crate) fn sub(&self, a: &Fe<B, L>, b: &Fe<B, L>) -> Fe<B, L> {
        let v8 = self.backend;
        let mut d = [self.zero; L];
        let mut borrow = self.zero;
        for i in 0..L {
            let v = v8.add(v8.sub(a.0[i], b.0[i]), borrow);
            borrow = v8.sar52(v);
            d[i] = v8.and(v, self.mask);
        }
        // Where a < b add p back.
        let negative = v8.ne(borrow, self.zero);
        let mut carry = self.zero;
        let mut out = [self.zero; L];
        for i in 0..L {
            let v = v8.add(v8.add(d[i], self.p[i]), carry);
            carry = v8.shr52(v);
            out[i] = v8.blend(negative, d[i], v8.and(v, self.mask));
        }
        Fe(out)
    }

    /// -a where `negate` has the lane's bit set, a elsewhere.
    #[inline(always)]
    pub(crate) fn neg_where(&self, a: &Fe<B, L>, negate: u8) -> Fe<B, L> {
        let n = self.sub(&self.zero(), a);
        self.select(negate, &n, a)
    }

    /// The lanes equal to zero.
    #[inline(always)]
    pub(crate) fn zero_lanes(&self, a: &Fe<B, L>) -> u8 {
        let v8 = self.backend;
        let mut or = self.zero;
        for limb in a.0.iter() {
            or = v8.or(or, *limb);
        }
        v8.eq(or, self.zero)
    }

    /// Lanes of `a` where `mask` is set, of `b` elsewhere.
    #[inline(always)]
    pub(crate) fn select(&self, mask: u8, a: &Fe<B, L>, b: &Fe<B, L>) -> Fe<B, L> {
        Fe(core::array::from_fn(|i| {
            self.backend.blend(mask, b.0[i], a.0[i])
        }))
    }

    /// Lane k of the result is lane k - S of `a`, or lane k + 8 - S of `fill` for k < S
    /// (S = 1, 2, 4).
    #[inline(always)]
    pub(crate) fn shift_up<const S: i32>(&self, a: &Fe<B, L>, fill: &Fe<B, L>) -> Fe<B, L> {
        let v8 = self.backend;
        // valignq of (fill : a) by 8 - S lanes.
        Fe(core::array::from_fn(|i| match S {
            1 => v8.align::<7>(a.0[i], fill.0[i]),
            2 => v8.align::<6>(a.0[i], fill.0[i]),
            _ => v8.align::<4>(a.0[i], fill.0[i]),
        }))
    }

    /// Lane k of the result is lane k + S of `a`, or lane k + S - 8 of `fill` for k + S ≥ 8
    /// (S = 1, 2, 4).
    #[inline(always)]
    pub(crate) fn shift_down<const S: i32>(&self, a: &Fe<B, L>, fill: &Fe<B, L>) -> Fe<B, L> {
        let v8 = self.backend;
        // valignq of (a : fill) by S lanes.
        Fe(core::array::from_fn(|i| match S {
            1 => v8.align::<1>(fill.0[i], a.0[i]),
            2 => v8.align::<2>(fill.0[i], a.0[i]),
            _ => v8.align::<4>(fill.0[i], a.0[i]),
        }))
    }

    /// The inverse of every lane of `a` (all non-zero) with one scalar inversion: inclusive
    /// prefix and suffix products across the lanes in three shift-and-multiply steps each,
    /// then a⁻¹_k = (Π a)⁻¹ · Π_{j<k} a_j · Π_{j>k} a_j. Eight vector products instead of
    /// 3·7 scalar ones. `invert` inverts one scalar element (Montgomery form); `one` is 1 in
    /// every lane.
    #[inline(always)]
    pub(crate) fn invert_lanes(
        &self,
        a: &Fe<B, L>,
        one: &Fe<B, L>,
        invert: impl FnOnce(&[u64; L]) -> [u64; L],
    ) -> Fe<B, L> {
        let mut pre = *a;
        pre = self.mul(&pre, &self.shift_up::<1>(&pre, one));
        pre = self.mul(&pre, &self.shift_up::<2>(&pre, one));
        pre = self.mul(&pre, &self.shift_up::<4>(&pre, one));
        let mut suf = *a;
        suf = self.mul(&suf, &self.shift_down::<1>(&suf, one));
        suf = self.mul(&suf, &self.shift_down::<2>(&suf, one));
        suf = self.mul(&suf, &self.shift_down::<4>(&suf, one));
        let total = self.extract(&pre)[7];
        let inv = self.splat(&invert(&total));
        let others = self.mul(
            &self.shift_up::<1>(&pre, one),
            &self.shift_down::<1>(&suf, one),
        );
        self.mul(&inv, &others)
    }

    /// Lane values of a vector, as scalars.
    #[inline(always)]
    pub(crate) fn extract(&self, a: &Fe<B, L>) -> [[u64; L]; 8] {
        let mut limbs = [[0u64; 8]; L];
        for (i, l) in limbs.iter_mut().enumerate() {
            self.backend.store(a.0[i], l);
        }
        core::array::from_fn(|lane| core::array::from_fn(|i| limbs[i][lane]))
    }

    /// A vector from eight scalar elements.
    #[inline(always)]
    pub(crate) fn assemble(&self, x: &[[u64; L]; 8]) -> Fe<B, L> {
        Fe(core::array::from_fn(|i| {
            let lane: [u64; 8] = core::array::from_fn(|k| x[k][i]);
            self.backend.load(&lane)
        }))
    }

    /// `a` written to memory, limb by limb.
    #[inline(always)]
    pub(crate) fn spill(&self, a: &Fe<B, L>) -> [Lane8; L] {
        let mut out = [Lane8::default(); L];
        for (o, limb) in out.iter_mut().zip(a.0.iter()) {
            self.backend.store(*limb, &mut o.0);
        }
        out
    }

    /// The element [`Field52x8::spill`] wrote.
    #[inline(always)]
    pub(crate) fn reload(&self, a: &[Lane8; L]) -> Fe<B, L> {
        Fe(core::array::from_fn(|i| self.backend.load(&a[i].0)))
    }

    /// Gathers eight elements from an array of records: lane k reads the L limbs at
    /// `base[index[k] + offset..]`.
    ///
    /// # Safety
    /// `index[k] + offset + L ≤ base.len()` for every lane k.
    #[inline(always)]
    pub(crate) unsafe fn gather(&self, base: &[u64], index: B::V, offset: usize) -> Fe<B, L> {
        // SAFETY: the caller keeps limbs offset..offset + L of every lane inside `base`.
        Fe(core::array::from_fn(|i| unsafe {
            self.backend.gather(base, index, offset + i)
        }))
    }

    /// Scatters eight elements into records, the inverse of [`Field52x8::gather`]; lanes
    /// outside `mask` are not written.
    ///
    /// # Safety
    /// `index[k] + offset + L ≤ base.len()` for every lane k in `mask`.
    #[inline(always)]
    pub(crate) unsafe fn scatter(
        &self,
        base: &mut [u64],
        index: B::V,
        offset: usize,
        mask: u8,
        a: &Fe<B, L>,
    ) {
        for i in 0..L {
            // SAFETY: the caller keeps limbs offset..offset + L of every written lane inside
            // `base`.
            unsafe { self.backend.scatter(base, index, offset + i, mask, a.0[i]) };
        }
    }
}
