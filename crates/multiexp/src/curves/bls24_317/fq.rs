//! The BLS24-317 base field `Fq`.

use ark_ff::fields::{Fp320, MontBackend, MontConfig};

/// Montgomery configuration of the base field, `p` as in gnark-crypto's `ecc/bls24-317/fp`;
/// 7 generates `Fq*` (`p - 1` fully factored), `p ≡ 3 (mod 4)`.
#[derive(MontConfig)]
#[modulus = "136393071104295911515099765908274057061945112121419593977210139303905973197232025618026156731051"]
#[generator = "7"]
pub struct FqConfig;

/// The base field of BLS24-317.
pub type Fq = Fp320<MontBackend<FqConfig, 5>>;
