//! The STARK curve base field `Fq`, `p = 2²⁵¹ + 17·2¹⁹² + 1`.

use ark_ff::fields::{Fp256, MontBackend, MontConfig};

/// Montgomery configuration of the base field; 3 generates `Fq*` (`p - 1` fully factored),
/// two-adicity 192.
#[derive(MontConfig)]
#[modulus = "3618502788666131213697322783095070105623107215331596699973092056135872020481"]
#[generator = "3"]
pub struct FqConfig;

/// The base field of the STARK curve (Starknet's `felt252` field).
pub type Fq = Fp256<MontBackend<FqConfig, 4>>;
