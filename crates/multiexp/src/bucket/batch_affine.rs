//! Batch-affine buckets: buckets kept in affine coordinates, updated in batches that share
//! one field inversion. The scheduler is written once, over an [`AffineBackend`]: arkworks
//! coordinates (`arkworks.rs`) or IFMA records on a lane backend (`records.rs`).
//!
//! Adding P to an affine bucket A (x_A ≠ x_P) costs λ = (y_P - y_A)/(x_P - x_A),
//! x = λ² - x_A - x_P, y = λ(x_A - x) - y_A: 2M + 1S plus one inversion. Montgomery's trick
//! inverts a batch of B denominators with 3(B - 1) multiplications and one inversion, so an
//! addition costs about 5M + 1S + I/B, against 8M + 2S for a mixed XYZZ addition (the IFMA
//! backend does eight of them per vector step, see `records.rs`).
//!
//! A batch holds at most one pending addition per bucket slot. A small window has few buckets,
//! which would cap its batches at a few dozen additions an inversion; a task with many points
//! per bucket spreads each bucket over `lanes` slots (point i into lane i mod lanes, see
//! `super::lanes`), runs batches of a large window's size, and folds the lanes of each bucket
//! pairwise at the end (one shared inversion a level).
//!
//! A point whose slot is already in
//! the batch waits in a conflict queue (at most [`QUEUE_FACTOR`] batches long), retried after
//! the batch runs; when the queue is full it goes into an XYZZ overflow bucket instead. Cases
//! the affine formula cannot take are settled around the batch: an empty bucket is set to the
//! point; an addition whose operands have equal x is left out by the backend and settled after
//! it, P + (-P) emptying the bucket and P + P (a doubling, with the curve's `a`) going into the
//! overflow bucket. Points at infinity are skipped. The chunk sum is
//! Σ_b (b+1)·(affine_b + overflow_b): the overflow is folded into the affine buckets (one
//! shared inversion), then dense buckets are reduced by the segment sums of `segments.rs` and
//! sparse ones by the gap-aware XYZZ running sum (`crate::reduce::running_sum_by`).

use ark_ec::short_weierstrass::SWCurveConfig;

use super::segments::SegmentSum;
use crate::digits::Digit;
use crate::reduce::running_sum_by;
use crate::xyzz::Xyzz;

/// Largest conflict queue, as a multiple of the batch size.
pub(crate) const QUEUE_FACTOR: usize = 2;

/// How many input points ahead [`BatchAffine::accumulate`] hints into L1. The point is first
/// read there (its infinity test); a batch run between two points evicts the stream from L1,
/// and before the hint that first read took half of `accumulate`'s samples (`perf annotate`,
/// portable BN254 2^20, c = 16).
const INPUT_AHEAD: usize = 8;

/// One staged addition dst[dst] += ±src[src].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Staged {
    /// Index of the destination point.
    pub dst: u32,
    /// Index of the source point.
    pub src: u32,
    /// Subtract instead of add.
    pub negate: bool,
}

/// A staged addition the backend left out because its operands have equal x.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exceptional {
    /// Index into the staged additions.
    pub index: usize,
    /// Whether the operands are equal (a doubling), else opposite (the sum is the identity).
    pub doubling: bool,
}

/// The field arithmetic of a batch-affine processor: affine points in one representation, and
/// batches of additions that share one inversion.
pub(crate) trait AffineBackend<P: SWCurveConfig> {
    /// A task's input points as this backend reads them (alongside the arkworks points).
    type Input<'a>: Copy;
    /// An array of affine points (buckets, segment sums); an entry means something only where
    /// its owner marks it filled.
    type Array: Default;

    /// Makes room for at least `len` points.
    fn reserve(&self, array: &mut Self::Array, len: usize);
    /// Whether input point `i` is the point at infinity.
    fn is_infinity(&self, input: Self::Input<'_>, i: usize) -> bool;
    /// Hints input point `i`'s cache lines into L1 (nothing past the end).
    fn prefetch_input(&self, input: Self::Input<'_>, i: usize);
    /// The arkworks coordinates of input point `i`, `None` at infinity (the cold path: a
    /// doubling or a full conflict queue sends the point to an XYZZ overflow bucket).
    fn input_xy(&self, input: Self::Input<'_>, i: usize) -> Option<(P::BaseField, P::BaseField)>;
    /// `array[b] = ±input[i]` (input point `i` not at infinity).
    fn load(
        &self,
        array: &mut Self::Array,
        b: usize,
        input: Self::Input<'_>,
        i: usize,
        negate: bool,
    );
    /// `dst[d] = src[s]`.
    fn copy(&self, dst: &mut Self::Array, d: usize, src: &Self::Array, s: usize);
    /// The arkworks coordinates of `array[b]`.
    fn get(&self, array: &Self::Array, b: usize) -> (P::BaseField, P::BaseField);
    /// `array[b] = (x, y)`.
    fn set(&self, array: &mut Self::Array, b: usize, x: &P::BaseField, y: &P::BaseField);
    /// `dst[e.dst] += ±input[e.src]` for every staged e (distinct `dst`), with one shared
    /// inversion. Entries whose operands have equal x are left out and listed in `exceptional`
    /// (cleared first), in staged order.
    fn add_input(
        &mut self,
        dst: &mut Self::Array,
        input: Self::Input<'_>,
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    );
    /// As [`AffineBackend::add_input`] from another array.
    fn add_array(
        &mut self,
        dst: &mut Self::Array,
        src: &Self::Array,
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    );
}

/// Sparse XYZZ buckets for the rare additions a batch-affine processor cannot take
/// (doublings, a full conflict queue): 4 bytes per bucket plus one entry per bucket used,
/// instead of a dense array of XYZZ points.
pub(crate) struct Overflow<P: SWCurveConfig> {
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
    pub(crate) fn reset(&mut self, buckets: usize) {
        self.take().for_each(drop);
        if self.slot.len() < buckets {
            self.slot.resize(buckets, u32::MAX);
        }
    }

    /// The overflow bucket `b`, created empty on first use.
    #[inline]
    pub(crate) fn bucket(&mut self, b: usize) -> &mut Xyzz<P> {
        let mut s = self.slot[b];
        if s == u32::MAX {
            s = self.entries.len() as u32;
            self.slot[b] = s;
            self.entries.push((b as u32, Xyzz::ZERO));
        }
        &mut self.entries[s as usize].1
    }

    /// Whether no bucket was used.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every used bucket with its sum, leaving the overflow empty.
    pub(crate) fn take(&mut self) -> impl Iterator<Item = (usize, Xyzz<P>)> + '_ {
        for &(b, _) in &self.entries {
            self.slot[b as usize] = u32::MAX;
        }
        self.entries.drain(..).map(|(b, t)| (b as usize, t))
    }
}

/// One worker's reusable batch-affine state over the backend `F`.
pub(crate) struct BatchAffine<P: SWCurveConfig, F: AffineBackend<P>> {
    field: F,
    /// Affine bucket values; meaningful where `filled`.
    buckets: F::Array,
    filled: Vec<bool>,
    /// How many buckets are filled.
    count: usize,
    in_batch: Vec<bool>,
    /// Overflow buckets (doublings, queue overflow).
    overflow: Overflow<P>,
    /// Buckets of the current task.
    nb: usize,
    /// Lanes per bucket: bucket b's additions spread over slots b·lanes .. (b+1)·lanes, so a
    /// batch can hold several additions into one bucket (a power of two).
    lanes: usize,
    batch: Vec<Staged>,
    queue: Vec<Staged>,
    retry: Vec<Staged>,
    exceptional: Vec<Exceptional>,
    /// Overflow sums on their way back into affine buckets.
    folded: Vec<(usize, Xyzz<P>)>,
    /// Batch size.
    size: usize,
    segments: SegmentSum<P, F>,
    /// The second lanes of a fold level.
    seconds: F::Array,
}

impl<P: SWCurveConfig, F: AffineBackend<P>> BatchAffine<P, F> {
    /// Empty state over `field`.
    pub(crate) fn new(field: F) -> Self {
        BatchAffine {
            field,
            buckets: F::Array::default(),
            filled: Vec::new(),
            count: 0,
            in_batch: Vec::new(),
            overflow: Overflow::default(),
            nb: 0,
            lanes: 1,
            batch: Vec::new(),
            queue: Vec::new(),
            retry: Vec::new(),
            exceptional: Vec::new(),
            folded: Vec::new(),
            size: 1,
            segments: SegmentSum::default(),
            seconds: F::Array::default(),
        }
    }

    /// The backend.
    pub(crate) fn backend(&self) -> &F {
        &self.field
    }

    /// Starts a task: `buckets` empty buckets of `lanes` slots each (a power of two), batches
    /// of up to `batch` additions.
    pub(crate) fn begin(&mut self, buckets: usize, batch: usize, lanes: usize) {
        debug_assert!(lanes.is_power_of_two());
        let slots = buckets * lanes;
        if self.in_batch.len() < slots {
            self.field.reserve(&mut self.buckets, slots);
            self.in_batch.resize(slots, false);
        }
        self.overflow.reset(slots);
        self.nb = buckets;
        self.lanes = lanes;
        self.filled.clear();
        self.filled.resize(slots, false);
        self.count = 0;
        // A batch can hold each slot once: keep it well below the slot count (the top chunk
        // has few buckets), so that conflicts stay rare.
        self.size = batch.min(slots / 4).max(1);
        self.batch.clear();
        self.queue.clear();
    }

    /// Adds `input` point i into bucket |d|-1, subtracting when d < 0, for each digit
    /// d = `digits[i]` ≠ 0 (into the bucket's lane i mod lanes). Every addition is settled
    /// before it returns, so the next call may pass another range of points.
    pub(crate) fn accumulate(&mut self, input: F::Input<'_>, digits: &[Digit]) {
        let (shift, mask) = (self.lanes.trailing_zeros(), self.lanes as u32 - 1);
        for (i, &d) in digits.iter().enumerate() {
            self.field.prefetch_input(input, i + INPUT_AHEAD);
            if d == 0 {
                continue;
            }
            let e = Staged {
                dst: ((d.unsigned_abs() - 1) << shift) | (i as u32 & mask),
                src: i as u32,
                negate: d < 0,
            };
            self.place(input, e);
            if self.batch.len() == self.size {
                self.flush(input);
            }
        }
        while !self.batch.is_empty() || !self.queue.is_empty() {
            self.flush(input);
        }
    }

    /// Ends the task: Σ_b (b+1)·bucket_b.
    pub(crate) fn finish(&mut self) -> Xyzz<P> {
        self.fold_overflow();
        if self.lanes > 1 {
            self.fold_lanes();
        }
        let n = self.nb;
        let (field, buckets, filled) = (&mut self.field, &self.buckets, &self.filled[..n]);
        if self.count * 4 >= n && n >= 64 {
            return self.segments.reduce(field, buckets, filled);
        }
        running_sum_by(n, |b| filled[b].then(|| field.get(buckets, b)))
    }

    /// Adds each bucket's lanes into its first, level by level (lane l += lane l + h for
    /// h = lanes/2, …, 1: one shared inversion a level), then moves bucket b's sum to slot b;
    /// afterwards the buckets are slots 0..nb, and `count` counts them.
    fn fold_lanes(&mut self) {
        let (nb, lanes) = (self.nb, self.lanes);
        let mut h = lanes / 2;
        let mut staged = std::mem::take(&mut self.batch);
        while h >= 1 {
            staged.clear();
            self.field.reserve(&mut self.seconds, nb * h);
            for b in 0..nb {
                for l in 0..h {
                    let (a, s) = (b * lanes + l, b * lanes + l + h);
                    if !self.filled[s] {
                        continue;
                    }
                    self.filled[s] = false;
                    if self.filled[a] {
                        let k = staged.len();
                        self.field.copy(&mut self.seconds, k, &self.buckets, s);
                        self.count -= 1;
                        staged.push(Staged {
                            dst: a as u32,
                            src: k as u32,
                            negate: false,
                        });
                    } else {
                        let (x, y) = self.field.get(&self.buckets, s);
                        self.field.set(&mut self.buckets, a, &x, &y);
                        self.filled[a] = true;
                    }
                }
            }
            self.exceptional.clear();
            if !staged.is_empty() {
                self.field.add_array(
                    &mut self.buckets,
                    &self.seconds,
                    &staged,
                    &mut self.exceptional,
                );
            }
            for x in &self.exceptional {
                let e = staged[x.index];
                if x.doubling {
                    // Q + Q: the slot keeps Q, its overflow bucket takes the other.
                    let (qx, qy) = self.field.get(&self.seconds, e.src as usize);
                    self.overflow.bucket(e.dst as usize).add_xy(&qx, &qy);
                } else {
                    self.filled[e.dst as usize] = false;
                    self.count -= 1;
                }
            }
            // Before the next level moves the slot: a doubling's overflow joins it here.
            self.fold_overflow();
            h /= 2;
        }
        staged.clear();
        self.batch = staged;
        // Bucket b's sum from slot b·lanes to slot b (b·lanes ≥ b: in ascending order, no
        // source is overwritten before it is read).
        for b in 0..nb {
            let from = b * lanes;
            let filled = self.filled[from];
            if filled && b > 0 {
                let (x, y) = self.field.get(&self.buckets, from);
                self.field.set(&mut self.buckets, b, &x, &y);
            }
            if b > 0 {
                self.filled[from] = false;
            }
            self.filled[b] = filled;
        }
    }

    /// Puts one addition where it can go now: an empty bucket, the batch, the queue, or the
    /// overflow bucket. Never runs the batch.
    #[inline(always)]
    fn place(&mut self, input: F::Input<'_>, e: Staged) {
        let b = e.dst as usize;
        if self.in_batch[b] {
            if self.queue.len() < QUEUE_FACTOR * self.size {
                self.queue.push(e);
            } else {
                self.add_overflow(input, e);
            }
            return;
        }
        if self.field.is_infinity(input, e.src as usize) {
            return;
        }
        if !self.filled[b] {
            self.field
                .load(&mut self.buckets, b, input, e.src as usize, e.negate);
            self.filled[b] = true;
            self.count += 1;
            return;
        }
        self.in_batch[b] = true;
        self.batch.push(e);
    }

    #[cold]
    fn add_overflow(&mut self, input: F::Input<'_>, e: Staged) {
        let Some((x, y)) = self.field.input_xy(input, e.src as usize) else {
            return;
        };
        let y = if e.negate { -y } else { y };
        self.overflow.bucket(e.dst as usize).add_xy(&x, &y);
    }

    /// Runs the batch, settles its exceptional additions, then retries queued ones.
    fn flush(&mut self, input: F::Input<'_>) {
        if !self.batch.is_empty() {
            self.field
                .add_input(&mut self.buckets, input, &self.batch, &mut self.exceptional);
            for i in 0..self.exceptional.len() {
                let x = self.exceptional[i];
                let e = self.batch[x.index];
                if x.doubling {
                    // P + P: the doubling goes to the overflow bucket, the bucket keeps P.
                    self.add_overflow(input, e);
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
                    self.place(input, e);
                }
            }
            retry.clear();
            self.retry = retry;
        }
    }

    /// Adds every overflow bucket into its affine bucket (one shared inversion) and resets
    /// the overflow.
    fn fold_overflow(&mut self) {
        if self.overflow.is_empty() {
            return;
        }
        self.folded.clear();
        for (b, mut t) in self.overflow.take() {
            if self.filled[b] {
                let (x, y) = self.field.get(&self.buckets, b);
                t.add_xy(&x, &y);
                self.filled[b] = false;
                self.count -= 1;
            }
            if !t.is_zero() {
                self.folded.push((b, t));
            }
        }
        // x = X/ZZ, y = Y/ZZZ with u = 1/(ZZ·ZZZ): 1/ZZ = u·ZZZ, 1/ZZZ = u·ZZ.
        let mut inv: Vec<P::BaseField> = self.folded.iter().map(|(_, t)| t.zz * t.zzz).collect();
        ark_ff::batch_inversion(&mut inv);
        for (&(b, t), u) in self.folded.iter().zip(inv) {
            let (x, y) = (t.x * (u * t.zzz), t.y * (u * t.zz));
            self.field.set(&mut self.buckets, b, &x, &y);
            self.filled[b] = true;
            self.count += 1;
        }
    }
}
