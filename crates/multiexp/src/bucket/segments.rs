//! Bucket reduction in affine coordinates, in segments whose additions share inversions;
//! written once over an [`AffineBackend`].
//!
//! The running sum Σ_b (b+1)·B_b is sequential along b, so it cannot batch by itself. Cut the
//! N buckets into S segments of s = ceil(N/S) and run the S segment running sums in lockstep:
//! at step j (from s-1 down to 0), every segment ℓ does R_ℓ += B_{ℓs+j} and then T_ℓ += R_ℓ.
//! Each of the two rounds is S independent affine additions with one shared inversion
//! (5M + 1S + I/S each, against 12M + 2S for a full XYZZ addition). At the end
//! T_ℓ = Σ_{b in segment ℓ} (b - ℓs + 1)·B_b and R_ℓ is the segment's total G_ℓ, so
//!
//!   Σ_b (b+1)·B_b = Σ_ℓ T_ℓ + s·Σ_ℓ ℓ·G_ℓ,
//!
//! the last sum being a short running sum over the segments. Total ≈ 2N affine additions plus
//! 2N/S inversions plus about 3S XYZZ additions, so S ≈ sqrt(5N) balances the two overheads.
//!
//! Exceptional additions are settled after each round: a copy into an empty sum is staged as
//! none, P + P is doubled on arkworks arithmetic (possible only for repeated bucket values),
//! P + (-P) empties the sum.

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::{AffineRepr, CurveGroup};

use super::batch_affine::{AffineBackend, Exceptional, Staged};
use crate::reduce::add_multiple;
use crate::xyzz::Xyzz;

/// The number of segments for N buckets.
pub(crate) fn segment_count(buckets: usize) -> usize {
    (((5 * buckets) as f64).sqrt() as usize)
        .clamp(1, 512)
        .min(buckets.max(1))
}

/// Reusable scratch space of segment reductions over the backend `F`.
pub(crate) struct SegmentSum<P: SWCurveConfig, F: AffineBackend<P>> {
    /// R_ℓ and whether it is the identity.
    running: F::Array,
    running_zero: Vec<bool>,
    /// T_ℓ and whether it is the identity.
    total: F::Array,
    total_zero: Vec<bool>,
    staged: Vec<Staged>,
    exceptional: Vec<Exceptional>,
    _curve: core::marker::PhantomData<P>,
}

impl<P: SWCurveConfig, F: AffineBackend<P>> Default for SegmentSum<P, F> {
    fn default() -> Self {
        SegmentSum {
            running: F::Array::default(),
            running_zero: Vec::new(),
            total: F::Array::default(),
            total_zero: Vec::new(),
            staged: Vec::new(),
            exceptional: Vec::new(),
            _curve: core::marker::PhantomData,
        }
    }
}

impl<P: SWCurveConfig, F: AffineBackend<P>> SegmentSum<P, F> {
    /// Σ_b (b+1)·buckets[b] over the buckets b < `filled.len()` where `filled[b]`.
    pub(crate) fn reduce(&mut self, field: &mut F, buckets: &F::Array, filled: &[bool]) -> Xyzz<P> {
        let n = filled.len();
        if n == 0 {
            return Xyzz::ZERO;
        }
        let segments = segment_count(n);
        let seg = n.div_ceil(segments);
        field.reserve(&mut self.running, segments);
        field.reserve(&mut self.total, segments);
        self.running_zero.clear();
        self.running_zero.resize(segments, true);
        self.total_zero.clear();
        self.total_zero.resize(segments, true);
        for j in (0..seg).rev() {
            // R_ℓ += B_{ℓs+j}
            self.staged.clear();
            for l in 0..segments {
                let b = l * seg + j;
                if b >= n || !filled[b] {
                    continue;
                }
                if self.running_zero[l] {
                    field.copy(&mut self.running, l, buckets, b);
                    self.running_zero[l] = false;
                } else {
                    self.staged.push(Staged {
                        dst: l as u32,
                        src: b as u32,
                        negate: false,
                    });
                }
            }
            field.add_array(
                &mut self.running,
                buckets,
                &self.staged,
                &mut self.exceptional,
            );
            if !self.exceptional.is_empty() {
                settle(
                    field,
                    &mut self.running,
                    &mut self.running_zero,
                    &self.staged,
                    &self.exceptional,
                );
            }
            // T_ℓ += R_ℓ
            self.staged.clear();
            for l in 0..segments {
                if self.running_zero[l] {
                    continue;
                }
                if self.total_zero[l] {
                    field.copy(&mut self.total, l, &self.running, l);
                    self.total_zero[l] = false;
                } else {
                    self.staged.push(Staged {
                        dst: l as u32,
                        src: l as u32,
                        negate: false,
                    });
                }
            }
            field.add_array(
                &mut self.total,
                &self.running,
                &self.staged,
                &mut self.exceptional,
            );
            if !self.exceptional.is_empty() {
                settle(
                    field,
                    &mut self.total,
                    &mut self.total_zero,
                    &self.staged,
                    &self.exceptional,
                );
            }
        }
        // Σ_ℓ T_ℓ + s·Σ_ℓ ℓ·G_ℓ
        let mut sum_t = Xyzz::<P>::ZERO;
        let mut running = Xyzz::<P>::ZERO;
        let mut weighted = Xyzz::<P>::ZERO;
        for l in (0..segments).rev() {
            if !self.total_zero[l] {
                let (x, y) = field.get(&self.total, l);
                sum_t.add_xy(&x, &y);
            }
            if l == 0 {
                break;
            }
            if !self.running_zero[l] {
                let (x, y) = field.get(&self.running, l);
                running.add_xy(&x, &y);
            }
            weighted.add_assign(&running);
        }
        add_multiple(&mut sum_t, &weighted, seg as u64);
        sum_t
    }
}

/// Applies the exceptional additions of a round to `dst`: equal points double (through
/// arkworks), opposite points cancel.
#[cold]
fn settle<P: SWCurveConfig, F: AffineBackend<P>>(
    field: &F,
    dst: &mut F::Array,
    zero: &mut [bool],
    staged: &[Staged],
    exceptional: &[Exceptional],
) {
    for x in exceptional {
        let l = staged[x.index].dst as usize;
        if !x.doubling {
            zero[l] = true;
            continue;
        }
        let (px, py) = field.get(dst, l);
        let doubled = Xyzz::<P>::double_xy(&px, &py)
            .into_projective()
            .into_affine();
        match doubled.xy() {
            Some((x, y)) => field.set(dst, l, &x, &y),
            None => zero[l] = true,
        }
    }
}
