//! `Fq2 = Fq[u]/(u² + 1)`, gnark-crypto's `E2` for BLS24-317.

use ark_ff::{fields::*, MontFp};

use super::Fq;

/// The quadratic extension `Fq[u]/(u² + 1)`.
pub type Fq2 = Fp2<Fq2Config>;

/// Configuration of [`Fq2`]: the non-residue -1.
pub struct Fq2Config;

impl Fp2Config for Fq2Config {
    type Fp = Fq;

    /// NONRESIDUE = -1 (p ≡ 3 mod 4).
    const NONRESIDUE: Fq = MontFp!("-1");

    /// NONRESIDUE^((p^i - 1)/2) for i = 0, 1.
    const FROBENIUS_COEFF_FP2_C1: &'static [Fq] = &[Fq::ONE, MontFp!("-1")];

    #[inline(always)]
    fn mul_fp_by_nonresidue_in_place(fe: &mut Fq) -> &mut Fq {
        fe.neg_in_place()
    }
}
