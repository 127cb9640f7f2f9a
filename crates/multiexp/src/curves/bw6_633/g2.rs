//! G2 of BW6-633: `E'(Fq): y² = x³ + 8`, the M-type sextic twist of E, the subgroup of order `r`.

use ark_ec::{
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    CurveConfig,
};
use ark_ff::{AdditiveGroup, MontFp, Zero};

use super::{Fq, Fr};

/// A G2 point in affine coordinates.
pub type G2Affine = Affine<Config>;
/// A G2 point in projective coordinates.
pub type G2Projective = Projective<Config>;

/// The G2 curve configuration.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Config;

impl CurveConfig for Config {
    type BaseField = Fq;
    type ScalarField = Fr;

    /// COFACTOR = #E'(Fq) / r =
    /// 516166855112631370346774477030598579858367278343565509012644853411927535599366632765988905418768
    const COFACTOR: &'static [u64] = &[
        0xcc886ef403000010,
        0xc35623dffc1785bb,
        0x5ef08adcf439cdac,
        0x29d07457e986eba8,
        0x3ddcf222feafdfb9,
    ];

    /// COFACTOR_INV = COFACTOR⁻¹ mod r
    const COFACTOR_INV: Fr =
        MontFp!("15550521240207286300947135065882589348876436785240448653035798898896292970947613388524439052055");
}

impl SWCurveConfig for Config {
    /// COEFF_A = 0
    const COEFF_A: Fq = Fq::ZERO;

    /// COEFF_B = 8
    const COEFF_B: Fq = MontFp!("8");

    /// gnark-crypto's G2 generator.
    const GENERATOR: G2Affine = G2Affine::new_unchecked(G2_GENERATOR_X, G2_GENERATOR_Y);

    /// `(0, 0)` is not on the twist (`b ≠ 0`), so it can encode the point at infinity.
    type ZeroFlag = ();

    #[inline(always)]
    fn mul_by_a(_: Fq) -> Fq {
        Fq::ZERO
    }

    /// `P ∈ G2 ⟺ [c₀]P + [c₁]φ(P) = O`, with `φ(x, y) = (ωx, y)`,
    /// `c₀ = (-2x₀⁵ + 2x₀⁴ + x₀ - 1)/3` and `c₁ = (-x₀⁵ + x₀⁴ + 2x₀ + 1)/3`.
    ///
    /// On G2, `φ` acts as multiplication by gnark-crypto's `λ` and `c₀ + c₁λ ≡ 0 (mod r)`, so
    /// G2 passes. The endomorphism `c₀ + c₁φ` has degree `c₀² - c₀c₁ + c₁² = r`, so its kernel
    /// has exactly `r` points: nothing outside G2 passes.
    fn is_in_correct_subgroup_assuming_on_curve(p: &G2Affine) -> bool {
        super::joint_mul(p, &endomorphism(p), C0, C1).is_zero()
    }

    /// arkworks' `VariableBaseMSM::msm` on these points runs multiexp.
    fn msm(
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
    ) -> Result<Projective<Self>, usize> {
        crate::sw_msm(bases, scalars)
    }
}

/// `c₀ = 230087353584136064558386754535755632585655451648`, little-endian limbs.
const C0: &[u64] = &[0xc0bfe8003ff00000, 0xd5a224ef2de450f7, 0x00000000284d7948];

/// `c₁ = 115043676792068032279193377267877816291218685953`, little-endian limbs.
const C1: &[u64] = &[0xe05ff3ffc0100001, 0x6ad1127796f2287b, 0x000000001426bca4];

/// ω, the primitive cube root of unity in Fq for which `φ(x, y) = (ωx, y)` acts on G2 as
/// multiplication by gnark-crypto's `λ` (`thirdRootOneG2 = thirdRootOneG1²`).
pub const OMEGA: Fq =
    MontFp!("16395582919155345436741076146056394653323717886977296946166196826607008495049498537498484690527540372326881062657221127377212177459029992142458645083304465140194468247889229480289176510057678");

/// The order-3 endomorphism `φ(x, y) = (ωx, y)`.
pub fn endomorphism(p: &G2Affine) -> G2Affine {
    let mut res = *p;
    res.x *= OMEGA;
    res
}

/// G2_GENERATOR_X
pub const G2_GENERATOR_X: Fq =
    MontFp!("13658793733252505713431834233072715040674666715141692574468286839081203251180283741830175712695426047062165811313478642863696265647598838732554425602399576125615559121457137320131899043374497");

/// G2_GENERATOR_Y
pub const G2_GENERATOR_Y: Fq =
    MontFp!("599560264833409786573595720823495699033661029721475252751314180543773745554433461106678360045466656230822473390866244089461950086268801746497554519984580043036179195728559548424763890207250");
