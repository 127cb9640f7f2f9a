//! G1 of BLS24-315: `E(Fq): y² = x³ + 1`, the subgroup of order `r`.

use ark_ec::{
    scalar_mul::double_and_add_affine,
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    CurveConfig,
};
use ark_ff::{AdditiveGroup, Field, MontFp, Zero};

use super::{Fq, Fr};

/// A G1 point in affine coordinates.
pub type G1Affine = Affine<Config>;
/// A G1 point in projective coordinates.
pub type G1Projective = Projective<Config>;

/// The G1 curve configuration.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Config;

impl CurveConfig for Config {
    type BaseField = Fq;
    type ScalarField = Fr;

    /// COFACTOR = (x₀ - 1)² / 3 = 3452012412914368512
    const COFACTOR: &'static [u64] = &[0x2fe8030000000000];

    /// COFACTOR_INV = COFACTOR⁻¹ mod r
    const COFACTOR_INV: Fr =
        MontFp!("11502027748484983061746766725372608623013042341922603258659095701186171371503");
}

impl SWCurveConfig for Config {
    /// COEFF_A = 0
    const COEFF_A: Fq = Fq::ZERO;

    /// COEFF_B = 1
    const COEFF_B: Fq = Fq::ONE;

    /// gnark-crypto's G1 generator.
    const GENERATOR: G1Affine = G1Affine::new_unchecked(G1_GENERATOR_X, G1_GENERATOR_Y);

    /// `(0, 0)` is not on the curve (`b ≠ 0`), so it can encode the point at infinity.
    type ZeroFlag = ();

    #[inline(always)]
    fn mul_by_a(_: Fq) -> Fq {
        Fq::ZERO
    }

    /// `P ∈ G1 ⟺ [x₀⁴]φ(P) + P = O`, with `φ(x, y) = (ωx, y)` (Scott, eprint 2021/1130).
    ///
    /// On G1, `φ` acts as multiplication by `λ = x₀⁸ ≡ x₀⁴ - 1 (mod r)`, and
    /// `1 + x₀⁴λ ≡ x₀⁸ - x₀⁴ + 1 ≡ 0`, so G1 lies in the kernel. The endomorphism `1 + x₀⁴φ` has
    /// degree `N(1 + x₀⁴ω) = 1 - x₀⁴ + x₀⁸ = r`, so its kernel has exactly `r` points: it is G1
    /// and nothing else.
    fn is_in_correct_subgroup_assuming_on_curve(p: &G1Affine) -> bool {
        let phi = endomorphism(p);
        (double_and_add_affine(&phi, X0_POW_4) + p).is_zero()
    }

    /// arkworks' `VariableBaseMSM::msm` on these points runs multiexp.
    fn msm(
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
    ) -> Result<Projective<Self>, usize> {
        crate::sw_msm(bases, scalars)
    }
}

/// `x₀⁴ = 107247507156927711247412808612996710401`, little-endian limbs.
const X0_POW_4: &[u64] = &[0x1e5035fd00c00001, 0x50af1e594194af0a];

/// ω, the primitive cube root of unity in Fq for which `φ(x, y) = (ωx, y)` acts on G1 as
/// `[x₀⁸]` (gnark-crypto's `thirdRootOneG1`).
pub const OMEGA: Fq =
    MontFp!("39705142672498995661671850106945620852186608752525090699191017895721506694646055668218723303426");

/// The order-3 endomorphism `φ(x, y) = (ωx, y)` of E.
pub fn endomorphism(p: &G1Affine) -> G1Affine {
    let mut res = *p;
    res.x *= OMEGA;
    res
}

/// G1_GENERATOR_X
pub const G1_GENERATOR_X: Fq =
    MontFp!("34223510504517033132712852754388476272837911830964394866541204856091481856889569724484362330263");

/// G1_GENERATOR_Y
pub const G1_GENERATOR_Y: Fq =
    MontFp!("24215295174889464585413596429561903295150472552154479431771837786124301185073987899223459122783");
