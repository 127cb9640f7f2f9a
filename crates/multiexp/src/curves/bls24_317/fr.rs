//! The BLS24-317 scalar field `Fr`.

use ark_ff::fields::{Fp256, MontBackend, MontConfig};

/// Montgomery configuration of the scalar field, `r = x₀⁸ - x₀⁴ + 1` as in gnark-crypto's
/// `ecc/bls24-317/fr`; 7 generates `Fr*` (`r - 1` fully factored), two-adicity 60.
#[derive(MontConfig)]
#[modulus = "30869589236456844204538189757527902584594726589286811523515204428962673459201"]
#[generator = "7"]
pub struct FrConfig;

/// The scalar field of BLS24-317: the order `r` of G1 and G2.
pub type Fr = Fp256<MontBackend<FrConfig, 4>>;
