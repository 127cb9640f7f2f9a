//! `--scalars`: benchmarks and plans on the scalar distributions provers have (issue #15).

use crate::common::{multiexp, scratch, text};

#[test]
fn every_distribution_benchmarks_against_arkworks_and_agrees() {
    for dist in [
        "uniform",
        "zero",
        "one",
        "minus-one",
        "bool",
        "u8",
        "u16",
        "u32",
        "u64",
        "neg-small",
        "witness",
    ] {
        let out = multiexp(&[
            "bench",
            "--curve",
            "bn254-g1",
            "--n",
            "300",
            "--threads",
            "2",
            "--reps",
            "1",
            "--scalars",
            dist,
            "--vs",
            "arkworks",
        ]);
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{dist}: {}", text(&out.stderr));
        assert!(stdout.contains(&format!("scalars={dist}")), "{stdout}");
        assert!(stdout.contains("results agree: true"), "{stdout}");
    }
}

#[test]
fn compare_and_verify_plan_take_the_distribution_and_time_the_classes() {
    let out = multiexp(&[
        "bench",
        "--curve",
        "bls12-381-g1",
        "--n",
        "2^10",
        "--threads",
        "2",
        "--reps",
        "1",
        "--scalars",
        "witness",
        "--compare",
        "auto,whole",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("zero scalars dropped"), "{stdout}");
    assert!(stdout.contains("one MSM"), "{stdout}");
    let dir = scratch("scalars", "verify");
    let (csv, svg) = (dir.join("v.csv"), dir.join("v.svg"));
    let out = multiexp(&[
        "bench",
        "--verify-plan",
        "--curve",
        "bn254-g1",
        "--n-range",
        "2^8..2^9",
        "--threads",
        "2",
        "--reps",
        "1",
        "--window-span",
        "1",
        "--scalars",
        "u8",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        svg.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows = std::fs::read_to_string(&csv).unwrap();
    assert!(
        rows.lines()
            .any(|l| l.contains(",classes,") && l.contains(",true,")),
        "{rows}"
    );
}

#[test]
fn plan_explains_the_classes_it_made() {
    let out = multiexp(&["plan", "--n", "2^14", "--threads", "2", "--scalars", "u8"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("by classes"), "{stdout}");
    assert!(stdout.contains("≤8 bits"), "{stdout}");
    let out = multiexp(&[
        "plan",
        "--n",
        "2^14",
        "--threads",
        "2",
        "--scalars",
        "uniform",
    ]);
    // One MSM, or (where the host's profile prices it lower) every scalar split by GLV.
    let stdout = text(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("scalars uniform:"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(
        line.contains("one MSM") || line.contains("100.0% full") || line.contains("GLV"),
        "{stdout}"
    );
    assert!(
        stdout.contains("every scalar is full-size") || stdout.contains("GLV"),
        "{stdout}"
    );
}

#[test]
fn an_unknown_distribution_names_the_known_ones() {
    let out = multiexp(&["bench", "--n", "16", "--scalars", "tiny"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unknown scalar distribution") && stderr.contains("neg-small"),
        "{stderr}"
    );
}
