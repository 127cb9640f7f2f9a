//! Chunk processors: accumulate one chunk's points into buckets by digit, then reduce the
//! buckets to the chunk's partial sum Σ_b (b+1)·bucket_b.
//!
//! Cost of one task over m points with B buckets: m·w(processor) for the accumulation
//! (w = one mixed add for XYZZ) plus 2·B full adds for the running-sum reduction.

pub mod batch_affine;
#[cfg(target_arch = "x86_64")]
pub mod ifma_batch;
pub mod lanes;
pub mod xyzz;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};

use crate::reduce::running_sum;
pub use batch_affine::BatchAffine;
pub use xyzz::Xyzz;

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

/// The 52-bit limb count of `P`'s coordinates if the IFMA processor can run it here.
pub fn ifma_limbs<P: SWCurveConfig>() -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    {
        use ark_ff::{Field, PrimeField};
        type Prime<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;
        if <P::BaseField as Field>::extension_degree() != 1 || !crate::ifma::available() {
            return None;
        }
        let l = crate::ifma::limbs_for(<Prime<P> as PrimeField>::MODULUS_BIT_SIZE);
        [5, 7, 8].contains(&l).then_some(l)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
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
        #[cfg(target_arch = "x86_64")]
        {
            let mut data = vec![0u64; 2 * limbs * points.len()];
            let n = points.len();
            let parts = workers.clamp(1, n.div_ceil(8).max(1));
            // Ranges on multiples of 8 points.
            let bounds: Vec<usize> = (0..=parts)
                .map(|i| (i * n.div_ceil(8) / parts * 8).min(n))
                .collect();
            let mut slices = Vec::with_capacity(parts);
            let mut rest = data.as_mut_slice();
            for w in bounds.windows(2) {
                let (head, tail) = rest.split_at_mut(2 * limbs * (w[1] - w[0]));
                slices.push(head);
                rest = tail;
            }
            crate::exec::on_workers(slices, |w, out| {
                let pts = &points[bounds[w]..bounds[w + 1]];
                macro_rules! run {
                    ($l:literal) => {{
                        if let Some(f) = crate::ifma::Field52::<$l>::of::<
                            <P::BaseField as ark_ff::Field>::BasePrimeField,
                        >() {
                            // SAFETY: ifma_limbs checked the CPU features.
                            unsafe { ifma_batch::prepare::<P, $l>(&f, pts, out) }
                        }
                    }};
                }
                match limbs {
                    5 => run!(5),
                    7 => run!(7),
                    _ => run!(8),
                }
            })?;
            Ok(Some(Records { limbs, data }))
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (points, workers, limbs);
            Ok(None)
        }
    }
}

/// One worker's reusable bucket storage, grown on demand and reset before each task.
pub struct BucketSet<P: SWCurveConfig> {
    xyzz: Vec<Xyzz<P>>,
    batch_affine: BatchAffine<P>,
    #[cfg(target_arch = "x86_64")]
    ifma: IfmaState<P>,
}

impl<P: SWCurveConfig> Default for BucketSet<P> {
    fn default() -> Self {
        BucketSet {
            xyzz: Vec::new(),
            batch_affine: BatchAffine::default(),
            #[cfg(target_arch = "x86_64")]
            ifma: IfmaState::Unset,
        }
    }
}

impl<P: SWCurveConfig> BucketSet<P> {
    /// `len` identity buckets, reusing the allocation of earlier tasks.
    fn xyzz(&mut self, len: usize) -> &mut [Xyzz<P>] {
        self.xyzz.clear();
        self.xyzz.resize(len, Xyzz::ZERO);
        &mut self.xyzz
    }

    /// Runs one chunk task: adds `points[i]` into bucket |d|-1 (subtracts when d < 0) for each
    /// digit d = `digits[i]` ≠ 0, then returns Σ_b (b+1)·bucket_b.
    pub fn process(
        &mut self,
        processor: Processor,
        points: &[Affine<P>],
        records: Option<RecordSlice<'_>>,
        digits: &[i16],
        nb_buckets: usize,
        window: u32,
    ) -> Xyzz<P> {
        match processor {
            Processor::Xyzz => {
                let buckets = self.xyzz(nb_buckets);
                accumulate_xyzz(buckets, points, digits);
                running_sum(buckets)
            }
            Processor::BatchAffine => {
                let batch = batch_size(window);
                self.batch_affine.process(points, digits, nb_buckets, batch)
            }
            Processor::BatchAffineIfma => {
                let batch = ifma_batch_size(window);
                #[cfg(target_arch = "x86_64")]
                if let Some(r) = records {
                    let recs = r.data;
                    macro_rules! run {
                        ($variant:ident, $l:literal) => {{
                            if !matches!(self.ifma, IfmaState::$variant(_)) {
                                if let Some(state) = ifma_batch::IfmaBatch::<P, $l>::new() {
                                    self.ifma = IfmaState::$variant(state);
                                }
                            }
                            if let IfmaState::$variant(state) = &mut self.ifma {
                                // SAFETY: records exist only where ifma_limbs found the CPU
                                // features, and hold 2L u64 per point of this range.
                                return unsafe {
                                    state.process(points, recs, digits, nb_buckets, batch)
                                };
                            }
                        }};
                    }
                    match r.limbs {
                        5 => run!(L5, 5),
                        7 => run!(L7, 7),
                        8 => run!(L8, 8),
                        _ => {}
                    }
                }
                let _ = records;
                // No IFMA here: the same algorithm on scalar arithmetic.
                self.batch_affine.process(points, digits, nb_buckets, batch)
            }
        }
    }
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

/// The batch size used for window c (buckets 2^(c-1)).
pub fn batch_size(c: u32) -> usize {
    match c {
        0..=9 => (1usize << c.saturating_sub(1)) / 8 + 16,
        10 => 80,
        11 => 150,
        12 => 200,
        13 => 350,
        14 => 400,
        15 => 500,
        _ => 640,
    }
}

/// The batch size of the IFMA processor for window c.
pub fn ifma_batch_size(c: u32) -> usize {
    match c {
        0..=9 => 64,
        10 => 128,
        11 => 256,
        12 => 384,
        13 => 512,
        14 => 640,
        _ => 1024,
    }
}
