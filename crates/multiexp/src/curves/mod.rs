//! The curve catalogue: every curve/group multiexp runs on, by gnark-crypto's name.
//!
//! A curve/group is an arkworks [`SWCurveConfig`]; behaviour lives once in the generic engine.
//! The catalogue maps a name such as `bn254-g1` to that type through a [`CurveVisitor`], so
//! code that must pick a curve at run time (the CLI, the sweep) stays generic. Adding a curve
//! is one line in the `catalogue!` invocation below, plus its config module.

use std::any::TypeId;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, CurveConfig};
use ark_ff::{Field, PrimeField, Zero};

use crate::Error;

#[cfg(feature = "bls24-315")]
pub mod bls24_315;
#[cfg(feature = "bls24-317")]
pub mod bls24_317;
#[cfg(feature = "bw6-633")]
pub mod bw6_633;
#[cfg(feature = "stark-curve")]
pub mod stark_curve;

/// Which group of a pairing-friendly curve (G1-only curves are `G1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Group {
    /// The group over the base field.
    G1,
    /// The group over an extension field (or the twist over Fp for BW6 curves).
    G2,
}

impl Group {
    /// Lower-case name, as in `bn254-g1`.
    pub fn name(self) -> &'static str {
        match self {
            Group::G1 => "g1",
            Group::G2 => "g2",
        }
    }
}

/// Static facts about one curve/group that the planner and the CLI need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CurveSpec {
    /// Catalogue name: gnark-crypto's curve name plus the group, e.g. `bls12-381-g2`.
    pub name: &'static str,
    /// The curve's name without the group, e.g. `bls12-381`.
    pub curve: &'static str,
    /// The group.
    pub group: Group,
    /// Bit length b of the scalar field modulus r.
    pub scalar_bits: u32,
    /// Bit length of the base prime field modulus p.
    pub base_bits: u32,
    /// Degree of the coordinate field over the base prime field (1 for Fp, 2 for Fp2, ...).
    pub extension_degree: u32,
    /// Number of 64-bit limbs of one base prime field element.
    pub base_limbs: u32,
    /// Whether the curve coefficient `a` is zero (it is not for secp256r1 and the STARK curve).
    pub a_is_zero: bool,
    /// The scalar field modulus r as little-endian 64-bit limbs.
    pub scalar_modulus: Vec<u64>,
    /// The config type: what tells two curves apart even outside the catalogue.
    pub type_id: TypeId,
}

impl CurveSpec {
    /// Builds the spec of config `P` under a catalogue name.
    pub fn of<P: SWCurveConfig>(name: &'static str, curve: &'static str, group: Group) -> Self {
        type Base<P> = <P as CurveConfig>::BaseField;
        type Prime<P> = <Base<P> as Field>::BasePrimeField;
        CurveSpec {
            name,
            curve,
            group,
            scalar_bits: <P::ScalarField as PrimeField>::MODULUS_BIT_SIZE,
            base_bits: <Prime<P> as PrimeField>::MODULUS_BIT_SIZE,
            extension_degree: Base::<P>::extension_degree() as u32,
            base_limbs: <Prime<P> as PrimeField>::MODULUS.as_ref().len() as u32,
            a_is_zero: P::COEFF_A.is_zero(),
            scalar_modulus: <P::ScalarField as PrimeField>::MODULUS.as_ref().to_vec(),
            type_id: TypeId::of::<P>(),
        }
    }

    /// The scalar field modulus r as a big integer's limbs (little-endian).
    pub fn modulus(&self) -> &[u64] {
        &self.scalar_modulus
    }

    /// Number of base-field multiplications one coordinate-field multiplication costs, roughly
    /// (Karatsuba-style towers: 3 for Fp2, 9 for Fp4), used by the default cost profile.
    pub fn mul_weight(&self) -> f64 {
        match self.extension_degree {
            1 => 1.0,
            2 => 3.0,
            4 => 9.0,
            d => (d * d) as f64,
        }
    }
}

/// Code that runs generically on whichever curve/group a name selects.
pub trait CurveVisitor {
    /// What the visit returns.
    type Output;
    /// Called with the config type of the selected curve/group and its spec.
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output;
}

macro_rules! catalogue {
    ($( $feature:literal: $name:literal, $curve:literal, $group:ident => $config:ty; )*) => {
        /// Every catalogue name (of the curve families whose cargo features are on), in
        /// catalogue order.
        pub const NAMES: &[&str] = &[$( #[cfg(feature = $feature)] $name ),*];

        /// Runs `visitor` on the curve/group called `name` (e.g. `bn254-g1`).
        #[cfg_attr(not(feature = "all-curves"), allow(unused_variables))]
        pub fn visit<V: CurveVisitor>(name: &str, visitor: V) -> Result<V::Output, Error> {
            let lower = name.to_ascii_lowercase();
            $(
                #[cfg(feature = $feature)]
                if lower == $name {
                    let spec = CurveSpec::of::<$config>($name, $curve, Group::$group);
                    return Ok(visitor.visit::<$config>(&spec));
                }
            )*
            Err(Error::UnknownCurve { name: name.to_string() })
        }

        /// The `TypeId` of the config type behind catalogue name `name`.
        #[cfg_attr(not(feature = "all-curves"), allow(unused_variables))]
        pub fn type_id_of(name: &str) -> Option<TypeId> {
            $(
                #[cfg(feature = $feature)]
                if name == $name {
                    return Some(TypeId::of::<$config>());
                }
            )*
            None
        }

        /// The spec of every curve/group, in catalogue order.
        pub fn specs() -> Vec<CurveSpec> {
            vec![$( #[cfg(feature = $feature)] CurveSpec::of::<$config>($name, $curve, Group::$group) ),*]
        }
    };
}

catalogue! {
    "bn254": "bn254-g1", "bn254", G1 => ark_bn254::g1::Config;
    "bn254": "bn254-g2", "bn254", G2 => ark_bn254::g2::Config;
    "bls12-381": "bls12-381-g1", "bls12-381", G1 => ark_bls12_381::g1::Config;
    "bls12-381": "bls12-381-g2", "bls12-381", G2 => ark_bls12_381::g2::Config;
    "bls12-377": "bls12-377-g1", "bls12-377", G1 => ark_bls12_377::g1::Config;
    "bls12-377": "bls12-377-g2", "bls12-377", G2 => ark_bls12_377::g2::Config;
    "bw6-761": "bw6-761-g1", "bw6-761", G1 => ark_bw6_761::g1::Config;
    "bw6-761": "bw6-761-g2", "bw6-761", G2 => ark_bw6_761::g2::Config;
    "grumpkin": "grumpkin-g1", "grumpkin", G1 => ark_grumpkin::GrumpkinConfig;
    "secp256k1": "secp256k1-g1", "secp256k1", G1 => ark_secp256k1::Config;
    "secp256r1": "secp256r1-g1", "secp256r1", G1 => ark_secp256r1::Config;
    "bls24-315": "bls24-315-g1", "bls24-315", G1 => bls24_315::g1::Config;
    "bls24-315": "bls24-315-g2", "bls24-315", G2 => bls24_315::g2::Config;
    "bls24-317": "bls24-317-g1", "bls24-317", G1 => bls24_317::g1::Config;
    "bls24-317": "bls24-317-g2", "bls24-317", G2 => bls24_317::g2::Config;
    "bw6-633": "bw6-633-g1", "bw6-633", G1 => bw6_633::g1::Config;
    "bw6-633": "bw6-633-g2", "bw6-633", G2 => bw6_633::g2::Config;
    "stark-curve": "stark-curve-g1", "stark-curve", G1 => stark_curve::g1::Config;
}

/// The limbs arkworks stores for `x` (its Montgomery form x·2^(64·N), N limbs), where `F` is
/// the base field of a catalogue G1 (an arkworks `Fp`, whose limbs are public); `None` for
/// any other type, whose representation is not known here. The IFMA records are made from
/// these limbs in one product instead of leaving the Montgomery form first.
#[inline(always)]
#[cfg_attr(not(feature = "all-curves"), allow(unused_variables))]
pub(crate) fn montgomery_limbs<F: Field>(x: &F) -> Option<&[u64]> {
    let any: &dyn std::any::Any = x;
    macro_rules! base_fields {
        ($( $feature:literal => $config:ty; )*) => {$(
            #[cfg(feature = $feature)]
            if TypeId::of::<F>() == TypeId::of::<<$config as ark_ec::CurveConfig>::BaseField>() {
                return any
                    .downcast_ref::<<$config as ark_ec::CurveConfig>::BaseField>()
                    .map(|f| f.0.as_ref());
            }
        )*};
    }
    base_fields! {
        "bn254" => ark_bn254::g1::Config;
        "bls12-381" => ark_bls12_381::g1::Config;
        "bls12-377" => ark_bls12_377::g1::Config;
        "bw6-761" => ark_bw6_761::g1::Config;
        "grumpkin" => ark_grumpkin::GrumpkinConfig;
        "secp256k1" => ark_secp256k1::Config;
        "secp256r1" => ark_secp256r1::Config;
        "bls24-315" => bls24_315::g1::Config;
        "bls24-317" => bls24_317::g1::Config;
        "bw6-633" => bw6_633::g1::Config;
        "stark-curve" => stark_curve::g1::Config;
    }
    None
}

/// `[a]p + [b]q` by interleaved (Straus–Shamir) double-and-add, for the subgroup checks of
/// BW6-633 and the input validator's BW6-761 test. Plain double-and-add with no reduction of
/// the scalars modulo `r`.
#[allow(dead_code)] // used only where those curves' features are on
pub(crate) fn joint_mul<P: SWCurveConfig>(
    p: &Affine<P>,
    q: &Affine<P>,
    a: &[u64],
    b: &[u64],
) -> Projective<P> {
    let p_plus_q: Affine<P> = (Projective::from(*p) + q).into();
    let bits = 64 * a.len().max(b.len());
    let bit = |s: &[u64], i: usize| s.get(i / 64).is_some_and(|w| (w >> (i % 64)) & 1 == 1);
    let mut acc = Projective::<P>::ZERO;
    for i in (0..bits).rev() {
        acc.double_in_place();
        match (bit(a, i), bit(b, i)) {
            (true, true) => acc += &p_plus_q,
            (true, false) => acc += p,
            (false, true) => acc += q,
            (false, false) => {}
        }
    }
    acc
}

/// The catalogue spec of `P`, or a spec named `custom` for a curve outside the catalogue.
pub fn spec_of<P: SWCurveConfig>() -> CurveSpec {
    specs()
        .into_iter()
        .find(|s| s.type_id == TypeId::of::<P>())
        .unwrap_or_else(|| CurveSpec::of::<P>("custom", "custom", Group::G1))
}

/// The spec of the curve/group called `name`.
pub fn spec(name: &str) -> Result<CurveSpec, Error> {
    struct SpecOnly;
    impl CurveVisitor for SpecOnly {
        type Output = CurveSpec;
        fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> CurveSpec {
            spec.clone()
        }
    }
    visit(name, SpecOnly)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::BigInteger;

    /// The limbs read for every catalogue G1 base field are its Montgomery form x·2^(64·N).
    #[test]
    fn montgomery_limbs_are_the_montgomery_form_of_every_g1_base_field() {
        fn check<P: SWCurveConfig>()
        where
            P::BaseField: PrimeField,
        {
            let x = P::BaseField::from(0x1234_5678_9abc_def1u64).square();
            let raw = montgomery_limbs(&x).expect("a catalogue G1 base field");
            let mut big = <P::BaseField as PrimeField>::BigInt::default();
            big.as_mut().copy_from_slice(raw);
            let r = P::BaseField::from(2u64).pow([64 * raw.len() as u64]);
            assert_eq!(P::BaseField::from_bigint(big), Some(x * r));
            assert!(big.num_bits() <= P::BaseField::MODULUS_BIT_SIZE);
        }
        check::<ark_bn254::g1::Config>();
        check::<ark_bls12_381::g1::Config>();
        check::<ark_bls12_377::g1::Config>();
        check::<ark_bw6_761::g1::Config>();
        check::<ark_grumpkin::GrumpkinConfig>();
        check::<ark_secp256k1::Config>();
        check::<ark_secp256r1::Config>();
        check::<bls24_315::g1::Config>();
        check::<bls24_317::g1::Config>();
        check::<bw6_633::g1::Config>();
        check::<stark_curve::g1::Config>();
        // An extension field's limbs are not read.
        assert!(montgomery_limbs(&ark_bn254::Fq2::from(3u64)).is_none());
        // Nor a prime field outside the catalogue's base fields (BN254's scalar field is
        // grumpkin's base field, so take BLS12-381's).
        assert!(montgomery_limbs(&ark_bls12_381::Fr::from(3u64)).is_none());
    }
}
