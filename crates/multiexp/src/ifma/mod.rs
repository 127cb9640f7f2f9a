//! Prime-field arithmetic eight lanes at a time in 52-bit limbs, the shape of AVX-512 IFMA,
//! on every target.
//!
//! Contract: the algorithms built on this module (batch-affine additions on records, the
//! bucket reduction, square roots, the BLS12 G1 subgroup test) are written once, generic over a
//! [`LaneBackend`]: [`Avx512Ifma`] runs them on the intrinsics (x86-64, only where
//! [`Avx512Ifma::detect`] found the CPU features), [`Emulated`] on portable Rust with the same
//! semantics, bit for bit, so every one of them is tested on any CPU. [`Ifma`] is what a caller
//! asks for and [`Engine`] what runs; [`limbs_of`] is the one rule for which fields the
//! algorithms apply to.
//!
//! Cost: see `vector.rs` (4L² `madd52` per product); natively about 4.5 times the throughput
//! of arkworks' scalar assembly multiplication for BN254's base field. Emulated, a chunk task
//! of the IFMA processor takes about 3 times as long as on scalar batch-affine and 6–8 times
//! as long as native (2^14 points, c = 12, BN254 and BLS12-381 G1, one thread).

mod backend;
mod field;
mod vector;

use ark_ff::{Field, PrimeField};

#[cfg(target_arch = "x86_64")]
pub(crate) use backend::Avx512Ifma;
pub(crate) use backend::{Emulated, LaneBackend};
pub(crate) use field::{from_radix52, limbs_for, to_radix52, Field52};
pub(crate) use vector::{Fe, Field52x8, Lane8};

/// Where the IFMA algorithms (the IFMA batch-affine processor, the input kernels) run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Ifma {
    /// On AVX-512 IFMA where the CPU has it and `MULTIEXP_NO_IFMA` is unset (or empty or
    /// `0`), else not at all (the portable arkworks path).
    #[default]
    Auto,
    /// Not at all: the portable arkworks path.
    Off,
    /// On the portable emulation of the same instructions: bit-exact and much slower, for
    /// tests. The planner never picks the IFMA processor for it; a forced one runs emulated.
    Emulated,
}

impl Ifma {
    /// The engine this request runs on here, `None` for the arkworks path.
    pub fn engine(self) -> Option<Engine> {
        match self {
            Ifma::Auto if disabled_by_env() => None,
            Ifma::Auto => cpu_engine(),
            Ifma::Off => None,
            Ifma::Emulated => Some(Engine::Emulated(Emulated)),
        }
    }

    /// Whether the IFMA algorithms run natively under this request on this CPU: the only case
    /// in which the planner may choose the IFMA processor by itself (its weights are native
    /// ones).
    pub fn native(self) -> bool {
        matches!(self.engine(), Some(engine) if engine.is_native())
    }
}

/// Whether the environment variable `MULTIEXP_NO_IFMA` turns [`Ifma::Auto`] off: set to
/// anything but empty or `0` (read once per process).
pub(crate) fn disabled_by_env() -> bool {
    use std::sync::OnceLock;
    static OFF: OnceLock<bool> = OnceLock::new();
    *OFF.get_or_init(|| {
        std::env::var_os("MULTIEXP_NO_IFMA").is_some_and(|v| !v.is_empty() && v != "0")
    })
}

/// A lane backend chosen at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The intrinsics (the token proves the CPU has them).
    #[cfg(target_arch = "x86_64")]
    Avx512Ifma(Avx512Ifma),
    /// The portable emulation.
    Emulated(Emulated),
}

impl Engine {
    /// Whether this is the native backend.
    pub fn is_native(self) -> bool {
        !matches!(self, Engine::Emulated(_))
    }
}

/// Evaluates `$body` with `$b` bound to the backend of `$engine` (an [`Engine`]), the body
/// instantiated once per backend: the AVX-512 one inside [`LaneBackend::run`], so that a body
/// of `#[inline(always)]` kernels inlines onto the intrinsics.
macro_rules! on_engine {
    ($engine:expr, |$b:ident| $body:expr) => {
        match $engine {
            #[cfg(target_arch = "x86_64")]
            $crate::ifma::Engine::Avx512Ifma(token) => $crate::ifma::LaneBackend::run(
                token,
                #[inline(always)]
                |$b| $body,
            ),
            $crate::ifma::Engine::Emulated($b) => $body,
        }
    };
}
pub(crate) use on_engine;

/// The intrinsics' engine where this CPU has AVX-512 F and IFMA (checked once), whatever
/// `MULTIEXP_NO_IFMA` says; `None` off x86-64.
fn cpu_engine() -> Option<Engine> {
    #[cfg(target_arch = "x86_64")]
    {
        Avx512Ifma::detect().map(Engine::Avx512Ifma)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// Whether this CPU has AVX-512 IFMA (checked once), whatever `MULTIEXP_NO_IFMA` says;
/// always false off x86-64.
pub(crate) fn available() -> bool {
    cpu_engine().is_some()
}

/// The 52-bit limb counts the algorithms are instantiated for.
pub(crate) const LIMB_COUNTS: [usize; 3] = [5, 7, 8];

/// The one eligibility rule: the 52-bit limb count L of a field of `extension_degree` over a
/// prime of `bits` bits if the IFMA algorithms apply to it — a prime field (degree 1) whose
/// L = ceil((bits + 1)/52) is one of [`LIMB_COUNTS`]. CPU-independent: whether they run
/// natively is [`Ifma::native`].
pub(crate) fn eligible_limbs(extension_degree: u32, bits: u32) -> Option<usize> {
    let limbs = limbs_for(bits);
    (extension_degree == 1 && LIMB_COUNTS.contains(&limbs)).then_some(limbs)
}

/// [`eligible_limbs`] of the field `F`.
pub(crate) fn limbs_of<F: Field>() -> Option<usize> {
    eligible_limbs(
        F::extension_degree() as u32,
        F::BasePrimeField::MODULUS_BIT_SIZE,
    )
}

/// The native engine, for the tests of the native backend: they run only where
/// `cfg(multiexp_host_ifma)` is set (see `build.rs`), and fail rather than pass on a CPU
/// without the features.
#[cfg(test)]
pub(crate) fn native_engine() -> Engine {
    cpu_engine().expect("built for a CPU with AVX-512 IFMA, running on one without")
}

#[cfg(test)]
mod tests;
