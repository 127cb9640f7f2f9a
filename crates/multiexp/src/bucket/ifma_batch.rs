//! Batch-affine buckets on AVX-512 IFMA: the processor of `batch_affine.rs` with its field
//! arithmetic done eight additions at a time (see `crate::ifma`), and its bucket reduction
//! done in affine lanes the same way.
//!
//! Points and buckets are records of 2L u64: x then y, each as L limbs of 52 bits in the
//! Montgomery domain. A batch of B additions dst += ±src runs in ceil(B/8) vector steps:
//! gather both operands, form dx and dy, chain prefix products of dx per lane, invert the
//! eight lane products with one scalar inversion, then walk back computing
//! λ = dy/dx, x = λ² - x_dst - x_src, y = λ(x_dst - x) - y_dst and scatter them. An addition
//! with equal x (a doubling or a cancellation) is taken out of its batch and handled by the
//! caller.
//!
//! Costs per addition: 6 lane multiplications (1/8 of a vector product each), 7 lane
//! additions, 4L gathers and 2L scatters per eight, and one scalar inversion per batch.
//!
//! The state holds an [`Avx512Ifma`] token, which only exists on a CPU with the features:
//! that is what makes the `#[target_feature]` functions here sound to call.

use core::arch::x86_64::__m512i;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{Field, PrimeField};

use crate::bucket::batch_affine::Overflow;
use crate::bucket::lanes::lane_count;
use crate::ifma::{Avx512Ifma, Fe, Field52, LaneBackend};
use crate::inverse::PrimeInverter;
use crate::reduce::{add_multiple, running_sum_by};
use crate::xyzz::Xyzz;

/// Largest conflict queue, as a multiple of the batch size.
const QUEUE_FACTOR: usize = 2;

/// Flag in limb 0 of a prepared point's x marking the point at infinity.
const INFINITY: u64 = 1 << 63;

type Base<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;

/// One staged addition dst[dst] += ±src[src].
#[derive(Clone, Copy, Debug)]
struct Staged {
    dst: u32,
    src: u32,
    negate: bool,
}

/// Scratch space of one batch run.
struct Scratch<const L: usize> {
    dx: Vec<Fe<Avx512Ifma, L>>,
    dy: Vec<Fe<Avx512Ifma, L>>,
    xd: Vec<Fe<Avx512Ifma, L>>,
    yd: Vec<Fe<Avx512Ifma, L>>,
    xs: Vec<Fe<Avx512Ifma, L>>,
    prefix: Vec<Fe<Avx512Ifma, L>>,
    index: Vec<(__m512i, u8)>,
}

impl<const L: usize> Default for Scratch<L> {
    fn default() -> Self {
        Scratch {
            dx: Vec::new(),
            dy: Vec::new(),
            xd: Vec::new(),
            yd: Vec::new(),
            xs: Vec::new(),
            prefix: Vec::new(),
            index: Vec::new(),
        }
    }
}

/// Field constants and scratch for batched affine additions of records over the prime
/// field `F`.
struct Adder<F: PrimeField, const L: usize> {
    token: Avx512Ifma,
    field: Field52<L>,
    inverter: PrimeInverter<F>,
    one: [u64; L],
    scratch: Scratch<L>,
}

impl<F: PrimeField, const L: usize> Adder<F, L> {
    fn new(field: Field52<L>, token: Avx512Ifma) -> Self {
        let mut unit = [0u64; L];
        unit[0] = 1;
        let one = field.mul_scalar(&unit, &field.r2);
        Adder {
            token,
            field,
            inverter: PrimeInverter::new(),
            one,
            scratch: Scratch::default(),
        }
    }

    /// dst[e.dst] += ±src[e.src] for every staged e (distinct dst records), one shared
    /// inversion. Entries whose operands have equal x are not applied: they are appended to
    /// `exceptional` with whether the y coordinates (sign applied) are equal too.
    ///
    /// # Safety
    /// Every index must be a record of its array.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn batch_add(
        &mut self,
        dst: &mut [u64],
        src: &[u64],
        staged: &[Staged],
        exceptional: &mut Vec<(usize, bool)>,
    ) {
        let len = staged.len();
        if len == 0 {
            return;
        }
        let lanes = self.field.broadcast(self.token);
        let one = lanes.splat(&self.one);
        let steps = len.div_ceil(8);
        let s = &mut self.scratch;
        s.dx.clear();
        s.dy.clear();
        s.xd.clear();
        s.yd.clear();
        s.xs.clear();
        s.prefix.clear();
        s.index.clear();
        let rec = 2 * L as u64;
        for step in 0..steps {
            let base = step * 8;
            let mut di = [0u64; 8];
            let mut si = [0u64; 8];
            let mut neg = 0u8;
            let mut valid = 0u8;
            for k in 0..8 {
                if let Some(e) = staged.get(base + k) {
                    di[k] = e.dst as u64 * rec;
                    si[k] = e.src as u64 * rec;
                    neg |= (e.negate as u8) << k;
                    valid |= 1 << k;
                }
            }
            let (dv, sv) = (self.token.load(&di), self.token.load(&si));
            // SAFETY: the caller guarantees every record index is inside its array.
            let (xd, yd, xs, ys) = unsafe {
                (
                    lanes.gather(dst, dv, 0),
                    lanes.gather(dst, dv, L),
                    lanes.gather(src, sv, 0),
                    lanes.gather(src, sv, L),
                )
            };
            let ys = lanes.neg_where(&ys, neg);
            let dx = lanes.sub(&xs, &xd);
            let dy = lanes.sub(&ys, &yd);
            let equal_x = lanes.zero_lanes(&dx) & valid;
            if equal_x != 0 {
                let equal_y = lanes.zero_lanes(&dy);
                for k in 0..8 {
                    if equal_x >> k & 1 == 1 {
                        exceptional.push((base + k, equal_y >> k & 1 == 1));
                    }
                }
                valid &= !equal_x;
            }
            let dx = lanes.select(valid, &dx, &one);
            let prefix = match s.prefix.last() {
                Some(p) => lanes.mul(p, &dx),
                None => dx,
            };
            s.dx.push(dx);
            s.dy.push(dy);
            s.xd.push(xd);
            s.yd.push(yd);
            s.xs.push(xs);
            s.prefix.push(prefix);
            s.index.push((dv, valid));
        }
        // Invert the eight lane products with one scalar inversion.
        let field = &self.field;
        let inverter = &self.inverter;
        let mut inv = lanes.invert_lanes(&s.prefix[steps - 1], &one, |total| {
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
                lanes.mul(&inv, &s.prefix[step - 1])
            };
            inv = lanes.mul(&inv, &s.dx[step]);
            let lambda = lanes.mul(&s.dy[step], &inv_step);
            let x3 = lanes.sub(&lanes.sub(&lanes.square(&lambda), &s.xd[step]), &s.xs[step]);
            let y3 = lanes.sub(
                &lanes.mul(&lambda, &lanes.sub(&s.xd[step], &x3)),
                &s.yd[step],
            );
            let (dv, valid) = s.index[step];
            // SAFETY: valid lanes index distinct records of `dst` (the caller's contract).
            unsafe {
                lanes.scatter(dst, dv, 0, valid, &x3);
                lanes.scatter(dst, dv, L, valid, &y3);
            }
        }
    }
}

/// An arkworks coordinate from its record limbs.
fn decode<P: SWCurveConfig, const L: usize>(field: &Field52<L>, limbs: &[u64]) -> P::BaseField {
    let mut a = [0u64; L];
    a.copy_from_slice(&limbs[..L]);
    P::BaseField::from_base_prime_field(field.decode::<Base<P>>(&a))
}

/// The arkworks point of a record.
fn decode_point<P: SWCurveConfig, const L: usize>(field: &Field52<L>, rec: &[u64]) -> Affine<P> {
    Affine::new_unchecked(
        decode::<P, L>(field, &rec[..L]),
        decode::<P, L>(field, &rec[L..]),
    )
}

/// Writes an arkworks point (not the identity) into a record.
fn encode_point<P: SWCurveConfig, const L: usize>(
    field: &Field52<L>,
    p: &Affine<P>,
    rec: &mut [u64],
) {
    let (x, y) = p.xy().unwrap_or_default();
    let base = |v: P::BaseField| v.to_base_prime_field_elements().next().unwrap_or_default();
    rec[..L].copy_from_slice(&field.encode(&base(x)));
    rec[L..2 * L].copy_from_slice(&field.encode(&base(y)));
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

/// Converts `points` into records in `out` (2L u64 each), eight at a time.
pub fn prepare<P: SWCurveConfig, const L: usize>(
    token: Avx512Ifma,
    field: &Field52<L>,
    points: &[Affine<P>],
    out: &mut [u64],
) {
    token.run(|token| prepare_on(token, field, points, out))
}

#[inline(always)]
fn prepare_on<P: SWCurveConfig, const L: usize>(
    token: Avx512Ifma,
    field: &Field52<L>,
    points: &[Affine<P>],
    out: &mut [u64],
) {
    let lanes = field.broadcast(token);
    let r2 = lanes.splat(&field.r2);
    for (chunk, dst) in points.chunks(8).zip(out.chunks_mut(16 * L)) {
        let mut xs = [[0u64; L]; 8];
        let mut ys = [[0u64; L]; 8];
        let mut infinity = [false; 8];
        for (k, p) in chunk.iter().enumerate() {
            match p.xy() {
                Some((x, y)) => {
                    let canon = |v: P::BaseField| {
                        let b = v.to_base_prime_field_elements().next().unwrap_or_default();
                        crate::ifma::to_radix52::<L>(b.into_bigint().as_ref())
                    };
                    xs[k] = canon(x);
                    ys[k] = canon(y);
                }
                None => infinity[k] = true,
            }
        }
        let x = lanes.extract(&lanes.mul(&lanes.assemble(&xs), &r2));
        let y = lanes.extract(&lanes.mul(&lanes.assemble(&ys), &r2));
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

/// One worker's reusable IFMA batch-affine state for curve `P` with L-limb coordinates.
pub struct IfmaBatch<P: SWCurveConfig, const L: usize> {
    adder: Adder<Base<P>, L>,
    buckets: Vec<u64>,
    filled: Vec<bool>,
    count: usize,
    in_batch: Vec<bool>,
    overflow: Overflow<P>,
    /// Buckets of the current task.
    nb: usize,
    batch: Vec<Staged>,
    queue: Vec<Staged>,
    retry: Vec<Staged>,
    exceptional: Vec<(usize, bool)>,
    size: usize,
    running: Vec<u64>,
    total: Vec<u64>,
    running_zero: Vec<bool>,
    total_zero: Vec<bool>,
    staged: Vec<Staged>,
}

impl<P: SWCurveConfig, const L: usize> IfmaBatch<P, L> {
    /// The state for `P` on the CPU `token` stands for, or `None` if its base field is not a
    /// prime field of L limbs.
    pub fn new(token: Avx512Ifma) -> Option<Self> {
        if crate::ifma::limbs_of::<P::BaseField>() != Some(L) {
            return None;
        }
        let field = Field52::<L>::of::<Base<P>>()?;
        Some(IfmaBatch {
            adder: Adder::new(field, token),
            buckets: Vec::new(),
            filled: Vec::new(),
            count: 0,
            in_batch: Vec::new(),
            overflow: Overflow::default(),
            nb: 0,
            batch: Vec::new(),
            queue: Vec::new(),
            retry: Vec::new(),
            exceptional: Vec::new(),
            size: 1,
            running: Vec::new(),
            total: Vec::new(),
            running_zero: Vec::new(),
            total_zero: Vec::new(),
            staged: Vec::new(),
        })
    }

    /// The field constants.
    pub fn field(&self) -> &Field52<L> {
        &self.adder.field
    }

    /// Starts a task: `buckets` empty buckets, batches of up to `batch` additions.
    pub fn begin(&mut self, buckets: usize, batch: usize) {
        if self.in_batch.len() < buckets {
            self.buckets.resize(2 * L * buckets, 0);
            self.in_batch.resize(buckets, false);
        }
        self.overflow.reset(buckets);
        self.nb = buckets;
        self.filled.clear();
        self.filled.resize(buckets, false);
        self.count = 0;
        self.size = batch.min(buckets / 4).max(1);
        self.batch.clear();
        self.queue.clear();
    }

    /// Adds `points[i]` (whose record is `records[2L·i..]`) into bucket |d|-1, subtracting
    /// when d < 0, for each digit d = `digits[i]` ≠ 0. Every addition is settled before it
    /// returns, so the next call may pass another range of points.
    ///
    /// # Safety
    /// `records` holds 2L u64 per point of `points`.
    pub unsafe fn accumulate(&mut self, points: &[Affine<P>], records: &[u64], digits: &[i16]) {
        debug_assert!(records.len() >= 2 * L * points.len() && digits.len() <= points.len());
        for (i, &d) in digits.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let e = Staged {
                dst: (d.unsigned_abs() - 1) as u32,
                src: i as u32,
                negate: d < 0,
            };
            self.place(points, records, e);
            if self.batch.len() == self.size {
                // SAFETY: forwarded from the caller.
                unsafe { self.flush(points, records) };
            }
        }
        while !self.batch.is_empty() || !self.queue.is_empty() {
            // SAFETY: forwarded from the caller.
            unsafe { self.flush(points, records) };
        }
    }

    /// Ends the task: Σ_b (b+1)·bucket_b.
    pub fn finish(&mut self) -> Xyzz<P> {
        // SAFETY: the token proves the CPU features.
        unsafe { self.reduce(self.nb) }
    }

    #[inline(always)]
    fn place(&mut self, points: &[Affine<P>], records: &[u64], e: Staged) {
        let b = e.dst as usize;
        if self.in_batch[b] {
            if self.queue.len() < QUEUE_FACTOR * self.size {
                self.queue.push(e);
            } else {
                self.add_overflow(points, e);
            }
            return;
        }
        let rec = &records[2 * L * e.src as usize..2 * L * (e.src as usize + 1)];
        if rec[0] & INFINITY != 0 {
            return;
        }
        if !self.filled[b] {
            let dst = &mut self.buckets[2 * L * b..2 * L * (b + 1)];
            dst[..L].copy_from_slice(&rec[..L]);
            if e.negate {
                dst[L..].copy_from_slice(&neg_scalar(&self.adder.field.p, &rec[L..]));
            } else {
                dst[L..].copy_from_slice(&rec[L..]);
            }
            self.filled[b] = true;
            self.count += 1;
            return;
        }
        self.in_batch[b] = true;
        self.batch.push(e);
    }

    #[cold]
    fn add_overflow(&mut self, points: &[Affine<P>], e: Staged) {
        let b = e.dst as usize;
        let p = points[e.src as usize];
        if p.is_zero() {
            return;
        }
        let t = self.overflow.bucket(b);
        if e.negate {
            t.sub_affine(&p);
        } else {
            t.add_affine(&p);
        }
    }

    /// Runs the batch, settles its exceptional additions, then retries queued ones.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn flush(&mut self, points: &[Affine<P>], records: &[u64]) {
        if !self.batch.is_empty() {
            self.exceptional.clear();
            // SAFETY: bucket and point indices are inside their record arrays.
            unsafe {
                self.adder.batch_add(
                    &mut self.buckets,
                    records,
                    &self.batch,
                    &mut self.exceptional,
                )
            };
            for i in 0..self.exceptional.len() {
                let (k, same) = self.exceptional[i];
                let e = self.batch[k];
                if same {
                    // P + P: the doubling goes to the overflow bucket, the bucket keeps P.
                    self.add_overflow(points, e);
                } else {
                    // P + (-P).
                    self.filled[e.dst as usize] = false;
                    self.count -= 1;
                }
            }
            for e in &self.batch {
                self.in_batch[e.dst as usize] = false;
            }
            self.batch.clear();
        }
        if !self.queue.is_empty() {
            let mut retry = std::mem::take(&mut self.retry);
            std::mem::swap(&mut retry, &mut self.queue);
            for &e in &retry {
                if self.batch.len() == self.size {
                    self.queue.push(e);
                } else {
                    self.place(points, records, e);
                }
            }
            retry.clear();
            self.retry = retry;
        }
    }

    /// Folds the overflow into the affine buckets, then Σ_b (b+1)·bucket_b: affine IFMA
    /// lanes for dense buckets, the gap-aware XYZZ running sum for sparse ones.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn reduce(&mut self, buckets: usize) -> Xyzz<P> {
        self.fold_overflow();
        if self.count * 4 >= buckets && buckets >= 64 {
            // SAFETY: forwarded from the caller.
            return unsafe { self.reduce_lanes(buckets) };
        }
        let (field, filled, records) = (&self.adder.field, &self.filled, &self.buckets);
        running_sum_by(buckets, |b| {
            filled[b].then(|| {
                let p = decode_point::<P, L>(field, &records[2 * L * b..2 * L * (b + 1)]);
                (p.x, p.y)
            })
        })
    }

    fn fold_overflow(&mut self) {
        let field = &self.adder.field;
        for (b, mut t) in self.overflow.take() {
            let rec = &mut self.buckets[2 * L * b..2 * L * (b + 1)];
            if self.filled[b] {
                let p = decode_point::<P, L>(field, rec);
                t.add_xy(&p.x, &p.y);
                self.filled[b] = false;
                self.count -= 1;
            }
            let sum = t.into_projective().into_affine();
            if !sum.is_zero() {
                encode_point(field, &sum, rec);
                self.filled[b] = true;
                self.count += 1;
            }
        }
    }

    /// The lane reduction of `lanes.rs` on records: R_ℓ += B_{ℓs+j}, T_ℓ += R_ℓ in lockstep,
    /// each round one batch of IFMA additions.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn reduce_lanes(&mut self, n: usize) -> Xyzz<P> {
        let lanes = lane_count(n);
        let seg = n.div_ceil(lanes);
        let rec = 2 * L;
        self.running.clear();
        self.running.resize(rec * lanes, 0);
        self.total.clear();
        self.total.resize(rec * lanes, 0);
        self.running_zero.clear();
        self.running_zero.resize(lanes, true);
        self.total_zero.clear();
        self.total_zero.resize(lanes, true);
        for j in (0..seg).rev() {
            self.staged.clear();
            for l in 0..lanes {
                let b = l * seg + j;
                if b >= n || !self.filled[b] {
                    continue;
                }
                if self.running_zero[l] {
                    self.running[rec * l..rec * (l + 1)]
                        .copy_from_slice(&self.buckets[rec * b..rec * (b + 1)]);
                    self.running_zero[l] = false;
                } else {
                    self.staged.push(Staged {
                        dst: l as u32,
                        src: b as u32,
                        negate: false,
                    });
                }
            }
            self.exceptional.clear();
            // SAFETY: lane and bucket indices are inside their record arrays.
            unsafe {
                self.adder.batch_add(
                    &mut self.running,
                    &self.buckets,
                    &self.staged,
                    &mut self.exceptional,
                )
            };
            self.settle(true);
            self.staged.clear();
            for l in 0..lanes {
                if self.running_zero[l] {
                    continue;
                }
                if self.total_zero[l] {
                    self.total[rec * l..rec * (l + 1)]
                        .copy_from_slice(&self.running[rec * l..rec * (l + 1)]);
                    self.total_zero[l] = false;
                } else {
                    self.staged.push(Staged {
                        dst: l as u32,
                        src: l as u32,
                        negate: false,
                    });
                }
            }
            self.exceptional.clear();
            // SAFETY: lane indices are inside both record arrays.
            unsafe {
                self.adder.batch_add(
                    &mut self.total,
                    &self.running,
                    &self.staged,
                    &mut self.exceptional,
                )
            };
            self.settle(false);
        }
        // Σ_ℓ T_ℓ + s·Σ_ℓ ℓ·G_ℓ
        let field = &self.adder.field;
        let mut sum_t = Xyzz::<P>::ZERO;
        let mut running = Xyzz::<P>::ZERO;
        let mut weighted = Xyzz::<P>::ZERO;
        for l in (0..lanes).rev() {
            if !self.total_zero[l] {
                let p = decode_point::<P, L>(field, &self.total[rec * l..rec * (l + 1)]);
                sum_t.add_xy(&p.x, &p.y);
            }
            if l == 0 {
                break;
            }
            if !self.running_zero[l] {
                let p = decode_point::<P, L>(field, &self.running[rec * l..rec * (l + 1)]);
                running.add_xy(&p.x, &p.y);
            }
            weighted.add_assign(&running);
        }
        add_multiple(&mut sum_t, &weighted, seg as u64);
        sum_t
    }

    /// Applies the exceptional additions of a lane round: equal points double (through
    /// arkworks), opposite points cancel.
    fn settle(&mut self, into_running: bool) {
        let rec = 2 * L;
        for i in 0..self.exceptional.len() {
            let (k, same) = self.exceptional[i];
            let e = self.staged[k];
            let l = e.dst as usize;
            let (dst, zero) = if into_running {
                (&mut self.running, &mut self.running_zero)
            } else {
                (&mut self.total, &mut self.total_zero)
            };
            if same {
                let p = decode_point::<P, L>(&self.adder.field, &dst[rec * l..rec * (l + 1)]);
                let doubled = (Projective::<P>::from(p) + p).into_affine();
                if doubled.is_zero() {
                    zero[l] = true;
                } else {
                    encode_point(
                        &self.adder.field,
                        &doubled,
                        &mut dst[rec * l..rec * (l + 1)],
                    );
                }
            } else {
                zero[l] = true;
            }
        }
    }
}
