//! `Fq4 = Fq2[v]/(v² - u)`, gnark-crypto's `E4` for BLS24-315.

use ark_ff::{fields::*, MontFp};

use super::{Fq, Fq2, Fq2Config};

/// The quartic extension `Fq2[v]/(v² - u)`, the coordinate field of G2.
pub type Fq4 = Fp4<Fq4Config>;

/// Configuration of [`Fq4`]: the non-residue `u`.
pub struct Fq4Config;

impl Fp4Config for Fq4Config {
    type Fp2Config = Fq2Config;

    /// NONRESIDUE = u = (0, 1), a quadratic non-residue in Fq2.
    const NONRESIDUE: Fq2 = Fq2::new(Fq::ZERO, Fq::ONE);

    /// u^((p^i - 1)/2) = 13^((p^i - 1)/4) for i = 0..3 (in Fq since p ≡ 1 mod 4).
    const FROBENIUS_COEFF_FP4_C1: &'static [Fq] = &[
        Fq::ONE,
        MontFp!("14265754707630841383590096931465005402246260064523506653409458152869013672931584279153351926943"),
        MontFp!("-1"),
        MontFp!("25439388001882596951435592958943964342687242352391242681654827352768870420194758067920265206626"),
    ];
}
