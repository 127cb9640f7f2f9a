//! The sweep (DESIGN §5): the planner's fast decision equals `plan`.

use multiexp::curves::{self, CurveSpec};
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
        x *= 1.11;
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
                    let fluid = pl.model().digits(n, &chosen.windowing) / p as f64
                        + multiexp::plan::makespan::fluid(&costs, p)
                        + tail;
                    assert_eq!(price.fluid.to_bits(), fluid.to_bits(), "{what}");
                }
            }
        }
    }
}
