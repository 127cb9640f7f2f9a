//! Operation counts priced by a profile: what one chunk task, the digit pass, the IFMA record
//! preparation, the merges, Horner's rule and the dispatch of parallel phases cost.
//!
//! For window c with K chunks, chunk j has B_j buckets (2^(c-1), or the top digit bound for
//! the top chunk) and digit density δ_j (the share of non-zero digits: 1 - 2^-c, or
//! 1 - 1/(B_top + 1) for the top chunk). A task over m points with processor p costs
//!
//!   t(m, j, p) = task + fixed(c_j, p) + (x - F)·point(c_j, p) + F·bucket(c_j, p)
//!   x = δ_j·m,  F = F(x, B_j) = B_j·(1 - e^(-x/B_j))   (expected filled buckets)
//!
//! The first point into a bucket is a copy: x - F points are additions, and each of the F
//! filled buckets costs its copy and its share of the reduction.
//!
//! where c_j is the smallest window with 2^(c_j-1) ≥ B_j (c itself but for a small top
//! chunk): a window's weights carry the cache footprint of its buckets. The rest of an MSM of
//! n points on P workers:
//!
//!   digits    n·(digit_scalar + K·digit) / P            (parallel, every plan)
//!   records   n·prepare / P                             (parallel, plans with IFMA tasks)
//!   merges    (Σ_j k_j)·merge - K·add_full              (sequential: every task's partial
//!                                                        sum, the first of a chunk into zero)
//!   Horner    (K - 1)·(c·double + add_full)             (sequential)
//!   dispatch  phases·dispatch if P ≥ 2                  (2 phases, 3 with IFMA records)

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

    /// The window whose weights price chunk `j`: the smallest with at least B_j buckets.
    pub fn priced_window(w: &Windowing, j: usize) -> u32 {
        let buckets = w.buckets(j).max(1);
        let c = usize::BITS - (buckets - 1).leading_zeros() + 1;
        c.min(w.window)
    }

    /// Expected number of filled buckets after `x` uniform digits into `buckets` buckets.
    pub fn filled(x: f64, buckets: f64) -> f64 {
        if buckets <= 0.0 {
            return 0.0;
        }
        buckets * -(-x / buckets).exp_m1()
    }

    /// t(m, j, p): one task over `m` points of chunk `j` with `processor`; `None` where the
    /// profile has no weights for that processor.
    pub fn task_with(&self, w: &Windowing, j: usize, m: f64, processor: Processor) -> Option<f64> {
        let tw = self
            .weights
            .task_weights(Self::priced_window(w, j), processor)?;
        let hits = Self::density(w, j) * m;
        let buckets = w.buckets(j) as f64;
        let filled = Self::filled(hits, buckets);
        Some(self.weights.task + tw.fixed + (hits - filled) * tw.point + filled * tw.bucket)
    }

    /// t(m, j, p), with XYZZ's price where the profile has none for `processor`.
    pub fn task(&self, w: &Windowing, j: usize, m: f64, processor: Processor) -> f64 {
        self.task_with(w, j, m, processor)
            .or_else(|| self.task_with(w, j, m, Processor::Xyzz))
            .unwrap_or(0.0)
    }

    /// The digit pass over n scalars and K chunks (total work, before dividing by workers).
    pub fn digits(&self, n: usize, w: &Windowing) -> f64 {
        n as f64 * (self.weights.digit_scalar + w.chunks as f64 * self.weights.digit)
    }

    /// Converting n points to IFMA records (total work, before dividing by workers).
    pub fn records(&self, n: usize) -> f64 {
        n as f64 * self.weights.prepare
    }

    /// Merging the partial sums of chunks cut into `parts[j]` pieces into the chunk sums.
    pub fn merges(&self, parts: &[usize]) -> f64 {
        let tasks: usize = parts.iter().sum();
        (tasks as f64 * self.weights.merge - parts.len() as f64 * self.weights.add_full).max(0.0)
    }

    /// Horner's combination of K chunk sums.
    pub fn horner(&self, w: &Windowing) -> f64 {
        (w.chunks - 1) as f64 * (w.window as f64 * self.weights.double + self.weights.add_full)
    }

    /// Starting `phases` parallel phases on `workers` workers (free on one, which runs inline).
    pub fn dispatch(&self, phases: usize, workers: usize) -> f64 {
        if workers >= 2 {
            phases as f64 * self.weights.dispatch
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves;

    #[test]
    fn the_top_chunk_is_priced_at_the_window_of_its_bucket_count() {
        let spec = curves::spec("bn254-g1").unwrap();
        let w = Windowing::new(spec.modulus(), 16);
        assert_eq!(CostModel::priced_window(&w, 0), 16);
        let top = w.chunks - 1;
        let b = w.buckets(top);
        let c = CostModel::priced_window(&w, top);
        assert!(
            1usize << (c - 1) >= b && (c == 1 || 1usize << (c - 2) < b),
            "B={b} c={c}"
        );
    }

    #[test]
    fn filled_buckets_grow_from_the_digit_count_to_the_bucket_count() {
        assert!((CostModel::filled(1.0, 1e6) - 1.0).abs() < 1e-3);
        assert!((CostModel::filled(1e9, 100.0) - 100.0).abs() < 1e-9);
        let half = CostModel::filled(100.0, 100.0);
        assert!((half - 100.0 * (1.0 - (-1f64).exp())).abs() < 1e-9);
    }
}
