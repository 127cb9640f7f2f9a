//! The BLS24-315 scalar field `Fr`.

use ark_ff::fields::{Fp256, MontBackend, MontConfig};

/// Montgomery configuration of the scalar field, `r = x₀⁸ - x₀⁴ + 1` as in gnark-crypto's
/// `ecc/bls24-315/fr`; 7 generates `Fr*` (`r - 1` fully factored), two-adicity 22.
#[derive(MontConfig)]
#[modulus = "11502027791375260645628074404575422495959608200132055716665986169834464870401"]
#[generator = "7"]
pub struct FrConfig;

/// The scalar field of BLS24-315: the order `r` of G1 and G2.
pub type Fr = Fp256<MontBackend<FrConfig, 4>>;
