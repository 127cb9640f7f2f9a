//! G1 of BW6-633: `E(Fq): y² = x³ + 4`, the subgroup of order `r`.

use ark_ec::{
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

    /// COFACTOR = #E(Fq) / r =
    /// 516166855112631370346774477030598579858367278343565509012644853411927535599366632765988905418773
    const COFACTOR: &'static [u64] = &[
        0xcc886ef403000015,
        0xc35623dffc1785bb,
        0x5ef08adcf439cdac,
        0x29d07457e986eba8,
        0x3ddcf222feafdfb9,
    ];

    /// COFACTOR_INV = COFACTOR⁻¹ mod r
    const COFACTOR_INV: Fr =
        MontFp!("32600853154846281587673394520500951795953586027721708397798796392290759237866462110918187179259");
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

    /// `P ∈ G1 ⟺ [c₀]P + [c₁]φ(P) = O`, with `φ(x, y) = (ωx, y)`,
    /// `c₀ = (-2x₀⁵ + 2x₀⁴ + x₀ - 1)/3` and `c₁ = (-x₀⁵ + x₀⁴ + 2x₀ + 1)/3`.
    ///
    /// On G1, `φ` acts as multiplication by gnark-crypto's `λ` and `c₀ + c₁λ ≡ 0 (mod r)`, so
    /// G1 passes. The endomorphism `c₀ + c₁φ` has degree `c₀² - c₀c₁ + c₁² = r`, so its kernel
    /// has exactly `r` points: nothing outside G1 passes.
    ///
    /// gnark-crypto tests `[x₀ + 1]φ(P) + [x₀ + x₀⁴ - x₀⁵]P = O`, whose degree is `3r`; since
    /// `3 | h₁`, that relation also holds for the rational 3-torsion points `(0, ±2)`, which are
    /// not in G1. Dividing that relation by `1 - ω` gives the one used here, of degree `r`.
    fn is_in_correct_subgroup_assuming_on_curve(p: &G1Affine) -> bool {
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

/// ω, the primitive cube root of unity in Fq for which `φ(x, y) = (ωx, y)` acts on G1 as
/// multiplication by gnark-crypto's `λ` (`thirdRootOneG1`).
pub const OMEGA: Fq =
    MontFp!("4098895725012429242072311240482566844345873033931481129362557724405008256668293241245050359832461015092695507587185678086043587575438449040313411246717257958467499181450742260777082884928318");

/// The order-3 endomorphism `φ(x, y) = (ωx, y)`.
pub fn endomorphism(p: &G1Affine) -> G1Affine {
    let mut res = *p;
    res.x *= OMEGA;
    res
}

/// G1_GENERATOR_X
pub const G1_GENERATOR_X: Fq =
    MontFp!("14087405796052437206213362229855313116771222912153372774869400386285407949123477431442535997951698710614498307938219633856996133201713506830167161540335446217605918678317160130862890417553415");

/// G1_GENERATOR_Y
pub const G1_GENERATOR_Y: Fq =
    MontFp!("5208886161111258314476333487866604447704068601830026647530443033297117148121067806438008469463787158470000157308702133756065259580313172904438248825389121766442385979570644351664733475122746");
