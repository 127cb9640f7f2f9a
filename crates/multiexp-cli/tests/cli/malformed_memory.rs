//! Malformed inputs cost a block, not the file (issue #16): `multiexp msm` on a 1 GiB file bad
//! at its start, on a binary file whose length prefix cannot match, and on `/dev/zero`, exits
//! 2 with one line naming the file, having held at most 64 MiB (formerly it read the whole
//! file first, peak 1.06 GB, and read `/dev/zero` until the allocator aborted).
//!
//! Each child's own peak RSS comes from wait4; each runs under a 4 GiB address-space limit,
//! so a regression fails the test instead of exhausting the machine.

use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The most a malformed-input run may hold.
const LIMIT: u64 = 64 << 20;

/// A sparse file of `len` bytes starting with `head` (the rest reads as zero bytes).
fn sparse_file(dir: &Path, name: &str, head: &[u8], len: u64) -> PathBuf {
    let path = dir.join(name);
    let mut f = File::create(&path).unwrap();
    f.write_all(head).unwrap();
    f.set_len(len).unwrap();
    path
}

/// A sparse file of 1 GiB starting with `head`.
fn gib_file(dir: &Path, name: &str, head: &[u8]) -> PathBuf {
    sparse_file(dir, name, head, 1 << 30)
}

/// Runs `multiexp msm` with these arguments; (exit code, stderr, peak RSS in bytes). The
/// child is reaped by wait4 (for its own rusage), not by `Child::wait`.
#[allow(clippy::zombie_processes)]
fn run(args: &[&str]) -> (i32, String, u64) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_multiexp"));
    cmd.arg("msm")
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; the child only lowers its own limit.
    unsafe {
        cmd.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 4 << 30,
                rlim_max: 4 << 30,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let mut status = 0;
    // SAFETY: wait4 writes one status and one rusage through valid pointers.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as i32);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, stderr, usage.ru_maxrss as u64 * 1024)
}

fn check(what: &str, args: &[&str], file: &str, says: &str) {
    let (code, stderr, rss) = run(args);
    assert_eq!(code, 2, "{what}: exit code; stderr: {stderr}");
    assert_eq!(
        stderr.trim_end().lines().count(),
        1,
        "{what}: one line: {stderr}"
    );
    assert!(
        stderr.contains(file) && stderr.contains(says),
        "{what}: {stderr}"
    );
    assert!(rss < LIMIT, "{what}: peak RSS {} MiB", rss >> 20);
    eprintln!("{what}: peak RSS {:.1} MiB", rss as f64 / (1 << 20) as f64);
}

#[test]
fn a_1_gib_file_is_not_read_whole_before_its_first_line_error() {
    // Removed at the end even when an assertion fails: the files are 1 GiB each.
    let dir = crate::common::scratch("malformed", "gib");
    let scalars_ok = dir.join("ok.scalars");
    std::fs::write(&scalars_ok, format!("{}\n", "00".repeat(32))).unwrap();
    let points_ok = dir.join("ok.points");
    let g = "0100000000000000000000000000000000000000000000000000000000000000";
    std::fs::write(&points_ok, format!("{g}\n")).unwrap();
    let s = |p: &Path| p.display().to_string();

    let hex = gib_file(&dir, "bad.hex", b"zz\n");
    check(
        "1 GiB hex bad on line 1",
        &["--points", &s(&hex), "--scalars", &s(&scalars_ok)],
        &format!("{}:1:", s(&hex)),
        "expected 32 bytes",
    );
    check(
        "1 GiB hex scalars bad on line 1",
        &["--points", &s(&points_ok), "--scalars", &s(&hex)],
        &format!("{}:1:", s(&hex)),
        "expected 32 bytes",
    );
    let mut prefix = (1u64 << 60).to_le_bytes().to_vec();
    let garbage = gib_file(&dir, "garbage.bin", &prefix);
    check(
        "1 GiB binary, prefix of 2^60",
        &[
            "--points",
            &s(&garbage),
            "--points-format",
            "bin",
            "--scalars",
            &s(&scalars_ok),
        ],
        &s(&garbage),
        "announces 1152921504606846976 elements",
    );
    // A prefix matching the length (2^24 - 1 uncompressed records, 1 GiB less 56 bytes), a
    // first record of zeros: (0, 0) is not on the curve.
    let count = (1u64 << 24) - 1;
    prefix = count.to_le_bytes().to_vec();
    let zeros = sparse_file(&dir, "zeros.bin", &prefix, 8 + 64 * count);
    check(
        "1 GiB binary, bad first record",
        &[
            "--points",
            &s(&zeros),
            "--points-format",
            "bin-uncompressed",
            "--scalars",
            &s(&scalars_ok),
        ],
        &format!("{}: byte 8:", s(&zeros)),
        "not a point of the curve",
    );
    for format in ["hex", "bin", "bin-compressed"] {
        check(
            &format!("/dev/zero as {format}"),
            &[
                "--points",
                "/dev/zero",
                "--points-format",
                format,
                "--scalars",
                &s(&scalars_ok),
            ],
            "/dev/zero",
            if format == "hex" {
                "a line longer than"
            } else {
                "goes on past them"
            },
        );
    }
    check(
        "/dev/zero as binary scalars",
        &[
            "--points",
            &s(&points_ok),
            "--scalars",
            "/dev/zero",
            "--scalars-format",
            "bin",
        ],
        "/dev/zero",
        "goes on past them",
    );
}
