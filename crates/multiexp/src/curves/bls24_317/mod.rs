//! BLS24-317: a Barreto–Lynn–Scott curve of embedding degree 24 with a 255-bit scalar field of
//! two-adicity 60.
//!
//! * seed `x₀ = 3640754176`;
//! * scalar field `r = x₀⁸ - x₀⁴ + 1` (255 bits), base field `p = (x₀ - 1)² r / 3 + x₀`
//!   (317 bits, five 64-bit limbs, three spare bits for serialization flags);
//! * G1: `E(Fp): y² = x³ + 4`, cofactor `(x₀ - 1)² / 3`;
//! * G2: the M-type sextic twist `E'(Fp4): y² = x³ + 4v`;
//! * tower: `Fp2 = Fp[u]/(u² + 1)`, `Fp4 = Fp2[v]/(v² - (u + 1))`.
//!
//! Sources:
//! * All curve parameters (moduli, tower non-residues, twist, generators, the cube root of unity
//!   and the ψ coefficients) are those of gnark-crypto
//!   (<https://github.com/Consensys/gnark-crypto>): `ecc/bls24-317/bls24-317.go`,
//!   `ecc/bls24-317/fp`, `ecc/bls24-317/fr` and `ecc/bls24-317/internal/fptower`, so points are
//!   interchangeable with gnark-crypto. The curve family is Barreto–Lynn–Scott (P. Barreto,
//!   B. Lynn, M. Scott, "Constructing elliptic curves with prescribed embedding degrees",
//!   SCN 2002, <https://eprint.iacr.org/2002/088>).
//! * Subgroup checks: M. Scott, "A note on group membership tests for G1, G2 and GT on BLS
//!   pairing-friendly curves" (<https://eprint.iacr.org/2021/1130>), and Y. El Housni,
//!   A. Guillevic, T. Piellard, "Co-factor clearing and subgroup membership testing on
//!   pairing-friendly curves" (<https://eprint.iacr.org/2022/352>), as in gnark-crypto.
//!
//! The Fp4 non-residue `u + 1` is not the `(0, 1)` that ark-ff's `Fp4Config` hard-codes, and
//! the Frobenius coefficients of Fp4 lie in Fp2 rather than Fp (`p ≡ 3 mod 8`), so [`Fq4`] is
//! built directly on ark-ff's `QuadExtConfig`.
//!
//! Derived constants (cofactors, their inverses modulo `r`, Frobenius coefficients, the fields'
//! multiplicative generators) were computed from these parameters with an independent
//! big-integer script and are re-checked by the tests in `tests/suite/curve_catalogue.rs`.

pub mod fq;
pub mod fq2;
pub mod fq4;
pub mod fr;
pub mod g1;
pub mod g2;

pub use fq::{Fq, FqConfig};
pub use fq2::{Fq2, Fq2Config};
pub use fq4::{Fq4, Fq4Config};
pub use fr::{Fr, FrConfig};
pub use g1::{G1Affine, G1Projective};
pub use g2::{G2Affine, G2Projective};

/// The curve seed `x₀ = 3640754176`.
pub const X: u64 = 3640754176;

/// Whether the curve seed `x₀` is negative (it is not).
pub const X_IS_NEGATIVE: bool = false;
