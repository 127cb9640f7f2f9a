//! Reductions: buckets to a chunk sum, partial chunk sums to one, chunk sums to the result.
//!
//! - running sum: Σ_b (b+1)·B_b from the top bucket down, 2 full adds per bucket;
//! - merge: the k partial sums of a split chunk, k - 1 adds;
//! - Horner: S = S_{K-1}; S = 2^c·S + S_j for j = K-2..0, (K-1)·c doublings and K - 1 adds,
//!   sequential.

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use ark_ff::{AdditiveGroup, Zero};

use crate::bucket::Xyzz;

/// Σ_b (b+1)·buckets[b], by a running sum from the top bucket down.
pub fn running_sum<P: SWCurveConfig>(buckets: &[Xyzz<P>]) -> Xyzz<P> {
    let mut running = Xyzz::<P>::ZERO;
    let mut acc = Xyzz::<P>::ZERO;
    for b in buckets.iter().rev() {
        running.add_assign(b);
        acc.add_assign(&running);
    }
    acc
}

/// Σ_j 2^(c·j)·chunk_sums[j] by Horner's rule from the top chunk down.
pub fn horner<P: SWCurveConfig>(chunk_sums: &[Projective<P>], window: u32) -> Projective<P> {
    let mut acc = Projective::<P>::zero();
    for (j, s) in chunk_sums.iter().enumerate().rev() {
        if j + 1 < chunk_sums.len() {
            for _ in 0..window {
                acc.double_in_place();
            }
        }
        acc += s;
    }
    acc
}
