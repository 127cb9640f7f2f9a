//! XYZZ (extended Jacobian) buckets: a point (X : Y : ZZ : ZZZ) with x = X/ZZ, y = Y/ZZZ and
//! ZZ³ = ZZZ²; the identity has ZZ = 0.
//!
//! Costs (M = multiplication, S = squaring in the coordinate field), formulas from the
//! Explicit-Formulas Database, "shortw-xyzz":
//! - mixed add of an affine point (madd-2008-s): 8M + 2S;
//! - full add (add-2008-s): 12M + 2S;
//! - doubling (dbl-2008-s-1): 6M + 3S plus a·ZZ² where a ≠ 0;
//! - affine doubling (mdbl-2008-s-1): 3M + 3S (+ a).
//!
//! Exceptional cases (an empty bucket, P + P, P + (-P), the point at infinity) are branches
//! taken outside the common path.

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{AdditiveGroup, Field, Zero};

/// A bucket accumulator in XYZZ coordinates.
#[derive(Debug)]
pub(crate) struct Xyzz<P: SWCurveConfig> {
    /// X = x·ZZ.
    pub x: P::BaseField,
    /// Y = y·ZZZ.
    pub y: P::BaseField,
    /// ZZ; zero exactly at the identity.
    pub zz: P::BaseField,
    /// ZZZ, with ZZZ² = ZZ³.
    pub zzz: P::BaseField,
}

impl<P: SWCurveConfig> Clone for Xyzz<P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: SWCurveConfig> Copy for Xyzz<P> {}

impl<P: SWCurveConfig> Default for Xyzz<P> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<P: SWCurveConfig> Xyzz<P> {
    /// The identity.
    pub(crate) const ZERO: Self = Xyzz {
        x: P::BaseField::ONE,
        y: P::BaseField::ONE,
        zz: P::BaseField::ZERO,
        zzz: P::BaseField::ZERO,
    };

    /// Whether this is the identity.
    #[inline(always)]
    pub(crate) fn is_zero(&self) -> bool {
        crate::field::is_zero(&self.zz)
    }

    /// The affine point (x, y) lifted with ZZ = ZZZ = 1.
    #[inline(always)]
    pub(crate) fn from_xy(x: P::BaseField, y: P::BaseField) -> Self {
        Xyzz {
            x,
            y,
            zz: P::BaseField::ONE,
            zzz: P::BaseField::ONE,
        }
    }

    /// From an affine point (the identity maps to the identity).
    pub(crate) fn from_affine(p: &Affine<P>) -> Self {
        match p.xy() {
            Some((x, y)) => Self::from_xy(x, y),
            None => Self::ZERO,
        }
    }

    /// self += (x2, y2), an affine point that is not the identity.
    #[inline(always)]
    pub(crate) fn add_xy(&mut self, x2: &P::BaseField, y2: &P::BaseField) {
        if self.is_zero() {
            *self = Self::from_xy(*x2, *y2);
            return;
        }
        use crate::field::{add, is_zero, sub};
        // Arkworks' own products, not moved word by word (`field::launders`): on Zen 4 the
        // moves cost more than they save on Intel (`docs/bench/zen4-regression-raw.txt`), and a
        // second copy of every inlined XYZZ addition, for Intel, kept the CLI's release build
        // running past 26 minutes (13 without).
        let mul = |a: &P::BaseField, b: &P::BaseField| *a * b;
        let square = |a: &P::BaseField| a.square();
        let u2 = mul(x2, &self.zz);
        let s2 = mul(y2, &self.zzz);
        let p = sub(&u2, &self.x);
        let r = sub(&s2, &self.y);
        if is_zero(&p) {
            self.add_xy_degenerate(x2, y2, r);
            return;
        }
        let pp = square(&p);
        let ppp = mul(&p, &pp);
        let q = mul(&self.x, &pp);
        let x3 = sub(&sub(&square(&r), &ppp), &add(&q, &q));
        self.y = sub(&mul(&r, &sub(&q, &x3)), &mul(&self.y, &ppp));
        self.x = x3;
        self.zz = mul(&self.zz, &pp);
        self.zzz = mul(&self.zzz, &ppp);
    }

    /// The same x: either a doubling of (x2, y2) or the identity.
    #[cold]
    #[inline(never)]
    fn add_xy_degenerate(&mut self, x2: &P::BaseField, y2: &P::BaseField, r: P::BaseField) {
        if r.is_zero() {
            *self = Self::double_xy(x2, y2);
        } else {
            *self = Self::ZERO;
        }
    }

    /// self += p for an affine point (the identity is skipped).
    #[inline(always)]
    pub(crate) fn add_affine(&mut self, p: &Affine<P>) {
        if let Some((x, y)) = p.xy() {
            self.add_xy(&x, &y);
        }
    }

    /// self -= p for an affine point (the identity is skipped).
    #[inline(always)]
    pub(crate) fn sub_affine(&mut self, p: &Affine<P>) {
        if let Some((x, y)) = p.xy() {
            self.add_xy(&x, &-y);
        }
    }

    /// 2·(x, y) for an affine point (x, y) not the identity (mdbl-2008-s-1).
    pub(crate) fn double_xy(x: &P::BaseField, y: &P::BaseField) -> Self {
        if y.is_zero() {
            return Self::ZERO;
        }
        let u = y.double();
        let v = u.square();
        let w = u * v;
        let s = *x * v;
        let xx = x.square();
        let m = xx.double() + xx + P::COEFF_A;
        let x3 = m.square() - s.double();
        let y3 = m * (s - x3) - w * y;
        Xyzz {
            x: x3,
            y: y3,
            zz: v,
            zzz: w,
        }
    }

    /// self = 2·self (dbl-2008-s-1).
    pub(crate) fn double_in_place(&mut self) {
        if self.is_zero() || self.y.is_zero() {
            *self = Self::ZERO;
            return;
        }
        let u = self.y.double();
        let v = u.square();
        let w = u * v;
        let s = self.x * v;
        let xx = self.x.square();
        let mut m = xx.double() + xx;
        if !P::COEFF_A.is_zero() {
            m += P::mul_by_a(self.zz.square());
        }
        let x3 = m.square() - s.double();
        self.y = m * (s - x3) - w * self.y;
        self.x = x3;
        self.zz *= v;
        self.zzz *= w;
    }

    /// self += other (add-2008-s).
    #[inline]
    pub(crate) fn add_assign(&mut self, other: &Self) {
        if other.is_zero() {
            return;
        }
        if self.is_zero() {
            *self = *other;
            return;
        }
        use crate::field::{add, is_zero, sub};
        // Arkworks' own products, not moved word by word (`field::launders`): on Zen 4 the
        // moves cost more than they save on Intel (`docs/bench/zen4-regression-raw.txt`), and a
        // second copy of every inlined XYZZ addition, for Intel, kept the CLI's release build
        // running past 26 minutes (13 without).
        let mul = |a: &P::BaseField, b: &P::BaseField| *a * b;
        let square = |a: &P::BaseField| a.square();
        let u1 = mul(&self.x, &other.zz);
        let u2 = mul(&other.x, &self.zz);
        let s1 = mul(&self.y, &other.zzz);
        let s2 = mul(&other.y, &self.zzz);
        let p = sub(&u2, &u1);
        let r = sub(&s2, &s1);
        if is_zero(&p) {
            if r.is_zero() {
                self.double_in_place();
            } else {
                *self = Self::ZERO;
            }
            return;
        }
        let pp = square(&p);
        let ppp = mul(&p, &pp);
        let q = mul(&u1, &pp);
        let x3 = sub(&sub(&square(&r), &ppp), &add(&q, &q));
        self.y = sub(&mul(&r, &sub(&q, &x3)), &mul(&s1, &ppp));
        self.x = x3;
        self.zz = mul(&mul(&self.zz, &other.zz), &pp);
        self.zzz = mul(&mul(&self.zzz, &other.zzz), &ppp);
    }

    /// The same point in arkworks' Jacobian coordinates: (X·ZZ², Y·ZZZ², ZZZ), which is
    /// valid because ZZZ² = ZZ³.
    pub(crate) fn into_projective(self) -> Projective<P> {
        if self.is_zero() {
            return Projective::<P>::zero();
        }
        Projective::<P>::new_unchecked(
            self.x * self.zz.square(),
            self.y * self.zzz.square(),
            self.zzz,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::CurveGroup;

    /// Arkworks' sums through every case: fresh, plain, doubling, cancellation.
    fn sums_agree<P: SWCurveConfig>() {
        let pts = crate::sample::points::<P>(8, 41);
        let steps = [pts[0], pts[1], pts[1], -pts[2], pts[3], pts[3]];
        let mut acc = Xyzz::<P>::ZERO;
        let mut sum = Xyzz::<P>::ZERO;
        let mut want = Projective::<P>::zero();
        for p in steps {
            acc.add_xy(&p.x, &p.y);
            sum.add_assign(&Xyzz::from_affine(&p));
            want += p;
            assert_eq!(acc.into_projective().into_affine(), want.into_affine());
            assert_eq!(sum.into_projective().into_affine(), want.into_affine());
        }
        // P + P, then P + (-P): a doubling and a cancellation of whole accumulators.
        let mut twice = acc;
        twice.add_assign(&acc);
        assert_eq!(twice.into_projective(), want.double());
        let minus = -want.into_affine();
        let mut none = acc;
        none.add_assign(&Xyzz::from_affine(&minus));
        acc.add_xy(&minus.x, &minus.y);
        assert!(none.is_zero() && acc.is_zero());
    }

    #[test]
    fn xyzz_sums_agree_with_arkworks() {
        sums_agree::<ark_bn254::g1::Config>();
        sums_agree::<ark_bls12_381::g1::Config>();
        sums_agree::<ark_bls12_381::g2::Config>();
    }
}
