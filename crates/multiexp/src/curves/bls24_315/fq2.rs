//! `Fq2 = Fq[u]/(u² - 13)`, gnark-crypto's `E2` for BLS24-315.

use ark_ff::{fields::*, MontFp};

use super::Fq;

/// The quadratic extension `Fq[u]/(u² - 13)`.
pub type Fq2 = Fp2<Fq2Config>;

/// Configuration of [`Fq2`]: the non-residue 13.
pub struct Fq2Config;

impl Fp2Config for Fq2Config {
    type Fp = Fq;

    /// NONRESIDUE = 13, a quadratic non-residue modulo p.
    const NONRESIDUE: Fq = MontFp!("13");

    /// NONRESIDUE^((p^i - 1)/2) for i = 0, 1.
    const FROBENIUS_COEFF_FP2_C1: &'static [Fq] = &[Fq::ONE, MontFp!("-1")];

    /// 13·x = 8x + 4x + x, with doublings and additions only.
    #[inline(always)]
    fn mul_fp_by_nonresidue_in_place(fe: &mut Fq) -> &mut Fq {
        let x = *fe;
        let four_x = *fe.double_in_place().double_in_place();
        fe.double_in_place();
        *fe += four_x;
        *fe += x;
        fe
    }
}
