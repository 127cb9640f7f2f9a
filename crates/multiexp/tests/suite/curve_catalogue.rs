//! Tests of the curve configurations multiexp adds to arkworks (`multiexp::curves::bls24_315`,
//! `bls24_317`, `bw6_633`, `stark_curve`) and of their catalogue entries.
//!
//! The test bodies are generic over the curve/group or field and instantiated once per group
//! (`group_tests!`) or prime field (`prime_field_tests!`) by macro lines further down; the
//! extension towers and a few curve-specific facts (endomorphisms, public known-answer vectors)
//! have their own tests.

use ark_ec::{
    scalar_mul::double_and_add_affine,
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    AffineRepr, CurveConfig, CurveGroup, PrimeGroup,
};
use ark_ff::{
    BigInteger, FftField, Field, LegendreSymbol, One, PrimeField, QuadExtConfig, UniformRand, Zero,
};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use ark_std::{rand::Rng, test_rng};
use multiexp::curves::{self, bls24_315, bls24_317, bw6_633, stark_curve, Group};

/// Random points per randomized test; small enough for unoptimized builds.
const SAMPLES: usize = 6;

type Base<P> = <P as CurveConfig>::BaseField;
type Scalar<P> = <P as CurveConfig>::ScalarField;

/// `[r]p` by plain double-and-add over the integer `r` (no reduction of the scalar).
fn times_r<P: SWCurveConfig>(p: &Affine<P>) -> Projective<P> {
    double_and_add_affine(p, Scalar::<P>::MODULUS)
}

/// The definition of subgroup membership, for comparison with the configured check.
fn in_subgroup_by_definition<P: SWCurveConfig>(p: &Affine<P>) -> bool {
    p.is_on_curve() && times_r(p).is_zero()
}

fn in_subgroup<P: SWCurveConfig>(p: &Affine<P>) -> bool {
    p.is_on_curve() && p.is_in_correct_subgroup_assuming_on_curve()
}

/// A point of E (not necessarily in the subgroup): draw x until `x³ + ax + b` is a square.
fn random_curve_point<P: SWCurveConfig, R: Rng>(rng: &mut R) -> Affine<P> {
    loop {
        let x = Base::<P>::rand(rng);
        if let Some(p) = Affine::<P>::get_point_from_x_unchecked(x, rng.gen()) {
            assert!(p.is_on_curve());
            return p;
        }
    }
}

fn cofactor_is_one<P: SWCurveConfig>() -> bool {
    P::COFACTOR.iter().skip(1).all(|&l| l == 0) && P::COFACTOR[0] == 1
}

/// The cofactor reduced modulo r.
fn cofactor_mod_r<P: SWCurveConfig>() -> Scalar<P> {
    let bytes: Vec<u8> = P::COFACTOR.iter().flat_map(|l| l.to_le_bytes()).collect();
    Scalar::<P>::from_le_bytes_mod_order(&bytes)
}

// ------------------------------------------------------------------------------------------
// Generic group tests.

fn check_generator<P: SWCurveConfig>() {
    let g = P::GENERATOR;
    assert!(!g.is_zero());
    assert!(g.is_on_curve(), "generator not on the curve");
    assert!(
        g.is_in_correct_subgroup_assuming_on_curve(),
        "generator fails the subgroup check"
    );
    // r·G = O, and no smaller multiple of G vanishes since r is prime and G ≠ O.
    assert!(times_r(&g).is_zero(), "r·G ≠ O");
    // (r - 1)·G = -G through arkworks' scalar multiplication.
    assert_eq!(
        Projective::<P>::generator() * -Scalar::<P>::one(),
        -g.into_group()
    );
    assert_eq!(Projective::<P>::generator(), g.into_group());
}

fn check_mul_by_a<P: SWCurveConfig>() {
    let rng = &mut test_rng();
    for _ in 0..SAMPLES {
        let x = Base::<P>::rand(rng);
        assert_eq!(P::mul_by_a(x), x * P::COEFF_A);
        assert_eq!(P::add_b(x), x + P::COEFF_B);
    }
}

/// The configured subgroup check agrees with the definition (`[r]P = O`) on points of every
/// kind: random points of E, points of wrong order (`[r]P`, in the cofactor part), cleared
/// points, and sums of a subgroup point and a wrong-order point.
fn check_subgroup_membership<P: SWCurveConfig>() {
    let rng = &mut test_rng();
    let g = P::GENERATOR;
    let mut points = vec![Affine::<P>::identity(), g, -g];
    for _ in 0..SAMPLES {
        let p = random_curve_point::<P, _>(rng);
        let wrong_order = times_r(&p).into_affine();
        let cleared = p.mul_by_cofactor();
        let mixed = (cleared.into_group() + wrong_order).into_affine();
        if !cofactor_is_one::<P>() {
            // With overwhelming probability a random point has a component outside the subgroup.
            assert!(
                !wrong_order.is_zero(),
                "random point unexpectedly in the subgroup"
            );
            assert!(wrong_order.is_on_curve());
            assert!(!in_subgroup(&wrong_order), "point of wrong order accepted");
            assert!(!in_subgroup(&p), "random point accepted");
            assert!(
                !in_subgroup(&mixed),
                "G-point plus wrong-order point accepted"
            );
            assert!(!in_subgroup(&(g.into_group() + wrong_order).into_affine()));
        } else {
            assert!(
                wrong_order.is_zero(),
                "a prime-order curve has no points of other order"
            );
            assert!(in_subgroup(&p));
        }
        points.extend([p, wrong_order, cleared, mixed]);
    }
    for p in &points {
        assert_eq!(
            p.is_in_correct_subgroup_assuming_on_curve(),
            in_subgroup_by_definition(p),
            "subgroup check disagrees with [r]P = O"
        );
    }
}

fn check_cofactor_clearing<P: SWCurveConfig>() {
    let rng = &mut test_rng();
    // COFACTOR_INV is the inverse of the cofactor modulo r.
    assert_eq!(cofactor_mod_r::<P>() * P::COFACTOR_INV, Scalar::<P>::one());
    let g = P::GENERATOR;
    assert_eq!(g.mul_by_cofactor_inv().mul_by_cofactor(), g);
    for _ in 0..SAMPLES {
        let p = random_curve_point::<P, _>(rng);
        let q = p.clear_cofactor();
        assert!(!q.is_zero());
        assert!(q.is_on_curve());
        assert!(times_r(&q).is_zero(), "cleared point not of order r");
        assert!(q.is_in_correct_subgroup_assuming_on_curve());
        // Clearing a point already in the subgroup multiplies it by a unit mod r.
        let k = Scalar::<P>::rand(rng);
        let s = (g * k).into_affine();
        assert_eq!(
            s.clear_cofactor(),
            (g * (k * cofactor_mod_r::<P>())).into_affine()
        );
    }
}

/// Affine point as an optional pair, `None` for the point at infinity.
type Naive<F> = Option<(F, F)>;

/// Textbook affine addition on `y² = x³ + ax + b`, written independently of arkworks'
/// projective formulas (it uses `COEFF_A` directly, not `mul_by_a`).
fn naive_add<P: SWCurveConfig>(p: Naive<Base<P>>, q: Naive<Base<P>>) -> Naive<Base<P>> {
    let (Some((x1, y1)), Some((x2, y2))) = (p, q) else {
        return p.or(q);
    };
    let lambda = if x1 == x2 {
        if (y1 + y2).is_zero() {
            return None;
        }
        (x1.square() * Base::<P>::from(3u64) + P::COEFF_A) / (y1 + y1)
    } else {
        (y2 - y1) / (x2 - x1)
    };
    let x3 = lambda.square() - x1 - x2;
    Some((x3, lambda * (x1 - x3) - y1))
}

fn naive_mul<P: SWCurveConfig>(p: &Affine<P>, k: &[u64]) -> Affine<P> {
    let mut acc: Naive<Base<P>> = None;
    let base = p.xy();
    for bit in ark_ff::BitIteratorBE::without_leading_zeros(k) {
        acc = naive_add::<P>(acc, acc);
        if bit {
            acc = naive_add::<P>(acc, base);
        }
    }
    match acc {
        None => Affine::identity(),
        Some((x, y)) => Affine::new_unchecked(x, y),
    }
}

/// A known answer: `k·G = (x, y)`, coordinates as decimal base-prime-field components in
/// arkworks' (and gnark-crypto's) order, e.g. `B0.A0, B0.A1, B1.A0, B1.A1` for Fq4.
struct Kat {
    k: &'static str,
    x: &'static [&'static str],
    y: &'static [&'static str],
}

fn parse_base<P: SWCurveConfig>(parts: &[&str]) -> Base<P> {
    let elems = parts.iter().map(|s| {
        let n: <Base<P> as Field>::BasePrimeField = s.parse().ok().expect("decimal field element");
        n
    });
    Base::<P>::from_base_prime_field_elems(elems).expect("right number of components")
}

fn check_known_answer<P: SWCurveConfig>(kat: &Kat) {
    let k: Scalar<P> = kat.k.parse().ok().expect("decimal scalar");
    // `Affine::new` itself asserts that the expected point is on the curve and in the group.
    let expected = Affine::<P>::new(parse_base::<P>(kat.x), parse_base::<P>(kat.y));
    let g = P::GENERATOR;
    assert_eq!(
        (g * k).into_affine(),
        expected,
        "arkworks scalar multiplication"
    );
    assert_eq!(
        naive_mul(&g, k.into_bigint().as_ref()),
        expected,
        "naive affine multiplication"
    );
    // And both methods agree on random scalars.
    let rng = &mut test_rng();
    for _ in 0..2 {
        let k = Scalar::<P>::rand(rng);
        assert_eq!(
            (g * k).into_affine(),
            naive_mul(&g, k.into_bigint().as_ref())
        );
    }
}

fn check_serialization<P: SWCurveConfig>() {
    let rng = &mut test_rng();
    let g = P::GENERATOR;
    let mut points = vec![Affine::<P>::identity(), g, -g];
    points.extend((0..SAMPLES).map(|_| (g * Scalar::<P>::rand(rng)).into_affine()));
    let field_size = Base::<P>::zero().compressed_size();
    for p in &points {
        for compress in [Compress::Yes, Compress::No] {
            let mut bytes = Vec::new();
            p.serialize_with_mode(&mut bytes, compress).unwrap();
            // The flags fit in the spare bits of the base field: no extra byte.
            let expected_len = if compress == Compress::Yes {
                field_size
            } else {
                2 * field_size
            };
            assert_eq!(bytes.len(), expected_len);
            assert_eq!(p.serialized_size(compress), expected_len);
            let back =
                Affine::<P>::deserialize_with_mode(&bytes[..], compress, Validate::Yes).unwrap();
            assert_eq!(&back, p);
        }
    }
    // A point of wrong order is refused when validating, accepted when not.
    if !cofactor_is_one::<P>() {
        let bad = times_r(&random_curve_point::<P, _>(rng)).into_affine();
        assert!(!bad.is_zero());
        for compress in [Compress::Yes, Compress::No] {
            let mut bytes = Vec::new();
            bad.serialize_with_mode(&mut bytes, compress).unwrap();
            assert!(
                Affine::<P>::deserialize_with_mode(&bytes[..], compress, Validate::Yes).is_err()
            );
            let unchecked =
                Affine::<P>::deserialize_with_mode(&bytes[..], compress, Validate::No).unwrap();
            assert_eq!(unchecked, bad);
        }
    }
}

// ------------------------------------------------------------------------------------------
// Generic field tests.

fn check_field<F: Field>(degree: usize) {
    let rng = &mut test_rng();
    assert_eq!(F::extension_degree(), degree as u64);
    let p = F::characteristic();
    let mut moved = false;
    for _ in 0..SAMPLES {
        let a = F::rand(rng);
        let b = F::rand(rng);
        // Inverses.
        if !a.is_zero() {
            assert_eq!(a * a.inverse().unwrap(), F::one());
        }
        assert_eq!((a * b).square(), a.square() * b.square());
        // Frobenius: x ↦ x^p, a field automorphism of order `degree`.
        let frob = a.frobenius_map(1);
        assert_eq!(frob, a.pow(p), "frobenius(x) ≠ x^p");
        assert_eq!((a * b).frobenius_map(1), frob * b.frobenius_map(1));
        moved |= frob != a;
        let mut iterated = a;
        for k in 1..=degree {
            iterated.frobenius_map_in_place(1);
            assert_eq!(
                a.frobenius_map(k),
                iterated,
                "frobenius^{k} ≠ (frobenius)^{k}"
            );
        }
        assert_eq!(iterated, a, "frobenius^degree ≠ identity");
        // Square roots and the Legendre symbol.
        let s = a.square();
        let root = s.sqrt().expect("a square has a square root");
        assert_eq!(root.square(), s);
        assert!(s.legendre().is_qr() || s.is_zero());
        match a.legendre() {
            LegendreSymbol::QuadraticNonResidue => assert!(a.sqrt().is_none()),
            _ => assert_eq!(a.sqrt().unwrap().square(), a),
        }
    }
    assert_eq!(
        moved,
        degree > 1,
        "frobenius should move random elements iff degree > 1"
    );
}

fn check_prime_field<F: PrimeField + FftField>() {
    check_field::<F>(1);
    // The multiplicative generator is a quadratic non-residue, so the derived 2-adic root of
    // unity has order exactly 2^s (needed by Tonelli–Shanks and FFTs).
    assert!(F::GENERATOR.legendre().is_qnr());
    let s = F::TWO_ADICITY;
    let mut w = F::TWO_ADIC_ROOT_OF_UNITY;
    for _ in 0..s - 1 {
        w.square_in_place();
    }
    assert_eq!(w, -F::one(), "the 2-adic root of unity has order below 2^s");
    // 2^s exactly divides p - 1.
    let mut m = F::MODULUS;
    m.sub_with_borrow(&F::BigInt::from(1u64));
    for _ in 0..s {
        assert!(m.is_even());
        m.div2();
    }
    assert!(m.is_odd(), "two-adicity too small");
}

/// `F = B[X]/(X² - ξ)`: `X² = ξ`, `ξ` is a non-square in B, and multiplication matches the
/// schoolbook formula.
fn check_quadratic_tower<P: QuadExtConfig>(xi: P::BaseField) {
    use ark_ff::QuadExtField;
    let rng = &mut test_rng();
    let x = QuadExtField::<P>::new(P::BaseField::zero(), P::BaseField::one());
    assert_eq!(x.square(), QuadExtField::<P>::new(xi, P::BaseField::zero()));
    assert_eq!(P::NONRESIDUE, xi);
    assert!(
        xi.legendre().is_qnr(),
        "the tower's non-residue is a square"
    );
    for _ in 0..SAMPLES {
        let a = QuadExtField::<P>::rand(rng);
        let b = QuadExtField::<P>::rand(rng);
        let mut c1 = a.c1;
        P::mul_base_field_by_nonresidue_in_place(&mut c1);
        assert_eq!(c1, a.c1 * xi);
        let c0 = a.c0 * b.c0 + xi * a.c1 * b.c1;
        let c1 = a.c0 * b.c1 + a.c1 * b.c0;
        assert_eq!(a * b, QuadExtField::<P>::new(c0, c1));
        assert_eq!(a.square(), a * a);
    }
}

// ------------------------------------------------------------------------------------------
// Instantiation.

macro_rules! group_tests {
    ($name:ident, $config:ty, $kat:expr) => {
        mod $name {
            use super::*;
            #[test]
            fn generator() {
                check_generator::<$config>();
            }
            #[test]
            fn mul_by_a() {
                check_mul_by_a::<$config>();
            }
            #[test]
            fn subgroup_membership() {
                check_subgroup_membership::<$config>();
            }
            #[test]
            fn cofactor_clearing() {
                check_cofactor_clearing::<$config>();
            }
            #[test]
            fn known_answer() {
                check_known_answer::<$config>(&$kat);
            }
            #[test]
            fn serialization() {
                check_serialization::<$config>();
            }
        }
    };
}

group_tests!(bls24_315_g1, bls24_315::g1::Config, KAT_BLS24_315_G1);
group_tests!(bls24_315_g2, bls24_315::g2::Config, KAT_BLS24_315_G2);
group_tests!(bls24_317_g1, bls24_317::g1::Config, KAT_BLS24_317_G1);
group_tests!(bls24_317_g2, bls24_317::g2::Config, KAT_BLS24_317_G2);
group_tests!(bw6_633_g1, bw6_633::g1::Config, KAT_BW6_633_G1);
group_tests!(bw6_633_g2, bw6_633::g2::Config, KAT_BW6_633_G2);
group_tests!(stark_curve_g1, stark_curve::g1::Config, KAT_STARK_CURVE_G1);

macro_rules! prime_field_tests {
    ($name:ident, $field:ty) => {
        #[test]
        fn $name() {
            check_prime_field::<$field>();
        }
    };
}

prime_field_tests!(bls24_315_fq, bls24_315::Fq);
prime_field_tests!(bls24_315_fr, bls24_315::Fr);
prime_field_tests!(bls24_317_fq, bls24_317::Fq);
prime_field_tests!(bls24_317_fr, bls24_317::Fr);
prime_field_tests!(bw6_633_fq, bw6_633::Fq);
prime_field_tests!(bw6_633_fr, bw6_633::Fr);
prime_field_tests!(stark_curve_fq, stark_curve::Fq);
prime_field_tests!(stark_curve_fr, stark_curve::Fr);

#[test]
fn bls24_315_tower() {
    use ark_ff::{Fp2ConfigWrapper, Fp4ConfigWrapper};
    use bls24_315::{Fq, Fq2, Fq2Config, Fq4, Fq4Config};
    check_field::<Fq2>(2);
    check_field::<Fq4>(4);
    // Fq2 = Fq[u]/(u² - 13), Fq4 = Fq2[v]/(v² - u).
    check_quadratic_tower::<Fp2ConfigWrapper<Fq2Config>>(Fq::from(13u64));
    check_quadratic_tower::<Fp4ConfigWrapper<Fq4Config>>(Fq2::new(Fq::zero(), Fq::one()));
}

#[test]
fn bls24_317_tower() {
    use ark_ff::Fp2ConfigWrapper;
    use bls24_317::{Fq, Fq2, Fq2Config, Fq4, Fq4Config};
    check_field::<Fq2>(2);
    check_field::<Fq4>(4);
    // Fq2 = Fq[u]/(u² + 1), Fq4 = Fq2[v]/(v² - (u + 1)).
    check_quadratic_tower::<Fp2ConfigWrapper<Fq2Config>>(-Fq::one());
    check_quadratic_tower::<Fq4Config>(Fq2::new(Fq::one(), Fq::one()));
}

// ------------------------------------------------------------------------------------------
// Curve-specific tests.

/// On BLS24 G1, `φ(x, y) = (ωx, y)` acts as `[x₀⁸]` (gnark-crypto's `lambdaGLV`).
#[test]
fn bls24_g1_endomorphism_eigenvalue() {
    fn check<P: SWCurveConfig>(x: u64, phi: fn(&Affine<P>) -> Affine<P>) {
        let g = P::GENERATOR;
        let lambda = Scalar::<P>::from(x).pow([8u64]);
        assert_eq!(phi(&g), (g * lambda).into_affine());
        // φ³ = id and φ² + φ + 1 = 0 on the whole curve.
        let p = random_curve_point::<P, _>(&mut test_rng());
        assert_eq!(phi(&phi(&phi(&p))), p);
        assert!((phi(&phi(&p)).into_group() + phi(&p) + p).is_zero());
    }
    check::<bls24_315::g1::Config>(bls24_315::X, bls24_315::g1::endomorphism);
    check::<bls24_317::g1::Config>(bls24_317::X, bls24_317::g1::endomorphism);
}

/// On BLS24 G2, ψ maps E' to itself and satisfies `ψ² - [t]ψ + [p] = 0` with `t = x₀ + 1`,
/// which the soundness argument of the G2 subgroup check relies on.
#[test]
fn bls24_g2_psi_characteristic_polynomial() {
    fn check<P: SWCurveConfig>(x: u64, x_negative: bool, psi: fn(&Affine<P>) -> Affine<P>) {
        let rng = &mut test_rng();
        let p_modulus = <Base<P> as Field>::BasePrimeField::MODULUS;
        for _ in 0..2 {
            let p = random_curve_point::<P, _>(rng);
            let psi_p = psi(&p);
            assert!(psi_p.is_on_curve());
            // |t| = |x₀ + 1|: x₀ - 1 in absolute value when x₀ < 0.
            let t_abs = if x_negative { x - 1 } else { x + 1 };
            let mut t_psi = double_and_add_affine(&psi_p, [t_abs]);
            if x_negative {
                t_psi = -t_psi;
            }
            let lhs = psi(&psi_p).into_group() + double_and_add_affine(&p, p_modulus);
            assert_eq!(lhs, t_psi);
        }
        // On G2, ψ acts as [x₀].
        let g = P::GENERATOR;
        let mut x_g = double_and_add_affine(&g, [x]);
        if x_negative {
            x_g = -x_g;
        }
        assert_eq!(psi(&g), x_g.into_affine());
    }
    check::<bls24_315::g2::Config>(bls24_315::X, bls24_315::X_IS_NEGATIVE, bls24_315::g2::psi);
    check::<bls24_317::g2::Config>(bls24_317::X, bls24_317::X_IS_NEGATIVE, bls24_317::g2::psi);
}

/// BW6-633: the rational 3-torsion points `(0, ±2)` are not in G1. gnark-crypto's relation
/// `[x₀ + 1]φ(P) + [x₀ + x₀⁴ - x₀⁵]P = O` (degree 3r) holds for them; the degree-r relation
/// used here does not.
#[test]
fn bw6_633_g1_rejects_3_torsion() {
    use bw6_633::{g1, Fq};
    type P = g1::Config;
    for y in [Fq::from(2u64), -Fq::from(2u64)] {
        let t = g1::G1Affine::new_unchecked(Fq::zero(), y);
        assert!(t.is_on_curve());
        assert!(
            double_and_add_affine(&t, [3u64]).is_zero(),
            "(0, ±2) has order 3"
        );
        assert!(!t.is_in_correct_subgroup_assuming_on_curve());
        let shifted = (P::GENERATOR.into_group() + t).into_affine();
        assert!(!shifted.is_in_correct_subgroup_assuming_on_curve());
        assert!(!in_subgroup_by_definition(&shifted));
        // gnark-crypto's evaluation of its relation, with s = -x₀ = 3218079743:
        // φ(P - [s]P) - [s]P + [s⁴]P + [s⁵]P.
        let gnark = |p: &g1::G1Affine| {
            let s = |q: g1::G1Projective| ark_ec::scalar_mul::double_and_add(&q, [bw6_633::X]);
            let p = p.into_group();
            let u = s(p);
            let u4 = s(s(s(u)));
            let u5 = s(u4);
            g1::endomorphism(&(p - u).into_affine()).into_group() - u + u4 + u5
        };
        assert!(
            gnark(&t).is_zero(),
            "gnark-crypto's relation accepts (0, ±2)"
        );
        assert!(gnark(&P::GENERATOR).is_zero());
    }
}

/// Parses a big-endian hex string (with or without `0x`) into a 256-bit integer.
fn hex256(s: &str) -> ark_ff::BigInt<4> {
    let s = s.trim_start_matches("0x");
    let mut limbs = [0u64; 4];
    for (i, c) in s.bytes().rev().enumerate() {
        let d = (c as char).to_digit(16).expect("hex digit") as u64;
        limbs[i / 16] |= d << (4 * (i % 16));
    }
    ark_ff::BigInt(limbs)
}

/// StarkWare's ECDSA key-derivation vector (`starkware-libs/crypto-cpp`,
/// `src/starkware/crypto/ecdsa_test.cc`, test `PublicKeyFromPrivate`): public = private·G.
#[test]
fn stark_curve_public_key_vector() {
    use stark_curve::{Fq, Fr, G1Affine, G1Projective};
    let private = Fr::from_bigint(hex256(
        "0x3c1e9550e66958296d11b60f8e8e7a7ad990d07fa65d5f7652c4a6c87d4e3cc",
    ))
    .unwrap();
    let x = Fq::from_bigint(hex256(
        "0x77a3b314db07c45076d11f62b6f9e748a39790441823307743cf00d6597ea43",
    ))
    .unwrap();
    let y = Fq::from_bigint(hex256(
        "0x54d7beec5ec728223671c627557efc5c9a6508425dc6c900b7741bf60afec06",
    ))
    .unwrap();
    assert_eq!(
        (G1Projective::generator() * private).into_affine(),
        G1Affine::new(x, y)
    );
}

/// Starknet's Pedersen hash, `H(a, b) = [P₀ + a_low·P₁ + a_high·P₂ + b_low·P₃ + b_high·P₄].x`
/// (low = 248 low bits, high = 4 high bits), with StarkWare's constant points (cairo-lang
/// `fast_pedersen_hash.py`, as reproduced in gnark-crypto `ecc/stark-curve/pedersen-hash`) and
/// the test vectors of gnark-crypto's `pedersen_hash_test.go`.
#[test]
fn stark_curve_pedersen_hash_vectors() {
    use stark_curve::{Fq, G1Affine, G1Projective};
    fn point(x: &str, y: &str) -> G1Affine {
        // `new` asserts that the point is on the curve (and, trivially, in the group).
        G1Affine::new(x.parse().ok().unwrap(), y.parse().ok().unwrap())
    }
    let shift = point(
        "2089986280348253421170679821480865132823066470938446095505822317253594081284",
        "1713931329540660377023406109199410414810705867260802078187082345529207694986",
    );
    let p = [
        point(
            "996781205833008774514500082376783249102396023663454813447423147977397232763",
            "1668503676786377725805489344771023921079126552019160156920634619255970485781",
        ),
        point(
            "2251563274489750535117886426533222435294046428347329203627021249169616184184",
            "1798716007562728905295480679789526322175868328062420237419143593021674992973",
        ),
        point(
            "2138414695194151160943305727036575959195309218611738193261179310511854807447",
            "113410276730064486255102093846540133784865286929052426931474106396135072156",
        ),
        point(
            "2379962749567351885752724891227938183011949129833673362440656643086021394946",
            "776496453633298175483985398648758586525933812536653089401905292063708816422",
        ),
    ];
    // The shift point is Starknet's h(0, 0) constant.
    assert_eq!(
        shift.x,
        Fq::from_bigint(hex256(
            "0x49ee3eba8c1600700ee1b87eb599f16716b0b1022947733551fde4050ca6804"
        ))
        .unwrap()
    );
    let split = |v: ark_ff::BigInt<4>| {
        let mut low = v;
        low.0[3] &= (1 << 56) - 1;
        (low, [v.0[3] >> 56])
    };
    let pedersen = |a: &str, b: &str| -> Fq {
        let (a_low, a_high) = split(hex256(a));
        let (b_low, b_high) = split(hex256(b));
        let acc: G1Projective = shift.into_group()
            + p[0].mul_bigint(a_low)
            + p[1].mul_bigint(a_high)
            + p[2].mul_bigint(b_low)
            + p[3].mul_bigint(b_high);
        acc.into_affine().x
    };
    let vectors = [
        (
            "0x03d937c035c878245caf64531a5756109c53068da139362728feb561405371cb",
            "0x0208a0a10250e382e1e4bbe2880906c2791bf6275695e02fbbc6aeff9cd8b31a",
            "0x030e480bed5fe53fa909cc0f8c4d99b8f9f2c016be4c41e13a4848797979c662",
        ),
        (
            "0x58f580910a6ca59b28927c08fe6c43e2e303ca384badc365795fc645d479d45",
            "0x78734f65a067be9bdb39de18434d71e79f7b6466a4b66bbd979ab9e7515fe0b",
            "0x68cc0b76cddd1dd4ed2301ada9b7c872b23875d5ff837b3a87993e0d9996b87",
        ),
    ];
    for (a, b, h) in vectors {
        assert_eq!(pedersen(a, b), Fq::from_bigint(hex256(h)).unwrap());
    }
}

/// The new catalogue entries, in order, with their specs.
#[test]
fn catalogue_entries() {
    let expected = [
        ("bls24-315-g1", "bls24-315", Group::G1, 253, 315, 1, 5, true),
        ("bls24-315-g2", "bls24-315", Group::G2, 253, 315, 4, 5, true),
        ("bls24-317-g1", "bls24-317", Group::G1, 255, 317, 1, 5, true),
        ("bls24-317-g2", "bls24-317", Group::G2, 255, 317, 4, 5, true),
        ("bw6-633-g1", "bw6-633", Group::G1, 315, 633, 1, 10, true),
        ("bw6-633-g2", "bw6-633", Group::G2, 315, 633, 1, 10, true),
        (
            "stark-curve-g1",
            "stark-curve",
            Group::G1,
            252,
            252,
            1,
            4,
            false,
        ),
    ];
    let names = curves::NAMES;
    assert_eq!(
        &names[names.len() - expected.len()..],
        expected.map(|e| e.0).as_slice()
    );
    for (name, curve, group, scalar_bits, base_bits, degree, limbs, a_zero) in expected {
        let spec = curves::spec(name).unwrap();
        assert_eq!(spec.name, name);
        assert_eq!(spec.curve, curve);
        assert_eq!(spec.group, group);
        assert_eq!(spec.scalar_bits, scalar_bits);
        assert_eq!(spec.base_bits, base_bits);
        assert_eq!(spec.extension_degree, degree);
        assert_eq!(spec.base_limbs, limbs);
        assert_eq!(spec.a_is_zero, a_zero);
        assert_eq!(curves::spec(&name.to_uppercase()).unwrap(), spec);
    }
    // BW6-633's scalar field is BLS24-315's base field.
    assert_eq!(
        curves::spec("bw6-633-g1").unwrap().scalar_modulus,
        bls24_315::Fq::MODULUS.0.to_vec()
    );
}

// ------------------------------------------------------------------------------------------
// Known answers.
//
// No public k·G vectors were found for BLS24-315, BLS24-317 and BW6-633. These were computed
// with an independent Python big-integer implementation of affine double-and-add (outside this
// repository), and each test recomputes them with arkworks' projective double-and-add and with
// the naive affine formulas above. The STARK curve's vector is StarkWare's public one.

/// The scalar of the computed vectors: the first 64 decimal digits of e.
const K: &str = "2718281828459045235360287471352662497757247093699959574966967627";

const KAT_STARK_CURVE_G1: Kat = Kat {
    k: "1699550429262868952957733065396688802326540225623380427551300052767936406476",
    x: &["3382153814239323293087870650452838988136913683747955644970514321018482846275"],
    y: &["2398466819016019791858721938235728667271381822585554381671903761686735088646"],
};

const KAT_BLS24_315_G1: Kat = Kat {
    k: K,
    x: &[
        "25123894953562642824233597769567329397269334248013450789772246568716457322176690373659340417362",
    ],
    y: &[
        "18963037532223633085452996816483791394204548855351395622508717263987125231713778185924851983614",
    ],
};

const KAT_BLS24_315_G2: Kat = Kat {
    k: K,
    x: &[
        "35944196589227714571692400797371487378581217877770644746057216822009320061622091297939701274122",
        "10436799979980199459533280187379932378821228679596097671597317133703877422157919743178491877251",
        "36851052215527170019406042024835537395329832402180021753515209913097385804976451341187482113569",
        "23603197536047272758042712055058926546792616770200414834166343318829143440225146130202025337846",
    ],
    y: &[
        "26739599608835670765235894977784619756080742169563827369094253494748480328603471056142281685199",
        "36236794551994326593837943631222141147047150026727688439716343393516744932759971267888435856069",
        "22668336978985335973214122768816119960621744191092838300507650174129829957221158048046217763596",
        "29560961375061374031850245921434739089570385824974615137411748810102367255727231041033688293069",
    ],
};

const KAT_BLS24_317_G1: Kat = Kat {
    k: K,
    x: &[
        "130218692568240099743229023380862922784897341764391903654159581493959292265022713463815452832138",
    ],
    y: &[
        "41414757139110446823797791293915769737711053527678215006049501406507600692084459427008389228310",
    ],
};

const KAT_BLS24_317_G2: Kat = Kat {
    k: K,
    x: &[
        "13354859053218180634455857582812797473417790009102091522016503330023526525572040246849648672548",
        "13346827921371783750384463963964936040771537752718643586310233740211530977242986569078731007021",
        "14271501037467173009381255290740593128938181694445765861914260369817623487554703707638311033010",
        "96589835661544726966964278106317220448462591296790420818257040851965694198026656886297993203989",
    ],
    y: &[
        "131780028435863771788257475325348546964202126498611149834126789333096873918571033820224132770781",
        "97741239784649737163075946549682538952090758582885702912077670207867464628105341707039628616726",
        "43568745770748556281672709772450826100559770322117369830242452322620401505577983419365744987244",
        "71301679115998651580434676279439100671117342111155352168033619683690945513247388208721531533863",
    ],
};

const KAT_BW6_633_G1: Kat = Kat {
    k: K,
    x: &[
        "10133441695158620404686575018655205793748710377425024317867195376466960184109502539244615640230057270594101876714769753618556626021760491869800816937368514976016275484152194248453520401754551",
    ],
    y: &[
        "11243121137514489925798593435442202560354882536905649157690830804877432076261665806759352027326955962986189489870964979473907120032331572295616650621501382937807799231939880756486372159931270",
    ],
};

const KAT_BW6_633_G2: Kat = Kat {
    k: K,
    x: &[
        "328902418681163849060691361314393773315678545889920136148513027061147077912194040829801059888140918729708251544381205670649479856287530211299116753485241243620000078688645149150155817318937",
    ],
    y: &[
        "6316758706972169111386217805070014860036973613248947369930257487475140857182197927970285912213531033516148638446905727899991957165649410712034334905566144679463811164568253963776184611106576",
    ],
};
