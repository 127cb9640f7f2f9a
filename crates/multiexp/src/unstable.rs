//! The engine behind the API, for the `multiexp` command line, benchmarks and experiments.
//!
//! Nothing here is covered by semver: names and signatures change with the engine. Library
//! users need only the crate root ([`crate::msm`], [`crate::plan_for`], [`crate::Config`]),
//! [`crate::input`], [`crate::curves`], [`crate::profile`] and [`crate::calibrate`].
//!
//! What is here: the planner ([`Planner`], its [`PlanOptions`] and [`Decision`]), the cost
//! model ([`cost`]), makespans ([`makespan`]), the probes that let the sweep solve decisions
//! over intervals ([`probe`]), gnark-crypto's split models ([`legacy`]) and the sweep
//! ([`sweep`]); the digit layout ([`Windowing`]); the executor's sizes ([`available_cores`],
//! [`available_workers`], [`streams`], [`fuses`]); the batch sizes of the batch-affine processors;
//! deterministic random inputs ([`sample`]).

use ark_ec::short_weierstrass::SWCurveConfig;

pub use crate::bucket::{batch_size, ifma_batch_size};
pub use crate::digits::{Windowing, DIGIT_BYTES, MAX_WINDOW, PROFILED_WINDOW};
pub use crate::exec::{
    available_cores, available_memory, available_workers, fuses, streams, FUSED_BLOCK, STREAM_BLOCK,
};
pub use crate::ifma::Engine;
pub use crate::plan::planner::{
    Candidate, CandidatePrice, Decision, PlanOptions, Planner, DEFAULT_MARGIN, MAX_PARTS,
    MIN_BATCH_WINDOW, MIN_WINDOW,
};
pub use crate::plan::{classes, cost, legacy, makespan, probe, sweep};

/// Deterministic random inputs, made fast, for tests, benchmarks and the CLI.
pub mod sample {
    pub use crate::sample::{points, scalars, scalars_of, Distribution};
}

/// Whether the IFMA batch-affine processor runs natively for curve `P` on this CPU and
/// `MULTIEXP_NO_IFMA` leaves it on (what the planner's [`PlanOptions::ifma`] should say).
pub fn ifma_runs<P: SWCurveConfig>() -> bool {
    crate::bucket::ifma_limbs::<P>().is_some()
}

/// The bit bound of `P`'s GLV halves (see [`crate::GlvPolicy`]), where it has GLV.
pub fn glv_bits<P: SWCurveConfig>() -> Option<u32> {
    crate::glv::bits_of::<P>()
}

/// The largest magnitude of `P`'s GLV halves (little-endian limbs), where it has GLV.
pub fn glv_max<P: SWCurveConfig>() -> Option<[u64; 4]> {
    crate::glv::max_of::<P>()
}

/// Whether this CPU has AVX-512 IFMA (whatever `MULTIEXP_NO_IFMA` says: see [`ifma_runs`]).
pub fn ifma_available() -> bool {
    crate::ifma::available()
}
