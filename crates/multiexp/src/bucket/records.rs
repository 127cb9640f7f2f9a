//! The IFMA backend of the batch-affine scheduler: points as records of 52-bit limbs, eight
//! additions per vector step on a lane backend (`crate::ifma`), and the conversion of points
//! into records.
//!
//! A record is 2L u64: x then y, each as L limbs of 52 bits in the Montgomery domain; bit 63
//! of x's limb 0 marks the point at infinity (input records only). A batch of B additions
//! dst += ±src runs in ceil(B/8) vector steps: gather both operands, form dx and dy, chain
//! prefix products of dx per lane, invert the eight lane products with one scalar inversion
//! (`Field52x8::invert_lanes`), then walk back computing λ = dy/dx, x = λ² - x_dst - x_src,
//! y = λ(x_dst - x) - y_dst and scatter them. An addition with equal x is left out of its
//! batch and reported.
//!
//! Costs per addition: 6 lane multiplications (1/8 of a vector product each), 7 lane
//! additions, 4L gathers and 2L scatters per eight, and one scalar inversion per batch.
//! Converting a point costs two lane products (1/8 of a vector product each) and its
//! canonical integers.

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{Field, PrimeField};

use super::batch_affine::{AffineBackend, Exceptional, Staged};
use super::lines::LineVec;
use crate::ifma::{on_engine, Engine, Field52, Lane8, LaneBackend};
use crate::inverse::PrimeInverter;

/// Flag in limb 0 of a prepared point's x marking the point at infinity.
const INFINITY: u64 = 1 << 63;

type Prime<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;

/// Points converted once per MSM for the IFMA processor: 2L u64 per point.
#[derive(Clone, Debug, Default)]
pub(crate) struct Records {
    /// Limbs per coordinate (L).
    pub limbs: usize,
    /// The records, point by point.
    pub data: Vec<u64>,
}

/// The records of one task's point range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RecordSlice<'a> {
    /// Limbs per coordinate (L).
    pub limbs: usize,
    /// 2L u64 per point of the range.
    pub data: &'a [u64],
}

impl Records {
    /// The records of points `start..end`.
    pub(crate) fn range(&self, start: usize, end: usize) -> RecordSlice<'_> {
        self.slice().range(start, end)
    }

    /// All of them.
    pub(crate) fn slice(&self) -> RecordSlice<'_> {
        RecordSlice {
            limbs: self.limbs,
            data: &self.data,
        }
    }
}

impl<'a> RecordSlice<'a> {
    /// The records of points `start..end` of this slice.
    pub(crate) fn range(&self, start: usize, end: usize) -> RecordSlice<'a> {
        let rec = 2 * self.limbs;
        RecordSlice {
            limbs: self.limbs,
            data: &self.data[rec * start..rec * end],
        }
    }

    /// The number of points.
    pub(crate) fn len(&self) -> usize {
        self.data.len() / (2 * self.limbs).max(1)
    }
}

/// Converts `points` into records in `out` (2·`limbs` u64 each, `limbs` =
/// [`crate::ifma::limbs_of`] of `P`'s base field), eight at a time on `engine`, on the calling
/// thread; the executor runs ranges of it in parallel. Writes nothing for a field the IFMA
/// algorithms do not apply to.
///
/// Each coordinate is one lane product from arkworks' own limbs (its Montgomery form, read
/// where [`crate::curves::montgomery_limbs`] can) by R²/2^(64·N), instead of leaving the
/// Montgomery form first (`into_bigint`, a scalar reduction) and multiplying by R²; and the
/// points are hinted [`CONVERT_AHEAD`] groups ahead: before both, half of the conversion's
/// samples sat on the first load of each point (`perf`, BN254 2^20). Measured with
/// `examples/task_times` (Granite Rapids class Xeon, 2 workers, BN254 u8 class plan): the
/// records of 2^16 points 2.77 → 0.83 ms, of 2^20 points 67 → 24 ms.
pub(crate) fn convert_records<P: SWCurveConfig>(
    engine: Engine,
    points: &[Affine<P>],
    limbs: usize,
    out: &mut [u64],
) {
    let out = &mut out[..2 * limbs * points.len()];
    macro_rules! run {
        ($l:literal) => {
            if let Some(field) = Field52::<$l>::of::<Prime<P>>() {
                on_engine!(engine, |b| convert::<P, _, $l>(b, &field, points, out));
            }
        };
    }
    match limbs {
        5 => run!(5),
        7 => run!(7),
        8 => run!(8),
        _ => {}
    }
}

/// The arkworks points of `records` (the inverse of [`convert_records`]), on the calling
/// thread; empty for a limb count the IFMA algorithms do not use.
pub(crate) fn decode_records<P: SWCurveConfig>(
    engine: Engine,
    records: RecordSlice<'_>,
) -> Vec<Affine<P>> {
    fn decode<P: SWCurveConfig, const L: usize>(
        engine: Engine,
        records: RecordSlice<'_>,
    ) -> Vec<Affine<P>> {
        let Some(backend) = RecordAffine::<P, L>::new(engine) else {
            return Vec::new();
        };
        (0..records.len())
            .map(|i| match backend.input_xy(records.data, i) {
                Some((x, y)) => Affine::new_unchecked(x, y),
                None => Affine::identity(),
            })
            .collect()
    }
    match records.limbs {
        5 => decode::<P, 5>(engine, records),
        7 => decode::<P, 7>(engine, records),
        8 => decode::<P, 8>(engine, records),
        _ => Vec::new(),
    }
}

/// How many groups of 8 points ahead [`convert`] hints the points it reads (4 took the
/// records of 2^20 BN254 points from 67 to 46 ms, 8 to 44 ms: a point's iteration is short).
const CONVERT_AHEAD: usize = 8;

#[inline(always)]
fn convert<P: SWCurveConfig, B: LaneBackend, const L: usize>(
    backend: B,
    field: &Field52<L>,
    points: &[Affine<P>],
    out: &mut [u64],
) {
    let f = field.broadcast(backend);
    // From arkworks' Montgomery limbs where they are readable (one product), else from the
    // canonical integer.
    let one = <P::BaseField as Field>::BasePrimeField::ONE;
    let from_montgomery = crate::curves::montgomery_limbs(&one).is_some();
    let factor = f.splat(if from_montgomery {
        &field.from_montgomery64
    } else {
        &field.r2
    });
    for (i, (chunk, dst)) in points.chunks(8).zip(out.chunks_mut(16 * L)).enumerate() {
        if let Some(ahead) = points.get(8 * (i + CONVERT_AHEAD)..) {
            super::prefetch::prefetch_slice(&ahead[..ahead.len().min(8)]);
        }
        let mut xs = [[0u64; L]; 8];
        let mut ys = [[0u64; L]; 8];
        let mut infinity = [false; 8];
        for (k, p) in chunk.iter().enumerate() {
            match p.xy() {
                Some((x, y)) => {
                    let limbs = |v: P::BaseField| {
                        let b = v.to_base_prime_field_elements().next().unwrap_or_default();
                        match crate::curves::montgomery_limbs(&b) {
                            Some(m) => crate::ifma::to_radix52::<L>(m),
                            None => crate::ifma::to_radix52::<L>(b.into_bigint().as_ref()),
                        }
                    };
                    xs[k] = limbs(x);
                    ys[k] = limbs(y);
                }
                None => infinity[k] = true,
            }
        }
        let x = f.extract(&f.mul(&f.assemble(&xs), &factor));
        let y = f.extract(&f.mul(&f.assemble(&ys), &factor));
        for k in 0..chunk.len() {
            let rec = &mut dst[2 * L * k..2 * L * (k + 1)];
            rec[..L].copy_from_slice(&x[k]);
            rec[L..].copy_from_slice(&y[k]);
            if infinity[k] {
                rec[0] |= INFINITY;
            }
        }
    }
}

/// Vectors of one batch run, spilled between its forward and backward passes.
#[derive(Default)]
struct Scratch<const L: usize> {
    dx: Vec<[Lane8; L]>,
    dy: Vec<[Lane8; L]>,
    xd: Vec<[Lane8; L]>,
    yd: Vec<[Lane8; L]>,
    xs: Vec<[Lane8; L]>,
    prefix: Vec<[Lane8; L]>,
    index: Vec<(Lane8, u8)>,
}

impl<const L: usize> Scratch<L> {
    fn clear(&mut self) {
        self.dx.clear();
        self.dy.clear();
        self.xd.clear();
        self.yd.clear();
        self.xs.clear();
        self.prefix.clear();
        self.index.clear();
    }
}

/// Affine points as records of L limbs over `P`'s base prime field, added on an engine.
pub(crate) struct RecordAffine<P: SWCurveConfig, const L: usize> {
    engine: Engine,
    field: Field52<L>,
    inverter: PrimeInverter<Prime<P>>,
    /// 1 in the Montgomery domain.
    one: [u64; L],
    scratch: Scratch<L>,
}

impl<P: SWCurveConfig, const L: usize> RecordAffine<P, L> {
    /// The backend for `P` on `engine`, or `None` if its base field is not a prime field of
    /// L limbs.
    pub(crate) fn new(engine: Engine) -> Option<Self> {
        if crate::ifma::limbs_of::<P::BaseField>() != Some(L) {
            return None;
        }
        let field = Field52::<L>::of::<Prime<P>>()?;
        let one = field.encode(&Prime::<P>::ONE);
        Some(RecordAffine {
            engine,
            field,
            inverter: PrimeInverter::new(),
            one,
            scratch: Scratch::default(),
        })
    }

    /// The field constants.
    pub(crate) fn field(&self) -> &Field52<L> {
        &self.field
    }

    fn add(
        &mut self,
        dst: &mut [u64],
        src: &[u64],
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        exceptional.clear();
        if staged.is_empty() {
            return;
        }
        let (field, inverter, one) = (&self.field, &self.inverter, &self.one);
        let scratch = &mut self.scratch;
        on_engine!(self.engine, |b| add_batch(
            b,
            field,
            inverter,
            one,
            scratch,
            dst,
            src,
            staged,
            exceptional
        ));
    }

    /// An arkworks coordinate from its record limbs.
    fn decode(&self, limbs: &[u64]) -> P::BaseField {
        let mut a = [0u64; L];
        a.copy_from_slice(&limbs[..L]);
        P::BaseField::from_base_prime_field(self.field.decode::<Prime<P>>(&a))
    }

    fn encode(&self, v: &P::BaseField) -> [u64; L] {
        let prime = v.to_base_prime_field_elements().next().unwrap_or_default();
        self.field.encode(&prime)
    }
}

/// p - y for a reduced y (0 stays 0).
fn neg_scalar<const L: usize>(p: &[u64; L], y: &[u64]) -> [u64; L] {
    let mut out = [0u64; L];
    if y[..L].iter().all(|&l| l == 0) {
        return out;
    }
    let mut borrow = 0i64;
    for i in 0..L {
        let d = p[i] as i64 - y[i] as i64 + borrow;
        borrow = d >> 52;
        out[i] = (d as u64) & ((1 << 52) - 1);
    }
    out
}

impl<P: SWCurveConfig, const L: usize> AffineBackend<P> for RecordAffine<P, L> {
    type Input<'a> = &'a [u64];
    type Array = LineVec<u64>;

    fn reserve(&self, array: &mut LineVec<u64>, len: usize) {
        array.grow(2 * L * len, 0);
    }

    #[inline(always)]
    fn is_infinity(&self, input: &[u64], i: usize) -> bool {
        input[2 * L * i] & INFINITY != 0
    }

    #[inline(always)]
    fn prefetch_input(&self, input: &[u64], i: usize) {
        if let Some(rec) = input.get(2 * L * i..2 * L * (i + 1)) {
            super::prefetch::prefetch_slice(rec);
        }
    }

    fn input_xy(&self, input: &[u64], i: usize) -> Option<(P::BaseField, P::BaseField)> {
        if self.is_infinity(input, i) {
            return None;
        }
        let rec = &input[2 * L * i..2 * L * (i + 1)];
        Some((self.decode(&rec[..L]), self.decode(&rec[L..])))
    }

    #[inline(always)]
    fn load(&self, array: &mut LineVec<u64>, b: usize, input: &[u64], i: usize, negate: bool) {
        let rec = &input[2 * L * i..2 * L * (i + 1)];
        let dst = &mut array[2 * L * b..2 * L * (b + 1)];
        dst[..L].copy_from_slice(&rec[..L]);
        if negate {
            dst[L..].copy_from_slice(&neg_scalar(&self.field.p, &rec[L..]));
        } else {
            dst[L..].copy_from_slice(&rec[L..]);
        }
    }

    #[inline(always)]
    fn copy(&self, dst: &mut LineVec<u64>, d: usize, src: &LineVec<u64>, s: usize) {
        dst[2 * L * d..2 * L * (d + 1)].copy_from_slice(&src[2 * L * s..2 * L * (s + 1)]);
    }

    fn get(&self, array: &LineVec<u64>, b: usize) -> (P::BaseField, P::BaseField) {
        let rec = &array[2 * L * b..2 * L * (b + 1)];
        (self.decode(&rec[..L]), self.decode(&rec[L..]))
    }

    fn set(&self, array: &mut LineVec<u64>, b: usize, x: &P::BaseField, y: &P::BaseField) {
        let rec = &mut array[2 * L * b..2 * L * (b + 1)];
        rec[..L].copy_from_slice(&self.encode(x));
        rec[L..].copy_from_slice(&self.encode(y));
    }

    fn add_input(
        &mut self,
        dst: &mut LineVec<u64>,
        input: &[u64],
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        self.add(dst, input, staged, exceptional);
    }

    fn add_array(
        &mut self,
        dst: &mut LineVec<u64>,
        src: &LineVec<u64>,
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        self.add(dst, src, staged, exceptional);
    }
}

/// The batch kernel: `dst[e.dst] += ±src[e.src]` for every staged e (see the module), equal x
/// left out and listed in `exceptional` (empty on entry).
// One kernel, its operands named as in the module's formulas.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn add_batch<B: LaneBackend, F: PrimeField, const L: usize>(
    backend: B,
    field: &Field52<L>,
    inverter: &PrimeInverter<F>,
    one: &[u64; L],
    s: &mut Scratch<L>,
    dst: &mut [u64],
    src: &[u64],
    staged: &[Staged],
    exceptional: &mut Vec<Exceptional>,
) {
    let f = field.broadcast(backend);
    let one = f.splat(one);
    let len = staged.len();
    let steps = len.div_ceil(8);
    s.clear();
    let rec = 2 * L;
    let (dst_records, src_records) = (dst.len() / rec, src.len() / rec);
    for step in 0..steps {
        let base = step * 8;
        // The destinations two steps ahead (see `prefetch.rs`).
        for e in staged.iter().skip(base + 16).take(8) {
            let at = e.dst as usize * rec;
            if let Some(record) = dst.get(at..at + rec) {
                super::prefetch::prefetch_slice(record);
            }
        }
        let mut di = Lane8::default();
        let mut si = Lane8::default();
        let mut neg = 0u8;
        let mut valid = 0u8;
        for k in 0..8 {
            if let Some(e) = staged.get(base + k) {
                assert!(
                    (e.dst as usize) < dst_records && (e.src as usize) < src_records,
                    "staged addition outside its record arrays"
                );
                di.0[k] = (e.dst as usize * rec) as u64;
                si.0[k] = (e.src as usize * rec) as u64;
                neg |= (e.negate as u8) << k;
                valid |= 1 << k;
            }
        }
        let (dv, sv) = (backend.load(&di.0), backend.load(&si.0));
        // SAFETY: every lane indexes a whole record of its array: the valid lanes by the
        // assert, the others record 0, which exists since lane 0 of every step is valid.
        let (xd, yd, xs, ys) = unsafe {
            (
                f.gather(dst, dv, 0),
                f.gather(dst, dv, L),
                f.gather(src, sv, 0),
                f.gather(src, sv, L),
            )
        };
        let ys = f.neg_where(&ys, neg);
        let dx = f.sub(&xs, &xd);
        let dy = f.sub(&ys, &yd);
        let equal_x = f.zero_lanes(&dx) & valid;
        if equal_x != 0 {
            let equal_y = f.zero_lanes(&dy);
            for k in 0..8 {
                if equal_x >> k & 1 == 1 {
                    let doubling = equal_y >> k & 1 == 1;
                    exceptional.push(Exceptional {
                        index: base + k,
                        doubling,
                    });
                }
            }
            valid &= !equal_x;
        }
        let dx = f.select(valid, &dx, &one);
        let prefix = match s.prefix.last() {
            Some(p) => f.mul(&f.reload(p), &dx),
            None => dx,
        };
        s.dx.push(f.spill(&dx));
        s.dy.push(f.spill(&dy));
        s.xd.push(f.spill(&xd));
        s.yd.push(f.spill(&yd));
        s.xs.push(f.spill(&xs));
        s.prefix.push(f.spill(&prefix));
        s.index.push((di, valid));
    }
    // Invert the eight lane products with one scalar inversion.
    let mut inv = f.invert_lanes(&f.reload(&s.prefix[steps - 1]), &one, |total| {
        // The plain inverse of the raw value aR is a⁻¹R⁻¹; times R³ (Montgomery) is a⁻¹R.
        let mut canonical = [0u64; 16];
        let limbs = &mut canonical[..field.limbs64()];
        crate::ifma::from_radix52(total, limbs);
        inverter.invert_canonical(limbs);
        field.mul_scalar(&crate::ifma::to_radix52::<L>(limbs), &field.r3)
    });
    for step in (0..steps).rev() {
        let inv_step = if step == 0 {
            inv
        } else {
            f.mul(&inv, &f.reload(&s.prefix[step - 1]))
        };
        inv = f.mul(&inv, &f.reload(&s.dx[step]));
        let lambda = f.mul(&f.reload(&s.dy[step]), &inv_step);
        let xd = f.reload(&s.xd[step]);
        let x3 = f.sub(&f.sub(&f.square(&lambda), &xd), &f.reload(&s.xs[step]));
        let y3 = f.sub(&f.mul(&lambda, &f.sub(&xd, &x3)), &f.reload(&s.yd[step]));
        let (di, valid) = s.index[step];
        let dv = backend.load(&di.0);
        // SAFETY: the valid lanes index whole records of `dst` (asserted above).
        unsafe {
            f.scatter(dst, dv, 0, valid, &x3);
            f.scatter(dst, dv, L, valid, &y3);
        }
    }
}
