//! Measured against modeled time of every task of one class MSM (experiments on the cost
//! model): `cargo run --release --example task_times -- BITS LOGN WINDOW[:PARTS] ...`.
//!
//! For scalars below 2^BITS (uniform in that range) on BN254 G1 (`CURVE=bls12-381-g1`:
//! BLS12-381 G1) and 2 workers, each
//! WINDOW[:PARTS] is planned with that window (and whole split into PARTS, else none) and run
//! `REPS` times (env, default 5) interleaved; per task it prints the minimum measured time and
//! the model's price, in µs, and per plan the minimum wall time against the modeled makespan.
//! `PROCESSOR` (env: xyzz, batch-affine, batch-affine-ifma) forces every task's processor.
//! Each run's phases (digits, records, tasks, combine) print their minimum wall time beside
//! the model's price where it has one.

use ark_ec::short_weierstrass::SWCurveConfig;
use multiexp::curves::spec_of;
use multiexp::profile::Profile;
use multiexp::unstable::{PlanOptions, Planner, Windowing};
use multiexp::SplitPolicy;
use std::time::Instant;

fn main() {
    match std::env::var("CURVE").as_deref() {
        Ok("bls12-381-g1") => run::<ark_bls12_381::g1::Config>(),
        Ok("bn254-g1") | Err(_) => run::<ark_bn254::g1::Config>(),
        Ok(other) => panic!("CURVE: bn254-g1 or bls12-381-g1, not {other}"),
    }
}

fn run<G1: SWCurveConfig>() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let bits: u32 = args[0].parse().expect("BITS");
    let n = 1usize << args[1].parse::<u32>().expect("LOGN");
    let reps: usize = std::env::var("REPS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let points = multiexp::unstable::sample::points::<G1>(n, 1);
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    // Any bit width, not only the u8…u64 of `sample::scalars_of`: a xorshift below 2^BITS.
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let scalars: Vec<G1::ScalarField> = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            G1::ScalarField::from(x & mask)
        })
        .collect();
    let spec = spec_of::<G1>();
    let weights = Profile::builtin_for(multiexp::unstable::ifma_runs::<G1>()).weights(&spec);
    let processor = std::env::var("PROCESSOR").ok().map(|p| {
        [
            multiexp::Processor::Xyzz,
            multiexp::Processor::BatchAffine,
            multiexp::Processor::BatchAffineIfma,
        ]
        .into_iter()
        .find(|x| x.name() == p)
        .expect("PROCESSOR: xyzz, batch-affine or batch-affine-ifma")
    });
    let mut runs = Vec::new();
    for a in &args[2..] {
        let (c, parts) = match a.split_once(':') {
            Some((c, k)) => (c.parse::<u32>().unwrap(), k.parse::<usize>().unwrap()),
            None => (a.parse::<u32>().unwrap(), 1),
        };
        let options = PlanOptions {
            window: Some(c),
            split: if parts > 1 {
                SplitPolicy::Parts(parts)
            } else {
                SplitPolicy::Never
            },
            ifma: multiexp::unstable::ifma_runs::<G1>(),
            processor,
            ..PlanOptions::default()
        };
        let planner = Planner::new(&spec, weights.clone(), options)
            .unwrap()
            .for_bits(bits);
        let plan = planner.plan(n, 2);
        runs.push((a.clone(), plan, Vec::new(), Vec::new(), Vec::new()));
    }
    for _ in 0..reps {
        for (_, plan, walls, tasks, phases) in runs.iter_mut() {
            let t = Instant::now();
            let (sum, trace) = multiexp::execute_plan(&points, &scalars, plan, true).unwrap();
            walls.push(t.elapsed().as_secs_f64() * 1e3);
            let _ = std::hint::black_box(sum);
            let trace = trace.unwrap();
            let mut times = vec![0.0f64; plan.tasks().len()];
            for r in &trace.tasks {
                times[r.task] = (r.end_ns - r.start_ns) as f64 / 1e3;
            }
            tasks.push(times);
            phases.push(trace.phases);
        }
    }
    for (name, plan, walls, tasks, phases) in &runs {
        let mut w = walls.clone();
        w.sort_by(f64::total_cmp);
        println!(
            "{name}: c={} K={} processors {:?}: wall min {:.3} ms, median {:.3} ms; modeled makespan {:.3} ms",
            plan.window(),
            plan.chunks(),
            plan.processors(),
            w[0],
            w[w.len() / 2],
            plan.makespan() / 1e6
        );
        let order: Vec<String> = walls.iter().map(|t| format!("{t:.1}")).collect();
        println!("  walls in run order, ms: {}", order.join(" "));
        let workers = plan.workers() as f64;
        for (k, (phase, _)) in phases[0].iter().enumerate() {
            let min = phases.iter().map(|p| p[k].1).min().unwrap_or(0) as f64 / 1e3;
            let modeled = match *phase {
                "digits" => {
                    n as f64 * (weights.digit_scalar + plan.chunks() as f64 * weights.digit)
                        / workers
                        / 1e3
                }
                "records" => n as f64 * weights.prepare / workers / 1e3,
                _ => f64::NAN,
            };
            println!("  phase {phase}: min {min:.0} µs, modeled {modeled:.0} µs");
        }
        let windowing = Windowing::for_bits(bits, plan.window());
        for (i, t) in plan.tasks().iter().enumerate() {
            let min = tasks.iter().map(|v| v[i]).fold(f64::INFINITY, f64::min);
            let modeled = t.cost / 1e3;
            println!(
                "  task {i}: chunk {} part {} points {} buckets {}: min {:.0} µs, modeled {:.0} µs ({:.2}×)",
                t.chunk,
                t.part,
                t.end - t.start,
                windowing.buckets(t.chunk),
                min,
                modeled,
                min / modeled
            );
        }
    }
}
