//! BLS24-315: a Barreto–Lynn–Scott curve of embedding degree 24, the inner curve of the
//! BLS24-315/BW6-633 two-chain.
//!
//! * seed `x₀ = -3218079743`;
//! * scalar field `r = x₀⁸ - x₀⁴ + 1` (253 bits), base field `p = (x₀ - 1)² r / 3 + x₀`
//!   (315 bits, five 64-bit limbs, five spare bits for serialization flags);
//! * G1: `E(Fp): y² = x³ + 1`, cofactor `(x₀ - 1)² / 3`;
//! * G2: the D-type sextic twist `E'(Fp4): y² = x³ + 1/v`;
//! * tower: `Fp2 = Fp[u]/(u² - 13)`, `Fp4 = Fp2[v]/(v² - u)`.
//!
//! Sources:
//! * Curve: Y. El Housni, A. Guillevic, "Families of SNARK-friendly 2-chains of elliptic
//!   curves" (<https://eprint.iacr.org/2021/1359>), the BLS24 inner curve of BW6-633.
//! * Moduli, tower non-residues, twist, generators, the cube root of unity and the ψ
//!   coefficients are those of gnark-crypto (<https://github.com/Consensys/gnark-crypto>):
//!   `ecc/bls24-315/bls24-315.go`, `ecc/bls24-315/fp`, `ecc/bls24-315/fr` and
//!   `ecc/bls24-315/internal/fptower`, so points are interchangeable with gnark-crypto.
//! * Subgroup checks: M. Scott, "A note on group membership tests for G1, G2 and GT on BLS
//!   pairing-friendly curves" (<https://eprint.iacr.org/2021/1130>), and Y. El Housni,
//!   A. Guillevic, T. Piellard, "Co-factor clearing and subgroup membership testing on
//!   pairing-friendly curves" (<https://eprint.iacr.org/2022/352>), as in gnark-crypto.
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

/// The absolute value of the curve seed `x₀ = -3218079743`.
pub const X: u64 = 3218079743;

/// Whether the curve seed `x₀` is negative (it is).
pub const X_IS_NEGATIVE: bool = true;
