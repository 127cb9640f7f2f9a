//! The curve-family cargo features: the catalogue holds exactly the enabled families, each of
//! them runs an MSM equal to arkworks' and reads back its own hex, and a name whose family is
//! off is an unknown curve. Runs under any feature set (CI also runs it with
//! `--no-default-features --features bn254`: what a BN254-only user compiles).

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use ark_ec::VariableBaseMSM;
use multiexp::curves::{self, CurveSpec, CurveVisitor};
use multiexp::input::{self, PointOptions};

/// Every family, by its feature name (the curve part of its catalogue names), and whether
/// this build has it.
const FAMILIES: &[(&str, bool)] = &[
    ("bn254", cfg!(feature = "bn254")),
    ("bls12-381", cfg!(feature = "bls12-381")),
    ("bls12-377", cfg!(feature = "bls12-377")),
    ("bw6-761", cfg!(feature = "bw6-761")),
    ("grumpkin", cfg!(feature = "grumpkin")),
    ("secp256k1", cfg!(feature = "secp256k1")),
    ("secp256r1", cfg!(feature = "secp256r1")),
    ("bls24-315", cfg!(feature = "bls24-315")),
    ("bls24-317", cfg!(feature = "bls24-317")),
    ("bw6-633", cfg!(feature = "bw6-633")),
    ("stark-curve", cfg!(feature = "stark-curve")),
];

#[test]
fn a_bn254_user_compiles_only_the_curve_families_it_enables() {
    for &(family, on) in FAMILIES {
        let name = format!("{family}-g1");
        assert_eq!(curves::NAMES.contains(&name.as_str()), on, "{name}");
        match curves::spec(&name) {
            Ok(spec) => assert!(on && spec.curve == family, "{name}"),
            Err(e) => assert!(!on && e.to_string().contains(&name), "{name}: {e}"),
        }
    }
    for name in curves::NAMES {
        let family = name.rsplit_once('-').unwrap().0;
        assert!(
            FAMILIES.contains(&(family, true)),
            "{name} listed, its family off"
        );
    }
    assert_eq!(curves::specs().len(), curves::NAMES.len());
}

struct AgreesWithArkworks;

impl CurveVisitor for AgreesWithArkworks {
    type Output = ();
    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) {
        let n = 70;
        let points = multiexp::unstable::sample::points::<P>(n, 3);
        let mut scalars = multiexp::unstable::sample::scalars::<P::ScalarField>(n, 3);
        scalars[0] = -P::ScalarField::from(1u64);
        scalars[1] = P::ScalarField::from(0u64);
        let ours = multiexp::msm(&points, &scalars).unwrap();
        let theirs = Projective::<P>::msm(&points, &scalars).unwrap();
        assert_eq!(ours, theirs, "{}", spec.name);
        let text = input::points_to_hex(&points);
        let read = input::points_from_hex::<P>("t", text.as_bytes(), &PointOptions::default());
        assert_eq!(read.unwrap(), points, "{}", spec.name);
    }
}

#[test]
fn every_enabled_curve_family_agrees_with_arkworks() {
    for name in curves::NAMES {
        curves::visit(name, AgreesWithArkworks).unwrap();
    }
}
