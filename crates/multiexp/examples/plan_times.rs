//! The planner's own time per MSM call (experiments on the fixed costs of small MSMs):
//! `cargo run --release --example plan_times -- LOGN [THREADS]`.
//!
//! On BN254 G1 (`CURVE=bls12-381-g1`: BLS12-381 G1), for scalars uniform, all zero,
//! {0, 1}, below 2^8, 2^16, 2^32 and 2^64, prints the minimum and median µs of
//! `plan_for_stats` (the plan `msm` makes from the classification's statistics) over 201
//! calls, and of `plan_for` (the one-MSM plan).

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ff::PrimeField;
use multiexp::{plan_for, plan_for_stats, Config, ScalarStats};
use std::time::Instant;

fn main() {
    match std::env::var("CURVE").as_deref() {
        Ok("bls12-381-g1") => run::<ark_bls12_381::g1::Config>(),
        Ok("bn254-g1") | Err(_) => run::<ark_bn254::g1::Config>(),
        Ok(other) => panic!("CURVE: bn254-g1 or bls12-381-g1, not {other}"),
    }
}

fn stats_of<G1: SWCurveConfig>(n: usize, bits: u32) -> ScalarStats {
    let uniform = multiexp::unstable::sample::scalars::<G1::ScalarField>(n, 1);
    let scalars: Vec<G1::ScalarField> = match bits {
        0 => vec![G1::ScalarField::from(0u64); n],
        256 => uniform,
        _ => uniform
            .iter()
            .map(|s| {
                let low = s.into_bigint().as_ref()[0];
                let mask = if bits >= 64 {
                    u64::MAX
                } else {
                    (1 << bits) - 1
                };
                G1::ScalarField::from(low & mask)
            })
            .collect(),
    };
    ScalarStats::of(&scalars)
}

fn timed(mut f: impl FnMut()) -> (f64, f64) {
    let mut samples: Vec<f64> = (0..201)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64() * 1e6
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    (samples[0], samples[samples.len() / 2])
}

fn run<G1: SWCurveConfig>() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n = 1usize << args[0].parse::<u32>().expect("LOGN");
    let threads = args
        .get(1)
        .map(|t| t.parse().expect("THREADS"))
        .unwrap_or(2);
    let config = Config {
        threads: Some(threads),
        ..Config::default()
    };
    let (lo, med) = timed(|| {
        std::hint::black_box(plan_for::<G1>(n, &config).unwrap());
    });
    println!(
        "n=2^{} threads={threads}: plan_for {lo:.1} / {med:.1} µs",
        args[0]
    );
    for (name, bits) in [
        ("uniform", 256),
        ("zero", 0),
        ("bool", 1),
        ("u8", 8),
        ("u16", 16),
        ("u32", 32),
        ("u64", 64),
    ] {
        let stats = stats_of::<G1>(n, bits);
        let (lo, med) = timed(|| {
            std::hint::black_box(plan_for_stats::<G1>(&stats, &config).unwrap());
        });
        println!("  {name:8} plan_for_stats {lo:8.1} / {med:8.1} µs");
    }
}
