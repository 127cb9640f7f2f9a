//! Bucket reduction in affine coordinates, in lanes that share inversions.
//!
//! The running sum Σ_b (b+1)·B_b is sequential along b, so it cannot batch by itself. Cut the
//! N buckets into L segments of s = ceil(N/L) and run the L segment running sums in lockstep:
//! at step j (from s-1 down to 0), every lane ℓ does R_ℓ += B_{ℓs+j} and then T_ℓ += R_ℓ.
//! Each of the two rounds is L independent affine additions with one shared inversion
//! (5M + 1S + I/L each, against 12M + 2S for a full XYZZ addition). At the end
//! T_ℓ = Σ_{b in segment ℓ} (b - ℓs + 1)·B_b and R_ℓ is the segment's total G_ℓ, so
//!
//!   Σ_b (b+1)·B_b = Σ_ℓ T_ℓ + s·Σ_ℓ ℓ·G_ℓ,
//!
//! the last sum being a short running sum over the lanes. Total ≈ 2N affine additions plus
//! 2N/L inversions plus about 3L XYZZ additions, so L ≈ sqrt(5N) balances the two overheads.
//!
//! Exceptional additions are handled inside the same batch: P + P uses the doubling slope
//! (3x² + a)/(2y), P + (-P) empties the lane, and an empty operand is a copy.

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ff::{AdditiveGroup, Field, Zero};

use crate::inverse::Inverter;
use crate::reduce::add_multiple;
use crate::xyzz::Xyzz;

/// Affine points in structure-of-arrays form; `zero[i]` marks the identity.
#[derive(Default)]
struct Points<F> {
    x: Vec<F>,
    y: Vec<F>,
    zero: Vec<bool>,
}

impl<F: Field> Points<F> {
    fn reset(&mut self, len: usize) {
        self.x.clear();
        self.x.resize(len, F::zero());
        self.y.clear();
        self.y.resize(len, F::zero());
        self.zero.clear();
        self.zero.resize(len, true);
    }

    fn get(&self, i: usize) -> Option<(F, F)> {
        (!self.zero[i]).then(|| (self.x[i], self.y[i]))
    }
}

/// Reusable scratch space for lane reductions.
pub struct Lanes<P: SWCurveConfig> {
    running: Points<P::BaseField>,
    total: Points<P::BaseField>,
    /// Pending additions of one round: lane, the other operand's x, numerator, denominator.
    lane: Vec<u32>,
    other_x: Vec<P::BaseField>,
    num: Vec<P::BaseField>,
    den: Vec<P::BaseField>,
    prefix: Vec<P::BaseField>,
    inverter: Inverter<P::BaseField>,
}

impl<P: SWCurveConfig> Default for Lanes<P> {
    fn default() -> Self {
        Lanes {
            running: Points::default(),
            total: Points::default(),
            lane: Vec::new(),
            other_x: Vec::new(),
            num: Vec::new(),
            den: Vec::new(),
            prefix: Vec::new(),
            inverter: Inverter::default(),
        }
    }
}

/// The number of lanes for N buckets.
pub fn lane_count(buckets: usize) -> usize {
    (((5 * buckets) as f64).sqrt() as usize)
        .clamp(1, 512)
        .min(buckets.max(1))
}

impl<P: SWCurveConfig> Lanes<P> {
    /// Σ_b (b+1)·bucket_b for affine buckets (`xs[b]`, `ys[b]`) where `filled[b]`.
    pub fn reduce(&mut self, xs: &[P::BaseField], ys: &[P::BaseField], filled: &[bool]) -> Xyzz<P> {
        let n = filled.len();
        if n == 0 {
            return Xyzz::ZERO;
        }
        let lanes = lane_count(n);
        let seg = n.div_ceil(lanes);
        self.running.reset(lanes);
        self.total.reset(lanes);
        for j in (0..seg).rev() {
            // R_ℓ += B_{ℓs+j}
            self.begin();
            {
                let mut pending = Pending {
                    lane: &mut self.lane,
                    other_x: &mut self.other_x,
                    num: &mut self.num,
                    den: &mut self.den,
                };
                for l in 0..lanes {
                    let b = l * seg + j;
                    if b < n && filled[b] {
                        Self::stage(&mut self.running, l, xs[b], ys[b], &mut pending);
                    }
                }
            }
            self.finish_into(true);
            // T_ℓ += R_ℓ
            self.begin();
            {
                let mut pending = Pending {
                    lane: &mut self.lane,
                    other_x: &mut self.other_x,
                    num: &mut self.num,
                    den: &mut self.den,
                };
                for l in 0..lanes {
                    if let Some((x, y)) = self.running.get(l) {
                        Self::stage(&mut self.total, l, x, y, &mut pending);
                    }
                }
            }
            self.finish_into(false);
        }
        // Σ_ℓ T_ℓ + s·Σ_ℓ ℓ·G_ℓ
        let mut sum_t = Xyzz::<P>::ZERO;
        let mut running = Xyzz::<P>::ZERO;
        let mut weighted = Xyzz::<P>::ZERO;
        for l in (0..lanes).rev() {
            if let Some((x, y)) = self.total.get(l) {
                sum_t.add_xy(&x, &y);
            }
            if l == 0 {
                break;
            }
            if let Some((x, y)) = self.running.get(l) {
                running.add_xy(&x, &y);
            }
            weighted.add_assign(&running);
        }
        add_multiple(&mut sum_t, &weighted, seg as u64);
        sum_t
    }

    fn begin(&mut self) {
        self.lane.clear();
        self.other_x.clear();
        self.num.clear();
        self.den.clear();
    }

    /// Stages dst[l] += (x, y): a copy, a cancellation, or a batched addition or doubling.
    #[inline(always)]
    fn stage(
        dst: &mut Points<P::BaseField>,
        l: usize,
        x: P::BaseField,
        y: P::BaseField,
        pending: &mut Pending<'_, P::BaseField>,
    ) {
        if dst.zero[l] {
            dst.x[l] = x;
            dst.y[l] = y;
            dst.zero[l] = false;
            return;
        }
        let (x1, y1) = (dst.x[l], dst.y[l]);
        if x1 == x {
            if y1 == y && !y.is_zero() {
                let xx = x.square();
                pending.push(l, x, xx.double() + xx + P::COEFF_A, y.double());
            } else {
                dst.zero[l] = true;
            }
            return;
        }
        pending.push(l, x, y - y1, x - x1);
    }

    /// Runs the staged additions with one inversion; `into_running` picks the target lanes.
    fn finish_into(&mut self, into_running: bool) {
        let len = self.lane.len();
        if len == 0 {
            return;
        }
        self.prefix.resize(len, P::BaseField::zero());
        let mut acc = P::BaseField::ONE;
        for i in 0..len {
            acc *= self.den[i];
            self.prefix[i] = acc;
        }
        // Denominators are non-zero: equal x with y = 0 or opposite y never reaches a batch.
        let mut inv = self.inverter.invert(&acc);
        let dst = if into_running {
            &mut self.running
        } else {
            &mut self.total
        };
        for i in (0..len).rev() {
            let d_inv = if i == 0 {
                inv
            } else {
                inv * self.prefix[i - 1]
            };
            inv *= self.den[i];
            let l = self.lane[i] as usize;
            let (x1, y1) = (dst.x[l], dst.y[l]);
            let lambda = self.num[i] * d_inv;
            let x3 = lambda.square() - x1 - self.other_x[i];
            dst.y[l] = lambda * (x1 - x3) - y1;
            dst.x[l] = x3;
        }
    }
}

/// Staged additions of one round.
struct Pending<'a, F> {
    lane: &'a mut Vec<u32>,
    other_x: &'a mut Vec<F>,
    num: &'a mut Vec<F>,
    den: &'a mut Vec<F>,
}

impl<F> Pending<'_, F> {
    #[inline(always)]
    fn push(&mut self, lane: usize, other_x: F, num: F, den: F) {
        self.lane.push(lane as u32);
        self.other_x.push(other_x);
        self.num.push(num);
        self.den.push(den);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reduce::running_sum;
    use ark_ec::short_weierstrass::Affine;
    use ark_ec::{AffineRepr, CurveGroup};

    /// Buckets full of exceptional cases: repeats (doublings in the lanes), negations
    /// (cancellations), empties, and every bucket count from 1 to a few hundred.
    fn check<P: SWCurveConfig>() {
        let g = P::GENERATOR;
        let pts: Vec<Affine<P>> = (1..=7u64)
            .map(|k| (g.into_group() * P::ScalarField::from(k)).into_affine())
            .collect();
        let mut lanes = Lanes::<P>::default();
        for n in (1..40).chain([63, 64, 65, 200, 511]) {
            for pattern in 0..4u64 {
                let mut xs = vec![P::BaseField::zero(); n];
                let mut ys = vec![P::BaseField::zero(); n];
                let mut filled = vec![false; n];
                let mut xyzz = vec![Xyzz::<P>::ZERO; n];
                for b in 0..n {
                    let h = (b as u64 * 2654435761 + pattern * 97) % 11;
                    let p = match pattern {
                        0 => Some(pts[(h % 7) as usize]),
                        1 => Some(g),
                        2 if h < 4 => None,
                        2 => Some(if b.is_multiple_of(2) { pts[1] } else { -pts[1] }),
                        _ if h.is_multiple_of(3) => None,
                        _ => Some(if h.is_multiple_of(2) {
                            pts[(h % 5) as usize]
                        } else {
                            -pts[0]
                        }),
                    };
                    if let Some(p) = p {
                        let (x, y) = p.xy().unwrap();
                        xs[b] = x;
                        ys[b] = y;
                        filled[b] = true;
                        xyzz[b] = Xyzz::from_affine(&p);
                    }
                }
                let got = lanes.reduce(&xs, &ys, &filled).into_projective();
                let expected = running_sum(&xyzz).into_projective();
                assert_eq!(got, expected, "n={n} pattern={pattern}");
            }
        }
    }

    #[test]
    fn lane_reduction_equals_the_running_sum_on_exceptional_buckets() {
        check::<ark_bn254::g1::Config>();
        check::<ark_secp256r1::Config>();
        check::<ark_bls12_381::g2::Config>();
    }
}
