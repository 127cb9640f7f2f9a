//! G2 of BLS24-317: the M-type sextic twist `E'(Fq4): y² = x³ + 4v`, the subgroup of
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
    /// 11210845891624836531176012918062914462021840282941743787554192641910416517412899358318656504699111654137487891251681348586979064452553742551765180004072432778267339363198533762231562428665144287826113466579256058771552959868232593502754445031920722873908317845734623813971633199310474447624304228331971876
    const COFACTOR: &'static [u64] = &[
        0x10e1ab025b5c6524,
        0xfba2b477ebc01c71,
        0xb0ebf4e288bac4ce,
        0x9c20c159e556fe74,
        0xa338731b5ac8bb14,
        0x9f6dca9771857f79,
        0xd9d309f43fac4274,
        0xd77ae229d7dc65e3,
        0xfe651956cc3cd1e6,
        0xc3b7285486a4f06b,
        0x7ea5c8e850f5306c,
        0x88f0707d8cd9e96d,
        0x7603deb0ea8a26cc,
        0x6794b6a196037b80,
        0x3c0307445c51ce3f,
        0x000416447847ba37,
    ];

    /// COFACTOR_INV = COFACTOR⁻¹ mod r
    const COFACTOR_INV: Fr =
        MontFp!("14864029323151121666465816404831356728367799266649087186870283018215904595928");
}

impl SWCurveConfig for Config {
    /// COEFF_A = 0
    const COEFF_A: Fq4 = Fq4::ZERO;

    /// COEFF_B = `4v`
    const COEFF_B: Fq4 = Fq4::new(Fq2::ZERO, Fq2::new(MontFp!("4"), Fq::ZERO));

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
        let x_p = double_and_add_affine(p, [super::X]);
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
        MontFp!("100835231576138384070271140557450756773581004948002542492497192760544145876107391019725843007951"),
        MontFp!("100835231576138384070271140557450756773581004948002542492497192760544145876107391019725843007951"),
    ),
    Fq2::ZERO,
);

/// The y-coefficient of ψ (gnark-crypto's `endo.v`).
pub const PSI_Y: Fq4 = Fq4::new(
    Fq2::ZERO,
    Fq2::new(
        MontFp!("65063930028143676778466901566890018271632055221368035552739808236464024322431728149960968101"),
        MontFp!("65063930028143676778466901566890018271632055221368035552739808236464024322431728149960968101"),
    ),
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
        MontFp!("28498404142312365002533744693556861244212064443103687717510540998257508853975496760832205123607"),
        MontFp!("104881342316154169720140745551267577558255475983798552134082689646705436288255501236462500135051"),
    ),
    Fq2::new(
        MontFp!("134208762611471838850128095341317427866582025424914361408168906642550705688378271974920859507485"),
        MontFp!("47807860684290705153036437491997319116342330273104493957877398921782737166446662055996604784294"),
    ),
);

/// G2_GENERATOR_Y
pub const G2_GENERATOR_Y: Fq4 = Fq4::new(
    Fq2::new(
        MontFp!("91516448788529060702418635560646746547369142933278847722177434542449427480796649633689953798948"),
        MontFp!("13448671391015186163413673966297442264556781166352891049005282051703895543542296449974630011689"),
    ),
    Fq2::new(
        MontFp!("1980905665816458576882252418967038151483710575831277397652951146268622037800272983431026055487"),
        MontFp!("134363379072057086809745572347104070037544575425956896869689256737197090432635401300100624083192"),
    ),
);
