//! The library's integration suite, one test binary: every module below instantiates the MSM
//! engine for many curves, and one binary compiles those instantiations once where a binary
//! per file compiled them once each (most of CI's build time).
//!
//! The suite covers every curve family (the default features); `tests/features.rs` runs under
//! any feature set, and `tests/threads.rs` stays a binary of its own because it measures the
//! process's CPU time.
#![cfg(feature = "all-curves")]

/// Invokes `$tests! { name => Config; ... }` with every curve/group of the catalogue's MSM
/// matrix: the one list the per-group test modules (msm, classes, precomputed) are made from.
macro_rules! for_each_group {
    ($tests:ident) => {
        $tests! {
            bn254_g1 => ark_bn254::g1::Config;
            bn254_g2 => ark_bn254::g2::Config;
            bls12_381_g1 => ark_bls12_381::g1::Config;
            bls12_381_g2 => ark_bls12_381::g2::Config;
            bls12_377_g1 => ark_bls12_377::g1::Config;
            bls12_377_g2 => ark_bls12_377::g2::Config;
            bw6_761_g1 => ark_bw6_761::g1::Config;
            bw6_761_g2 => ark_bw6_761::g2::Config;
            grumpkin_g1 => ark_grumpkin::GrumpkinConfig;
            secp256k1_g1 => ark_secp256k1::Config;
            secp256r1_g1 => ark_secp256r1::Config;
            bls24_315_g1 => multiexp::curves::bls24_315::g1::Config;
            bls24_315_g2 => multiexp::curves::bls24_315::g2::Config;
            bls24_317_g1 => multiexp::curves::bls24_317::g1::Config;
            bls24_317_g2 => multiexp::curves::bls24_317::g2::Config;
            bw6_633_g1 => multiexp::curves::bw6_633::g1::Config;
            bw6_633_g2 => multiexp::curves::bw6_633::g2::Config;
            stark_curve_g1 => multiexp::curves::stark_curve::g1::Config;
        }
    };
}

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
