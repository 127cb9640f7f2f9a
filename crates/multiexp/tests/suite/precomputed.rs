//! Bases known ahead: tables of precomputed multiples and `msm_many`, on every curve/group,
//! against the naive sum and arkworks; the planner's layout within its budget; the table file.

use crate::common;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::{AdditiveGroup, Field, PrimeField, Zero};
use ark_serialize::CanonicalSerialize;
use common::{arkworks, inputs, naive};
use multiexp::precomputed::{plan_table, TableForm};
use multiexp::{
    msm_many_with, ClassPolicy, Config, Error, GlvPolicy, Ifma, PrecomputedBases, SplitPolicy,
};

fn config(threads: usize, split: SplitPolicy) -> Config {
    Config {
        threads: Some(threads),
        oversubscribe: true,
        split,
        ..Config::default()
    }
}

/// Random scalars with the edge values mixed in (0, 1, r − 1, (r − 1)/2, 2^k), and points
/// with infinity, a repeated point and P, −P among them.
fn edgy<P: SWCurveConfig>(n: usize, seed: u64) -> (Vec<Affine<P>>, Vec<P::ScalarField>) {
    let (mut points, mut scalars) = inputs::<P>(n, seed);
    let minus_one = -P::ScalarField::ONE;
    let half = minus_one * P::ScalarField::from(2u64).inverse().unwrap();
    let specials = [
        P::ScalarField::ZERO,
        P::ScalarField::ONE,
        minus_one,
        half,
        P::ScalarField::from(1u64 << 63),
    ];
    for (i, s) in specials.iter().enumerate() {
        if 3 * i + 1 < n {
            scalars[3 * i + 1] = *s;
        }
    }
    if n > 20 {
        points[4] = Affine::<P>::zero();
        points[7] = points[6];
        points[9] = -points[8];
        scalars[9] = scalars[8];
    }
    (points, scalars)
}

/// The forms a table of `P` can take here: arkworks points, and IFMA records on the
/// emulation (every CPU) where the IFMA processor applies to `P`.
fn forms<P: SWCurveConfig>() -> Vec<(TableForm, Ifma)> {
    let mut out = vec![(TableForm::Points, Ifma::Auto)];
    if multiexp::Processor::BatchAffineIfma.supports_with::<P>(Ifma::Emulated) {
        out.push((TableForm::Records, Ifma::Emulated));
    }
    out
}

/// Every layout kind (the bases alone, two multiples, half, all) at narrow, middle and wide
/// windows, in both forms, unsplit and split, equals the naive sum.
fn tables_match_naive<P: SWCurveConfig>() {
    let (points, scalars) = edgy::<P>(97, 5);
    let expected = naive(&points, &scalars);
    assert_eq!(arkworks(&points, &scalars), expected);
    for window in [2u32, 5, 9, 13, 16] {
        let k = multiexp::unstable::Windowing::new(
            <P::ScalarField as PrimeField>::MODULUS.as_ref(),
            window,
        )
        .chunks;
        for copies in [1, 2, k / 2, k] {
            for (form, ifma) in forms::<P>() {
                // The emulation is slow: one layout per window.
                if ifma == Ifma::Emulated && copies != 2 {
                    continue;
                }
                let build = Config {
                    ifma,
                    ..config(2, SplitPolicy::Auto)
                };
                let table =
                    PrecomputedBases::with_layout(&points, window, copies, form, &build).unwrap();
                assert_eq!(table.form(), Some(form));
                for (threads, split) in [
                    (1, SplitPolicy::Never),
                    (3, SplitPolicy::Auto),
                    (2, SplitPolicy::Parts(3)),
                ] {
                    let got = table.msm_with(&scalars, &config(threads, split)).unwrap();
                    assert_eq!(
                        got.into_affine(),
                        expected.into_affine(),
                        "c={window} copies {copies} {form:?} threads {threads} {split:?}"
                    );
                }
            }
        }
    }
}

/// n = 0, 1, 2; all-zero scalars; every scalar r − 1; every point at infinity.
fn table_edge_cases_match_naive<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(40, 9);
    let minus_one = -P::ScalarField::ONE;
    type Case<P> = (
        &'static str,
        Vec<Affine<P>>,
        Vec<<P as ark_ec::CurveConfig>::ScalarField>,
    );
    let cases: Vec<Case<P>> = vec![
        ("n = 0", vec![], vec![]),
        ("n = 1", points[..1].to_vec(), scalars[..1].to_vec()),
        ("n = 2", points[..2].to_vec(), scalars[..2].to_vec()),
        ("all zero", points.clone(), vec![P::ScalarField::ZERO; 40]),
        ("all r - 1", points.clone(), vec![minus_one; 40]),
        (
            "all at infinity",
            vec![Affine::<P>::zero(); 40],
            scalars.clone(),
        ),
    ];
    for (name, pts, scs) in &cases {
        let expected = naive(pts, scs);
        for (window, copies) in [(4, 100), (11, 3), (16, 1)] {
            let table = PrecomputedBases::with_layout(
                pts,
                window,
                copies,
                TableForm::Points,
                &config(2, SplitPolicy::Auto),
            )
            .unwrap();
            assert_eq!(table.msm(scs).unwrap(), expected, "{name}: c={window}");
            assert_eq!(table.len(), pts.len());
        }
        // The planner's own choice, from a budget of nothing to plenty.
        for budget in [0u64, 1 << 20, 64 << 20] {
            let table =
                PrecomputedBases::with_config(pts, budget, &config(2, SplitPolicy::Auto)).unwrap();
            assert_eq!(table.msm(scs).unwrap(), expected, "{name}: budget {budget}");
        }
    }
}

/// `msm_many` over plain bases and over a table equals one MSM per vector, whatever the
/// vectors hold (uniform, zero, ±1, small: these run alone by classes), in one call.
fn many_match_single<P: SWCurveConfig>() {
    let n = 700;
    let (points, scalars) = edgy::<P>(n, 11);
    let small: Vec<P::ScalarField> = (0..n as u64)
        .map(|i| P::ScalarField::from(i % 17))
        .collect();
    let minus: Vec<P::ScalarField> = vec![-P::ScalarField::ONE; n];
    let other = inputs::<P>(n, 12).1;
    let batches: Vec<&[P::ScalarField]> = vec![&scalars, &small, &other, &minus, &scalars];
    let expected: Vec<Projective<P>> = batches.iter().map(|s| arkworks(&points, s)).collect();
    for threads in [1, 2, 5] {
        for classes in [ClassPolicy::Auto, ClassPolicy::Off] {
            // GLV forced (on the curves that have it) runs every shared vector, r − 1,
            // (r − 1)/2, 0, ±1 and the small ones included (classes off), as halves.
            for glv in [GlvPolicy::Auto, GlvPolicy::Always, GlvPolicy::Off] {
                let cfg = Config {
                    classes,
                    glv,
                    ..config(threads, SplitPolicy::Auto)
                };
                let got = msm_many_with(&points, &batches, &cfg).unwrap();
                assert_eq!(
                    got, expected,
                    "plain bases, {threads} threads, {classes:?}, {glv:?}"
                );
            }
        }
        let table = PrecomputedBases::with_layout(
            &points,
            8,
            4,
            TableForm::Points,
            &config(2, SplitPolicy::Auto),
        )
        .unwrap();
        let got = table
            .msm_many_with(&batches, &config(threads, SplitPolicy::Auto))
            .unwrap();
        assert_eq!(got, expected, "table, {threads} threads");
    }
    assert!(multiexp::msm_many(&points, &[]).unwrap().is_empty());
    assert_eq!(
        multiexp::msm_many::<P>(&[], &[&[], &[]]).unwrap(),
        vec![Projective::<P>::zero(); 2]
    );
}

/// A vector of the wrong length is an error, and nothing runs.
fn wrong_lengths_are_errors<P: SWCurveConfig>() {
    let (points, scalars) = inputs::<P>(30, 3);
    let mismatch = Error::LengthMismatch {
        points: 30,
        scalars: 29,
    };
    assert_eq!(
        multiexp::msm_many(&points, &[&scalars[..], &scalars[..29]]).unwrap_err(),
        mismatch
    );
    let table = PrecomputedBases::new(&points, 1 << 20).unwrap();
    assert_eq!(table.msm(&scalars[..29]).unwrap_err(), mismatch);
    assert_eq!(
        table.msm_many(&[&scalars[..], &scalars[..29]]).unwrap_err(),
        mismatch
    );
}

/// Written and read back (both forms, the bases alone too), a table gives the same sums.
fn files_round_trip<P: SWCurveConfig>() {
    let (points, scalars) = edgy::<P>(50, 21);
    let expected = naive(&points, &scalars);
    let cfg = config(2, SplitPolicy::Auto);
    let mut tables = vec![
        PrecomputedBases::with_layout(&points, 7, 5, TableForm::Points, &cfg).unwrap(),
        PrecomputedBases::with_config(&points, 0, &cfg).unwrap(),
    ];
    if forms::<P>().len() > 1 {
        let emulated = Config {
            ifma: Ifma::Emulated,
            ..cfg.clone()
        };
        tables.push(
            PrecomputedBases::with_layout(&points, 10, 3, TableForm::Records, &emulated).unwrap(),
        );
    }
    for table in &tables {
        let bytes = table.to_bytes();
        let back = PrecomputedBases::<P>::from_bytes(&bytes, &cfg).unwrap();
        assert_eq!(back.layout(), table.layout());
        assert_eq!(back.len(), 50);
        assert_eq!(back.msm(&scalars).unwrap(), expected);
        assert_eq!(back.to_bytes(), bytes, "a read table writes the same bytes");
    }
}

macro_rules! table_tests {
    ($($name:ident => $config:ty;)*) => {$(
        mod $name {
            type C = $config;
            #[test]
            fn tables_match_naive() {
                super::tables_match_naive::<C>();
            }
            #[test]
            fn table_edge_cases_match_naive() {
                super::table_edge_cases_match_naive::<C>();
            }
            #[test]
            fn many_match_single() {
                super::many_match_single::<C>();
            }
            #[test]
            fn wrong_lengths_are_errors() {
                super::wrong_lengths_are_errors::<C>();
            }
            #[test]
            fn files_round_trip() {
                super::files_round_trip::<C>();
            }
        }
    )*};
}

for_each_group!(table_tests);

type Bn = ark_bn254::g1::Config;
type Bls = ark_bls12_381::g1::Config;

/// Every window 1..=16 with every multiple count from one to all, BN254 G1.
#[test]
fn every_window_and_multiple_count_matches_arkworks() {
    let (points, scalars) = edgy::<Bn>(33, 2);
    let expected = arkworks(&points, &scalars);
    for window in 1..=16u32 {
        let k = multiexp::unstable::Windowing::new(
            <ark_bn254::Fr as PrimeField>::MODULUS.as_ref(),
            window,
        )
        .chunks;
        let mut seen = Vec::new();
        for copies in 1..=k {
            let table = PrecomputedBases::with_layout(
                &points,
                window,
                copies,
                TableForm::Points,
                &config(2, SplitPolicy::Auto),
            )
            .unwrap();
            let layout = table.layout().unwrap();
            if seen.contains(&layout) {
                continue;
            }
            seen.push(layout);
            assert_eq!(
                table.msm(&scalars).unwrap(),
                expected,
                "{}",
                layout.describe()
            );
        }
    }
}

/// The table is within its budget; no budget keeps the bases alone; the report says why;
/// the windows forced outside 1..=MAX_WINDOW (20) are errors.
#[test]
fn the_planner_keeps_the_table_within_its_budget() {
    let (points, scalars) = inputs::<Bls>(4096, 1);
    let expected = arkworks(&points, &scalars);
    let cfg = config(2, SplitPolicy::Auto);
    let none = PrecomputedBases::with_config(&points, 0, &cfg).unwrap();
    assert_eq!(none.layout(), None);
    assert!(
        none.report().reason.starts_with("plain MSM"),
        "{}",
        none.report().reason
    );
    for budget in [1u64 << 20, 4 << 20, 16 << 20] {
        let report = plan_table::<Bls>(4096, budget, &cfg).unwrap();
        let table = PrecomputedBases::with_config(&points, budget, &cfg).unwrap();
        assert_eq!(
            table.report(),
            &report,
            "building chooses what planning says"
        );
        if let Some(chosen) = report.chosen {
            assert!(chosen.bytes <= budget);
            assert_eq!(table.bytes(), chosen.bytes);
            assert!(report.makespan() < report.plain_makespan);
            assert!(report.reason.starts_with("table"), "{}", report.reason);
        }
        assert_eq!(table.msm(&scalars).unwrap(), expected);
    }
    // 16 MiB of BLS12-381 G1 multiples of 4096 bases pays (EIP-4844's size).
    assert!(plan_table::<Bls>(4096, 16 << 20, &cfg)
        .unwrap()
        .chosen
        .is_some());
    for window in [0, multiexp::unstable::MAX_WINDOW + 1] {
        assert!(matches!(
            PrecomputedBases::with_layout(&points, window, 2, TableForm::Points, &cfg),
            Err(Error::InvalidWindow { .. })
        ));
    }
}

/// The file is refused, with the reason, when it is not a table, of another version or curve,
/// truncated, corrupt, followed by bytes, or when a multiple is not its base's.
#[test]
fn bad_table_files_are_refused_with_the_reason() {
    let (points, _) = inputs::<Bn>(64, 4);
    let cfg = config(1, SplitPolicy::Auto);
    let table = PrecomputedBases::with_layout(&points, 9, 4, TableForm::Points, &cfg).unwrap();
    let good = table.to_bytes();
    let reason = |bytes: &[u8]| match PrecomputedBases::<Bn>::from_bytes(bytes, &cfg) {
        Err(Error::TableFile { reason }) => reason,
        Err(e) => panic!("another error: {e}"),
        Ok(_) => panic!("accepted"),
    };
    assert!(reason(b"not a table at all").contains("magic"));
    let mut version = good.clone();
    version[8] = 9;
    assert!(reason(&version).contains("format version 9"));
    assert!(reason(&good[..good.len() - 100]).contains("truncated"));
    assert!(reason(&good[..5]).contains("truncated"));
    let mut flipped = good.clone();
    let mid = good.len() / 2;
    flipped[mid] ^= 1;
    let why = reason(&flipped);
    assert!(
        why.contains("checksum") || why.contains("cannot be read"),
        "{why}"
    );
    let mut longer = good.clone();
    longer.push(0);
    assert!(reason(&longer).contains("after its checksum"));
    match PrecomputedBases::<Bls>::from_bytes(&good, &cfg) {
        Err(Error::TableFile { reason }) => {
            assert!(reason.contains("not bls12-381-g1"), "{reason}")
        }
        _ => panic!("a BN254 table read as BLS12-381"),
    }
    // A multiple replaced by another point on the curve, with a checksum to match.
    let header = 8 + 4 + 2 + "bn254-g1".len() + 8 + 16;
    let size = Affine::<Bn>::zero().uncompressed_size();
    let mut swapped = good[..good.len() - 8].to_vec();
    let (first, second) = (header + 64 * size, header + 65 * size);
    let a = swapped[first..first + size].to_vec();
    let b = swapped[second..second + size].to_vec();
    swapped[first..first + size].copy_from_slice(&b);
    swapped[second..second + size].copy_from_slice(&a);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in &swapped {
        h ^= byte as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    swapped.extend_from_slice(&h.to_le_bytes());
    assert!(
        reason(&swapped).contains("multiple 1 of base 0"),
        "{}",
        reason(&swapped)
    );
}

/// The native IFMA records table (CPUs with AVX-512 IFMA) equals the emulated one.
#[test]
#[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
fn native_records_tables_match_arkworks() {
    fn check<P: SWCurveConfig>() {
        let (points, scalars) = edgy::<P>(300, 8);
        let expected = arkworks(&points, &scalars);
        for (window, copies) in [(6, 50), (12, 4), (16, 1)] {
            let table = PrecomputedBases::with_layout(
                &points,
                window,
                copies,
                TableForm::Records,
                &config(2, SplitPolicy::Auto),
            )
            .unwrap();
            assert_eq!(table.msm(&scalars).unwrap(), expected, "c={window}");
        }
    }
    check::<Bn>();
    check::<Bls>();
    check::<ark_secp256r1::Config>();
    check::<multiexp::curves::bls24_315::g1::Config>();
}
