//! The CLI says what it means: each test is named after a message or behaviour that misled
//! (issue #16, "Messages").

use std::process::Command;

use crate::common::{multiexp, scratch, text};

#[test]
fn gen_with_n_0_is_refused_because_msm_refuses_an_empty_input() {
    let dir = scratch("msg", "gen0");
    let (p, s) = (dir.join("p.hex"), dir.join("s.hex"));
    let out = multiexp(&[
        "gen",
        "--curve",
        "bn254-g1",
        "--n",
        "0",
        "--points",
        p.to_str().unwrap(),
        "--scalars",
        s.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--n must be at least 1"),
        "{}",
        text(&out.stderr)
    );
    assert!(!p.exists() && !s.exists(), "nothing is written");
}

#[test]
fn gen_with_one_path_for_points_and_scalars_is_refused_instead_of_overwriting() {
    let dir = scratch("msg", "gensame");
    let f = dir.join("both.hex");
    for other in [f.clone(), dir.join(".").join("both.hex")] {
        let out = multiexp(&[
            "gen",
            "--curve",
            "bn254-g1",
            "--n",
            "4",
            "--points",
            f.to_str().unwrap(),
            "--scalars",
            other.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(2), "{other:?}");
        assert!(
            text(&out.stderr).contains("the same file"),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn format_is_the_output_format_everywhere_and_gen_names_its_files_format_file_format() {
    let dir = scratch("msg", "format");
    let (p, s) = (dir.join("p.bin"), dir.join("s.bin"));
    let gen = |flag: &str| {
        multiexp(&[
            "gen",
            "--curve",
            "bn254-g1",
            "--n",
            "5",
            "--points",
            p.to_str().unwrap(),
            "--scalars",
            s.to_str().unwrap(),
            flag,
            "bin",
        ])
    };
    assert!(
        !gen("--format").status.success(),
        "gen --format is not a file format"
    );
    assert!(gen("--file-format").status.success());
    let out = multiexp(&[
        "msm",
        "--curve",
        "bn254-g1",
        "--points",
        p.to_str().unwrap(),
        "--scalars",
        s.to_str().unwrap(),
        "--points-format",
        "bin",
        "--scalars-format",
        "bin",
        "--format",
        "json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["n"], 5);
}

#[test]
fn the_peer_table_says_which_way_its_ratio_goes() {
    let out = multiexp(&[
        "bench", "--curve", "bn254-g1", "--n", "256", "--reps", "1", "--vs", "arkworks",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let table = text(&out.stdout);
    assert!(table.contains("vs multiexp"), "{table}");
    assert!(table.contains("above 1, multiexp is faster"), "{table}");
    let arkworks = table.lines().find(|l| l.starts_with("arkworks")).unwrap();
    let multiexp_row = table.lines().find(|l| l.starts_with("multiexp ")).unwrap();
    assert!(arkworks.trim_end().ends_with('x'), "{arkworks}");
    assert!(multiexp_row.trim_end().ends_with("1.00x"), "{multiexp_row}");
}

#[test]
fn verify_plan_shows_progress_and_runs_exactly_the_reps_asked() {
    let dir = scratch("msg", "verify");
    let csv = dir.join("v.csv");
    let out = multiexp(&[
        "bench",
        "--verify-plan",
        "--curve",
        "bn254-g1",
        "--n-range",
        "2^8..2^9",
        "--reps",
        "1",
        "--window-span",
        "1",
        "--csv",
        csv.to_str().unwrap(),
        "--svg",
        dir.join("v.svg").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let progress = text(&out.stderr);
    assert!(
        progress.contains("verify-plan bn254-g1: n = 256 (1 of"),
        "{progress}"
    );
    let rows = std::fs::read_to_string(&csv).unwrap();
    let header: Vec<&str> = rows.lines().next().unwrap().split(',').collect();
    let at = header.iter().position(|&h| h == "reps").unwrap();
    for row in rows.lines().skip(1) {
        assert_eq!(row.split(',').nth(at), Some("1"), "{row}");
    }
}

#[test]
fn the_plan_table_explains_its_terms() {
    let out = multiexp(&[
        "plan", "--curve", "bn254-g1", "--n", "2^20", "--cores", "64",
    ]);
    assert!(out.status.success());
    let table = text(&out.stdout);
    for term in [
        "legend",
        "window",
        "chunks",
        "whole k",
        "tail r x k",
        "work",
        "makespan",
    ] {
        assert!(table.contains(term), "{term} is not explained:\n{table}");
    }
}

/// Formerly `plan --cores 18446744073709551615` panicked (exit 101) and `--cores 2^40`
/// aborted on an allocation.
#[test]
fn absurd_core_counts_exit_2_with_the_maximum_named() {
    for cores in ["18446744073709551615", "2^40", "65537"] {
        let out = multiexp(&[
            "plan", "--curve", "bn254-g1", "--n", "2^20", "--cores", cores,
        ]);
        assert_eq!(out.status.code(), Some(2), "--cores {cores}");
        assert!(
            text(&out.stderr).contains("at most 65536"),
            "--cores {cores}: {}",
            text(&out.stderr)
        );
    }
    let out = multiexp(&[
        "plan", "--curve", "bn254-g1", "--n", "2^20", "--cores", "2^16",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("not shown"));
}

/// Formerly `msm --n 2^30` and `--n 2^40` grew at ~160 MB/s until the allocator aborted
/// (exit 134, no message of the tool's own); `gen` likewise.
#[test]
fn an_msm_that_cannot_fit_exits_2_at_once_with_one_line() {
    for n in ["2^34", "2^40"] {
        let started = std::time::Instant::now();
        let out = multiexp(&["msm", "--curve", "bn254-g1", "--n", n]);
        assert_eq!(out.status.code(), Some(2), "--n {n}");
        let err = text(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        assert!(
            err.contains("needs about") && err.contains("available"),
            "{err}"
        );
        assert!(
            started.elapsed().as_secs_f64() < 1.0,
            "{:?}",
            started.elapsed()
        );
    }
    let dir = scratch("msg", "bomb");
    let out = multiexp(&[
        "gen",
        "--curve",
        "bn254-g1",
        "--n",
        "2^40",
        "--points",
        dir.join("p").to_str().unwrap(),
        "--scalars",
        dir.join("s").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs about"));
}

#[test]
fn output_cut_short_by_its_reader_ends_quietly_not_with_a_broken_pipe_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // Some 117 KB of JSON: more than a pipe holds, so the writer is still writing when the
    // reader goes (as `multiexp sweep | head -1`).
    let mut child = Command::new(env!("CARGO_BIN_EXE_multiexp"))
        .args([
            "sweep",
            "--curves",
            "bn254-g1,bls12-381-g1",
            "--format",
            "json",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(!first.is_empty());
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!stderr.contains("Broken pipe"), "{stderr}");
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(out.status.signal(), Some(libc::SIGPIPE), "{:?}", out.status);
    }
}
