//! Fuzz target: `harness::points_binary` (see harness.rs for the properties checked).

#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::points_binary(data));
