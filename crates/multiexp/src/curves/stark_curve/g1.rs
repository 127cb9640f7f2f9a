//! The STARK curve group `E(Fq): y² = x³ + x + β`, of prime order `r`.

use ark_ec::{
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    CurveConfig,
};
use ark_ff::{Field, MontFp};

use super::{Fq, Fr};

/// A point in affine coordinates.
pub type G1Affine = Affine<Config>;
/// A point in projective coordinates.
pub type G1Projective = Projective<Config>;

/// The STARK curve configuration.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Config;

impl CurveConfig for Config {
    type BaseField = Fq;
    type ScalarField = Fr;

    /// COFACTOR = 1
    const COFACTOR: &'static [u64] = &[0x1];

    /// COFACTOR_INV = 1
    const COFACTOR_INV: Fr = Fr::ONE;
}

impl SWCurveConfig for Config {
    /// COEFF_A = α = 1
    const COEFF_A: Fq = Fq::ONE;

    /// COEFF_B = β
    const COEFF_B: Fq =
        MontFp!("3141592653589793238462643383279502884197169399375105820974944592307816406665");

    /// StarkWare's generator `EC_GEN`.
    const GENERATOR: G1Affine = G1Affine::new_unchecked(G1_GENERATOR_X, G1_GENERATOR_Y);

    /// `(0, 0)` is not on the curve (`β ≠ 0`), so it can encode the point at infinity.
    type ZeroFlag = ();

    /// `a = 1`: multiplying by `a` is the identity.
    #[inline(always)]
    fn mul_by_a(elem: Fq) -> Fq {
        elem
    }

    /// The curve has prime order `r`, so every point on it is in the group.
    #[inline]
    fn is_in_correct_subgroup_assuming_on_curve(_: &G1Affine) -> bool {
        true
    }

    /// The cofactor is 1: clearing it is the identity.
    #[inline]
    fn clear_cofactor(p: &G1Affine) -> G1Affine {
        *p
    }

    /// arkworks' `VariableBaseMSM::msm` on these points runs multiexp.
    fn msm(
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
    ) -> Result<Projective<Self>, usize> {
        crate::sw_msm(bases, scalars)
    }
}

/// G1_GENERATOR_X = 0x1ef15c18599971b7beced415a40f0c7deacfd9b0d1819e03d723d8bc943cfca
pub const G1_GENERATOR_X: Fq =
    MontFp!("874739451078007766457464989774322083649278607533249481151382481072868806602");

/// G1_GENERATOR_Y = 0x5668060aa49730b7be4801df46ec62de53ecd11abe43a32873000c36e8dc1f
pub const G1_GENERATOR_Y: Fq =
    MontFp!("152666792071518830868575557812948353041420400780739481342941381225525861407");
