//! The caller's thread budget from the command line (issue #16): `RAYON_NUM_THREADS` bounds
//! what `multiexp msm` uses. One test, so that the children's CPU time is this test's own.

use std::process::Command;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// Formerly `RAYON_NUM_THREADS=1 multiexp msm` reported and used 2 threads: multiexp ran its
/// own pool of all cores.
#[test]
fn rayon_num_threads_bounds_the_threads_an_msm_uses() {
    let children_cpu_s = || {
        // SAFETY: getrusage writes one rusage through a valid pointer.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
        let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
        t(usage.ru_utime) + t(usage.ru_stime)
    };
    let (cpu, wall) = (children_cpu_s(), std::time::Instant::now());
    let out = Command::new(env!("CARGO_BIN_EXE_multiexp"))
        .args([
            "msm", "--curve", "bn254-g1", "--n", "2^17", "--format", "json",
        ])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    let ratio = (children_cpu_s() - cpu) / wall.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["threads"], 1, "{v}");
    assert!(ratio < 1.3, "CPU/wall {ratio:.2} with RAYON_NUM_THREADS=1");
}
