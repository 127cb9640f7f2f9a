//! `multiexp` with no arguments: a 2^16 BN254 G1 MSM checked against arkworks.

use crate::cmd::bench;
use crate::common::Format;

/// Runs the demo.
pub fn run() -> anyhow::Result<()> {
    println!("multiexp demo: a 2^16-point BN254 G1 MSM, checked against arkworks on the same");
    println!("inputs and threads, timed interleaved (see `multiexp --help` for more).\n");
    bench::run(bench::Args {
        curve: "bn254-g1".into(),
        n: vec![1 << 16],
        threads: None,
        reps: None,
        seed: 1,
        scalars: Default::default(),
        compare: None,
        vs: vec!["arkworks".into()],
        csv: None,
        svg: None,
        verify_plan: false,
        n_range: (1 << 8, 1 << 20),
        window_span: 3,
        stat: Default::default(),
        profile: None,
        decode: false,
        arkworks_arithmetic: false,
        precomputed: Vec::new(),
        kzg: false,
        many: 1,
        format: Format::Table,
    })
}
