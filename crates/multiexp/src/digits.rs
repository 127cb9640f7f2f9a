//! Scalars to signed-digit windows.
//!
//! A scalar s < r of b bits is cut into K windows of c bits, from the least significant up.
//! Window j (all but the top one) becomes the digit d = w_j + carry; if d ≥ 2^(c-1) then
//! d -= 2^c and the carry into window j+1 is 1, so every such digit lies in
//! [-2^(c-1), 2^(c-1) - 1] and selects one of 2^(c-1) buckets by |d| (its sign says add or
//! subtract). The top window absorbs the last carry and is never negative: its digit is at most
//! `((r - 1) >> c(K-1)) + 1`. K is the smallest count for which that bound fits the bucket range
//! (and, up to c = 16, an `i16`: the limit the digits had while they were stored as `i16`,
//! kept so that those windows chunk as they always did), so K = ceil(b / c) usually and one
//! more where r's top window is nearly full (secp256k1 at c = 16, BLS12-381 at c = 5).
//!
//! Storage is chunk-major [`Digit`] (`i32`; all n digits of chunk 0, then chunk 1, ...):
//! [`DIGIT_BYTES`]·n·K bytes, read sequentially by each chunk task. Windows above 16 (buckets
//! beyond 2^15) need more than 16 bits a digit.

use ark_ff::{BigInteger, PrimeField};

use crate::plan::classes::ScalarStats;

/// One signed digit as stored.
pub(crate) type Digit = i32;

/// Bytes of one stored digit.
pub const DIGIT_BYTES: u64 = std::mem::size_of::<Digit>() as u64;

/// Largest window the planner and the executor take. Windows above [`PROFILED_WINDOW`] are
/// priced from the profile's top window (`profile::Weights::task_weights`).
pub const MAX_WINDOW: u32 = 20;

/// Largest window a cost profile measures (`calibrate`) and holds weights for.
pub const PROFILED_WINDOW: u32 = 16;

/// Window `c` applied to scalars below `modulus`: how many chunks and how large the top digit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Windowing {
    /// Window width c in bits.
    pub window: u32,
    /// Number of chunks K.
    pub chunks: usize,
    /// Largest digit the top chunk can hold (its bucket count).
    pub top_max: u32,
}

impl Windowing {
    /// The windowing of scalars modulo `modulus` (little-endian limbs) with window `c`
    /// (1 ≤ c ≤ [`MAX_WINDOW`]).
    pub fn new(modulus: &[u64], c: u32) -> Self {
        // r is an odd prime, so r - 1 only clears bit 0.
        let mut r_minus_1 = modulus.to_vec();
        r_minus_1[0] -= 1;
        Self::up_to(&r_minus_1, c)
    }

    /// The windowing of scalars below 2^`bits` (a scalar class: every scalar of it, after
    /// its signed normalisation, has at most `bits` bits) with window `c`.
    pub fn for_bits(bits: u32, c: u32) -> Self {
        let mut max = vec![u64::MAX; (bits as usize).div_ceil(64).max(1)];
        if !bits.is_multiple_of(64) {
            *max.last_mut().expect("one limb at least") = (1u64 << (bits % 64)) - 1;
        }
        if bits == 0 {
            max[0] = 0;
        }
        Self::up_to(&max, c)
    }

    /// The windowing of scalars at most `max` (little-endian limbs) with window `c`: a class
    /// whose bound is known more tightly than a bit count (GLV halves).
    pub fn for_max(max: &[u64], c: u32) -> Self {
        Self::up_to(max, c)
    }

    /// The windowing of scalars at most `max` (little-endian limbs) with window `c`.
    fn up_to(max: &[u64], c: u32) -> Self {
        debug_assert!((1..=MAX_WINDOW).contains(&c));
        let limit = if c <= PROFILED_WINDOW {
            (1u64 << (c - 1)).min(i16::MAX as u64)
        } else {
            1u64 << (c - 1)
        };
        let mut chunks = 1usize;
        loop {
            let shift = c as usize * (chunks - 1);
            if let Some(top) = shr_small(max, shift) {
                if top < limit {
                    return Windowing {
                        window: c,
                        chunks,
                        top_max: (top + 1) as u32,
                    };
                }
            }
            chunks += 1;
        }
    }

    /// Number of buckets chunk `j` needs: 2^(c-1), or the top digit bound for the top chunk.
    pub fn buckets(&self, chunk: usize) -> usize {
        if chunk + 1 == self.chunks {
            self.top_max as usize
        } else {
            1usize << (self.window - 1)
        }
    }
}

/// `value >> shift` if it fits a u64, else `None`.
fn shr_small(limbs: &[u64], shift: usize) -> Option<u64> {
    let (word, bit) = (shift / 64, shift % 64);
    if word >= limbs.len() {
        return Some(0);
    }
    if limbs[word + 1..].iter().skip(1).any(|&l| l != 0) {
        return None;
    }
    let lo = limbs[word] >> bit;
    let hi = limbs.get(word + 1).copied().unwrap_or(0);
    if bit == 0 {
        return if hi == 0 { Some(lo) } else { None };
    }
    if hi >> bit != 0 {
        return None;
    }
    Some(lo | (hi << (64 - bit)))
}

/// The signed digits of n scalars for one windowing, chunk-major.
#[derive(Clone, Debug)]
pub(crate) struct Digits {
    n: usize,
    data: Vec<Digit>,
}

impl Digits {
    /// Zero-filled storage for n scalars.
    pub(crate) fn zeroed(windowing: Windowing, n: usize) -> Self {
        Digits {
            n,
            data: vec![0; n * windowing.chunks],
        }
    }

    /// All n digits of chunk `j`.
    pub(crate) fn chunk(&self, j: usize) -> &[Digit] {
        &self.data[j * self.n..(j + 1) * self.n]
    }

    /// Splits the storage into per-range writers: for each range in `ranges` (consecutive,
    /// covering 0..n), one list of K mutable slices, one per chunk.
    pub(crate) fn writers(&mut self, bounds: &[usize]) -> Vec<Vec<&mut [Digit]>> {
        let parts = bounds.len().saturating_sub(1);
        let mut out: Vec<Vec<&mut [Digit]>> = (0..parts).map(|_| Vec::new()).collect();
        if self.n == 0 {
            return out;
        }
        for chunk in self.data.chunks_mut(self.n) {
            let mut rest = chunk;
            for (p, w) in bounds.windows(2).enumerate() {
                let (head, tail) = rest.split_at_mut(w[1] - w[0]);
                out[p].push(head);
                rest = tail;
            }
        }
        out
    }
}

/// Writes the digits of `scalars` into `out`, one slice per chunk, each as long as `scalars`.
pub(crate) fn decompose_into<F: PrimeField>(
    scalars: &[F],
    windowing: Windowing,
    out: &mut [&mut [Digit]],
) {
    decompose_by(scalars, |_, s| (s.into_bigint(), false), windowing, out)
}

/// The digits of the scalars whose class code `holds` takes, the others left zero: `ints`
/// holds each scalar's integer in the shorter form (`ints.len() / codes.len()` limbs per
/// code), and a code marked [`crate::classes::NEGATED`] (its integer is r − s) gets the
/// digits of r − s, negated (Σ −d_j·2^(cj) = −(r − s) = s mod r), so the class runs over the
/// points in place, none copied or negated.
pub(crate) fn decompose_coded_into(
    codes: &[u8],
    ints: &[u64],
    holds: impl Fn(u8) -> bool,
    windowing: Windowing,
    out: &mut [&mut [Digit]],
) {
    let negated = crate::classes::NEGATED;
    let limbs = ints.len() / codes.len().max(1);
    let none: &[u64] = &[];
    decompose_by(
        codes,
        |i, &code| {
            if !holds(code) {
                (none, false)
            } else {
                (&ints[i * limbs..(i + 1) * limbs], code & negated != 0)
            }
        },
        windowing,
        out,
    )
}

/// [`decompose_into`] that also counts the scalars' classes (the one-MSM path: uniform
/// scalars are classified in the digit pass, at the price of a subtraction each).
pub(crate) fn decompose_counting_into<F: PrimeField>(
    scalars: &[F],
    windowing: Windowing,
    out: &mut [&mut [Digit]],
) -> ScalarStats {
    let mut stats = ScalarStats::default();
    decompose_by(
        scalars,
        |_, s| {
            let big = s.into_bigint();
            stats.count(crate::classes::classify_big::<F>(&big));
            (big, false)
        },
        windowing,
        out,
    );
    stats
}

/// [`decompose_into`] for scalars already out of the Montgomery form (each below the bound
/// `windowing` was made for).
pub(crate) fn decompose_bigints_into<B: BigInteger>(
    scalars: &[B],
    windowing: Windowing,
    out: &mut [&mut [Digit]],
) {
    decompose_by(scalars, |_, b| (*b, false), windowing, out)
}

/// [`decompose_bigints_into`] for signed integers (negative, |s|), each |s| below the bound
/// `windowing` was made for: a negative one gets the digits of |s|, negated.
pub(crate) fn decompose_signed_into<B: BigInteger>(
    scalars: &[(bool, B)],
    windowing: Windowing,
    out: &mut [&mut [Digit]],
) {
    decompose_by(scalars, |_, &(negative, b)| (b, negative), windowing, out)
}

/// The digit loop over scalars whose limbs `limbs_of(i, s)` gives, with whether to store
/// their digits negated. `out` starts zeroed, so a zero scalar writes nothing.
#[inline(always)]
fn decompose_by<S, B: AsRef<[u64]>>(
    scalars: &[S],
    mut limbs_of: impl FnMut(usize, &S) -> (B, bool),
    windowing: Windowing,
    out: &mut [&mut [Digit]],
) {
    let c = windowing.window;
    let k = windowing.chunks;
    let half = 1i32 << (c - 1);
    let full = 1i32 << c;
    let mask = (1u64 << c) - 1;
    for (i, s) in scalars.iter().enumerate() {
        let (big, negate) = limbs_of(i, s);
        let limbs = big.as_ref();
        if limbs.iter().all(|&l| l == 0) {
            continue;
        }
        // Digits to be negated round half down, into [-2^(c-1) + 1, 2^(c-1)], so that their
        // negatives keep the range.
        let round = half + negate as i32;
        let mut carry = 0i32;
        for (j, dst) in out.iter_mut().enumerate().take(k) {
            let mut d = window_bits(limbs, j * c as usize, mask) as i32 + carry;
            carry = 0;
            if d >= round && j + 1 < k {
                d -= full;
                carry = 1;
            }
            dst[i] = if negate { -d } else { d };
        }
    }
}

/// Bits [bit, bit + c) of a little-endian limb array, masked by `mask` = 2^c - 1.
#[inline(always)]
fn window_bits(limbs: &[u64], bit: usize, mask: u64) -> u64 {
    let (word, off) = (bit / 64, bit % 64);
    if word >= limbs.len() {
        return 0;
    }
    let mut w = limbs[word] >> off;
    if off != 0 && word + 1 < limbs.len() {
        w |= limbs[word + 1] << (64 - off);
    }
    w & mask
}

/// The scalar a digit vector stands for, Σ d_j·2^(cj) mod r: the inverse of
/// [`decompose_into`], for tests.
#[cfg(test)]
pub(crate) fn recompose<F: PrimeField>(digits: &[Digit], c: u32) -> F {
    let base = F::from(2u64).pow([c as u64]);
    let mut acc = F::zero();
    for &d in digits.iter().rev() {
        acc *= base;
        if d >= 0 {
            acc += F::from(d as u64);
        } else {
            acc -= F::from((-d) as u64);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digits_of<F: PrimeField>(s: F, w: Windowing) -> Vec<Digit> {
        let mut store = vec![vec![0; 1]; w.chunks];
        let mut out: Vec<&mut [Digit]> = store.iter_mut().map(|v| v.as_mut_slice()).collect();
        decompose_into(&[s], w, &mut out);
        store.into_iter().map(|v| v[0]).collect()
    }

    fn check_field<F: PrimeField>() {
        let modulus = F::MODULUS;
        let mut rng = ark_std::test_rng();
        let mut samples = vec![F::zero(), F::one(), -F::one(), F::from(2u64).pow([100])];
        samples.extend((0..40).map(|_| F::rand(&mut rng)));
        for c in 1..=MAX_WINDOW {
            let w = Windowing::new(modulus.as_ref(), c);
            assert!(w.top_max as u64 <= 1 << (c - 1));
            if c <= PROFILED_WINDOW {
                assert!(w.top_max <= i16::MAX as u32);
            }
            assert!(w.chunks as u32 * c >= F::MODULUS_BIT_SIZE);
            for &s in &samples {
                let d = digits_of(s, w);
                let half = 1i32 << (c - 1);
                for (j, &x) in d.iter().enumerate() {
                    if j + 1 < w.chunks {
                        assert!((-half..half).contains(&x), "c={c} j={j} d={x}");
                    } else {
                        assert!((0..=w.top_max as i32).contains(&x));
                    }
                }
                assert_eq!(recompose::<F>(&d, c), s, "c={c}");
            }
        }
        assert!(modulus.num_bits() > 0);
    }

    #[test]
    fn digits_recompose_to_the_scalar_for_every_window() {
        check_field::<ark_bn254::Fr>();
        check_field::<ark_bls12_381::Fr>();
        check_field::<ark_secp256k1::Fr>();
        check_field::<ark_bw6_761::Fr>();
    }

    #[test]
    fn coded_digits_of_r_minus_s_are_negated_and_in_range() {
        fn check<F: PrimeField>() {
            let half_pattern = F::from(0x8000_8000_8000_8000u64);
            let mut smalls: Vec<F> = vec![F::one(), F::from(u64::MAX), half_pattern];
            smalls.extend((1..64).map(|k| F::from(1u64 << k)));
            smalls.extend((1..64).map(|k| F::from((1u64 << k) - 1)));
            // Every small one as s and as r − s, plus one the codes leave out.
            let mut scalars: Vec<F> = smalls.iter().flat_map(|&s| [s, -s]).collect();
            scalars.push(F::from(u128::MAX));
            // The codes and shorter-form integers of the classification pass.
            let limbs = F::BigInt::default().as_ref().len();
            let mut ints = vec![0u64; scalars.len() * limbs];
            let codes: Vec<u8> = scalars
                .iter()
                .zip(ints.chunks_exact_mut(limbs))
                .map(|(s, int)| crate::classes::classify_into(s, &-F::ONE, int))
                .collect();
            // A size class keeps s, or r − s where its code says so.
            for ((&code, s), int) in codes.iter().zip(&scalars).zip(ints.chunks_exact(limbs)) {
                if (code & !crate::classes::NEGATED) < 2 {
                    assert!(int.iter().all(|&l| l == 0));
                    continue;
                }
                let mut big = F::BigInt::default();
                big.as_mut().copy_from_slice(int);
                let kept = F::from_bigint(big).unwrap();
                let negated = code & crate::classes::NEGATED != 0;
                assert_eq!(kept, if negated { -*s } else { *s });
            }
            // Size classes only (zero and ±1 never take digits, nor keep integers).
            let in_class =
                |code: u8| (2..=5).contains(&((code & !crate::classes::NEGATED) as usize));
            for c in 1..=MAX_WINDOW {
                let w = Windowing::for_bits(64, c);
                let mut store = vec![vec![0; scalars.len()]; w.chunks];
                let mut out: Vec<&mut [Digit]> =
                    store.iter_mut().map(|v| v.as_mut_slice()).collect();
                decompose_coded_into(&codes, &ints, in_class, w, &mut out);
                let half = 1i32 << (c - 1);
                for (i, &s) in scalars.iter().enumerate() {
                    let d: Vec<Digit> = store.iter().map(|v| v[i]).collect();
                    if !in_class(codes[i]) {
                        assert!(d.iter().all(|&x| x == 0));
                        continue;
                    }
                    for (j, &x) in d.iter().enumerate() {
                        if j + 1 < w.chunks {
                            assert!((-half..half).contains(&x), "c={c} j={j} d={x}");
                        } else {
                            assert!(x.unsigned_abs() <= w.top_max, "c={c} top {x}");
                        }
                    }
                    assert_eq!(recompose::<F>(&d, c), s, "c={c} i={i}");
                }
            }
        }
        check::<ark_bn254::Fr>();
        check::<ark_bls12_381::Fr>();
    }

    #[test]
    fn chunk_counts_follow_the_top_window() {
        let k = |m: &[u64], c| Windowing::new(m, c).chunks;
        let bn = ark_bn254::Fr::MODULUS;
        let bls = ark_bls12_381::Fr::MODULUS;
        let secp = ark_secp256k1::Fr::MODULUS;
        assert_eq!(k(bn.as_ref(), 16), 16);
        assert_eq!(k(bls.as_ref(), 16), 16);
        // r's top 16 bits are all ones: the top carry needs a chunk of its own.
        assert_eq!(k(secp.as_ref(), 16), 17);
        assert_eq!(Windowing::new(secp.as_ref(), 16).top_max, 1);
        // BLS12-381 at c = 5: 255 = 51·5 but r's top window is 28 > 16.
        assert_eq!(k(bls.as_ref(), 5), 52);
        assert_eq!(k(bn.as_ref(), 1), 255);
    }
}
