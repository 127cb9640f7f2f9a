//! The sweep (DESIGN §5): the planner's fast decision equals `plan`, and the interval solver
//! equals brute force.

use crate::common::planner;
use multiexp::curves;
use multiexp::unstable::sweep::{sweep, Policy, SweepModel, SweepSpec};
use multiexp::unstable::PlanOptions;
use multiexp::Processor;
use multiexp::{Profile, SplitKind, SplitPolicy};

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

/// `plan` runs what `decide` chose: the same window and split, and its materialised tasks
/// reproduce the decided makespan, work and fluid price bit for bit when recomputed from the
/// task list (the executor's LPT schedule of the task costs, the phases, merges and Horner).
#[test]
fn the_plan_that_runs_is_the_decided_candidate_bit_for_bit() {
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
    let mut tails = 0;
    for (i, spec) in curves::specs().iter().enumerate() {
        for (o, options) in option_sets.iter().enumerate() {
            let pl = planner(spec, *options);
            for (s, &n) in sizes().iter().enumerate() {
                // A different slice of the space per curve and option set, to stay quick.
                for &p in workers.iter().skip((i + o + s) % 5).step_by(5) {
                    let plan = pl.plan(n, p);
                    let d = pl.decide(n, p);
                    let what = format!("{} {options:?} n={n} P={p}", spec.name);
                    assert_eq!(d.chosen.windowing.window, plan.window(), "{what}");
                    assert_eq!(d.chosen.windowing.chunks, plan.chunks(), "{what}");
                    assert_eq!(d.chosen.split, plan.split(), "{what}");
                    tails += matches!(plan.split(), SplitKind::Tail { .. }) as usize;
                    let price = pl.candidate_price(
                        &d.chosen.windowing,
                        n,
                        p,
                        d.chosen.split,
                        &mut multiexp::unstable::probe::Blind,
                    );
                    assert_eq!(price.work.to_bits(), plan.work().to_bits(), "{what}");
                    assert_eq!(
                        price.makespan.to_bits(),
                        plan.makespan().to_bits(),
                        "{what}"
                    );
                    let costs: Vec<f64> = plan.tasks().iter().map(|t| t.cost).collect();
                    let tail =
                        pl.model().merges(&plan.parts()) + pl.model().horner(&d.chosen.windowing);
                    let (_, phases) = pl.phases(
                        &d.chosen.windowing,
                        n,
                        p,
                        plan.uses_ifma(),
                        &mut multiexp::unstable::probe::Blind,
                    );
                    let lpt = multiexp::unstable::makespan::lpt(&costs, p);
                    assert_eq!(
                        (phases + lpt.makespan + tail).to_bits(),
                        plan.makespan().to_bits(),
                        "{what}: the schedule of the materialised tasks"
                    );
                    assert_eq!(lpt.workers, plan.schedule(), "{what}");
                    let fluid = phases + multiexp::unstable::makespan::fluid(&costs, p) + tail;
                    assert_eq!(price.fluid.to_bits(), fluid.to_bits(), "{what}");
                }
            }
        }
    }
    assert!(tails > 0, "the sample must include tail splits");
}

/// `report` lists exactly the candidates `decide` weighed, materialised, and its chosen plan
/// is `plan`'s.
#[test]
fn the_report_lists_the_candidates_the_decision_weighed() {
    let spec = curves::spec("bn254-g1").unwrap();
    let pl = planner(&spec, PlanOptions::default());
    for n in [1, 2, 100, 5000, 1 << 16, 110_652, 1 << 20] {
        for p in [1, 2, 5, 8, 24, 64] {
            let report = pl.report(n, p);
            assert_eq!(report.chosen(), &pl.plan(n, p), "n={n} P={p}");
            assert!(report.candidates().contains(report.chosen()), "n={n} P={p}");
            let unsplit = report.candidates().iter().filter(|c| !c.is_split()).count();
            assert_eq!(
                unsplit as u32,
                multiexp::unstable::MAX_WINDOW,
                "one unsplit candidate per window, n={n} P={p}"
            );
            let best = report
                .candidates()
                .iter()
                .map(|c| c.makespan())
                .fold(f64::INFINITY, f64::min);
            assert_eq!(
                best.to_bits(),
                pl.decide(n, p)
                    .split
                    .map_or(f64::INFINITY, |s| s.makespan)
                    .min(pl.decide(n, p).unsplit.makespan)
                    .to_bits()
            );
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
            &multiexp::unstable::sweep::DEFAULT_CORES,
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
        // Windows up to 16 give at least 16 chunks, so a host of at most 16 cores has no idle
        // core for a whole split to fill; a wider window (K = 13-15) could leave some, but the
        // planner then keeps a narrower window or fills its last wave (a tail split, priced
        // by the oracle as the better of its window and U unsplit), and the oracle never
        // prices a whole split below its decision.
        if r.cores <= 16 {
            assert!(r.outcome.bands.is_empty(), "{what}");
            assert_eq!(r.outcome.worst_slowdown, 1.0, "{what}");
        }
    }
}

/// The row of gnark issue #876 that the legacy model first seemed to contradict: PR #875 on
/// BW6-761 G1 with 32 CPUs. The model follows the PR's generated code (`msmChunkCost`,
/// `bestCG1` over {4, 5, 8, 10, 16}, batch sizes 80 and 640, the wave cost with reduction
/// T·(c+1), nbCpus = min(NbTasks, NumCPU)) and splits on [1225, 126443] but for [2450, 4270]
/// and 4272; #876 tabulates only the misfires, the splits its fluid oracle prices above
/// unsplit: [1225, 114486], 111,440 sizes, worst 1.475 at n = 2448. Above 114,486 bestC is 16,
/// K = 24 leaves 8 of the 32 CPUs idle, and the split that fills them wins.
#[test]
fn legacy_pr875_bw6_761_on_32_cpus_matches_the_876_row() {
    let (rows, _) = sweep(
        &SweepSpec {
            models: vec![SweepModel::LegacyPr875],
            curves: vec![curves::spec("bw6-761-g1").unwrap()],
            policies: vec![Policy::Double],
            cores: vec![32],
            n_min: 2,
            n_max: 1 << 24,
            ifma: false,
            brute: false,
        },
        Profile::builtin(),
        &|_, _| {},
    )
    .unwrap();
    let o = &rows[0].outcome;
    assert_eq!(rows[0].nb_cpus, 32);
    assert_eq!(o.bands, vec![(1225, 2449), (4271, 4271), (4273, 126_443)]);
    assert_eq!(o.sizes_hit, 123_397);
    assert_eq!(
        o.harmful_bands,
        vec![(1225, 2449), (4271, 4271), (4273, 114_486)]
    );
    assert_eq!(o.harmful, 111_440);
    assert_eq!(o.worst_n, 2448);
    assert!(
        (o.worst_slowdown - 1.475).abs() < 5e-4,
        "{}",
        o.worst_slowdown
    );
}

/// On at most 24 CPUs every window of every curve has K ≥ nbCpus chunks at the sizes where
/// gnark's models split, so every split they take is a misfire: the bands are the harmful
/// bands (the rows at 4, 8, 12 and 16 cores that match #876 exactly).
#[test]
fn legacy_splits_on_at_most_24_cpus_are_all_misfires() {
    let names: Vec<&str> = curves::NAMES.to_vec();
    let (rows, _) = sweep(
        &spec_of(
            &[SweepModel::LegacyMaster, SweepModel::LegacyPr875],
            &names,
            &[4, 8, 12, 16, 24],
            (2, 1 << 22),
            false,
        ),
        Profile::builtin(),
        &|_, _| {},
    )
    .unwrap();
    for r in &rows {
        let what = format!(
            "{} {} {} cores={}",
            r.model.name(),
            r.name,
            r.policy.name(),
            r.cores
        );
        if r.model == SweepModel::LegacyPr875 {
            assert_eq!(r.outcome.harmful_bands, r.outcome.bands, "{what}");
        }
        assert!(r.outcome.harmful <= r.outcome.sizes_hit, "{what}");
    }
}
