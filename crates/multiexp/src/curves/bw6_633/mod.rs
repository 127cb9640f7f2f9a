//! BW6-633: a Brezing–Weng curve of embedding degree 6, the outer curve of the
//! BLS24-315/BW6-633 two-chain (its scalar field is the BLS24-315 base field).
//!
//! * seed `x₀ = -3218079743` (the BLS24-315 seed);
//! * scalar field `r` = the BLS24-315 base field modulus (315 bits), base field `p` (633 bits,
//!   ten 64-bit limbs, seven spare bits for serialization flags);
//! * G1: `E(Fp): y² = x³ + 4`; G2: the M-type twist `E'(Fp): y² = x³ + 8`. Both groups are
//!   over Fp, with 318-bit cofactors.
//!
//! Sources:
//! * Curve: Y. El Housni, A. Guillevic, "Families of SNARK-friendly 2-chains of elliptic curves"
//!   (<https://eprint.iacr.org/2021/1359>).
//! * Moduli, coefficients, generators and the cube root of unity are those of gnark-crypto
//!   (<https://github.com/Consensys/gnark-crypto>): `ecc/bw6-633/bw6-633.go`, `ecc/bw6-633/fp`,
//!   `ecc/bw6-633/fr`, so points are interchangeable with gnark-crypto.
//! * Subgroup checks: derived from gnark-crypto's GLV-based relation (see
//!   [`g1::Config`]), following Y. El Housni, A. Guillevic, T. Piellard, "Co-factor clearing
//!   and subgroup membership testing on pairing-friendly curves"
//!   (<https://eprint.iacr.org/2022/352>).
//!
//! Derived constants (cofactors, their inverses modulo `r`, the check coefficients, the base
//! field's multiplicative generator) were computed from these parameters with an independent
//! big-integer script and are re-checked by the tests in `tests/suite/curve_catalogue.rs`.

pub mod fq;
pub mod g1;
pub mod g2;

pub use fq::{Fq, FqConfig};
pub use g1::{G1Affine, G1Projective};
pub use g2::{G2Affine, G2Projective};

/// The scalar field of BW6-633, which is the base field of BLS24-315.
pub type Fr = crate::curves::bls24_315::Fq;

/// The absolute value of the curve seed `x₀ = -3218079743`.
pub const X: u64 = 3218079743;

/// Whether the curve seed `x₀` is negative (it is).
pub const X_IS_NEGATIVE: bool = true;

pub(crate) use super::joint_mul;
