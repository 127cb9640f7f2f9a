//! Chunk processors: accumulate one chunk's points into buckets by digit, then reduce the
//! buckets to the chunk's partial sum Σ_b (b+1)·bucket_b.
//!
//! Cost of one task over m points with B buckets: m·w(processor) for the accumulation
//! (w = one mixed add for XYZZ) plus 2·B full adds for the running-sum reduction.

pub mod batch_affine;
#[cfg(target_arch = "x86_64")]
pub mod ifma_batch;
pub mod lanes;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};

use crate::reduce::running_sum;
pub use crate::xyzz::Xyzz;
pub use batch_affine::BatchAffine;

/// How a chunk task accumulates its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Processor {
    /// XYZZ buckets with mixed additions.
    Xyzz,
    /// Affine buckets updated in batches sharing one inversion.
    BatchAffine,
    /// Batch-affine with the field arithmetic on AVX-512 IFMA, eight additions at a time
    /// (x86-64 CPUs with IFMA; prime-field coordinates of 5, 7 or 8 limbs of 52 bits).
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

    /// Whether this processor can run curve `P` on this CPU.
    pub fn supports<P: SWCurveConfig>(self) -> bool {
        match self {
            Processor::Xyzz | Processor::BatchAffine => true,
            Processor::BatchAffineIfma => ifma_limbs::<P>().is_some(),
        }
    }
}

/// The 52-bit limb count of `P`'s coordinates if the IFMA processor can run it here
/// ([`crate::ifma::limbs_of`] on a CPU with AVX-512 IFMA).
pub fn ifma_limbs<P: SWCurveConfig>() -> Option<usize> {
    crate::ifma::limbs_of::<P::BaseField>().filter(|_| crate::ifma::available())
}

/// The records of one task's point range.
#[derive(Clone, Copy, Debug)]
pub struct RecordSlice<'a> {
    /// Limbs per coordinate (L).
    pub limbs: usize,
    /// 2L u64 per point of the range.
    pub data: &'a [u64],
}

impl Records {
    /// The records of points `start..end`.
    pub fn range(&self, start: usize, end: usize) -> RecordSlice<'_> {
        let rec = 2 * self.limbs;
        RecordSlice {
            limbs: self.limbs,
            data: &self.data[rec * start..rec * end],
        }
    }
}

/// IFMA state for the limb count of the curve at hand.
#[cfg(target_arch = "x86_64")]
enum IfmaState<P: SWCurveConfig> {
    Unset,
    L5(ifma_batch::IfmaBatch<P, 5>),
    L7(ifma_batch::IfmaBatch<P, 7>),
    L8(ifma_batch::IfmaBatch<P, 8>),
}

/// Points converted once per MSM for the IFMA processor: 2L u64 per point.
#[derive(Clone, Debug, Default)]
pub struct Records {
    /// Limbs per coordinate (L).
    pub limbs: usize,
    /// The records, point by point.
    pub data: Vec<u64>,
}

impl Records {
    /// Converts `points` on `workers` workers, if the IFMA processor can run `P` here.
    pub fn prepare<P: SWCurveConfig>(
        points: &[Affine<P>],
        workers: usize,
    ) -> Result<Option<Records>, crate::Error> {
        let Some(limbs) = ifma_limbs::<P>() else {
            return Ok(None);
        };
        let mut data = vec![0u64; 2 * limbs * points.len()];
        Self::prepare_into(points, limbs, &mut data, workers)?;
        Ok(Some(Records { limbs, data }))
    }

    /// Converts `points` into `out` (2·`limbs` u64 per point) on `workers` workers; `limbs`
    /// must be [`ifma_limbs`] of `P`.
    pub fn prepare_into<P: SWCurveConfig>(
        points: &[Affine<P>],
        limbs: usize,
        out: &mut [u64],
        workers: usize,
    ) -> Result<(), crate::Error> {
        #[cfg(target_arch = "x86_64")]
        {
            let n = points.len();
            let out = &mut out[..2 * limbs * n];
            let parts = workers.clamp(1, n.div_ceil(8).max(1));
            // Ranges on multiples of 8 points.
            let bounds: Vec<usize> = (0..=parts)
                .map(|i| (i * n.div_ceil(8) / parts * 8).min(n))
                .collect();
            let mut slices = Vec::with_capacity(parts);
            let mut rest = out;
            for w in bounds.windows(2) {
                let (head, tail) = rest.split_at_mut(2 * limbs * (w[1] - w[0]));
                slices.push(head);
                rest = tail;
            }
            crate::exec::on_workers(slices, |w, out| {
                let pts = &points[bounds[w]..bounds[w + 1]];
                let token = crate::ifma::Avx512Ifma::detect();
                macro_rules! run {
                    ($l:literal) => {{
                        let field = crate::ifma::Field52::<$l>::of::<
                            <P::BaseField as ark_ff::Field>::BasePrimeField,
                        >();
                        if let (Some(f), Some(token)) = (field, token) {
                            ifma_batch::prepare::<P, $l>(token, &f, pts, out)
                        }
                    }};
                }
                match limbs {
                    5 => run!(5),
                    7 => run!(7),
                    _ => run!(8),
                }
            })?;
            Ok(())
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (points, limbs, out, workers);
            Ok(())
        }
    }
}

/// What one chunk task accumulates with: processor, bucket count, window and batch size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaskShape {
    /// The processor.
    pub processor: Processor,
    /// The number of buckets.
    pub buckets: usize,
    /// The window c.
    pub window: u32,
    /// A forced batch size for the batch-affine processors, else their default for c.
    pub batch: Option<usize>,
}

/// The bucket storage of one chunk task at a time, grown on demand and reused by the next.
///
/// A task runs as [`BucketSet::begin`], one or more [`BucketSet::accumulate`] over consecutive
/// ranges of its points (the streamed executor passes one block at a time), and
/// [`BucketSet::finish`], which reduces the buckets to Σ_b (b+1)·bucket_b.
pub struct BucketSet<P: SWCurveConfig> {
    xyzz: Vec<Xyzz<P>>,
    batch_affine: BatchAffine<P>,
    #[cfg(target_arch = "x86_64")]
    ifma: IfmaState<P>,
    /// The processor running the current task.
    running: Processor,
}

impl<P: SWCurveConfig> Default for BucketSet<P> {
    fn default() -> Self {
        BucketSet {
            xyzz: Vec::new(),
            batch_affine: BatchAffine::default(),
            #[cfg(target_arch = "x86_64")]
            ifma: IfmaState::Unset,
            running: Processor::Xyzz,
        }
    }
}

impl<P: SWCurveConfig> BucketSet<P> {
    /// Starts a task of `shape`: its processor with empty buckets, and the processor's batch
    /// size for the window unless the shape forces one. The IFMA processor falls back to
    /// scalar batch-affine where it cannot run `P`.
    pub fn begin(&mut self, shape: TaskShape) {
        let TaskShape {
            processor,
            buckets: nb_buckets,
            window,
            batch,
        } = shape;
        self.running = processor;
        match processor {
            Processor::Xyzz => {
                self.xyzz.clear();
                self.xyzz.resize(nb_buckets, Xyzz::ZERO);
            }
            Processor::BatchAffine => self
                .batch_affine
                .begin(nb_buckets, batch.unwrap_or(batch_size(window))),
            Processor::BatchAffineIfma => {
                let batch = batch.unwrap_or(ifma_batch_size(window));
                #[cfg(target_arch = "x86_64")]
                if self.ifma.begin(nb_buckets, batch) {
                    return;
                }
                self.running = Processor::BatchAffine;
                self.batch_affine.begin(nb_buckets, batch);
            }
        }
    }

    /// Adds `points[i]` into bucket |d|-1 (subtracts when d < 0) for each digit
    /// d = `digits[i]` ≠ 0. `records` are the IFMA records of the same points; the IFMA
    /// processor needs them, the others ignore them.
    pub fn accumulate(
        &mut self,
        points: &[Affine<P>],
        records: Option<RecordSlice<'_>>,
        digits: &[i16],
    ) {
        match self.running {
            Processor::Xyzz => accumulate_xyzz(&mut self.xyzz, points, digits),
            Processor::BatchAffine => self.batch_affine.accumulate(points, digits),
            Processor::BatchAffineIfma => {
                #[cfg(target_arch = "x86_64")]
                self.ifma.accumulate(points, records, digits);
                #[cfg(not(target_arch = "x86_64"))]
                let _ = records;
            }
        }
    }

    /// Ends the task: Σ_b (b+1)·bucket_b.
    pub fn finish(&mut self) -> Xyzz<P> {
        match self.running {
            Processor::Xyzz => running_sum(&self.xyzz),
            Processor::BatchAffine => self.batch_affine.finish(),
            Processor::BatchAffineIfma => {
                #[cfg(target_arch = "x86_64")]
                return self.ifma.finish();
                #[cfg(not(target_arch = "x86_64"))]
                unreachable!("begin never runs the IFMA processor off x86-64")
            }
        }
    }

    /// One whole task over `points`: begin, accumulate, finish.
    pub fn process(
        &mut self,
        mut shape: TaskShape,
        points: &[Affine<P>],
        records: Option<RecordSlice<'_>>,
        digits: &[i16],
    ) -> Xyzz<P> {
        if shape.processor == Processor::BatchAffineIfma && records.is_none() {
            shape.processor = Processor::BatchAffine;
        }
        self.begin(shape);
        self.accumulate(points, records, digits);
        self.finish()
    }
}

#[cfg(target_arch = "x86_64")]
impl<P: SWCurveConfig> IfmaState<P> {
    /// Starts an IFMA task; false if the IFMA processor cannot run `P` here.
    fn begin(&mut self, nb_buckets: usize, batch: usize) -> bool {
        macro_rules! start {
            ($variant:ident, $l:literal) => {{
                if !matches!(self, IfmaState::$variant(_)) {
                    let token = crate::ifma::Avx512Ifma::detect();
                    match token.and_then(ifma_batch::IfmaBatch::<P, $l>::new) {
                        Some(state) => *self = IfmaState::$variant(state),
                        None => return false,
                    }
                }
                if let IfmaState::$variant(state) = self {
                    state.begin(nb_buckets, batch);
                }
                true
            }};
        }
        match ifma_limbs::<P>() {
            Some(5) => start!(L5, 5),
            Some(7) => start!(L7, 7),
            Some(8) => start!(L8, 8),
            _ => false,
        }
    }

    fn accumulate(
        &mut self,
        points: &[Affine<P>],
        records: Option<RecordSlice<'_>>,
        digits: &[i16],
    ) {
        let Some(r) = records else {
            debug_assert!(false, "the IFMA processor runs only with records");
            return;
        };
        assert_eq!(
            r.data.len(),
            2 * r.limbs * points.len(),
            "one record per point"
        );
        // SAFETY: the assert above gives 2L u64 per point.
        unsafe {
            match self {
                IfmaState::L5(s) if r.limbs == 5 => s.accumulate(points, r.data, digits),
                IfmaState::L7(s) if r.limbs == 7 => s.accumulate(points, r.data, digits),
                IfmaState::L8(s) if r.limbs == 8 => s.accumulate(points, r.data, digits),
                _ => debug_assert!(false, "records of another limb count"),
            }
        }
    }

    fn finish(&mut self) -> Xyzz<P> {
        match self {
            IfmaState::L5(s) => s.finish(),
            IfmaState::L7(s) => s.finish(),
            IfmaState::L8(s) => s.finish(),
            IfmaState::Unset => Xyzz::ZERO,
        }
    }
}

/// Digits sampled per task by [`refine`].
const SAMPLES: usize = 256;

/// The processor a task runs, given its digits: the planned one, except that a batch-affine
/// task goes to XYZZ when a sample of its digits shows it sparse (too few non-zero digits to
/// fill a few batches, so each inversion is shared by few additions) or skewed (few distinct
/// buckets, so most additions would conflict in the batch and fall back to the queue and the
/// overflow buckets). The planner prices uniform digits; this catches the inputs that are not.
/// Cost: [`SAMPLES`] reads and a sort of at most as many u16.
pub fn refine(processor: Processor, digits: &[i16], window: u32) -> Processor {
    if processor == Processor::Xyzz || digits.is_empty() {
        return processor;
    }
    let step = digits.len().div_ceil(SAMPLES);
    let mut seen: Vec<u16> = digits
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
    let buckets = 1usize << (window.clamp(1, 16) - 1);
    if seen.len() * 4 < hits.min(buckets) {
        return Processor::Xyzz;
    }
    processor
}

/// The XYZZ accumulation loop.
fn accumulate_xyzz<P: SWCurveConfig>(
    buckets: &mut [Xyzz<P>],
    points: &[Affine<P>],
    digits: &[i16],
) {
    for (p, &d) in points.iter().zip(digits) {
        if d > 0 {
            buckets[(d - 1) as usize].add_affine(p);
        } else if d < 0 {
            buckets[(-(d as i32) - 1) as usize].sub_affine(p);
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
    fn refine_sends_sparse_and_skewed_chunks_to_xyzz() {
        let c = 12;
        let uniform: Vec<i16> = (0..20_000)
            .map(|i| ((i * 2654435761u64 as usize) % 4095) as i16 - 2047)
            .collect();
        for p in [Processor::BatchAffine, Processor::BatchAffineIfma] {
            assert_eq!(refine(p, &uniform, c), p, "uniform digits keep {p:?}");
            let skewed: Vec<i16> = (0..20_000)
                .map(|i| if i % 50 == 0 { 7 } else { -3 })
                .collect();
            assert_eq!(refine(p, &skewed, c), Processor::Xyzz, "skewed");
            let sparse: Vec<i16> = (0..20_000)
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
            let uniform: Vec<i16> = (0..256u64)
                .map(|i| ((i * 2654435761 % (2 * half as u64)) as i64 - half + 1) as i16)
                .collect();
            for p in [Processor::BatchAffine, Processor::BatchAffineIfma] {
                assert_eq!(refine(p, &uniform, c), p, "c={c} {p:?}");
            }
            // A real chunk's digits, as the executor hands them over (c = 7: 252 hits of 64
            // buckets find about 62, which the former bound, a quarter of the hits, refused).
            let spec = crate::curves::spec("bn254-g1").unwrap();
            let scalars = crate::sample::scalars::<ark_bn254::Fr>(256, 5);
            let w = crate::digits::Windowing::new(spec.modulus(), c);
            let digits = crate::exec::digits(&scalars, w, 1).unwrap();
            for chunk in 0..4 {
                assert_eq!(
                    refine(Processor::BatchAffineIfma, digits.chunk(chunk), c),
                    Processor::BatchAffineIfma,
                    "c={c} chunk {chunk}"
                );
            }
            let skewed: Vec<i16> = (0..256).map(|i| if i % 50 == 0 { 2 } else { -1 }).collect();
            assert_eq!(
                refine(Processor::BatchAffineIfma, &skewed, c),
                Processor::Xyzz,
                "c={c} skewed"
            );
        }
    }
}
