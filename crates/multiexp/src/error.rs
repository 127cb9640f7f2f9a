//! The library's typed errors: each says which input, which index, and what was expected.

/// Everything that can go wrong in a multiexp call. No input makes the library panic.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The point and scalar slices have different lengths.
    #[error("length mismatch: {points} points but {scalars} scalars")]
    LengthMismatch {
        /// Number of points given.
        points: usize,
        /// Number of scalars given.
        scalars: usize,
    },
    /// A plan executed on inputs of another size than it was made for.
    #[error("the plan was made for {plan} points, the input has {input}")]
    PlanSize {
        /// The number of points the plan was made for.
        plan: usize,
        /// The number of points given.
        input: usize,
    },
    /// A plan executed on another curve/group than it was made for.
    #[error("the plan was made for {plan}, the input is on {input}")]
    PlanCurve {
        /// The curve/group the plan was made for.
        plan: &'static str,
        /// The curve/group of the input.
        input: &'static str,
    },
    /// A run that needs more memory than the system has available.
    #[error("{what} needs about {} but only {} are available", bytes(*needed), bytes(*available))]
    OutOfMemory {
        /// What needs it, e.g. "this MSM (digits, records, buckets)".
        what: String,
        /// Bytes needed.
        needed: u64,
        /// Bytes available.
        available: u64,
    },
    /// A forced window size is outside the implemented range.
    #[error("window {window} is outside the implemented range {min}..={max}")]
    InvalidWindow {
        /// The window asked for.
        window: u32,
        /// Smallest implemented window.
        min: u32,
        /// Largest implemented window.
        max: u32,
    },
    /// A thread count of zero.
    #[error("thread count must be at least 1")]
    InvalidThreads,
    /// A thread or core count above the documented maximum.
    #[error("{threads} threads asked for; at most {max} are supported")]
    TooManyThreads {
        /// The count asked for.
        threads: usize,
        /// The maximum, [`crate::MAX_THREADS`].
        max: usize,
    },
    /// A split margin that is not a fraction in [0, 1).
    #[error("split margin {margin} is not a number in [0, 1)")]
    InvalidMargin {
        /// The margin asked for.
        margin: f64,
    },
    /// A forced split into zero parts, or into more than the planner's maximum.
    #[error("a split must have between 1 and 65536 parts, got {parts}")]
    InvalidSplit {
        /// The number of parts asked for.
        parts: usize,
    },
    /// A parts vector that does not give every chunk at least one part.
    #[error(
        "a plan with {chunks} chunks needs one part count of at least 1 per chunk, got {parts:?}"
    )]
    InvalidParts {
        /// The number of chunks of the window.
        chunks: usize,
        /// The parts asked for.
        parts: Vec<usize>,
    },
    /// A curve/group name that is not in the catalogue.
    #[error("unknown curve/group {name:?}; run `multiexp curves` for the catalogue")]
    UnknownCurve {
        /// The name that was asked for.
        name: String,
    },
    /// The worker pool could not be started.
    #[error("could not start the worker pool: {reason}")]
    ThreadPool {
        /// What the thread pool builder reported.
        reason: String,
    },
    /// A range of sizes that is empty, starts at 0 or ends beyond what the sweep supports.
    #[error("size range {min}..={max} is empty, starts at 0 or ends beyond 2^40")]
    InvalidRange {
        /// Smallest size asked for.
        min: u64,
        /// Largest size asked for.
        max: u64,
    },
    /// A forced processor that cannot run this curve on this CPU.
    #[error("processor {processor} cannot run {curve} on this CPU")]
    UnsupportedProcessor {
        /// The processor asked for.
        processor: &'static str,
        /// The curve/group.
        curve: &'static str,
    },
    /// A class plan that splits scalars by GLV, run on a curve/group without the endomorphism.
    #[error("the plan splits scalars by GLV, but {curve} has no GLV endomorphism")]
    NoGlv {
        /// The curve/group.
        curve: &'static str,
    },
    /// A profile that is not valid JSON of the profile format.
    #[error("profile is not valid profile JSON: {reason}")]
    ProfileParse {
        /// What the JSON parser reported.
        reason: String,
    },
    /// A profile of another format version.
    #[error("profile has format version {found:?}, this multiexp reads version {expected}")]
    ProfileFormatVersion {
        /// The version the file states (`None`: it states none).
        found: Option<u32>,
        /// The version this library reads.
        expected: u32,
    },
    /// A profile measured by another multiexp version, whose processors may differ.
    #[error("profile was measured by multiexp {found:?}, this is multiexp {expected}; run `multiexp calibrate` again")]
    ProfileMultiexpVersion {
        /// The version that measured it.
        found: String,
        /// This library's version.
        expected: String,
    },
    /// A profile with a weight that is not a finite, non-negative number, or missing windows.
    #[error("profile entry {curve:?} is invalid: {reason}")]
    InvalidProfile {
        /// The curve/group entry.
        curve: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A table of precomputed multiples that cannot be read back: not a table, another
    /// format version or curve, an inconsistent layout, truncated, corrupt.
    #[error("table file: {reason}")]
    TableFile {
        /// What is wrong with it.
        reason: String,
    },
}

/// A byte count in binary units, e.g. `3.2 GiB`.
pub(crate) fn bytes(b: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", UNITS[u])
    }
}
