//! Properties of the planner and the pool executor (DESIGN §3).

use crate::common::{self, planner};

use ark_ec::short_weierstrass::SWCurveConfig;
use multiexp::curves;
use multiexp::unstable::PlanOptions;
use multiexp::{execute_plan, Config};
use multiexp::{SplitKind, SplitPolicy};
use proptest::prelude::*;

/// Log-spaced sizes in [2, 2^24], with neighbours of powers of two.
fn sizes() -> Vec<usize> {
    let mut out = Vec::new();
    let mut n = 2f64;
    while n <= (1u64 << 24) as f64 {
        out.push(n as usize);
        n *= 1.37;
    }
    for e in 1..=24 {
        out.extend([(1usize << e) - 1, 1 << e, (1 << e) + 1]);
    }
    out.retain(|&n| (2..=1 << 24).contains(&n));
    out
}

fn cores() -> Vec<usize> {
    (1..=64).chain([72, 96, 128, 160, 192, 255, 256]).collect()
}

/// Whole splits are weighed into k ≤ ceil(P/K) parts when K < P, and beyond that only while
/// the chunks that carry work (K_eff = Σ t / t_0, `Planner::chunk_load`) leave cores idle:
/// k ≤ ceil(P/K_eff), i.e. (k - 1)·K_eff < P (and the unsplit schedule idles by more than the
/// margin, which the report does not show apart). Full-size scalars: K_eff ≈ K, so with
/// K ≥ P a whole split is weighed only where a light top chunk idles a core, and never chosen
/// (checked below).
fn assert_whole_splits_fill_idle_cores(
    pl: &multiexp::unstable::Planner,
    name: &str,
    n: usize,
    p: usize,
) {
    let report = pl.report(n, p);
    for cand in report.candidates().iter().chain([report.chosen()]) {
        if let SplitKind::Whole(k) = cand.split() {
            let chunks = cand.chunks();
            let load = pl.chunk_load(cand.window(), n);
            let listed = chunks < p && k <= p.div_ceil(chunks);
            let idle = ((k - 1) as f64) * load < p as f64;
            assert!(
                listed || idle,
                "{name}: n={n} P={p} whole split {k} with K={chunks}, K_eff={load:.3}"
            );
        }
    }
}

#[test]
fn split_never_fires_when_chunks_fill_cores() {
    for (spec, ifma) in curves::specs()
        .into_iter()
        .flat_map(|s| [(s.clone(), false), (s, true)])
    {
        let pl = planner(
            &spec,
            PlanOptions {
                ifma,
                ..PlanOptions::default()
            },
        );
        for n in sizes().into_iter().step_by(3) {
            for p in cores().into_iter().step_by(5) {
                assert_whole_splits_fill_idle_cores(&pl, spec.name, n, p);
                // Full-size scalars: a light top chunk can leave one core of K = P idle
                // (K_eff < (1 - margin)·P, e.g. BN254 c = 10 at n = 2 on 26 cores), so a
                // whole split may be weighed there, but it never wins: the chosen plan splits
                // the whole MSM only where K < P (the sweep checks every n).
                let chosen = pl.report(n, p).into_chosen();
                if let SplitKind::Whole(k) = chosen.split() {
                    assert!(
                        chosen.chunks() < p && k <= p.div_ceil(chosen.chunks()),
                        "{}: n={n} P={p} full-size scalars, whole split {k} with K={}",
                        spec.name,
                        chosen.chunks()
                    );
                }
            }
        }
    }
}

#[test]
fn small_scalars_split_chunks_that_carry_no_work() {
    // 16-bit scalars at c = 16: K = 2 chunks, the top one holding only carries (digit 1,
    // one bucket), so on P = 2 workers a core idles part of the time unless the window is
    // split (BN254, portable prices: the Intel EMR host measured c = 16 whole(2) 0.83x the
    // time of c = 13 unsplit at 2^20).
    let spec = curves::spec("bn254-g1").unwrap();
    let pl = planner(&spec, PlanOptions::default()).for_bits(16);
    let n = 1 << 20;
    let load = pl.chunk_load(16, n);
    assert!(load < 0.97 * 2.0, "K_eff {load}");
    assert!((pl.chunk_load(14, 1 << 20) - 2.0).abs() < 1.0);
    let full = planner(&spec, PlanOptions::default());
    assert!(full.chunk_load(16, n) > 15.0, "{}", full.chunk_load(16, n));
    let report = pl.report(n, 2);
    assert!(
        report
            .candidates()
            .iter()
            .any(|c| c.window() == 16 && c.split() == SplitKind::Whole(2)),
        "{}",
        report.reason()
    );
    for bits in [1, 8, 16, 32, 64] {
        let pl = planner(&spec, PlanOptions::default()).for_bits(bits);
        for n in [2, 100, 1 << 12, 1 << 16, 1 << 20] {
            for p in [1, 2, 3, 4, 8, 16, 64] {
                assert_whole_splits_fill_idle_cores(&pl, spec.name, n, p);
            }
        }
    }
}

#[test]
fn chosen_plan_is_no_slower_than_unsplit_and_beaten_by_less_than_the_margin() {
    for spec in curves::specs() {
        let pl = planner(&spec, PlanOptions::default());
        for n in sizes().into_iter().step_by(4) {
            for p in cores().into_iter().step_by(7) {
                let report = pl.report(n, p);
                let chosen = report.chosen();
                let best_unsplit = report
                    .candidates()
                    .iter()
                    .filter(|c| !c.is_split())
                    .map(|c| c.makespan())
                    .fold(f64::INFINITY, f64::min);
                assert!(
                    chosen.makespan() <= best_unsplit,
                    "{} n={n} P={p}",
                    spec.name
                );
                for c in report.candidates() {
                    assert!(
                        c.makespan() >= chosen.makespan() * (1.0 - 0.03) - 1e-9,
                        "{} n={n} P={p}: {} beats the chosen {} by more than the margin",
                        spec.name,
                        c.describe(),
                        chosen.describe()
                    );
                }
                if chosen.is_split() {
                    assert!(
                        chosen.makespan() <= best_unsplit * 0.97,
                        "split won by < margin"
                    );
                }
            }
        }
    }
}

#[test]
fn decisions_depend_on_threads_only_through_effective_parallelism() {
    let cores = multiexp::unstable::available_cores();
    for n in [100, 5000, 1 << 16, 1 << 20] {
        let reference = multiexp::plan_for::<ark_bn254::g1::Config>(
            n,
            &Config {
                threads: Some(cores),
                ..Config::default()
            },
        )
        .unwrap();
        for threads in [cores, cores + 1, 2 * cores, 64, 1000] {
            let report = multiexp::plan_for::<ark_bn254::g1::Config>(
                n,
                &Config {
                    threads: Some(threads),
                    ..Config::default()
                },
            )
            .unwrap();
            assert_eq!(
                report.chosen(),
                reference.chosen(),
                "n={n} threads={threads}"
            );
        }
    }
    // And the planner itself is a pure function of its inputs.
    let spec = curves::spec("bls12-381-g1").unwrap();
    let pl = planner(&spec, PlanOptions::default());
    for p in [1, 3, 8, 48] {
        assert_eq!(pl.plan(77_777, p), pl.plan(77_777, p));
    }
}

#[test]
fn tail_balancing_cuts_only_the_last_wave() {
    let spec = curves::spec("bn254-g1").unwrap();
    let pl = planner(&spec, PlanOptions::default());
    for n in sizes() {
        for p in [3, 5, 6, 7, 8, 12] {
            for cand in pl.report(n, p).candidates() {
                if let SplitKind::Tail { chunks, parts } = cand.split() {
                    assert!(cand.chunks() > p);
                    assert_eq!(chunks, cand.chunks() % p);
                    assert_eq!(cand.parts().iter().filter(|&&k| k == parts).count(), chunks);
                    assert!(parts <= p.div_ceil(chunks));
                    // The cut chunks are the last wave of the unsplit LPT order.
                    let report = pl.report(n, p);
                    let unsplit = report
                        .candidates()
                        .iter()
                        .find(|u| u.window() == cand.window() && !u.is_split())
                        .unwrap();
                    let costs: Vec<f64> = unsplit.tasks().iter().map(|t| t.cost).collect();
                    let order = multiexp::unstable::makespan::lpt_order(&costs);
                    let mut last_wave = order[order.len() - chunks..].to_vec();
                    last_wave.sort_unstable();
                    let cut: Vec<usize> = (0..cand.chunks())
                        .filter(|&j| cand.parts()[j] > 1)
                        .collect();
                    assert_eq!(cut, last_wave, "n={n} P={p} {}", cand.describe());
                }
            }
        }
    }
}

#[test]
fn forced_policies_are_honoured() {
    let spec = curves::spec("bn254-g1").unwrap();
    let never = planner(
        &spec,
        PlanOptions {
            split: SplitPolicy::Never,
            ..PlanOptions::default()
        },
    );
    let parts3 = planner(
        &spec,
        PlanOptions {
            split: SplitPolicy::Parts(3),
            window: Some(11),
            ..PlanOptions::default()
        },
    );
    for n in [10, 1000, 1 << 20] {
        for p in [1, 2, 64, 256] {
            assert!(!never.plan(n, p).is_split());
            let forced = parts3.plan(n, p);
            assert_eq!(forced.window(), 11);
            assert_eq!(forced.split(), SplitKind::Whole(3));
            assert!(forced.parts().iter().all(|&k| k == 3));
        }
    }
}

fn split_vectors_agree<P: SWCurveConfig>(n: usize, parts: Vec<usize>, c: u32, workers: usize) {
    let (points, scalars) = common::inputs::<P>(n, 5);
    let expected = common::naive(&points, &scalars);
    let spec = multiexp::curves::spec_of::<P>();
    let pl = planner(
        &spec,
        PlanOptions {
            window: Some(c),
            ..PlanOptions::default()
        },
    );
    let chunks = pl.plan(n, workers).chunks();
    let parts: Vec<usize> = (0..chunks).map(|j| parts[j % parts.len()]).collect();
    let plan = pl.plan_parts(c, n, workers, &parts).unwrap();
    assert_eq!(plan.parts(), parts);
    let (got, trace) = execute_plan(&points, &scalars, &plan, true).unwrap();
    assert_eq!(got, expected, "c={c} parts={parts:?} P={workers}");
    // The executor ran exactly the model's LPT assignment.
    assert_eq!(trace.unwrap().assignment(workers), plan.schedule());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn every_split_vector_gives_the_identical_msm(
        n in 1usize..300,
        parts in proptest::collection::vec(1usize..6, 1..8),
        c in 1u32..=12,
        workers in 1usize..6,
    ) {
        split_vectors_agree::<ark_bn254::g1::Config>(n, parts.clone(), c, workers);
        split_vectors_agree::<ark_secp256r1::Config>(n, parts, c, workers);
    }

    #[test]
    fn random_small_msm_matches_naive(
        n in 0usize..200,
        c in 1u32..=16,
        threads in 1usize..9,
        seed in 0u64..1000,
    ) {
        let (points, scalars) = common::inputs::<ark_bls12_381::g1::Config>(n, seed);
        let cfg = common::config(threads, Some(c), SplitPolicy::Auto);
        prop_assert_eq!(common::run(&points, &scalars, &cfg), common::naive(&points, &scalars));
    }
}

#[test]
fn executor_assignment_equals_the_lpt_model() {
    type P = ark_bls12_377::g1::Config;
    let (points, scalars) = common::inputs::<P>(3000, 9);
    for threads in [1, 2, 3, 5, 8] {
        for split in [SplitPolicy::Auto, SplitPolicy::Never, SplitPolicy::Parts(3)] {
            let cfg = common::config(threads, None, split);
            let report = multiexp::plan_for::<P>(points.len(), &cfg).unwrap();
            let (_, trace) = execute_plan(&points, &scalars, report.chosen(), true).unwrap();
            let trace = trace.unwrap();
            assert_eq!(trace.tasks.len(), report.chosen().tasks().len());
            assert_eq!(trace.assignment(threads), report.chosen().schedule());
            for r in &trace.tasks {
                assert!(r.start_ns <= r.end_ns);
            }
            // Its phases in order: records only where IFMA tasks convert them.
            let phases: Vec<&str> = trace.phases.iter().map(|p| p.0).collect();
            if report.chosen().uses_ifma() {
                assert_eq!(phases, ["digits", "records", "tasks", "combine"]);
            } else {
                assert_eq!(phases, ["digits", "tasks", "combine"]);
            }
        }
    }
}

/// Formerly `execute_plan` ran the plan's 1000 points of a 2000-pair input and returned their
/// MSM as if it were the whole one.
#[test]
fn a_plan_for_1000_points_run_on_2000_pairs_is_an_error_not_a_wrong_answer() {
    type P = ark_bn254::g1::Config;
    let plan = multiexp::plan_for::<P>(1000, &Config::default())
        .unwrap()
        .into_chosen();
    let (points, scalars) = common::inputs::<P>(2000, 3);
    assert_eq!(
        execute_plan(&points, &scalars, &plan, false).unwrap_err(),
        multiexp::Error::PlanSize {
            plan: 1000,
            input: 2000
        }
    );
}

/// Formerly a worker panicked on a point range past the end of the input.
#[test]
fn a_plan_for_1000_points_run_on_500_pairs_is_an_error_not_a_panic() {
    type P = ark_bn254::g1::Config;
    for split in [SplitPolicy::Never, SplitPolicy::Parts(3)] {
        let cfg = common::config(2, None, split);
        let plan = multiexp::plan_for::<P>(1000, &cfg).unwrap().into_chosen();
        let (points, scalars) = common::inputs::<P>(500, 3);
        assert_eq!(
            execute_plan(&points, &scalars, &plan, false).unwrap_err(),
            multiexp::Error::PlanSize {
                plan: 1000,
                input: 500
            },
            "{split:?}"
        );
    }
}

/// Formerly the XYZZ accumulation indexed past its buckets: secp256k1 has one more chunk
/// than BN254 at c = 16, and another top digit bound.
#[test]
fn a_bn254_plan_run_on_secp256k1_inputs_is_an_error_not_a_panic() {
    let cfg = common::config(2, Some(16), SplitPolicy::Never);
    let plan = multiexp::plan_for::<ark_bn254::g1::Config>(300, &cfg)
        .unwrap()
        .into_chosen();
    let (points, scalars) = common::inputs::<ark_secp256k1::Config>(300, 3);
    assert_eq!(
        execute_plan(&points, &scalars, &plan, false).unwrap_err(),
        multiexp::Error::PlanCurve {
            plan: "bn254-g1",
            input: "secp256k1-g1"
        }
    );
    // BN254 G1 and G2 share the scalar field, and still are different groups.
    let (points, scalars) = common::inputs::<ark_bn254::g2::Config>(300, 3);
    assert!(matches!(
        execute_plan(&points, &scalars, &plan, false),
        Err(multiexp::Error::PlanCurve { .. })
    ));
}

/// Formerly a test built a plan whose chunks were cut while its label said `SplitKind::None`:
/// the split kind is now derived from the parts, so it cannot disagree with them.
#[test]
fn the_split_kind_is_read_from_the_parts_and_cannot_disagree_with_them() {
    let spec = curves::spec("bn254-g1").unwrap();
    let pl = planner(&spec, PlanOptions::default());
    let k = pl.plan(10_000, 2).chunks();
    let at = |parts: &[usize]| pl.plan_parts(pl.plan(10_000, 2).window(), 10_000, 2, parts);
    assert_eq!(at(&vec![1; k]).unwrap().split(), SplitKind::None);
    assert_eq!(at(&vec![3; k]).unwrap().split(), SplitKind::Whole(3));
    let mut tail = vec![1; k];
    tail[k - 1] = 4;
    tail[k - 2] = 4;
    assert_eq!(
        at(&tail).unwrap().split(),
        SplitKind::Tail {
            chunks: 2,
            parts: 4
        }
    );
    assert!(matches!(
        at(&vec![1; k + 1]),
        Err(multiexp::Error::InvalidParts { .. })
    ));
    let mut zero = vec![1; k];
    zero[0] = 0;
    assert!(matches!(
        at(&zero),
        Err(multiexp::Error::InvalidParts { .. })
    ));
}

/// Formerly code written against arkworks' `VariableBaseMSM` could not switch without an
/// `SWCurveConfig` parameter, there was no `msm_bigint`, and `VariableBaseMSM::msm` on this
/// crate's own curves ran arkworks' Pippenger.
#[test]
fn multiexp_is_a_drop_in_for_variable_base_msm() {
    use ark_ec::VariableBaseMSM;
    use ark_ff::{BigInteger, PrimeField};
    use multiexp::MultiExp;

    fn generic<G: MultiExp>(bases: &[G::Base], scalars: &[G::Scalar]) -> G {
        G::multiexp(bases, scalars).unwrap()
    }
    type B = ark_bn254::g1::Config;
    let (points, scalars) = common::inputs::<B>(500, 8);
    let expected = common::arkworks(&points, &scalars);
    assert_eq!(
        generic::<ark_bn254::G1Projective>(&points, &scalars),
        expected
    );
    let bigints: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
    assert_eq!(
        ark_bn254::G1Projective::multiexp_bigint(&points, &bigints).unwrap(),
        expected
    );
    // Big integers at or above r stand for their residue.
    let mut over = bigints.clone();
    over[0].add_with_carry(&ark_bn254::Fr::MODULUS);
    assert_eq!(
        multiexp::msm_bigint(&points, &over).unwrap(),
        ark_bn254::G1Projective::msm_bigint(&points, &bigints)
    );
    assert!(multiexp::msm_bigint(&points, &bigints[..3]).is_err());
    assert_eq!(
        ark_bn254::G1Projective::multiexp_unchecked(&points, &scalars[..10]),
        common::arkworks(&points[..10], &scalars[..10])
    );

    // On this crate's own configs arkworks' own entry point runs multiexp, with arkworks'
    // error on a length mismatch.
    type S = multiexp::curves::stark_curve::g1::Config;
    let (points, scalars) = common::inputs::<S>(300, 9);
    let via_arkworks =
        <ark_ec::short_weierstrass::Projective<S> as VariableBaseMSM>::msm(&points, &scalars)
            .unwrap();
    assert_eq!(via_arkworks, common::naive(&points, &scalars));
    assert_eq!(
        <ark_ec::short_weierstrass::Projective<S> as VariableBaseMSM>::msm(&points, &scalars[..5]),
        Err(5)
    );
}

/// `Ifma::Off` plans the portable path at every size and the plan says so; an IFMA plan
/// records its engine (`path`), and a forced emulated IFMA plan runs on the emulation and
/// equals arkworks.
#[test]
fn the_plan_records_which_arithmetic_its_batch_affine_tasks_run_on() {
    use multiexp::{Ifma, Processor};
    type P = ark_bn254::g1::Config;
    for n in [1usize << 10, 1 << 16, 1 << 20] {
        let off = Config {
            ifma: Ifma::Off,
            profile: multiexp::ProfileChoice::Builtin,
            ..Config::default()
        };
        let plan = multiexp::plan_for::<P>(n, &off).unwrap().into_chosen();
        assert_eq!(plan.path(), "portable", "n = {n}");
        assert!(!plan.uses_ifma(), "n = {n}");
    }
    let emulated = Config {
        ifma: Ifma::Emulated,
        processor: Some(Processor::BatchAffineIfma),
        window: Some(8),
        ..Config::default()
    };
    let n = 700;
    let plan = multiexp::plan_for::<P>(n, &emulated).unwrap().into_chosen();
    assert_eq!(plan.path(), "ifma-emulated");
    let points = multiexp::unstable::sample::points::<P>(n, 5);
    let scalars = multiexp::unstable::sample::scalars::<ark_bn254::Fr>(n, 5);
    let (got, _) = execute_plan(&points, &scalars, &plan, false).unwrap();
    assert_eq!(got, common::arkworks(&points, &scalars));
    let off = Config {
        ifma: Ifma::Off,
        ..emulated
    };
    assert!(matches!(
        multiexp::plan_for::<P>(n, &off),
        Err(multiexp::Error::UnsupportedProcessor { .. })
    ));
}
