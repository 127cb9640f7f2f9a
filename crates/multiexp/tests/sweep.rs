//! The sweep (DESIGN §5): the planner's fast decision equals `plan`, and the interval solver
//! equals brute force.

use multiexp::curves::{self, CurveSpec};
use multiexp::plan::sweep::{sweep, Policy, SweepModel, SweepSpec};
use multiexp::plan::{PlanOptions, Planner, Profile, SplitPolicy};
use multiexp::Processor;

fn planner(spec: &CurveSpec, options: PlanOptions) -> Planner {
    Planner::new(spec, Profile::builtin().weights(spec), options).unwrap()
}

/// Sizes around every power of two and its midpoints, plus a log-spaced walk.
fn sizes() -> Vec<usize> {
    let mut out: Vec<usize> = (1..40).collect();
    for e in 4..=24 {
        let p = 1usize << e;
        for n in [p - 1, p, p + 1, p + p / 2] {
            out.push(n);
        }
    }
    let mut x = 40.0f64;
    while x < (1u64 << 24) as f64 {
        out.push(x as usize);
        x *= 1.23;
    }
    out
}

#[test]
fn decide_chooses_what_plan_chooses_bit_for_bit() {
    let option_sets = [
        PlanOptions::default(),
        PlanOptions {
            ifma: true,
            ..PlanOptions::default()
        },
        PlanOptions {
            margin: 0.0,
            ..PlanOptions::default()
        },
        PlanOptions {
            split: SplitPolicy::Never,
            ..PlanOptions::default()
        },
        PlanOptions {
            split: SplitPolicy::Parts(3),
            ..PlanOptions::default()
        },
        PlanOptions {
            window: Some(13),
            processor: Some(Processor::BatchAffine),
            ..PlanOptions::default()
        },
    ];
    let workers = [1, 2, 3, 5, 6, 8, 12, 16, 17, 24, 33, 64, 96, 128];
    for (i, spec) in curves::specs().iter().enumerate() {
        for (o, options) in option_sets.iter().enumerate() {
            let pl = planner(spec, *options);
            for (s, &n) in sizes().iter().enumerate() {
                // A different slice of the space per curve and option set, to stay quick.
                for &p in workers.iter().skip((i + o + s) % 5).step_by(5) {
                    let report = pl.plan(n, p);
                    let d = pl.decide(n, p);
                    let chosen = &report.chosen;
                    let what = format!("{} {options:?} n={n} P={p}", spec.name);
                    assert_eq!(d.chosen.windowing, chosen.windowing, "{what}");
                    assert_eq!(d.chosen.split, chosen.split, "{what}");
                    assert_eq!(
                        d.chosen.makespan.to_bits(),
                        chosen.makespan.to_bits(),
                        "{what}"
                    );
                    let price = pl.candidate_price(
                        &d.chosen.windowing,
                        n,
                        p,
                        d.chosen.split,
                        &mut multiexp::plan::probe::Blind,
                    );
                    assert_eq!(price.work.to_bits(), chosen.work.to_bits(), "{what}");
                    let costs: Vec<f64> = chosen.tasks.iter().map(|t| t.cost).collect();
                    let tail =
                        pl.model().merges(&chosen.parts) + pl.model().horner(&chosen.windowing);
                    let ifma = chosen
                        .processors
                        .contains(&multiexp::bucket::Processor::BatchAffineIfma);
                    let (_, phases) = pl.phases(
                        &chosen.windowing,
                        n,
                        p,
                        ifma,
                        &mut multiexp::plan::probe::Blind,
                    );
                    let fluid = phases + multiexp::plan::makespan::fluid(&costs, p) + tail;
                    assert_eq!(price.fluid.to_bits(), fluid.to_bits(), "{what}");
                }
            }
        }
    }
}

fn spec_of(
    models: &[SweepModel],
    names: &[&str],
    cores: &[usize],
    range: (u64, u64),
    brute: bool,
) -> SweepSpec {
    SweepSpec {
        models: models.to_vec(),
        curves: names.iter().map(|n| curves::spec(n).unwrap()).collect(),
        policies: Policy::ALL.to_vec(),
        cores: cores.to_vec(),
        n_min: range.0,
        n_max: range.1,
        ifma: true,
        brute,
    }
}

fn fast_equals_brute(names: &[&str], cores: &[usize], range: (u64, u64)) {
    let profile = Profile::builtin();
    let run = |brute| {
        sweep(
            &spec_of(&SweepModel::ALL, names, cores, range, brute),
            profile,
            &|_, _| {},
        )
        .unwrap()
    };
    let (fast, fast_stats) = run(false);
    let (brute, brute_stats) = run(true);
    assert_eq!(fast.len(), brute.len());
    for (f, b) in fast.iter().zip(&brute) {
        assert_eq!(
            f,
            b,
            "{} {} {} cores={}",
            f.model.name(),
            f.name,
            f.policy.name(),
            f.cores
        );
    }
    assert_eq!(brute_stats.evaluations, {
        let units = brute_stats.units as u64;
        units * (range.1 - range.0 + 1)
    });
    assert!(fast_stats.evaluations * 20 < brute_stats.evaluations);
}

#[test]
fn interval_solver_equals_brute_force_on_small_sizes() {
    fast_equals_brute(
        &["bn254-g1", "bls12-381-g2", "bw6-761-g1", "secp256k1-g1"],
        &[1, 2, 8, 12, 24, 64, 128],
        (2, 1 << 16),
    );
}

#[test]
fn interval_solver_equals_brute_force_around_large_sizes() {
    fast_equals_brute(
        &["bw6-633-g2", "stark-curve-g1"],
        &[4, 16, 48, 96],
        ((1 << 20) - 3000, (1 << 20) + 9000),
    );
}

#[test]
fn multiexp_never_splits_at_a_loss_under_the_fluid_oracle() {
    let names: Vec<&str> = curves::NAMES.to_vec();
    let (rows, _) = sweep(
        &spec_of(
            &[SweepModel::Multiexp],
            &names,
            &multiexp::plan::sweep::DEFAULT_CORES,
            (2, 1 << 24),
            false,
        ),
        Profile::builtin(),
        &|_, _| {},
    )
    .unwrap();
    assert_eq!(rows.len(), 18 * 12 * 3);
    for r in &rows {
        let what = format!("{} {} cores={}", r.name, r.policy.name(), r.cores);
        assert_eq!(r.outcome.harmful, 0, "{what}");
        assert!(r.outcome.split_adds_work(), "{what}");
        assert!(r.depends_only_on_min, "{what}");
        // With at least 16 chunks, a host of at most 16 cores never gets a whole split.
        if r.cores <= 16 {
            assert!(r.outcome.bands.is_empty(), "{what}");
            assert_eq!(r.outcome.worst_slowdown, 1.0, "{what}");
        }
    }
}
