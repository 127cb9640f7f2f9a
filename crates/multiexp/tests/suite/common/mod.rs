//! Generic test bodies, instantiated once per curve/group by `msm.rs` (and used by the
//! classes, planner and precomputed modules).

#![allow(dead_code)]

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup, VariableBaseMSM};
use ark_ff::{AdditiveGroup, BigInteger, Field, PrimeField, Zero};
use multiexp::{msm_with, Config, Ifma, Processor, SplitPolicy};

/// Σ s_i·P_i by plain double-and-add, one scalar at a time.
pub fn naive<P: SWCurveConfig>(points: &[Affine<P>], scalars: &[P::ScalarField]) -> Projective<P> {
    let mut acc = Projective::<P>::zero();
    for (p, s) in points.iter().zip(scalars) {
        let bits = s.into_bigint().to_bits_be();
        let mut r = Projective::<P>::zero();
        for b in bits {
            r.double_in_place();
            if b {
                r += p;
            }
        }
        acc += r;
    }
    acc
}

/// arkworks' own MSM: `msm_unchecked`, arkworks' Pippenger whatever `SWCurveConfig::msm` says
/// (the configs of this crate route `VariableBaseMSM::msm` to multiexp).
pub fn arkworks<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
) -> Projective<P> {
    assert_eq!(points.len(), scalars.len());
    <Projective<P> as VariableBaseMSM>::msm_unchecked(points, scalars)
}

pub fn inputs<P: SWCurveConfig>(n: usize, seed: u64) -> (Vec<Affine<P>>, Vec<P::ScalarField>) {
    (
        multiexp::unstable::sample::points::<P>(n, seed),
        multiexp::unstable::sample::scalars::<P::ScalarField>(n, seed),
    )
}

pub fn config(threads: usize, window: Option<u32>, split: SplitPolicy) -> Config {
    Config {
        threads: Some(threads),
        oversubscribe: true,
        window,
        split,
        ..Config::default()
    }
}

/// A forced processor and where its IFMA arithmetic runs.
pub type Arm = (Processor, Ifma);

/// The same config with the chunk processor forced, run as `arm` says.
pub fn with_processor(mut cfg: Config, (processor, ifma): Arm) -> Config {
    cfg.processor = Some(processor);
    cfg.ifma = ifma;
    cfg
}

/// The arms the matrix runs curve `P` with: XYZZ, scalar batch-affine, and for the curves
/// the IFMA processor applies to, that processor on its emulation (every CPU) and natively
/// (CPUs with AVX-512 IFMA: `msm.rs` reports the native arms as ignored elsewhere).
pub fn processors<P: SWCurveConfig>() -> Vec<Arm> {
    [
        (Processor::Xyzz, Ifma::Auto),
        (Processor::BatchAffine, Ifma::Auto),
        (Processor::BatchAffineIfma, Ifma::Auto),
        (Processor::BatchAffineIfma, Ifma::Emulated),
    ]
    .into_iter()
    .filter(|&(p, ifma)| p.supports_with::<P>(ifma))
    .collect()
}

pub fn run<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    cfg: &Config,
) -> Projective<P> {
    msm_with(points, scalars, cfg).expect("valid input")
}

/// n in {0, 1, 2, 3, 7, 64, 1000, 5000}: planner's choice = naive = arkworks.
pub fn random_inputs_match_naive_and_arkworks<P: SWCurveConfig>() {
    for (i, n) in [0usize, 1, 2, 3, 7, 64, 1000, 5000].into_iter().enumerate() {
        let (points, scalars) = inputs::<P>(n, 100 + i as u64);
        let expected = naive(&points, &scalars);
        assert_eq!(
            arkworks(&points, &scalars),
            expected,
            "arkworks vs naive, n = {n}"
        );
        assert_eq!(
            multiexp::msm(&points, &scalars).unwrap(),
            expected,
            "n = {n}"
        );
    }
}

/// Every window c in 1..=16, unsplit and split, every processor, on 2 workers.
pub fn every_window_matches_naive<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(150, 7);
    let expected = naive(&points, &scalars);
    for c in 1..=multiexp::unstable::MAX_WINDOW {
        for split in [SplitPolicy::Never, SplitPolicy::Parts(3)] {
            for processor in processors::<P>() {
                let cfg = with_processor(config(2, Some(c), split), processor);
                let got = run(&points, &scalars, &cfg);
                assert_eq!(got, expected, "window {c}, split {split:?}, {processor:?}");
            }
        }
    }
}

/// Threads 1, 2, 3 and 8, each with the planner's split, no split and forced splits.
pub fn every_thread_count_and_split_matches_naive<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(1000, 11);
    let expected = naive(&points, &scalars);
    for threads in [1, 2, 3, 8] {
        for split in [
            SplitPolicy::Auto,
            SplitPolicy::Never,
            SplitPolicy::Parts(2),
            SplitPolicy::Parts(5),
        ] {
            let got = run(&points, &scalars, &config(threads, None, split));
            assert_eq!(got, expected, "threads {threads}, split {split:?}");
        }
    }
}

/// A named input set.
type Case<P> = (
    &'static str,
    Vec<Affine<P>>,
    Vec<<P as ark_ec::CurveConfig>::ScalarField>,
);

/// Zero scalars, r - 1, points at infinity, repeated points, P and -P, n = 1.
pub fn edge_cases_match_naive<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(200, 23);
    let zero = P::ScalarField::ZERO;
    let minus_one = -P::ScalarField::ONE;
    let g = P::GENERATOR;
    let mut cases: Vec<Case<P>> = vec![
        ("all-zero scalars", points.clone(), vec![zero; 200]),
        ("every scalar r-1", points.clone(), vec![minus_one; 200]),
        ("n = 1", points[..1].to_vec(), scalars[..1].to_vec()),
        ("n = 1, scalar 1", vec![g], vec![P::ScalarField::ONE]),
        ("n = 1, scalar r-1", vec![g], vec![minus_one]),
        (
            "one point repeated, one scalar",
            vec![g; 200],
            vec![scalars[0]; 200],
        ),
        ("one point repeated", vec![points[3]; 200], scalars.clone()),
        (
            "all points at infinity",
            vec![Affine::<P>::zero(); 200],
            scalars.clone(),
        ),
    ];
    // Points at infinity among the inputs.
    let mut with_inf = points.clone();
    for i in (0..200).step_by(7) {
        with_inf[i] = Affine::<P>::zero();
    }
    cases.push(("points at infinity among inputs", with_inf, scalars.clone()));
    // P and -P with the same scalar cancel in every bucket; with other scalars they do not.
    let mut pm = Vec::new();
    let mut pm_scalars = Vec::new();
    for i in 0..100 {
        pm.push(points[i]);
        pm.push(-points[i]);
        pm_scalars.push(scalars[i]);
        pm_scalars.push(scalars[i]);
    }
    cases.push(("P and -P, same scalar", pm.clone(), pm_scalars.clone()));
    for i in (0..200).step_by(2) {
        pm_scalars[i] = scalars[i];
        pm_scalars[i + 1] = scalars[199 - i];
    }
    cases.push(("P and -P, other scalars", pm, pm_scalars));
    // Scalars s and -s on one point: every digit pair meets in the same bucket with both signs.
    let mut ss = Vec::new();
    for s in &scalars[..100] {
        ss.push(*s);
        ss.push(-*s);
    }
    cases.push(("s and -s on one point", vec![points[5]; 200], ss));
    for (name, pts, scs) in &cases {
        let expected = naive(pts, scs);
        for threads in [1, 3] {
            for window in [None, Some(1), Some(4), Some(9), Some(16)] {
                for split in [SplitPolicy::Never, SplitPolicy::Parts(2)] {
                    for processor in processors::<P>() {
                        // The emulation is slow and its arithmetic does not depend on the
                        // schedule (threads and splits are covered by the other bodies).
                        let unsplit_1 = threads == 1 && split == SplitPolicy::Never;
                        if processor.1 == Ifma::Emulated && !unsplit_1 {
                            continue;
                        }
                        let cfg = with_processor(config(threads, window, split), processor);
                        let got = run(pts, scs, &cfg);
                        assert_eq!(
                            got.into_affine(),
                            expected.into_affine(),
                            "{name}: threads {threads}, window {window:?}, split {split:?}, \
                             {processor:?}"
                        );
                    }
                }
            }
        }
    }
}

/// Length mismatches are errors, never panics or truncation.
pub fn length_mismatch_is_an_error<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(5, 1);
    let err = multiexp::msm(&points, &scalars[..4]).unwrap_err();
    assert_eq!(
        err,
        multiexp::Error::LengthMismatch {
            points: 5,
            scalars: 4
        }
    );
    let err = multiexp::msm::<P>(&[], &scalars[..1]).unwrap_err();
    assert_eq!(
        err,
        multiexp::Error::LengthMismatch {
            points: 0,
            scalars: 1
        }
    );
    let _ = points[0].is_zero();
}

/// The windows the adversarial cases run at: narrow (XYZZ territory), the smallest
/// batch-affine window, and wide ones where batches are large.
const ADVERSARIAL_WINDOWS: [Option<u32>; 5] = [None, Some(4), Some(9), Some(12), Some(16)];

/// Inputs built to hurt batch-affine buckets: long runs of equal scalars (every point of a
/// run meets the same bucket in every chunk, the worst case for batch conflicts), every digit
/// in one bucket, every fifth scalar 1, P and -P pairs and repeated points in the same bucket
/// (cancellations and doublings, with the curve's a), points at infinity.
pub fn adversarial_inputs_match_naive<P: SWCurveConfig>() {
    let n = 600;
    let (points, scalars) = inputs::<P>(n, 41);
    let mut cases: Vec<Case<P>> = Vec::new();
    let runs: Vec<_> = (0..n).map(|i| scalars[i / 100]).collect();
    cases.push(("runs of 100 equal scalars", points.clone(), runs.clone()));
    // Every window of every scalar holds the digit 5, so each chunk uses one bucket.
    let mut five = P::ScalarField::ZERO;
    for _ in 0..P::ScalarField::MODULUS_BIT_SIZE / 12 {
        five = five * P::ScalarField::from(4096u64) + P::ScalarField::from(5u64);
    }
    cases.push(("every digit in one bucket", points.clone(), vec![five; n]));
    let fifth: Vec<_> = (0..n)
        .map(|i| {
            if i % 5 == 0 {
                P::ScalarField::ONE
            } else {
                scalars[i]
            }
        })
        .collect();
    cases.push(("every fifth scalar 1", points.clone(), fifth));
    // P, -P, P, P ... with one scalar: cancellations and doublings inside one batch.
    let pattern: Vec<Affine<P>> = (0..n)
        .map(|i| match i % 4 {
            1 => -points[i / 4],
            _ => points[i / 4],
        })
        .collect();
    cases.push(("P, -P, P, P in one bucket", pattern, runs.clone()));
    let repeated: Vec<Affine<P>> = (0..n).map(|i| points[i % 3]).collect();
    cases.push(("three points repeated, runs", repeated, runs.clone()));
    let mut holes = points.clone();
    for p in holes.iter_mut().step_by(3) {
        *p = Affine::<P>::zero();
    }
    cases.push(("every third point at infinity, runs", holes, runs));
    for (name, pts, scs) in &cases {
        let expected = naive(pts, scs);
        for window in ADVERSARIAL_WINDOWS {
            for processor in processors::<P>() {
                let cfg = with_processor(config(2, window, SplitPolicy::Never), processor);
                let got = run(pts, scs, &cfg);
                assert_eq!(got, expected, "{name}: window {window:?}, {processor:?}");
            }
            let got = run(pts, scs, &config(2, window, SplitPolicy::Auto));
            assert_eq!(
                got, expected,
                "{name}: window {window:?}, planner's processor"
            );
        }
    }
}

/// n one below, at and one above the batch size of each batch-affine processor, for a
/// medium and the widest window: batches that fill exactly, miss by one, or spill by one.
pub fn batch_size_boundaries_match_arkworks<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(1100, 43);
    for c in [10u32, 16] {
        let buckets = 1usize << (c - 1);
        for processor in processors::<P>() {
            let batch = match processor.0 {
                Processor::Xyzz => continue,
                Processor::BatchAffine => multiexp::unstable::batch_size(c),
                Processor::BatchAffineIfma => multiexp::unstable::ifma_batch_size(c),
            }
            .min(buckets / 4);
            for n in [batch - 1, batch, batch + 1] {
                let (pts, scs) = (&points[..n], &scalars[..n]);
                let cfg = with_processor(config(2, Some(c), SplitPolicy::Never), processor);
                assert_eq!(
                    run(pts, scs, &cfg),
                    arkworks(pts, scs),
                    "window {c}, {processor:?}, n = {n} (batch {batch})"
                );
            }
        }
    }
}

/// Lanes per bucket (small windows, many points per bucket): off, the default (4 lanes for a
/// task of 4200 points at c = 8) and 16 forced, on every batch-affine arm, with a point and its
/// negation repeated under one scalar, so that equal and opposite partial sums meet when the
/// lanes fold.
pub fn lanes_match_arkworks<P: SWCurveConfig>() {
    let n = 4200;
    let (mut points, mut scalars) = inputs::<P>(n, 47);
    for i in (0..n).step_by(9) {
        points[i] = points[1];
        scalars[i] = scalars[1];
    }
    for i in (4..n).step_by(11) {
        points[i] = -points[1];
        scalars[i] = scalars[1];
    }
    let expected = arkworks(&points, &scalars);
    for processor in processors::<P>() {
        if processor.0 == Processor::Xyzz {
            continue;
        }
        for lanes in [Some(1), None, Some(16)] {
            let mut cfg = with_processor(config(2, Some(8), SplitPolicy::Never), processor);
            cfg.lanes = lanes;
            assert_eq!(
                run(&points, &scalars, &cfg),
                expected,
                "{processor:?}, lanes {lanes:?}"
            );
        }
    }
}

/// The planner of `spec` on the built-in profile's weights for the path `options` price.
pub fn planner(
    spec: &multiexp::curves::CurveSpec,
    options: multiexp::unstable::PlanOptions,
) -> multiexp::unstable::Planner {
    multiexp::unstable::Planner::new(
        spec,
        multiexp::Profile::builtin().weights_for(spec, options.ifma),
        options,
    )
    .unwrap()
}
