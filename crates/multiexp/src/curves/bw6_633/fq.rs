//! The BW6-633 base field `Fq`.

use ark_ff::fields::{Fp640, MontBackend, MontConfig};

/// Montgomery configuration of the base field, `p` as in gnark-crypto's `ecc/bw6-633/fp`.
///
/// The generator 2 is a quadratic non-residue and has full order modulo every prime factor of
/// `p - 1` that is known (`p - 1 = 2²·3·7·c` with `c` a 626-bit composite that was not
/// factored, and 2 is not a `c`-th power residue either).
#[derive(MontConfig)]
#[modulus = "20494478644167774678813387386538961497669590920908778075528754551012016751717791778743535050360001387419576570244406805463255765034468441182772056330021723098661967429339971741066259394985997"]
#[generator = "2"]
pub struct FqConfig;

/// The base field of BW6-633.
pub type Fq = Fp640<MontBackend<FqConfig, 10>>;
