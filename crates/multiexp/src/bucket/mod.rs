//! Chunk processors: accumulate one chunk's points into buckets by digit, then reduce the
//! buckets to the chunk's partial sum Σ_b (b+1)·bucket_b.
//!
//! Cost of one task over m points with B buckets: m·w(processor) for the accumulation
//! (w = one mixed add for XYZZ, about 5M + 1S + I/batch for batch-affine) plus the reduction
//! (2·B full adds for the running sum, about 2·B affine additions for dense batch-affine
//! buckets, see `segments.rs`).
//!
//! Layout: `batch_affine.rs` is the one batch-affine scheduler, over a field backend:
//! `arkworks.rs` (arkworks coordinates) or `records.rs` (IFMA records on a lane backend,
//! `crate::ifma`); `segments.rs` the one affine reduction of its buckets.

pub(crate) mod arkworks;
#[cfg(test)]
mod backend_tests;
pub(crate) mod batch_affine;
pub(crate) mod lines;
pub(crate) mod prefetch;
pub(crate) mod records;
pub(crate) mod segments;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};

use crate::digits::Digit;
use crate::ifma::{Engine, Ifma};
use crate::reduce::{running_sum, running_sum_at};
pub(crate) use crate::xyzz::Xyzz;
pub(crate) use arkworks::ArkworksAffine;
pub(crate) use batch_affine::BatchAffine;
pub(crate) use records::{convert_records, decode_records, RecordAffine, RecordSlice, Records};

/// How a chunk task accumulates its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Processor {
    /// XYZZ buckets with mixed additions.
    Xyzz,
    /// Affine buckets updated in batches sharing one inversion.
    BatchAffine,
    /// Batch-affine with the field arithmetic on AVX-512 IFMA, eight additions at a time
    /// (prime-field coordinates of 5, 7 or 8 limbs of 52 bits; natively on x86-64 CPUs with
    /// IFMA, or emulated on request, see [`Ifma`]).
    BatchAffineIfma,
}

impl Processor {
    /// Short name used by the CLI and in plans.
    pub fn name(self) -> &'static str {
        match self {
            Processor::Xyzz => "xyzz",
            Processor::BatchAffine => "batch-affine",
            Processor::BatchAffineIfma => "batch-affine-ifma",
        }
    }

    /// Whether this processor can run curve `P` natively on this CPU.
    pub fn supports<P: SWCurveConfig>(self) -> bool {
        self.supports_with::<P>(Ifma::Auto)
    }

    /// Whether this processor can run curve `P` here under the IFMA request `ifma`.
    pub fn supports_with<P: SWCurveConfig>(self, ifma: Ifma) -> bool {
        match self {
            Processor::Xyzz | Processor::BatchAffine => true,
            Processor::BatchAffineIfma => {
                ifma.engine().is_some() && crate::ifma::limbs_of::<P::BaseField>().is_some()
            }
        }
    }
}

/// The 52-bit limb count of `P`'s coordinates if the IFMA processor runs it natively here
/// ([`crate::ifma::limbs_of`] on a CPU with AVX-512 IFMA).
pub(crate) fn ifma_limbs<P: SWCurveConfig>() -> Option<usize> {
    crate::ifma::limbs_of::<P::BaseField>().filter(|_| Ifma::Auto.native())
}

/// What one chunk task accumulates with: processor, bucket count, window and batch size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TaskShape {
    /// The processor.
    pub processor: Processor,
    /// The number of buckets.
    pub buckets: usize,
    /// The window c.
    pub window: u32,
    /// A forced batch size for the batch-affine processors, else their default for c.
    pub batch: Option<usize>,
    /// Lanes per bucket for the batch-affine processors (a power of two; 1: none): see
    /// [`lanes`].
    pub lanes: usize,
}

impl TaskShape {
    /// The shape of a task of `points` points: its lanes by [`lanes`].
    pub(crate) fn new(
        processor: Processor,
        buckets: usize,
        window: u32,
        batch: Option<usize>,
        points: usize,
    ) -> Self {
        TaskShape {
            processor,
            buckets,
            window,
            batch,
            lanes: lanes(processor, buckets, points),
        }
    }
}

/// Lanes per bucket of a batch-affine task over `buckets` buckets and `points` points. A batch
/// holds each bucket once, so a small window (2^(c-1) buckets, c ≤ 10) caps its batches at a
/// quarter of its buckets, and each inversion is shared by a few dozen additions (a third of
/// an addition's price at c = 9 on BN254). Spreading bucket b over `lanes` slots (point i into
/// lane i mod lanes) lets a batch grow to the full size of a large window; folding the lanes
/// at the end costs (lanes − 1)·buckets additions, so a task gets lanes only where it has at
/// least [`LANE_POINTS`] points per slot.
pub(crate) fn lanes(processor: Processor, buckets: usize, points: usize) -> usize {
    // The model's rule, so that a task runs with the lanes it was priced with.
    crate::plan::cost::CostModel::lanes_probed(
        processor,
        buckets,
        points as f64,
        &mut crate::plan::probe::Blind,
    )
}

/// The lanes per bucket that give a batch-affine task over `buckets` buckets room for a full
/// batch (at most [`MAX_LANES`]; 1 for XYZZ and for large windows), before [`lanes`] checks
/// that its points pay for them.
pub(crate) fn max_lanes(processor: Processor, buckets: usize) -> usize {
    if processor == Processor::Xyzz || buckets == 0 {
        return 1;
    }
    let full = full_batch(processor);
    let mut lanes = 1;
    while buckets * lanes < 4 * full && lanes < MAX_LANES {
        lanes *= 2;
    }
    lanes
}

/// The batch size of a batch-affine task with lanes (a large window's).
fn full_batch(processor: Processor) -> usize {
    match processor {
        Processor::BatchAffineIfma => ifma_batch_size(13),
        _ => batch_size(13),
    }
}

/// Most lanes per bucket.
const MAX_LANES: usize = 16;

/// Fewest points per slot for a task to take lanes.
pub(crate) const LANE_POINTS: usize = 8;

/// The IFMA batch-affine state for the limb count of the curve at hand.
enum IfmaState<P: SWCurveConfig> {
    Unset,
    L5(BatchAffine<P, RecordAffine<P, 5>>),
    L7(BatchAffine<P, RecordAffine<P, 7>>),
    L8(BatchAffine<P, RecordAffine<P, 8>>),
}

/// `$body` with `$s` bound to the scheduler of an [`IfmaState`] that is set, else `$unset`.
macro_rules! on_ifma {
    ($state:expr, $s:ident => $body:expr, $unset:expr) => {
        match $state {
            IfmaState::L5($s) => $body,
            IfmaState::L7($s) => $body,
            IfmaState::L8($s) => $body,
            IfmaState::Unset => $unset,
        }
    };
}

impl<P: SWCurveConfig> IfmaState<P> {
    /// The state for `P` on `engine`, `Unset` where the IFMA processor does not apply.
    fn new(engine: Engine) -> Self {
        match crate::ifma::limbs_of::<P::BaseField>() {
            Some(5) => RecordAffine::new(engine).map(|f| IfmaState::L5(BatchAffine::new(f))),
            Some(7) => RecordAffine::new(engine).map(|f| IfmaState::L7(BatchAffine::new(f))),
            Some(8) => RecordAffine::new(engine).map(|f| IfmaState::L8(BatchAffine::new(f))),
            _ => None,
        }
        .unwrap_or(IfmaState::Unset)
    }

    fn limbs(&self) -> usize {
        on_ifma!(self, s => s.backend().field().p.len(), 0)
    }
}

/// The bucket storage of one chunk task at a time, grown on demand and reused by the next.
///
/// A task runs as [`BucketSet::begin`], one or more [`BucketSet::accumulate`] over consecutive
/// ranges of its points (the streamed executor passes one block at a time), and
/// [`BucketSet::finish`], which reduces the buckets to Σ_b (b+1)·bucket_b.
pub(crate) struct BucketSet<P: SWCurveConfig> {
    /// The XYZZ buckets, all zero between tasks: a task resets only the buckets it touched
    /// when they are few (a forced split at c = 16 runs tasks of a handful of points over
    /// 2^15 buckets; zeroing and scanning all of them per task was most of its time).
    xyzz: Vec<Xyzz<P>>,
    /// Indices of the XYZZ buckets the current task filled (a bucket emptied and filled
    /// again appears twice).
    touched: Vec<u32>,
    /// A task has begun and not finished: the buckets may hold anything.
    dirty: bool,
    batch_affine: BatchAffine<P, ArkworksAffine<P>>,
    /// Where the IFMA processor runs; `None`: it falls back to scalar batch-affine.
    engine: Option<Engine>,
    ifma: IfmaState<P>,
    /// The processor running the current task.
    running: Processor,
}

impl<P: SWCurveConfig> Default for BucketSet<P> {
    /// The bucket set of [`Ifma::Auto`].
    fn default() -> Self {
        Self::new(Ifma::Auto)
    }
}

impl<P: SWCurveConfig> BucketSet<P> {
    /// An empty bucket set whose IFMA tasks run as `ifma` asks.
    pub(crate) fn new(ifma: Ifma) -> Self {
        Self::with_engine(ifma.engine())
    }

    /// An empty bucket set whose IFMA tasks run on `engine` (`None`: scalar batch-affine).
    pub(crate) fn with_engine(engine: Option<Engine>) -> Self {
        BucketSet {
            xyzz: Vec::new(),
            touched: Vec::new(),
            dirty: false,
            batch_affine: BatchAffine::new(ArkworksAffine::default()),
            engine,
            ifma: IfmaState::Unset,
            running: Processor::Xyzz,
        }
    }

    /// Starts a task of `shape`: its processor with empty buckets, and the processor's batch
    /// size for the window unless the shape forces one. The IFMA processor falls back to
    /// scalar batch-affine where it cannot run `P` (no engine, or a field it does not apply
    /// to).
    pub(crate) fn begin(&mut self, shape: TaskShape) {
        let TaskShape {
            processor,
            buckets: nb_buckets,
            window,
            batch,
            lanes,
        } = shape;
        let lanes = lanes.max(1);
        let widened = |size: usize| {
            if lanes > 1 {
                full_batch(processor)
            } else {
                size
            }
        };
        self.running = processor;
        match processor {
            Processor::Xyzz => {
                if self.dirty || self.xyzz.len() != nb_buckets {
                    self.xyzz.clear();
                    self.xyzz.resize(nb_buckets, Xyzz::ZERO);
                }
                self.touched.clear();
                self.dirty = true;
            }
            Processor::BatchAffine => self.batch_affine.begin(
                nb_buckets,
                batch.unwrap_or(widened(batch_size(window))),
                lanes,
            ),
            Processor::BatchAffineIfma => {
                let batch = batch.unwrap_or(widened(ifma_batch_size(window)));
                if let (Some(engine), true) = (self.engine, matches!(self.ifma, IfmaState::Unset)) {
                    self.ifma = IfmaState::new(engine);
                }
                if !matches!(self.ifma, IfmaState::Unset) {
                    on_ifma!(&mut self.ifma, s => s.begin(nb_buckets, batch, lanes), ());
                    return;
                }
                self.running = Processor::BatchAffine;
                self.batch_affine.begin(nb_buckets, batch, lanes);
            }
        }
    }

    /// Adds `points[i]` into bucket |d|-1 (subtracts when d < 0) for each digit
    /// d = `digits[i]` ≠ 0. `records` are the IFMA records of the same points; the IFMA
    /// processor needs them, the others ignore them.
    pub(crate) fn accumulate(
        &mut self,
        points: &[Affine<P>],
        records: Option<RecordSlice<'_>>,
        digits: &[Digit],
    ) {
        match self.running {
            Processor::Xyzz => accumulate_xyzz(&mut self.xyzz, &mut self.touched, points, digits),
            Processor::BatchAffine => self
                .batch_affine
                .accumulate(&points[..digits.len()], digits),
            Processor::BatchAffineIfma => {
                let Some(r) = records else {
                    debug_assert!(false, "the IFMA processor runs only with records");
                    return;
                };
                assert_eq!(r.limbs, self.ifma.limbs(), "records of another limb count");
                assert_eq!(
                    r.data.len(),
                    2 * r.limbs * points.len(),
                    "one record per point"
                );
                on_ifma!(&mut self.ifma, s => s.accumulate(r.data, digits), ())
            }
        }
    }

    /// As [`BucketSet::accumulate`] for points held only as IFMA records (a table of
    /// precomputed multiples): the task must run the IFMA processor, which reads nothing else.
    pub(crate) fn accumulate_records(&mut self, records: RecordSlice<'_>, digits: &[Digit]) {
        assert_eq!(
            self.running,
            Processor::BatchAffineIfma,
            "records alone feed only the IFMA processor"
        );
        assert_eq!(
            records.limbs,
            self.ifma.limbs(),
            "records of another limb count"
        );
        assert!(
            records.data.len() >= 2 * records.limbs * digits.len(),
            "one record per digit"
        );
        on_ifma!(&mut self.ifma, s => s.accumulate(records.data, digits), ())
    }

    /// Ends the task: Σ_b (b+1)·bucket_b.
    pub(crate) fn finish(&mut self) -> Xyzz<P> {
        match self.running {
            Processor::Xyzz => {
                self.dirty = false;
                // Sparse: a sorted walk over the touched buckets (gaps as multiples), then
                // only those reset; dense: the plain running sum and a full reset.
                if self.touched.len() * SPARSE_GAP <= self.xyzz.len() {
                    self.touched.sort_unstable_by(|a, b| b.cmp(a));
                    self.touched.dedup();
                    let sum = running_sum_at(&self.xyzz, &self.touched);
                    for &b in &self.touched {
                        self.xyzz[b as usize] = Xyzz::ZERO;
                    }
                    sum
                } else {
                    let sum = running_sum(&self.xyzz);
                    self.xyzz.fill(Xyzz::ZERO);
                    sum
                }
            }
            Processor::BatchAffine => self.batch_affine.finish(),
            Processor::BatchAffineIfma => on_ifma!(&mut self.ifma, s => s.finish(), Xyzz::ZERO),
        }
    }

    /// One whole task over `points`: begin, accumulate, finish.
    pub(crate) fn process(
        &mut self,
        mut shape: TaskShape,
        points: &[Affine<P>],
        records: Option<RecordSlice<'_>>,
        digits: &[Digit],
    ) -> Xyzz<P> {
        if shape.processor == Processor::BatchAffineIfma && records.is_none() {
            shape.processor = Processor::BatchAffine;
        }
        self.begin(shape);
        self.accumulate(points, records, digits);
        self.finish()
    }
}

/// Digits sampled per task by [`refine`].
const SAMPLES: usize = 256;

/// The processor a task runs, given its digits: the planned one, except that a batch-affine
/// task goes to XYZZ when a sample of its digits shows it sparse (too few non-zero digits to
/// fill a few batches, so each inversion is shared by few additions) or skewed (few distinct
/// buckets, so most additions would conflict in the batch and fall back to the queue and the
/// overflow buckets). The planner prices uniform digits; this catches the inputs that are not.
/// Cost: [`SAMPLES`] reads and a sort of at most as many u32.
#[cfg(test)]
pub(crate) fn refine(processor: Processor, digits: &[Digit], window: u32) -> Processor {
    refine_task(
        processor,
        digits,
        window,
        1 << (window.clamp(1, crate::digits::MAX_WINDOW) - 1),
    )
}

/// [`refine`] for a task over `buckets` buckets: where its points earn it lanes ([`lanes`]),
/// each distinct bucket in the sample counts as that many slots, so a chunk of few buckets but
/// many points (the top chunk of a small-scalar class) keeps its batch-affine processor.
pub(crate) fn refine_task(
    processor: Processor,
    digits: &[Digit],
    window: u32,
    buckets: usize,
) -> Processor {
    if processor == Processor::Xyzz || digits.is_empty() {
        return processor;
    }
    let step = digits.len().div_ceil(SAMPLES);
    let mut seen: Vec<u32> = digits
        .iter()
        .step_by(step)
        .filter(|&&d| d != 0)
        .map(|d| d.unsigned_abs())
        .collect();
    let sampled = digits.len().div_ceil(step);
    let batch = match processor {
        Processor::BatchAffineIfma => ifma_batch_size(window),
        _ => batch_size(window),
    };
    // Estimated non-zero digits of the whole task; the planner asks for one batch's worth of
    // points, this for one batch's worth of additions.
    let nonzero = seen.len() * digits.len() / sampled;
    if nonzero < batch {
        return Processor::Xyzz;
    }
    let hits = seen.len();
    seen.sort_unstable();
    seen.dedup();
    // Uniform digits leave most of 256 samples distinct over ≥ 256 buckets, and hit most of
    // the buckets below that (c ≤ 8): at c = 7, 252 hits of 64 buckets find about 62, so the
    // bound is the smaller of the two (comparing with the hits alone sent every task of a
    // c ≤ 7 IFMA plan to XYZZ, at the planner's back).
    let lanes = lanes(processor, buckets, digits.len());
    let window_buckets = 1usize << (window.clamp(1, crate::digits::MAX_WINDOW) - 1);
    if seen.len() * lanes * 4 < hits.min(window_buckets * lanes) {
        return Processor::Xyzz;
    }
    processor
}

/// A task whose touched buckets are at most 1/`SPARSE_GAP` of its buckets reduces and
/// resets only those: a gap of g empty buckets costs about log2(g) doublings in the sparse
/// walk against 2g additions and g resets in the dense one.
const SPARSE_GAP: usize = 16;

/// The XYZZ accumulation loop; each bucket that was empty is recorded in `touched`.
fn accumulate_xyzz<P: SWCurveConfig>(
    buckets: &mut [Xyzz<P>],
    touched: &mut Vec<u32>,
    points: &[Affine<P>],
    digits: &[Digit],
) {
    for (p, &d) in points.iter().zip(digits) {
        if d == 0 {
            continue;
        }
        let b = d.unsigned_abs() as usize - 1;
        let bucket = &mut buckets[b];
        if bucket.is_zero() {
            touched.push(b as u32);
        }
        if d > 0 {
            bucket.add_affine(p);
        } else {
            bucket.sub_affine(p);
        }
    }
}

/// The batch size of the scalar batch-affine processor for window c (buckets 2^(c-1)); the
/// processor caps it at a quarter of the bucket count. Measured (docs/bench/batch-sizes.md):
/// with divsteps inversions the optimum is flat from about 256 on.
pub fn batch_size(c: u32) -> usize {
    match c {
        0..=9 => (1usize << c.saturating_sub(1)) / 8 + 16,
        10 => 80,
        11 => 256,
        12 => 256,
        13 => 512,
        14 => 512,
        15 => 512,
        _ => 640,
    }
}

/// The batch size of the IFMA processor for window c (capped at a quarter of the buckets).
/// Measured (docs/bench/batch-sizes.md): larger batches win up to about 1024, flat beyond.
pub fn ifma_batch_size(c: u32) -> usize {
    match c {
        0..=9 => 64,
        10 => 128,
        11 => 256,
        12 => 384,
        13 => 768,
        _ => 1024,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_windows_with_many_points_get_lanes_up_to_a_full_batch() {
        let scalar = Processor::BatchAffine;
        assert_eq!(lanes(Processor::Xyzz, 256, 1 << 20), 1);
        assert_eq!(lanes(scalar, 1 << 15, 1 << 22), 1, "a large window");
        assert_eq!(lanes(scalar, 1 << 10, 1 << 22), 2);
        // c = 9: 256 buckets, 8 lanes give 2048 slots, room for batches of 512.
        assert_eq!(lanes(scalar, 256, 1 << 20), 8);
        assert_eq!(
            lanes(scalar, 256, 8 * 256 * 4),
            4,
            "points for 4 lanes, not 8"
        );
        assert_eq!(lanes(scalar, 256, 8 * 256 * 2 - 1), 1);
        assert_eq!(lanes(scalar, 4, 1 << 20), MAX_LANES);
        assert_eq!(lanes(scalar, 0, 1 << 20), 1);
        // The IFMA processor's full batch is larger.
        assert_eq!(lanes(Processor::BatchAffineIfma, 256, 1 << 20), 16);
        for b in [1usize, 3, 64, 100, 256, 1000, 4096] {
            for m in [0usize, 100, 5000, 1 << 16, 1 << 22] {
                let l = lanes(scalar, b, m);
                assert!(l.is_power_of_two() && l <= MAX_LANES, "b={b} m={m}: {l}");
                assert!(l == 1 || m >= LANE_POINTS * b * l, "b={b} m={m}: {l}");
            }
        }
    }

    /// Σ d_i·P_i by arkworks.
    fn naive<P: SWCurveConfig>(
        points: &[Affine<P>],
        digits: &[Digit],
    ) -> ark_ec::short_weierstrass::Projective<P> {
        points
            .iter()
            .zip(digits)
            .map(|(p, &d)| {
                let m = *p * P::ScalarField::from(d.unsigned_abs() as u64);
                if d < 0 {
                    -m
                } else {
                    m
                }
            })
            .sum()
    }

    #[test]
    fn sparse_and_dense_xyzz_tasks_reduce_to_the_same_sums_and_leave_the_buckets_zero() {
        type P = ark_bn254::g1::Config;
        let points = crate::sample::points::<P>(3000, 9);
        let mut set = BucketSet::<P>::new(Ifma::Off);
        // The widest window a profile measures and the widest the planner takes.
        for c in [16, crate::digits::MAX_WINDOW] {
            let buckets = 1usize << (c - 1);
            let shape = TaskShape {
                processor: Processor::Xyzz,
                buckets,
                window: c,
                batch: None,
                lanes: 1,
            };
            // A few points (sparse: the touched walk), P and -P into one bucket (emptied and
            // filled again), the top bucket from both signs, then a dense task on the set.
            let top = buckets as Digit;
            let cases: Vec<(usize, Vec<Digit>)> = vec![
                (1, vec![top]),
                (4, vec![1, -1, 5, -top]),
                (5, vec![7, -7, 7, 0, top]),
                (
                    3000,
                    (0..3000)
                        .map(|i| ((i * 7919) % (2 * buckets)) as Digit - top + 1)
                        .collect(),
                ),
                (6, vec![3, 3, -2, 1, 0, 2]),
            ];
            for (n, digits) in cases {
                let pts = if n == 5 {
                    vec![points[0], points[0], points[0], points[1], points[2]]
                } else {
                    points[..n].to_vec()
                };
                let sum = set.process(shape, &pts, None, &digits).into_projective();
                assert_eq!(
                    sum,
                    naive(&pts, &digits),
                    "c={c} digits {:?}",
                    &digits[..digits.len().min(6)]
                );
                assert!(set.xyzz.iter().all(Xyzz::is_zero), "buckets left non-zero");
            }
        }
    }

    #[test]
    fn a_chunk_of_few_buckets_with_lanes_keeps_batch_affine_unless_skewed() {
        // The top chunk of 16-bit scalars at c = 12: 16 buckets, 2^17 points, 16 lanes.
        let top: Vec<Digit> = (0..1u64 << 17)
            .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 60) as Digit + 1)
            .collect();
        let two: Vec<Digit> = top.iter().map(|&d| d % 2 + 1).collect();
        for p in [Processor::BatchAffine, Processor::BatchAffineIfma] {
            assert_eq!(refine_task(p, &top, 12, 16), p);
            assert_eq!(refine(p, &top, 12), Processor::Xyzz, "without lanes");
            assert_eq!(refine_task(p, &two, 12, 16), Processor::Xyzz, "two buckets");
        }
    }

    #[test]
    fn refine_sends_sparse_and_skewed_chunks_to_xyzz() {
        let c = 12;
        let uniform: Vec<Digit> = (0..20_000)
            .map(|i| ((i * 2654435761u64 as usize) % 4095) as Digit - 2047)
            .collect();
        for p in [Processor::BatchAffine, Processor::BatchAffineIfma] {
            assert_eq!(refine(p, &uniform, c), p, "uniform digits keep {p:?}");
            let skewed: Vec<Digit> = (0..20_000)
                .map(|i| if i % 50 == 0 { 7 } else { -3 })
                .collect();
            assert_eq!(refine(p, &skewed, c), Processor::Xyzz, "skewed");
            let sparse: Vec<Digit> = (0..20_000)
                .map(|i| if i % 400 == 0 { uniform[i] } else { 0 })
                .collect();
            assert_eq!(refine(p, &sparse, c), Processor::Xyzz, "sparse");
            assert_eq!(
                refine(p, &uniform[..150], c),
                Processor::Xyzz,
                "less than a batch"
            );
        }
        assert_eq!(refine(Processor::Xyzz, &uniform, c), Processor::Xyzz);
    }

    #[test]
    fn refine_keeps_uniform_digits_of_narrow_windows() {
        for c in 5..=9u32 {
            let half = 1i64 << (c - 1);
            // Uniform over the 2^c - 1 signed digits -B+1..=B-1 and zero, as a chunk's are.
            let uniform: Vec<Digit> = (0..256u64)
                .map(|i| ((i * 2654435761 % (2 * half as u64)) as i64 - half + 1) as Digit)
                .collect();
            for p in [Processor::BatchAffine, Processor::BatchAffineIfma] {
                assert_eq!(refine(p, &uniform, c), p, "c={c} {p:?}");
            }
            // A real chunk's digits, as the executor hands them over (c = 7: 252 hits of 64
            // buckets find about 62, which the former bound, a quarter of the hits, refused).
            let spec = crate::curves::spec("bn254-g1").unwrap();
            let scalars = crate::sample::scalars::<ark_bn254::Fr>(256, 5);
            let w = crate::digits::Windowing::new(spec.modulus(), c);
            let mut digits = crate::digits::Digits::zeroed(w, scalars.len());
            crate::digits::decompose_into(&scalars, w, &mut digits.writers(&[0, 256])[0]);
            for chunk in 0..4 {
                assert_eq!(
                    refine(Processor::BatchAffineIfma, digits.chunk(chunk), c),
                    Processor::BatchAffineIfma,
                    "c={c} chunk {chunk}"
                );
            }
            let skewed: Vec<Digit> = (0..256).map(|i| if i % 50 == 0 { 2 } else { -1 }).collect();
            assert_eq!(
                refine(Processor::BatchAffineIfma, &skewed, c),
                Processor::Xyzz,
                "c={c} skewed"
            );
        }
    }
}
