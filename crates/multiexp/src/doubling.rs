//! 2^t·P for many affine points at once, as a table build needs them
//! ([`crate::precomputed`]): t Jacobian doublings per point, then one batch normalisation by
//! the caller.
//!
//! On a curve with a = 0 over a prime field the IFMA algorithms apply to
//! ([`crate::ifma::limbs_of`]), given an engine, eight points double in lockstep in 52-bit
//! limbs (dbl-2009-l: 2M + 5S and 9 additions, lane products at 1/8 of a vector product);
//! elsewhere arkworks doubles point by point (the same formula on its scalar arithmetic).
//! Jacobian doubling with a = 0 has no exceptional case: the point at infinity (Z = 0) stays
//! there, and a point of order two (y = 0) goes there (Z3 = 2·Y·Z = 0), so a lane never needs
//! redoing.
//!
//! Cost per point: t doublings, plus the two conversions of the lane path (2 arkworks
//! products to leave arkworks' form, 3 to return to it, 5 lane products). Measured reason:
//! building a table is n·(m − 1)·t doublings, which with IFMA took 24–36 plain MSMs of the
//! same n on BN254 (18–23 on BLS12-381) on arkworks' doubling, and takes 5.6–9.7 (6.7–8.9)
//! on lanes: 2.5–4.2 times faster (2 threads, n = 2^16 and 2^18,
//! docs/bench/table-build-lanes-raw.txt).

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveConfig};
use ark_ff::{Field, PrimeField, Zero};

use crate::ifma::{on_engine, Engine, Fe, Field52, Field52x8, LaneBackend};

type Prime<P> = <<P as CurveConfig>::BaseField as Field>::BasePrimeField;

/// Eight Jacobian points (X, Y, Z), limb-sliced.
pub(crate) type Jacobian8<B, const L: usize> = (Fe<B, L>, Fe<B, L>, Fe<B, L>);

/// One Jacobian doubling of eight points in lockstep on a curve with a = 0 (dbl-2009-l):
/// A = X², B = Y², C = B², D = 2((X + B)² − A − C), E = 3A, X3 = E² − 2D,
/// Y3 = E(D − X3) − 8C, Z3 = 2YZ.
#[inline(always)]
pub(crate) fn double_a0<B: LaneBackend, const L: usize>(
    f: &Field52x8<B, L>,
    (x1, y1, z1): Jacobian8<B, L>,
) -> Jacobian8<B, L> {
    let a = f.square(&x1);
    let b = f.square(&y1);
    let c = f.square(&b);
    let t = f.sub(&f.sub(&f.square(&f.add(&x1, &b)), &a), &c);
    let d = f.add(&t, &t);
    let e = f.add(&f.add(&a, &a), &a);
    let x3 = f.sub(&f.square(&e), &f.add(&d, &d));
    let c2 = f.add(&c, &c);
    let c4 = f.add(&c2, &c2);
    let c8 = f.add(&c4, &c4);
    let y3 = f.sub(&f.mul(&e, &f.sub(&d, &x3)), &c8);
    let yz = f.mul(&y1, &z1);
    (x3, y3, f.add(&yz, &yz))
}

/// Whether [`double_into`] runs on lanes for `P` given `engine`: a = 0 and a prime base
/// field of an IFMA limb count.
pub(crate) fn on_lanes<P: SWCurveConfig>(engine: Option<Engine>) -> bool {
    engine.is_some() && P::COEFF_A.is_zero() && crate::ifma::limbs_of::<P::BaseField>().is_some()
}

/// `out` = 2^t·`points`, point by point, as Jacobian points (not normalised): on eight lanes
/// of `engine` where [`on_lanes`], else on arkworks' doubling.
pub(crate) fn double_into<P: SWCurveConfig>(
    engine: Option<Engine>,
    points: &[Affine<P>],
    t: u32,
    out: &mut Vec<Projective<P>>,
) {
    out.clear();
    if let Some(engine) = engine.filter(|_| on_lanes::<P>(engine)) {
        macro_rules! run {
            ($l:literal) => {
                if let Some(field) = Field52::<$l>::of::<Prime<P>>() {
                    on_engine!(engine, |b| lanes::<P, _, $l>(b, &field, points, t, out));
                    return;
                }
            };
        }
        match crate::ifma::limbs_of::<P::BaseField>() {
            Some(5) => run!(5),
            Some(7) => run!(7),
            Some(8) => run!(8),
            _ => {}
        }
    }
    out.extend(points.iter().map(|p| {
        let mut q = p.into_group();
        for _ in 0..t {
            q.double_in_place();
        }
        q
    }));
}

#[inline(always)]
fn lanes<P: SWCurveConfig, B: LaneBackend, const L: usize>(
    backend: B,
    field: &Field52<L>,
    points: &[Affine<P>],
    t: u32,
    out: &mut Vec<Projective<P>>,
) {
    let f = field.broadcast(backend);
    let r2 = f.splat(&field.r2);
    let one = f.splat(&field.encode(&Prime::<P>::ONE));
    let mut unit = [0u64; L];
    unit[0] = 1;
    let unit = f.splat(&unit);
    let canonical = |v: P::BaseField| {
        let v = v.to_base_prime_field_elements().next().unwrap_or_default();
        crate::ifma::to_radix52::<L>(v.into_bigint().as_ref())
    };
    let element = |limbs: &[u64; L]| {
        let mut big = <Prime<P> as PrimeField>::BigInt::default();
        crate::ifma::from_radix52(limbs, big.as_mut());
        // Canonical (the product by 1 leaves [0, p)): `from_bigint` accepts it.
        P::BaseField::from_base_prime_field(Prime::<P>::from_bigint(big).unwrap_or_default())
    };
    for chunk in points.chunks(8) {
        let mut xs = [[0u64; L]; 8];
        let mut ys = [[0u64; L]; 8];
        let mut infinity = 0u8;
        for (k, p) in chunk.iter().enumerate() {
            match p.xy() {
                Some((x, y)) => {
                    xs[k] = canonical(x);
                    ys[k] = canonical(y);
                }
                None => infinity |= 1 << k,
            }
        }
        let x = f.mul(&f.assemble(&xs), &r2);
        let y = f.mul(&f.assemble(&ys), &r2);
        let mut p = (x, y, f.select(infinity, &f.zero(), &one));
        for _ in 0..t {
            p = double_a0(&f, p);
        }
        let x = f.extract(&f.mul(&p.0, &unit));
        let y = f.extract(&f.mul(&p.1, &unit));
        let z = f.extract(&f.mul(&p.2, &unit));
        out.extend(
            (0..chunk.len())
                .map(|k| Projective::new_unchecked(element(&x[k]), element(&y[k]), element(&z[k]))),
        );
    }
}

#[cfg(test)]
mod tests {
    use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
    use ark_ec::{AffineRepr, CurveGroup};
    use ark_ff::{Field, UniformRand};
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha20Rng;

    use super::*;
    use crate::ifma::Emulated;

    /// Random points, the point at infinity, a repeated point and a negated one, `n` in all.
    fn bases<P: SWCurveConfig>(n: usize, seed: u64) -> Vec<Affine<P>> {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let mut v: Vec<Affine<P>> = (0..n)
            .map(|_| Projective::<P>::rand(&mut rng).into_affine())
            .collect();
        if n >= 4 {
            v[1] = Affine::identity();
            v[2] = v[0];
            v[3] = -v[0];
        }
        v
    }

    fn check<P: SWCurveConfig>(engine: Engine, expect_lanes: bool) {
        assert_eq!(on_lanes::<P>(Some(engine)), expect_lanes);
        for (n, t) in [(0, 3), (1, 1), (7, 2), (8, 13), (21, 5), (16, 0)] {
            let points = bases::<P>(n, 7 + n as u64);
            let mut got = Vec::new();
            double_into(Some(engine), &points, t, &mut got);
            let mut want = Vec::new();
            double_into(None, &points, t, &mut want);
            assert_eq!(got.len(), n);
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                assert_eq!(g, w, "n = {n}, t = {t}, point {i}");
                let mut by_add = points[i].into_group();
                for _ in 0..t {
                    by_add += by_add;
                }
                assert_eq!(*g, by_add, "n = {n}, t = {t}, point {i} against additions");
            }
        }
    }

    #[test]
    fn lane_doublings_equal_arkworks_on_every_eligible_curve() {
        let engine = Engine::Emulated(Emulated);
        check::<ark_bn254::g1::Config>(engine, true);
        check::<ark_bls12_381::g1::Config>(engine, true);
        check::<ark_bls12_377::g1::Config>(engine, true);
        check::<ark_secp256k1::Config>(engine, true);
        check::<ark_grumpkin::GrumpkinConfig>(engine, true);
        // Not on lanes (a ≠ 0; an extension field): the arkworks doubling, same results.
        check::<ark_secp256r1::Config>(engine, false);
        check::<ark_bn254::g2::Config>(engine, false);
    }

    #[cfg(multiexp_host_ifma)]
    #[test]
    fn native_lane_doublings_equal_arkworks() {
        let engine = crate::ifma::native_engine();
        check::<ark_bn254::g1::Config>(engine, true);
        check::<ark_bls12_381::g1::Config>(engine, true);
        check::<ark_bls12_377::g1::Config>(engine, true);
    }

    #[test]
    fn a_point_of_order_two_doubles_to_infinity_on_lanes() {
        // y² = x³ + 3 over BN254's Fq has no point with y = 0 (−3 is not a cube there); the
        // formula's Z3 = 2·Y·Z = 0 is checked on a raw lane input instead.
        let field = Field52::<5>::of::<ark_bn254::Fq>().unwrap();
        let f = field.broadcast(Emulated);
        let x = f.splat(&field.encode(&ark_bn254::Fq::from(5u64)));
        let one = f.splat(&field.encode(&ark_bn254::Fq::ONE));
        let (_, _, z) = double_a0(&f, (x, f.zero(), one));
        assert_eq!(f.zero_lanes(&z), 0xff);
    }
}
