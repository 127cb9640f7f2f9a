//! G1 of BLS24-317: `E(Fq): y² = x³ + 4`, the subgroup of order `r`.

use ark_ec::{
    scalar_mul::double_and_add_affine,
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    CurveConfig,
};
use ark_ff::{AdditiveGroup, MontFp, Zero};

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

    /// COFACTOR = (x₀ - 1)² / 3 = 4418363654259976875
    const COFACTOR: &'static [u64] = &[0x3d512e5584a9aaab];

    /// COFACTOR_INV = COFACTOR⁻¹ mod r
    const COFACTOR_INV: Fr =
        MontFp!("101746795583100699611760093101365735624371524691032791998713446662132");
}

impl SWCurveConfig for Config {
    /// COEFF_A = 0
    const COEFF_A: Fq = Fq::ZERO;

    /// COEFF_B = 4
    const COEFF_B: Fq = MontFp!("4");

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

/// `x₀⁴ = 175697436624604299331971068187771928576`, little-endian limbs.
const X0_POW_4: &[u64] = &[0x1000000000000000, 0x842e186e6940f185];

/// ω, the primitive cube root of unity in Fq for which `φ(x, y) = (ωx, y)` acts on G1 as
/// `[x₀⁸]` (gnark-crypto's `thirdRootOneG1`).
pub const OMEGA: Fq = MontFp!(
    "112388585831426139305998878408983604164339968939599860577886592073045019257058155724801"
);

/// The order-3 endomorphism `φ(x, y) = (ωx, y)` of E.
pub fn endomorphism(p: &G1Affine) -> G1Affine {
    let mut res = *p;
    res.x *= OMEGA;
    res
}

/// G1_GENERATOR_X
pub const G1_GENERATOR_X: Fq =
    MontFp!("26261810162995192444253184251590159762050205376519976412461726336843100448942248976252388876791");

/// G1_GENERATOR_Y
pub const G1_GENERATOR_Y: Fq =
    MontFp!("26146603602820658047261036676090398397874822703333117264049387703172159980214065566219085800243");
