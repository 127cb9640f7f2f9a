//! Operation counts priced by a profile: what one chunk task, the digit pass, the merges and
//! the Horner combination cost.
//!
//! For window c with K chunks, chunk j with B_j buckets (2^(c-1), or the top digit bound for
//! the top chunk) and digit density δ_j (the share of non-zero digits: 1 - 2^-c, or
//! 1 - 1/(B_top + 1) for the top chunk), a task over m points costs
//!
//!   t(m, j) = δ_j·m·w + 2·B_j·add_full + task
//!
//! with w the processor's price per accumulated point. The rest of an MSM:
//! digits n·K·digit (parallel over workers), merges Σ_j (k_j - 1)·add_full and Horner
//! (K - 1)·(c·double + add_full), both sequential.

use crate::bucket::Processor;
use crate::digits::Windowing;
use crate::plan::profile::Weights;

/// A profile's weights applied to one curve/group's windowings.
#[derive(Clone, Debug)]
pub struct CostModel {
    /// The per-operation prices.
    pub weights: Weights,
}

impl CostModel {
    /// The model for one curve/group's weights.
    pub fn new(weights: Weights) -> Self {
        CostModel { weights }
    }

    /// Expected share of non-zero digits in chunk `j`.
    pub fn density(w: &Windowing, j: usize) -> f64 {
        if j + 1 == w.chunks {
            1.0 - 1.0 / (w.top_max as f64 + 1.0)
        } else {
            1.0 - (-(w.window as f64)).exp2()
        }
    }

    /// Price of accumulating one point with `processor`.
    pub fn per_point(&self, processor: Processor) -> f64 {
        match processor {
            Processor::Xyzz => self.weights.add_mixed,
            Processor::BatchAffine => self.weights.add_batch,
            Processor::BatchAffineIfma => self.weights.add_batch_ifma,
        }
    }

    /// t(m, j): one task over `m` points of chunk `j`.
    pub fn task(&self, w: &Windowing, j: usize, m: f64, processor: Processor) -> f64 {
        let buckets = w.buckets(j) as f64;
        Self::density(w, j) * m * self.per_point(processor)
            + 2.0 * buckets * self.weights.add_full
            + self.weights.task
    }

    /// The digit pass over n scalars and K chunks (total work, before dividing by workers).
    pub fn digits(&self, n: usize, w: &Windowing) -> f64 {
        n as f64 * w.chunks as f64 * self.weights.digit
    }

    /// Merging the partial sums of chunks cut into `parts[j]` pieces.
    pub fn merges(&self, parts: &[usize]) -> f64 {
        parts.iter().map(|&k| (k - 1) as f64).sum::<f64>() * self.weights.add_full
    }

    /// Horner's combination of K chunk sums.
    pub fn horner(&self, w: &Windowing) -> f64 {
        (w.chunks - 1) as f64 * (w.window as f64 * self.weights.double + self.weights.add_full)
    }
}
