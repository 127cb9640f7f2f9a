//! The library's integration suite, one test binary: every module below instantiates the MSM
//! engine for many curves, and one binary compiles those instantiations once where a binary
//! per file compiled them once each (most of CI's build time).
//!
//! The suite covers every curve family (the default features); `tests/features.rs` runs under
//! any feature set, and `tests/threads.rs` stays a binary of its own because it measures the
//! process's CPU time.
#![cfg(feature = "all-curves")]

mod common;
#[path = "../../../../fuzz/harness.rs"]
mod harness;

mod bounds;
mod classes;
mod curve_catalogue;
mod fuzz_regressions;
mod input_malformed;
mod input_roundtrip;
mod input_stream;
mod msm;
mod planner;
mod precomputed;
mod sweep;
