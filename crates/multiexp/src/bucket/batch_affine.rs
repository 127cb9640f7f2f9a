//! Batch-affine buckets: buckets kept in affine coordinates, updated in batches that share
//! one field inversion.
//!
//! Adding P to an affine bucket A (x_A ≠ x_P) costs λ = (y_P - y_A)/(x_P - x_A),
//! x = λ² - x_A - x_P, y = λ(x_A - x) - y_A: 2M + 1S plus one inversion. Montgomery's trick
//! inverts a batch of B denominators with 3(B - 1) multiplications and one inversion, so an
//! addition costs about 5M + 1S + I/B, against 8M + 2S for a mixed XYZZ addition.
//!
//! A batch holds at most one pending addition per bucket. A point whose bucket is already in
//! the batch waits in a conflict queue, retried after the batch runs; when the queue is full it
//! goes into an XYZZ overflow bucket instead. Cases the affine formula cannot take are handled
//! outside the batch: an empty bucket is set to the point, P + (-P) empties the bucket, and
//! P + P (a doubling, with the curve's `a`) goes into the overflow bucket. Points at infinity
//! are skipped. The chunk sum is Σ_b (b+1)·(affine_b + overflow_b).

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{Field, Zero};

use crate::bucket::lanes::Lanes;
use crate::inverse::Inverter;
use crate::reduce::running_sum_by;
use crate::xyzz::Xyzz;

/// Largest conflict queue, as a multiple of the batch size.
const QUEUE_FACTOR: usize = 2;

/// One pending or queued addition: bucket index, point index, whether to subtract.
#[derive(Clone, Copy, Debug)]
struct Pending {
    bucket: u32,
    point: u32,
    negate: bool,
}

/// One worker's reusable batch-affine state.
pub struct BatchAffine<P: SWCurveConfig> {
    /// Affine bucket values; meaningful where `filled`.
    xs: Vec<P::BaseField>,
    ys: Vec<P::BaseField>,
    filled: Vec<bool>,
    /// How many buckets are filled.
    count: usize,
    in_batch: Vec<bool>,
    /// Overflow buckets (doublings, queue overflow).
    overflow: Overflow<P>,
    /// Buckets of the current task.
    buckets: usize,
    batch: Vec<Pending>,
    denominators: Vec<P::BaseField>,
    prefix: Vec<P::BaseField>,
    queue: Vec<Pending>,
    retry: Vec<Pending>,
    lanes: Lanes<P>,
    inverter: Inverter<P::BaseField>,
    /// Batch size.
    size: usize,
}

impl<P: SWCurveConfig> Default for BatchAffine<P> {
    fn default() -> Self {
        BatchAffine {
            xs: Vec::new(),
            ys: Vec::new(),
            filled: Vec::new(),
            count: 0,
            in_batch: Vec::new(),
            overflow: Overflow::default(),
            buckets: 0,
            batch: Vec::new(),
            denominators: Vec::new(),
            prefix: Vec::new(),
            queue: Vec::new(),
            retry: Vec::new(),
            lanes: Lanes::default(),
            inverter: Inverter::default(),
            size: 1,
        }
    }
}

impl<P: SWCurveConfig> BatchAffine<P> {
    /// Starts a task: `buckets` empty buckets, batches of up to `batch` additions.
    pub fn begin(&mut self, buckets: usize, batch: usize) {
        if self.xs.len() < buckets {
            self.xs.resize(buckets, P::BaseField::zero());
            self.ys.resize(buckets, P::BaseField::zero());
            self.in_batch.resize(buckets, false);
        }
        self.overflow.reset(buckets);
        self.buckets = buckets;
        self.filled.clear();
        self.filled.resize(buckets, false);
        self.count = 0;
        // A batch can hold each bucket once: keep it well below the bucket count (the top
        // chunk has few buckets), so that conflicts stay rare.
        self.size = batch.min(buckets / 4).max(1);
        self.batch.clear();
        self.queue.clear();
        self.denominators.resize(self.size, P::BaseField::zero());
        self.prefix.resize(self.size, P::BaseField::zero());
    }

    /// Adds `points[i]` into bucket |d|-1 (subtracts when d < 0) for each digit
    /// d = `digits[i]` ≠ 0. Every addition is settled before it returns, so the next call may
    /// pass another range of points.
    pub fn accumulate(&mut self, points: &[Affine<P>], digits: &[i16]) {
        for (i, &d) in digits.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let entry = Pending {
                bucket: (d.unsigned_abs() - 1) as u32,
                point: i as u32,
                negate: d < 0,
            };
            self.place(points, entry);
            if self.batch.len() == self.size {
                self.flush(points);
            }
        }
        while !self.batch.is_empty() || !self.queue.is_empty() {
            self.flush(points);
        }
    }

    /// Ends the task: Σ_b (b+1)·bucket_b.
    pub fn finish(&mut self) -> Xyzz<P> {
        self.reduce(self.buckets)
    }

    /// One whole task: [`Self::begin`], [`Self::accumulate`], [`Self::finish`].
    pub fn process(
        &mut self,
        points: &[Affine<P>],
        digits: &[i16],
        buckets: usize,
        batch: usize,
    ) -> Xyzz<P> {
        self.begin(buckets, batch);
        self.accumulate(points, digits);
        self.finish()
    }

    /// The point of an entry, sign applied; `None` at infinity.
    #[inline(always)]
    fn point(points: &[Affine<P>], e: Pending) -> Option<(P::BaseField, P::BaseField)> {
        let (x, y) = points[e.point as usize].xy()?;
        Some((x, if e.negate { -y } else { y }))
    }

    /// Puts one addition where it can go now: an empty bucket, the batch, the queue, or the
    /// overflow bucket. Never runs the batch.
    #[inline(always)]
    fn place(&mut self, points: &[Affine<P>], e: Pending) {
        let b = e.bucket as usize;
        if self.in_batch[b] {
            if self.queue.len() < QUEUE_FACTOR * self.size {
                self.queue.push(e);
            } else if let Some((x, y)) = Self::point(points, e) {
                self.add_overflow(b, &x, &y);
            }
            return;
        }
        let Some((x, y)) = Self::point(points, e) else {
            return;
        };
        if !self.filled[b] {
            self.xs[b] = x;
            self.ys[b] = y;
            self.filled[b] = true;
            self.count += 1;
            return;
        }
        if self.xs[b] == x {
            if self.ys[b] == y {
                self.add_overflow(b, &x, &y);
            } else {
                self.filled[b] = false;
                self.count -= 1;
            }
            return;
        }
        self.denominators[self.batch.len()] = x - self.xs[b];
        self.in_batch[b] = true;
        self.batch.push(e);
    }

    #[cold]
    fn add_overflow(&mut self, b: usize, x: &P::BaseField, y: &P::BaseField) {
        self.overflow.bucket(b).add_xy(x, y);
    }

    /// Runs the batch with one shared inversion, then retries queued additions.
    fn flush(&mut self, points: &[Affine<P>]) {
        let len = self.batch.len();
        if len > 0 {
            // Montgomery's trick: prefix[i] = d_0 ⋯ d_i, one inversion, then back to front.
            let mut acc = P::BaseField::ONE;
            for i in 0..len {
                acc *= self.denominators[i];
                self.prefix[i] = acc;
            }
            // Every denominator is non-zero (equal x never enters the batch).
            let mut inv = self.inverter.invert(&acc);
            for i in (0..len).rev() {
                let d_inv = if i == 0 {
                    inv
                } else {
                    inv * self.prefix[i - 1]
                };
                inv *= self.denominators[i];
                let e = self.batch[i];
                let b = e.bucket as usize;
                let p = points[e.point as usize];
                let y = if e.negate { -p.y } else { p.y };
                let (xa, ya) = (self.xs[b], self.ys[b]);
                let lambda = (y - ya) * d_inv;
                let x3 = lambda.square() - xa - p.x;
                self.ys[b] = lambda * (xa - x3) - ya;
                self.xs[b] = x3;
                self.in_batch[b] = false;
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
                    self.place(points, e);
                }
            }
            retry.clear();
            self.retry = retry;
        }
    }

    /// Σ_b (b+1)·(affine_b + overflow_b): the overflow is folded into the affine buckets,
    /// then dense buckets are reduced in affine lanes and sparse ones by the gap-aware XYZZ
    /// running sum.
    fn reduce(&mut self, buckets: usize) -> Xyzz<P> {
        self.fold_overflow();
        let (xs, ys, filled) = (&self.xs[..buckets], &self.ys[..buckets], &self.filled[..]);
        if self.count * 4 >= buckets && buckets >= 64 {
            return self.lanes.reduce(xs, ys, filled);
        }
        running_sum_by(buckets, |b| filled[b].then(|| (xs[b], ys[b])))
    }

    /// Adds every overflow bucket into its affine bucket (one shared inversion) and resets
    /// the overflow.
    fn fold_overflow(&mut self) {
        if self.overflow.is_empty() {
            return;
        }
        let mut sums: Vec<(usize, Xyzz<P>)> = Vec::new();
        for (b, mut t) in self.overflow.take() {
            if self.filled[b] {
                t.add_xy(&self.xs[b], &self.ys[b]);
                self.filled[b] = false;
                self.count -= 1;
            }
            if !t.is_zero() {
                sums.push((b, t));
            }
        }
        // x = X/ZZ, y = Y/ZZZ with u = 1/(ZZ·ZZZ): 1/ZZ = u·ZZZ, 1/ZZZ = u·ZZ.
        let mut inv: Vec<P::BaseField> = sums.iter().map(|(_, t)| t.zz * t.zzz).collect();
        ark_ff::batch_inversion(&mut inv);
        for ((b, t), u) in sums.into_iter().zip(inv) {
            self.xs[b] = t.x * (u * t.zzz);
            self.ys[b] = t.y * (u * t.zz);
            self.filled[b] = true;
            self.count += 1;
        }
    }
}

/// Sparse XYZZ buckets for the rare additions a batch-affine processor cannot take
/// (doublings, a full conflict queue): 4 bytes per bucket plus one entry per bucket used,
/// instead of a dense array of XYZZ points.
pub struct Overflow<P: SWCurveConfig> {
    /// Per bucket, its entry index, or `u32::MAX`.
    slot: Vec<u32>,
    entries: Vec<(u32, Xyzz<P>)>,
}

impl<P: SWCurveConfig> Default for Overflow<P> {
    fn default() -> Self {
        Overflow {
            slot: Vec::new(),
            entries: Vec::new(),
        }
    }
}

impl<P: SWCurveConfig> Overflow<P> {
    /// Room for `buckets` buckets, all empty.
    pub fn reset(&mut self, buckets: usize) {
        self.take().for_each(drop);
        if self.slot.len() < buckets {
            self.slot.resize(buckets, u32::MAX);
        }
    }

    /// The overflow bucket `b`, created empty on first use.
    #[inline]
    pub fn bucket(&mut self, b: usize) -> &mut Xyzz<P> {
        let mut s = self.slot[b];
        if s == u32::MAX {
            s = self.entries.len() as u32;
            self.slot[b] = s;
            self.entries.push((b as u32, Xyzz::ZERO));
        }
        &mut self.entries[s as usize].1
    }

    /// Whether no bucket was used.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every used bucket with its sum, leaving the overflow empty.
    pub fn take(&mut self) -> impl Iterator<Item = (usize, Xyzz<P>)> + '_ {
        for &(b, _) in &self.entries {
            self.slot[b as usize] = u32::MAX;
        }
        self.entries.drain(..).map(|(b, t)| (b as usize, t))
    }
}
