//! `Fq4 = Fq2[v]/(v² - (u + 1))`, gnark-crypto's `E4` for BLS24-317.

use ark_ff::{fields::*, MontFp, QuadExtConfig, QuadExtField};

use super::{Fq, Fq2};

/// The quartic extension `Fq2[v]/(v² - ξ)` with `ξ = u + 1`, the coordinate field of G2.
pub type Fq4 = QuadExtField<Fq4Config>;

/// Configuration of [`Fq4`]: the non-residue `ξ = u + 1`, Frobenius coefficients in Fq2.
pub struct Fq4Config;

impl QuadExtConfig for Fq4Config {
    type BasePrimeField = Fq;
    type BaseField = Fq2;
    type FrobCoeff = Fq2;

    const DEGREE_OVER_BASE_PRIME_FIELD: usize = 4;

    /// NONRESIDUE = ξ = u + 1, a quadratic non-residue in Fq2.
    const NONRESIDUE: Fq2 = Fq2::new(Fq::ONE, Fq::ONE);

    /// ξ^((p^i - 1)/2) for i = 0..3, so that `frobenius(c0 + c1·v) = c0^(p^i) + c1^(p^i)·ξ^((p^i - 1)/2)·v`.
    const FROBENIUS_COEFF_C1: &'static [Fq2] = &[
        Fq2::new(Fq::ONE, Fq::ZERO),
        Fq2::new(
            MontFp!("74336883324433640754080694569100821251091163672228338795659008796366120084857226382668397781233"),
            MontFp!("74336883324433640754080694569100821251091163672228338795659008796366120084857226382668397781233"),
        ),
        Fq2::new(MontFp!("-1"), Fq::ZERO),
        Fq2::new(
            MontFp!("62056187779862270761019071339173235810853948449191255181551130507539853112374799235357758949818"),
            MontFp!("62056187779862270761019071339173235810853948449191255181551130507539853112374799235357758949818"),
        ),
    ];

    /// `(a + b·u)(1 + u) = (a - b) + (a + b)·u`, since `u² = -1`.
    #[inline(always)]
    fn mul_base_field_by_nonresidue_in_place(fe: &mut Fq2) -> &mut Fq2 {
        let a = fe.c0;
        fe.c0 -= fe.c1;
        fe.c1 += a;
        fe
    }

    fn mul_base_field_by_frob_coeff(fe: &mut Fq2, power: usize) {
        *fe *= Self::FROBENIUS_COEFF_C1[power % Self::DEGREE_OVER_BASE_PRIME_FIELD];
    }
}
