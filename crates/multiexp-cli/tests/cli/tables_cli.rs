//! Bases known ahead on the command line: `table` builds and writes a table that `msm --table`
//! reads back to the same result as `msm --points`; `plan --precomputed`, and small runs of
//! `bench --precomputed`, `bench --many` and `bench --kzg` (the heavy runs belong to the
//! benchmarks, these check that their code runs and that their contenders agree).

use std::path::PathBuf;

use crate::common::{multiexp, ok, scratch};

/// The contender names of a `bench --format json` output, in order.
fn contenders(out: &str) -> Vec<String> {
    let rows: serde_json::Value = serde_json::from_str(out).unwrap();
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| r["contender"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_table_file_gives_the_msm_of_its_points() {
    let dir = scratch("tables", "table");
    let (points, scalars, table) = (dir.join("p.hex"), dir.join("s.hex"), dir.join("t.mxt"));
    let p = |x: &PathBuf| x.to_str().unwrap().to_string();
    for curve in ["bn254-g1", "bls12-381-g1", "secp256r1-g1"] {
        ok(&multiexp(&[
            "gen",
            "--curve",
            curve,
            "--n",
            "700",
            "--points",
            &p(&points),
            "--scalars",
            &p(&scalars),
        ]));
        let expected = ok(&multiexp(&[
            "msm",
            "--curve",
            curve,
            "--points",
            &p(&points),
            "--scalars",
            &p(&scalars),
            "--format",
            "hex",
        ]));
        for budget in ["0", "4x", "2MiB"] {
            let built = ok(&multiexp(&[
                "table",
                "--curve",
                curve,
                "--points",
                &p(&points),
                "--budget",
                budget,
                "--out",
                &p(&table),
                "--format",
                "json",
            ]));
            let summary: serde_json::Value = serde_json::from_str(&built).unwrap();
            assert!(summary["table_bytes"].as_u64().is_some(), "{built}");
            let got = ok(&multiexp(&[
                "msm",
                "--curve",
                curve,
                "--table",
                &p(&table),
                "--scalars",
                &p(&scalars),
                "--format",
                "hex",
            ]));
            assert_eq!(got, expected, "{curve}, budget {budget}");
        }
        // A table of another curve is refused, naming the file.
        let other = if curve == "bn254-g1" {
            "grumpkin-g1"
        } else {
            "bn254-g1"
        };
        let out = multiexp(&[
            "msm",
            "--curve",
            other,
            "--table",
            &p(&table),
            "--scalars",
            &p(&scalars),
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("t.mxt") && err.contains("not"), "{err}");
    }
    // Scalars without points or a table.
    let out = multiexp(&["msm", "--scalars", &p(&scalars)]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn plan_precomputed_explains_the_layout_within_the_budget() {
    let out = ok(&multiexp(&[
        "plan",
        "--curve",
        "bls12-381-g1",
        "--n",
        "4096",
        "--threads",
        "2",
        "--precomputed",
        "16MiB",
        "--format",
        "json",
    ]));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(v["chosen"]["bytes"].as_u64().unwrap() <= 16 << 20, "{out}");
    assert!(v["reason"].as_str().unwrap().starts_with("table"), "{out}");
    // c = 13 leaves BLS12-381's top digit 8 bits: its task runs alone, on a named processor.
    let top = v["chosen"]["top_processor"].as_str().unwrap();
    assert!(
        ["xyzz", "batch-affine", "batch-affine-ifma"].contains(&top),
        "{out}"
    );
    let none = ok(&multiexp(&[
        "plan",
        "--curve",
        "bn254-g1",
        "--n",
        "4096",
        "--precomputed",
        "0",
    ]));
    assert!(none.contains("why:    plain MSM"), "{none}");
}

#[test]
fn bench_precomputed_and_many_run_and_agree() {
    let out = ok(&multiexp(&[
        "bench",
        "--curve",
        "bn254-g1",
        "--n",
        "600",
        "--threads",
        "2",
        "--reps",
        "1",
        "--precomputed",
        "4x,1MiB",
        "--many",
        "3",
        "--format",
        "json",
    ]));
    let names = contenders(&out);
    assert_eq!(
        names,
        [
            "3 msm calls",
            "msm_many (3)",
            "table 4x, msm_many",
            "table 1.0 MiB, msm_many"
        ]
    );
}

#[test]
fn bench_kzg_runs_against_c_kzg() {
    let out = ok(&multiexp(&[
        "bench",
        "--kzg",
        "--threads",
        "1",
        "--reps",
        "1",
        "--precomputed",
        "2MiB",
        "--format",
        "json",
    ]));
    let names = contenders(&out);
    assert_eq!(
        names,
        ["c-kzg (1 thread)", "multiexp", "multiexp table 2.0 MiB"]
    );
}
