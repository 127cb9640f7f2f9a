//! Reductions: buckets to a chunk sum, partial chunk sums to one, chunk sums to the result.
//!
//! - running sum: Σ_b (b+1)·B_b from the top bucket down, 2 full adds per bucket (one add of
//!   a multiple per run of empty buckets);
//! - merge: the k partial sums of a split chunk, k - 1 adds;
//! - Horner: S = S_{K-1}; S = 2^c·S + S_j for j = K-2..0, (K-1)·c doublings and K - 1 adds,
//!   sequential.

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use ark_ff::{AdditiveGroup, Zero};

use crate::xyzz::Xyzz;

/// Σ_b (b+1)·buckets[b], by a running sum from the top bucket down ([`running_sum_by`]).
pub(crate) fn running_sum<P: SWCurveConfig>(buckets: &[Xyzz<P>]) -> Xyzz<P> {
    running_sum_by(buckets.len(), |b| {
        let bucket = &buckets[b];
        (!bucket.is_zero()).then_some(bucket)
    })
}

/// Σ_b (b+1)·buckets[b] over the buckets at `indices` (strictly decreasing; every other
/// bucket zero): the running sum of [`running_sum_by`] that skips each gap in one step.
pub(crate) fn running_sum_at<P: SWCurveConfig>(buckets: &[Xyzz<P>], indices: &[u32]) -> Xyzz<P> {
    let mut running = Xyzz::<P>::ZERO;
    let mut acc = Xyzz::<P>::ZERO;
    let mut above = None::<u32>;
    for &b in indices {
        if let Some(a) = above {
            add_multiple(&mut acc, &running, u64::from(a - b));
        }
        running.add_assign(&buckets[b as usize]);
        above = Some(b);
    }
    if let Some(last) = above {
        add_multiple(&mut acc, &running, u64::from(last) + 1);
    }
    acc
}

/// A bucket value the running sum adds: an XYZZ point or affine coordinates.
pub(crate) trait Summand<P: SWCurveConfig> {
    /// acc += self.
    fn add_to(&self, acc: &mut Xyzz<P>);
}

impl<P: SWCurveConfig> Summand<P> for &Xyzz<P> {
    #[inline(always)]
    fn add_to(&self, acc: &mut Xyzz<P>) {
        acc.add_assign(self);
    }
}

impl<P: SWCurveConfig> Summand<P> for (P::BaseField, P::BaseField) {
    #[inline(always)]
    fn add_to(&self, acc: &mut Xyzz<P>) {
        acc.add_xy(&self.0, &self.1);
    }
}

/// Σ_b (b+1)·B_b for b < `buckets`, where `bucket(b)` is B_b or `None` for an empty bucket,
/// by a running sum from the top bucket down: the one gap-aware running sum of every
/// processor.
///
/// A run of g empty buckets leaves the running sum unchanged for g steps, so its g additions
/// into the total are one addition of g·running (a short double-and-add). Dense buckets cost
/// the plain 2 additions each; sparse ones (few points, large window) far fewer.
#[inline]
pub(crate) fn running_sum_by<P: SWCurveConfig, S: Summand<P>>(
    buckets: usize,
    mut bucket: impl FnMut(usize) -> Option<S>,
) -> Xyzz<P> {
    let mut running = Xyzz::<P>::ZERO;
    let mut acc = Xyzz::<P>::ZERO;
    // Steps since the last non-empty bucket whose `acc += running` is still owed.
    let mut pending = 0u64;
    for b in (0..buckets).rev() {
        let Some(value) = bucket(b) else {
            pending += 1;
            continue;
        };
        add_multiple(&mut acc, &running, pending);
        value.add_to(&mut running);
        pending = 1;
    }
    add_multiple(&mut acc, &running, pending);
    acc
}

/// acc += k·p.
#[inline(always)]
pub(crate) fn add_multiple<P: SWCurveConfig>(acc: &mut Xyzz<P>, p: &Xyzz<P>, k: u64) {
    if k == 1 {
        acc.add_assign(p);
    } else if k > 1 && !p.is_zero() {
        let mut t = *p;
        for i in (0..63 - k.leading_zeros()).rev() {
            t.double_in_place();
            if (k >> i) & 1 == 1 {
                t.add_assign(p);
            }
        }
        acc.add_assign(&t);
    }
}

/// Σ_j 2^(c·j)·chunk_sums[j] by Horner's rule from the top chunk down.
pub(crate) fn horner<P: SWCurveConfig>(chunk_sums: &[Projective<P>], window: u32) -> Projective<P> {
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
