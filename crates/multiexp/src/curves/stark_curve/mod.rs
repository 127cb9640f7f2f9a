//! The STARK curve of Starknet and StarkEx: `y² = x³ + x + β` over the 252-bit prime
//! `p = 2²⁵¹ + 17·2¹⁹² + 1`, of prime order `r` (cofactor 1).
//!
//! * `α = 1` (the curve coefficient `a`, so `mul_by_a` is the identity map);
//! * `β = 3141592653589793238462643383279502884197169399375105820974944592307816406665`;
//! * `p` and `r` take four 64-bit limbs each, with four spare bits in `p` for serialization
//!   flags.
//!
//! Sources:
//! * StarkWare, "STARK curve" (<https://docs.starkware.co/starkex/crypto/stark-curve.html>),
//!   the curve of Starknet's ECDSA signatures and Pedersen hash;
//! * gnark-crypto `ecc/stark-curve/stark_curve.go`, `ecc/stark-curve/fp`, `ecc/stark-curve/fr`
//!   (<https://github.com/Consensys/gnark-crypto>), whose generator is StarkWare's
//!   `EC_GEN = (0x1ef15c18599971b7beced415a40f0c7deacfd9b0d1819e03d723d8bc943cfca,
//!   0x5668060aa49730b7be4801df46ec62de53ecd11abe43a32873000c36e8dc1f)`.
//!
//! Since the group order is the prime `r`, every point of the curve is in the group: the
//! subgroup check is trivially true and cofactor clearing is the identity.

pub mod fq;
pub mod fr;
pub mod g1;

pub use fq::{Fq, FqConfig};
pub use fr::{Fr, FrConfig};
pub use g1::{G1Affine, G1Projective};
