//! The BLS24-315 base field `Fq`.

use ark_ff::fields::{Fp320, MontBackend, MontConfig};

/// Montgomery configuration of the base field, `p` as in gnark-crypto's `ecc/bls24-315/fp`.
///
/// The generator 13 is a quadratic non-residue and has full order modulo every prime factor of
/// `p - 1` that is known (`p - 1 = 2²⁰·3²·11·31·239·c` with `c` a 275-bit composite that was
/// not factored, and 13 is not a `c`-th power residue either).
#[derive(MontConfig)]
#[modulus = "39705142709513438335025689890408969744933502416914749335064285505637884093126342347073617133569"]
#[generator = "13"]
pub struct FqConfig;

/// The base field of BLS24-315 (and the scalar field of BW6-633).
pub type Fq = Fp320<MontBackend<FqConfig, 5>>;
