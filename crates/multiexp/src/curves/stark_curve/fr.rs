//! The STARK curve scalar field `Fr`.

use ark_ff::fields::{Fp256, MontBackend, MontConfig};

/// Montgomery configuration of the scalar field (the curve order); 3 generates `Fr*`
/// (`r - 1` fully factored).
#[derive(MontConfig)]
#[modulus = "3618502788666131213697322783095070105526743751716087489154079457884512865583"]
#[generator = "3"]
pub struct FrConfig;

/// The scalar field of the STARK curve: the group order `r`.
pub type Fr = Fp256<MontBackend<FrConfig, 4>>;
