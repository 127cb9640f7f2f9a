//! Chunk processors: accumulate one chunk's points into buckets by digit, then reduce the
//! buckets to the chunk's partial sum Σ_b (b+1)·bucket_b.
//!
//! Cost of one task over m points with B buckets: m·w(processor) for the accumulation
//! (w = one mixed add for XYZZ) plus 2·B full adds for the running-sum reduction.

pub mod batch_affine;
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
}

impl Processor {
    /// Short name used by the CLI and in plans.
    pub fn name(self) -> &'static str {
        match self {
            Processor::Xyzz => "xyzz",
            Processor::BatchAffine => "batch-affine",
        }
    }
}

/// One worker's reusable bucket storage, grown on demand and reset before each task.
pub struct BucketSet<P: SWCurveConfig> {
    xyzz: Vec<Xyzz<P>>,
    batch_affine: BatchAffine<P>,
}

impl<P: SWCurveConfig> Default for BucketSet<P> {
    fn default() -> Self {
        BucketSet {
            xyzz: Vec::new(),
            batch_affine: BatchAffine::default(),
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
