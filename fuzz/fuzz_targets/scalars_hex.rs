//! Fuzz target: `harness::scalars_hex` (see harness.rs for the properties checked).

#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::scalars_hex(data));
