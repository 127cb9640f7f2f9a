//! Prime-order subgroup membership, by the fastest method known for each curve/group.
//!
//! - Cofactor one (BN254 G1, Grumpkin, secp256k1, secp256r1, STARK): every curve point is in.
//! - An endomorphism test where arkworks multiplies by r: on a j = 0 curve over Fp,
//!   φ(x, y) = (ωx, y) (ω a primitive cube root of unity) satisfies φ² + φ + 1 = 0, so
//!   `[c0] + [c1]φ` has degree N(c0 + c1ω) = c0² - c0·c1 + c1². With constants for which
//!   that degree is exactly r and c0 + c1·λ ≡ 0 (mod r), λ the eigenvalue of φ on the
//!   subgroup G, the kernel of `[c0] + [c1]φ` has at most r points and contains G: it *is* G.
//!   So P ∈ G ⟺ [c0]P + [c1]φ(P) = O, with scalars of about half of r's bits.
//!   - BLS12 G1 (BLS12-381, BLS12-377): r = x⁴ - x² + 1, (c0, c1) = (x², 1) — 128 bits instead
//!     of 255 (Scott, eprint 2021/1130 §6; arkworks uses it for BLS12-381, not for
//!     BLS12-377).
//!   - BW6-761 G1 and G2: (c0, c1) from a Gauss-reduced basis of the lattice
//!     {(a, b) : a + bλ ≡ 0 mod r} in the norm a² - ab + b², whose shortest vector has norm
//!     exactly r — 189 bits instead of 377.
//!
//!   Of ω and ω² exactly one makes the relation hold on the generator; that one is chosen at
//!   construction, and the constants' norm is checked there.
//! - Everything else: the curve config's own `is_in_correct_subgroup_assuming_on_curve`
//!   (ψ-based for BN254 G2 and BLS12-381 G2, endomorphism-based for our BLS24 and BW6-633
//!   configs, a multiplication by r for BLS12-377 G2).
//!
//! Cost per point (BLS12-381 G1): 127 doublings and 16 mixed additions.

use crate::curves::joint_mul;
use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, PrimeGroup};
use ark_ff::{BigInteger, Field, PrimeField, Zero};

fn is_config<P: 'static, Q: 'static>() -> bool {
    core::any::TypeId::of::<P>() == core::any::TypeId::of::<Q>()
}

/// x² for BLS12-381 (x = -0xd201000000010000), little-endian limbs.
const BLS12_381_X_SQUARED: &[u64] = &[0x0000000100000000, 0xac45a4010001a402];
/// x² for BLS12-377 (x = 0x8508c00000000001), little-endian limbs.
const BLS12_377_X_SQUARED: &[u64] = &[0x0a11800000000001, 0x452217cc90000001];
/// BW6-761 G1: c0 = 587269870971281361444171168277668240640243801025419411456,
/// c1 = 293634935485640680722085584138834120324914961969255022593.
const BW6_761_G1_C0: &[u64] = &[0x2c58400000000000, 0x5c2d7510c0000000, 0x17f3622fba094800];
const BW6_761_G1_C1: &[u64] = &[0x58b0800000000001, 0x2e16ba8860000000, 0x0bf9b117dd04a400];
/// BW6-761 G2: c0 = 293634935485640680722085584138834120315328839056164388863,
/// c1 = -293634935485640680722085584138834120324914961969255022593.
const BW6_761_G2_C0: &[u64] = &[0xd3a7bfffffffffff, 0x2e16ba885fffffff, 0x0bf9b117dd04a400];

/// The constants of an endomorphism test `[c0]P + [c1]φ(P) = O`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct EndoTest<P: SWCurveConfig> {
    /// The cube root of unity of φ.
    pub omega: P::BaseField,
    /// |c0|, little-endian limbs.
    pub c0: &'static [u64],
    /// |c1|, little-endian limbs.
    pub c1: &'static [u64],
    /// Whether c1 is negative (c0 is positive in every test here).
    pub c1_negative: bool,
}

fn limbs_eq_one(x: &[u64]) -> bool {
    x.first() == Some(&1) && x[1..].iter().all(|&l| l == 0)
}

/// c0² - c0·c1 + c1² (or + c0·|c1| for a negative c1) as little-endian limbs.
fn norm(c0: &[u64], c1: &[u64], c1_negative: bool) -> Vec<u64> {
    fn mul(a: &[u64], b: &[u64]) -> Vec<u64> {
        let mut out = vec![0u64; a.len() + b.len()];
        for (i, &x) in a.iter().enumerate() {
            let mut carry = 0u128;
            for (j, &y) in b.iter().enumerate() {
                let t = out[i + j] as u128 + x as u128 * y as u128 + carry;
                out[i + j] = t as u64;
                carry = t >> 64;
            }
            out[i + b.len()] = carry as u64;
        }
        out
    }
    fn add(a: &mut [u64], b: &[u64]) {
        let mut carry = 0u128;
        for (i, x) in a.iter_mut().enumerate() {
            let t = *x as u128 + b.get(i).copied().unwrap_or(0) as u128 + carry;
            *x = t as u64;
            carry = t >> 64;
        }
    }
    fn sub(a: &mut [u64], b: &[u64]) {
        let mut borrow = 0i128;
        for (i, x) in a.iter_mut().enumerate() {
            let t = *x as i128 - b.get(i).copied().unwrap_or(0) as i128 + borrow;
            *x = t as u64;
            borrow = t >> 64;
        }
    }
    let mut n = mul(c0, c0);
    n.resize(n.len() + 2, 0);
    add(&mut n, &mul(c1, c1));
    if c1_negative {
        add(&mut n, &mul(c0, c1));
    } else {
        sub(&mut n, &mul(c0, c1));
    }
    while n.last() == Some(&0) {
        n.pop();
    }
    n
}

impl<P: SWCurveConfig> EndoTest<P> {
    /// (c0, c1, whether c1 is negated) of `P`'s relation, if it has one here.
    fn constants() -> Option<(&'static [u64], &'static [u64], bool)> {
        #[cfg(feature = "bls12-381")]
        if is_config::<P, ark_bls12_381::g1::Config>() {
            return Some((BLS12_381_X_SQUARED, &[1u64][..], false));
        }
        #[cfg(feature = "bls12-377")]
        if is_config::<P, ark_bls12_377::g1::Config>() {
            return Some((BLS12_377_X_SQUARED, &[1u64][..], false));
        }
        #[cfg(feature = "bw6-761")]
        if is_config::<P, ark_bw6_761::g1::Config>() {
            return Some((BW6_761_G1_C0, BW6_761_G1_C1, false));
        }
        #[cfg(feature = "bw6-761")]
        if is_config::<P, ark_bw6_761::g2::Config>() {
            return Some((BW6_761_G2_C0, BW6_761_G1_C1, true));
        }
        None
    }

    /// The test for `P` if it has one here.
    pub(super) fn new() -> Option<Self> {
        let (c0, c1, c1_negative) = Self::constants()?;
        // The degree must be exactly r.
        let r = <P::ScalarField as PrimeField>::MODULUS;
        let mut r_limbs = r.as_ref().to_vec();
        while r_limbs.last() == Some(&0) {
            r_limbs.pop();
        }
        if norm(c0, c1, c1_negative) != r_limbs || !P::COEFF_A.is_zero() {
            return None;
        }
        // ω = (-1 + √-3)/2 or its conjugate: the one under which G passes.
        let root = (-P::BaseField::from(3u64)).sqrt()?;
        let half = P::BaseField::from(2u64).inverse()?;
        let omega = (root - P::BaseField::ONE) * half;
        let generator = Projective::<P>::generator().into();
        [omega, -omega - P::BaseField::ONE]
            .into_iter()
            .map(|omega| EndoTest {
                omega,
                c0,
                c1,
                c1_negative,
            })
            .find(|t| t.holds(&generator))
    }

    /// Whether c1 = 1 (the BLS12 form `[c0]P = -φ(P)`).
    pub(super) fn c1_is_one(&self) -> bool {
        limbs_eq_one(self.c1) && !self.c1_negative
    }

    /// φ(P).
    pub(super) fn phi(&self, p: &Affine<P>) -> Affine<P> {
        let mut q = *p;
        q.x *= self.omega;
        q
    }

    /// Whether [c0]P + [c1]φ(P) = O, on complete arkworks arithmetic.
    pub(super) fn holds(&self, p: &Affine<P>) -> bool {
        if p.is_zero() {
            return true;
        }
        let mut phi = self.phi(p);
        if self.c1_negative {
            phi = -phi;
        }
        joint_mul(p, &phi, self.c0, self.c1).is_zero()
    }
}

/// How one curve/group's points are checked for subgroup membership.
#[derive(Clone, Debug)]
pub(crate) enum SubgroupCheck<P: SWCurveConfig> {
    /// Cofactor one: nothing to check.
    Trivial,
    /// An endomorphism test.
    Endo(EndoTest<P>),
    /// The config's own check.
    Config,
}

impl<P: SWCurveConfig> SubgroupCheck<P> {
    /// The fastest check for `P`.
    pub(super) fn new() -> Self {
        if P::cofactor_is_one() {
            SubgroupCheck::Trivial
        } else if let Some(t) = EndoTest::new() {
            SubgroupCheck::Endo(t)
        } else {
            SubgroupCheck::Config
        }
    }

    /// Whether an on-curve `p` is in the prime-order subgroup.
    pub(super) fn contains(&self, p: &Affine<P>) -> bool {
        match self {
            SubgroupCheck::Trivial => true,
            SubgroupCheck::Endo(t) => t.holds(p),
            SubgroupCheck::Config => p.is_in_correct_subgroup_assuming_on_curve(),
        }
    }
}

/// The non-adjacent form of a little-endian integer, most significant digit first.
pub(crate) fn naf_msb_first(limbs: &[u64]) -> Vec<i8> {
    let mut k = ark_ff::BigInt::<4>::zero();
    for (i, &l) in limbs.iter().enumerate().take(4) {
        k.0[i] = l;
    }
    let mut digits = Vec::new();
    while !k.is_zero() {
        let d = if k.is_odd() {
            let d = 2 - (k.0[0] & 3) as i8;
            if d == 1 {
                k.sub_with_borrow(&ark_ff::BigInt::from(1u64));
            } else {
                k.add_with_carry(&ark_ff::BigInt::from(1u64));
            }
            d
        } else {
            0
        };
        digits.push(d);
        k.div2();
    }
    digits.reverse();
    digits
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agrees_with_config<P: SWCurveConfig>() {
        let test = EndoTest::<P>::new().expect("an endomorphism test");
        let mut rng = ark_std::test_rng();
        let mut seen = [0usize; 2];
        let g = Projective::<P>::generator();
        for i in 0..24u64 {
            // Random curve points: almost none is in the subgroup.
            let p = loop {
                let x = P::BaseField::rand(&mut rng);
                if let Some(p) = Affine::<P>::get_point_from_x_unchecked(x, i % 2 == 0) {
                    break p;
                }
            };
            let expect = p.is_in_correct_subgroup_assuming_on_curve();
            assert_eq!(test.holds(&p), expect);
            seen[expect as usize] += 1;
            let q: Affine<P> = (g * P::ScalarField::from(i + 1)).into();
            assert!(test.holds(&q));
            assert!(
                !test.holds(&(p + q).into())
                    || (p + q)
                        .into_affine()
                        .is_in_correct_subgroup_assuming_on_curve()
            );
        }
        assert!(seen[0] > 0);
    }

    use ark_ec::CurveGroup;
    use ark_ff::UniformRand;

    #[test]
    fn endomorphism_tests_agree_with_multiplication_by_r() {
        agrees_with_config::<ark_bls12_381::g1::Config>();
        agrees_with_config::<ark_bls12_377::g1::Config>();
        agrees_with_config::<ark_bw6_761::g1::Config>();
        agrees_with_config::<ark_bw6_761::g2::Config>();
    }

    #[test]
    fn naf_digits_reconstruct_the_integer() {
        let digits = naf_msb_first(BLS12_381_X_SQUARED);
        let mut v: i128 = 0;
        for d in &digits {
            v = v.wrapping_mul(2).wrapping_add(*d as i128);
        }
        let x = 0xd201000000010000u128;
        assert_eq!(v as u128, x * x);
        assert!(digits.windows(2).all(|w| w[0] == 0 || w[1] == 0));
    }
}
