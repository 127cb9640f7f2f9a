//! G2 of BLS24-315: the D-type sextic twist `E'(Fq4): y² = x³ + 1/v`, the subgroup of
//! order `r`.

use ark_ec::{
    scalar_mul::double_and_add_affine,
    short_weierstrass::{Affine, Projective, SWCurveConfig},
    CurveConfig,
};
use ark_ff::{AdditiveGroup, Field, MontFp};

use super::{Fq, Fq2, Fq4, Fr};

/// A G2 point in affine coordinates.
pub type G2Affine = Affine<Config>;
/// A G2 point in projective coordinates.
pub type G2Projective = Projective<Config>;

/// The G2 curve configuration.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Config;

impl CurveConfig for Config {
    type BaseField = Fq4;
    type ScalarField = Fr;

    /// COFACTOR = #E'(Fq4) / r =
    /// 216079035500590602943546242140422432107555648541092228905249925297233022840522997069049628086159486821981928133195442045258836056038368698198752015929588430502672406127261882483243231901352617383373863699144968206692699635819037532045432968648848220192219321417343498967027189130043882684380082463571969
    const COFACTOR: &'static [u64] = &[
        0xdf101e0000000001,
        0xc6fe9ac0018b940a,
        0x15b52c02797e31a2,
        0xcd34eace3e7e7012,
        0x83eb09e6f58e9055,
        0x98dd4b373acdeee1,
        0xfe00fe2b41efdc36,
        0xbf73a8d2cc439fff,
        0x469c774cb87cd287,
        0x7a0dded7e599b628,
        0xb006921322861513,
        0x446602b3ec97c88d,
        0x9f9a3e8f21811c01,
        0xa3d20ecd4e893c62,
        0xcf9c5e2d1e9744e1,
        0x0000142a76791a4e,
    ];

    /// COFACTOR_INV = COFACTOR⁻¹ mod r
    const COFACTOR_INV: Fr =
        MontFp!("4554155043303784494090402065353399334353191703800238427501238319613167445417");
}

impl SWCurveConfig for Config {
    /// COEFF_A = 0
    const COEFF_A: Fq4 = Fq4::ZERO;

    /// COEFF_B = `1/v = u·v/13`
    const COEFF_B: Fq4 = Fq4::new(
        Fq2::ZERO,
        Fq2::new(
            Fq::ZERO,
            MontFp!("6108483493771298205388567675447533806912846525679192205394505462405828322019437284165171866703"),
        ),
    );

    /// gnark-crypto's G2 generator.
    const GENERATOR: G2Affine = G2Affine::new_unchecked(G2_GENERATOR_X, G2_GENERATOR_Y);

    /// `(0, 0)` is not on the curve (`b ≠ 0`), so it can encode the point at infinity.
    type ZeroFlag = ();

    #[inline(always)]
    fn mul_by_a(_: Fq4) -> Fq4 {
        Fq4::ZERO
    }

    /// `P ∈ G2 ⟺ ψ(P) = [x₀]P` (Scott, eprint 2021/1130; El Housni–Guillevic–Piellard,
    /// eprint 2022/352).
    ///
    /// `ψ` is conjugate to the p-power Frobenius of E, so `ψ² - tψ + p = 0` with `t = x₀ + 1`.
    /// On G2, `ψ` acts as `[p]` and `p ≡ x₀ (mod r)`, so G2 passes. Conversely, `ψ(P) = [x₀]P`
    /// gives `[x₀² - t·x₀ + p]P = [p - x₀]P = [h₁·r]P = O` with `h₁` the G1 cofactor; since
    /// `gcd(h₁, h₂) = 1` and `r ∤ h₂` (checked when the constants were derived), the order of a
    /// point of E'(Fq4) passing the test divides `r`.
    fn is_in_correct_subgroup_assuming_on_curve(p: &G2Affine) -> bool {
        let x_p = -double_and_add_affine(p, [super::X]);
        x_p == psi(p)
    }

    /// arkworks' `VariableBaseMSM::msm` on these points runs multiexp.
    fn msm(
        bases: &[Affine<Self>],
        scalars: &[Self::ScalarField],
    ) -> Result<Projective<Self>, usize> {
        crate::sw_msm(bases, scalars)
    }
}

/// The x-coefficient of ψ (gnark-crypto's `endo.u`).
pub const PSI_X: Fq4 = Fq4::new(
    Fq2::new(
        MontFp!("17432737665785421589107433512831558061649422754130449334965277047994983947893909429238815314776"),
        Fq::ZERO,
    ),
    Fq2::ZERO,
);

/// The y-coefficient of ψ (gnark-crypto's `endo.v`).
pub const PSI_Y: Fq4 = Fq4::new(
    Fq2::new(
        MontFp!("13266452002786802757645810648664867986567631927642464177452792960815113608167203350720036682455"),
        Fq::ZERO,
    ),
    Fq2::ZERO,
);

/// The untwist-Frobenius-twist endomorphism `ψ(x, y) = (PSI_X·x^p, PSI_Y·y^p)` of E'.
pub fn psi(p: &G2Affine) -> G2Affine {
    let mut x = p.x;
    x.frobenius_map_in_place(1);
    x *= PSI_X;
    let mut y = p.y;
    y.frobenius_map_in_place(1);
    y *= PSI_Y;
    G2Affine::new_unchecked(x, y)
}

/// G2_GENERATOR_X (gnark-crypto's `g2Gen.X`, components `B0.A0, B0.A1, B1.A0, B1.A1`)
pub const G2_GENERATOR_X: Fq4 = Fq4::new(
    Fq2::new(
        MontFp!("24614737899199071964341749845083777103809664018538138889239909664991294445469052467064654073699"),
        MontFp!("17049297748993841127032249156255993089778266476087413538366212660716380683149731996715975282972"),
    ),
    Fq2::new(
        MontFp!("11950668649125904104557740112865942804623051114821811669564995102755430514441092495782202668342"),
        MontFp!("3603055379462539802413979855826194299714805833759849528529386570240639115620788686893505938793"),
    ),
);

/// G2_GENERATOR_Y
pub const G2_GENERATOR_Y: Fq4 = Fq4::new(
    Fq2::new(
        MontFp!("31740092748246070457677943092194030978994615503726570180895475408200863271773078192139722193079"),
        MontFp!("30261413948955264769241509843031153941332801192447678605718183215275065425758214858190865971597"),
    ),
    Fq2::new(
        MontFp!("14195825602561496219090410113749222574308144851497375443809100117082380611212823440674391088885"),
        MontFp!("2391152940984805871402135750194189812615420966694899795235607856168224901793030297133493038211"),
    ),
);
