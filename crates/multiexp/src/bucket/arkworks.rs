//! The arkworks backend of the batch-affine scheduler: points as arkworks coordinates (x, y),
//! a batch's denominators inverted by Montgomery's trick with one divsteps inversion
//! ([`crate::inverse::Inverter`]).
//!
//! Cost per addition: 1 subtraction and 1 multiplication forward (x_src - x_dst into the
//! prefix product), 2 multiplications back to front (the inverse of this entry and the next
//! running inverse), then λ = dy·d⁻¹, x = λ² - x_dst - x_src, y = λ(x_dst - x) - y_dst: 5M + 1S
//! and 6 additions; one inversion per batch. The products are [`crate::mont::Product`]'s off
//! Intel (our assembly product where the field has one) and arkworks' with their operands
//! moved word by word on Intel ([`field::launders`]).

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{Field, Zero};

use super::batch_affine::{AffineBackend, Exceptional, Staged};
use super::lines::LineVec;
use super::prefetch::{prefetch, AHEAD};
use crate::field;
use crate::inverse::Inverter;
use crate::mont::Product;

/// Affine points as arkworks coordinates, with the scratch of one batch.
pub(crate) struct ArkworksAffine<P: SWCurveConfig> {
    inverter: Inverter<P::BaseField>,
    /// The denominators x_src - x_dst of a batch.
    den: Vec<P::BaseField>,
    /// Their prefix products (skipping exceptional entries).
    prefix: Vec<P::BaseField>,
}

impl<P: SWCurveConfig> Default for ArkworksAffine<P> {
    fn default() -> Self {
        ArkworksAffine {
            inverter: Inverter::default(),
            den: Vec::new(),
            prefix: Vec::new(),
        }
    }
}

impl<P: SWCurveConfig> ArkworksAffine<P> {
    /// The batch kernel over any source of points `src(i)` = (x, y), its products moved
    /// word by word where `L` ([`field::launders`]).
    #[inline(always)]
    fn add_from<const L: bool>(
        &mut self,
        dst: &mut [[P::BaseField; 2]],
        src: impl Fn(usize) -> (P::BaseField, P::BaseField),
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        exceptional.clear();
        if staged.is_empty() {
            return;
        }
        // Off Intel (`!L`), our assembly product where the field has one (`crate::mont`).
        let product = Product::<P::BaseField>::new();
        let mul = |a: &P::BaseField, b: &P::BaseField| {
            if L {
                field::mul::<true, _>(a, b)
            } else {
                product.mul(a, b)
            }
        };
        // Montgomery's trick: prefix[i] = d_0 ⋯ d_i, one inversion, then back to front.
        self.den.clear();
        self.prefix.clear();
        let mut acc = P::BaseField::ONE;
        for (index, e) in staged.iter().enumerate() {
            if let Some(ahead) = staged.get(index + AHEAD) {
                prefetch(&dst[ahead.dst as usize]);
            }
            let d = field::sub(&src(e.src as usize).0, &dst[e.dst as usize][0]);
            if field::is_zero(&d) {
                let y = src(e.src as usize).1;
                let y = if e.negate { -y } else { y };
                let doubling = y == dst[e.dst as usize][1];
                exceptional.push(Exceptional { index, doubling });
            } else {
                acc = mul(&acc, &d);
            }
            self.den.push(d);
            self.prefix.push(acc);
        }
        if exceptional.len() == staged.len() {
            return;
        }
        // Every denominator in the product is non-zero.
        let mut inv = self.inverter.invert(&acc);
        let mut skip = exceptional.iter().rev().map(|x| x.index).peekable();
        for i in (0..staged.len()).rev() {
            if skip.peek() == Some(&i) {
                skip.next();
                continue;
            }
            let d_inv = if i == 0 {
                inv
            } else {
                mul(&inv, &self.prefix[i - 1])
            };
            inv = mul(&inv, &self.den[i]);
            let e = staged[i];
            let (x, y) = src(e.src as usize);
            let b = &mut dst[e.dst as usize];
            let [xa, ya] = *b;
            // (y − ya) for the point, (−y − ya) for its negation.
            let dy = field::sub(&field::neg_if(&y, e.negate), &ya);
            let lambda = mul(&dy, &d_inv);
            let square = if L {
                field::square::<true, _>(&lambda)
            } else {
                product.square(&lambda)
            };
            let x3 = field::sub(&field::sub(&square, &xa), &x);
            *b = [x3, field::sub(&mul(&lambda, &field::sub(&xa, &x3)), &ya)];
        }
    }
}

impl<P: SWCurveConfig> ArkworksAffine<P> {
    /// [`Self::add_from`] with the products moved word by word or not, as `launder` says
    /// ([`field::launders`] for this host; the tests ask for both).
    #[inline(always)]
    pub(super) fn add_by(
        &mut self,
        launder: bool,
        dst: &mut [[P::BaseField; 2]],
        src: impl Fn(usize) -> (P::BaseField, P::BaseField),
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        if launder {
            self.add_from::<true>(dst, src, staged, exceptional);
        } else {
            self.add_from::<false>(dst, src, staged, exceptional);
        }
    }
}

impl<P: SWCurveConfig> AffineBackend<P> for ArkworksAffine<P> {
    type Input<'a> = &'a [Affine<P>];
    type Array = LineVec<[P::BaseField; 2]>;

    fn reserve(&self, array: &mut Self::Array, len: usize) {
        array.grow(len, [P::BaseField::zero(); 2]);
    }

    #[inline(always)]
    fn is_infinity(&self, input: &[Affine<P>], i: usize) -> bool {
        field::is_infinity(&input[i])
    }

    #[inline(always)]
    fn prefetch_input(&self, input: &[Affine<P>], i: usize) {
        if let Some(p) = input.get(i) {
            prefetch(p);
        }
    }

    fn input_xy(&self, input: &[Affine<P>], i: usize) -> Option<(P::BaseField, P::BaseField)> {
        input[i].xy()
    }

    #[inline(always)]
    fn load(&self, array: &mut Self::Array, b: usize, input: &[Affine<P>], i: usize, negate: bool) {
        let p = &input[i];
        array[b] = [p.x, field::neg_if(&p.y, negate)];
    }

    #[inline(always)]
    fn copy(&self, dst: &mut Self::Array, d: usize, src: &Self::Array, s: usize) {
        dst[d] = src[s];
    }

    #[inline(always)]
    fn get(&self, array: &Self::Array, b: usize) -> (P::BaseField, P::BaseField) {
        let [x, y] = array[b];
        (x, y)
    }

    fn set(&self, array: &mut Self::Array, b: usize, x: &P::BaseField, y: &P::BaseField) {
        array[b] = [*x, *y];
    }

    fn add_input(
        &mut self,
        dst: &mut Self::Array,
        input: &[Affine<P>],
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        let src = |i: usize| (input[i].x, input[i].y);
        self.add_by(field::launders(), dst, src, staged, exceptional);
    }

    fn add_array(
        &mut self,
        dst: &mut Self::Array,
        src: &Self::Array,
        staged: &[Staged],
        exceptional: &mut Vec<Exceptional>,
    ) {
        let from = |i: usize| (src[i][0], src[i][1]);
        self.add_by(field::launders(), dst, from, staged, exceptional);
    }
}
