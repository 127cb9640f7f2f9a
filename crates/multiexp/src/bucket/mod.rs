//! Chunk processors: accumulate one chunk's points into buckets by digit, then reduce the
//! buckets to the chunk's partial sum Σ_b (b+1)·bucket_b.
//!
//! Cost of one task over m points with B buckets: m·w(processor) for the accumulation
//! (w = one mixed add for XYZZ) plus 2·B full adds for the running-sum reduction.

pub mod xyzz;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};

use crate::reduce::running_sum;
pub use xyzz::Xyzz;

/// How a chunk task accumulates its points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Processor {
    /// XYZZ buckets with mixed additions.
    Xyzz,
}

impl Processor {
    /// Short name used by the CLI and in plans.
    pub fn name(self) -> &'static str {
        match self {
            Processor::Xyzz => "xyzz",
        }
    }
}

/// One worker's reusable bucket storage, grown on demand and reset before each task.
pub struct BucketSet<P: SWCurveConfig> {
    xyzz: Vec<Xyzz<P>>,
}

impl<P: SWCurveConfig> Default for BucketSet<P> {
    fn default() -> Self {
        BucketSet { xyzz: Vec::new() }
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
    ) -> Xyzz<P> {
        match processor {
            Processor::Xyzz => {
                let buckets = self.xyzz(nb_buckets);
                accumulate_xyzz(buckets, points, digits);
                running_sum(buckets)
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
