//! The caller's thread budget (issue #16): multiexp never uses more threads than the rayon
//! pool it is called in, `RAYON_NUM_THREADS`, `Config::threads` or the cores allow, and keeps
//! no idle pool per thread count. One test function, so that no other test of this binary
//! runs beside it and the process's CPU time is this test's own.
// The suite covers every curve family (the default features); tests/features.rs runs
// under any feature set.
#![cfg(feature = "all-curves")]

use std::time::Instant;

use multiexp::{Config, SplitPolicy};

type P = ark_bn254::g1::Config;

/// User + system CPU time of this process, s.
fn process_cpu_s() -> f64 {
    // SAFETY: getrusage writes one rusage through a valid pointer.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    let t = |tv: libc::timeval| tv.tv_sec as f64 + tv.tv_usec as f64 * 1e-6;
    t(usage.ru_utime) + t(usage.ru_stime)
}

/// Threads of this process (Linux), else `None`.
fn live_threads() -> Option<usize> {
    std::fs::read_dir("/proc/self/task").ok().map(|d| d.count())
}

/// CPU time over wall time of `f`.
fn cpu_per_wall(f: impl FnOnce()) -> f64 {
    let (cpu, wall) = (process_cpu_s(), Instant::now());
    f();
    (process_cpu_s() - cpu) / wall.elapsed().as_secs_f64()
}

#[test]
fn the_callers_thread_budget_is_honoured_and_no_pool_is_kept_per_thread_count() {
    let n = 1 << 17;
    let points = multiexp::unstable::sample::points::<P>(n, 1);
    let scalars = multiexp::unstable::sample::scalars::<ark_bn254::Fr>(n, 1);
    let expected = multiexp::msm(&points, &scalars).unwrap();

    // Inside a pool of one thread: one worker, one core busy (formerly 1.8-1.9 CPU/wall on a
    // 2-core host: multiexp ran its own pool of all cores).
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    one.install(|| {
        let plan = multiexp::plan_for::<P>(n, &Config::default()).unwrap();
        assert_eq!(plan.chosen().workers(), 1);
        assert_eq!(Config::default().workers().unwrap(), 1);
        let asked = Config {
            threads: Some(8),
            ..Config::default()
        };
        assert_eq!(asked.workers().unwrap(), 1, "threads > the caller's pool");
    });
    let ratio = cpu_per_wall(|| {
        let got = one.install(|| multiexp::msm(&points, &scalars).unwrap());
        assert_eq!(got, expected);
    });
    assert!(ratio < 1.3, "CPU/wall {ratio:.2} inside a 1-thread pool");

    // Inside pools of 2 and 3 threads, P is the pool's size (at most the cores).
    let cores = multiexp::unstable::available_cores();
    for size in [2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(size)
            .build()
            .unwrap();
        let workers = pool.install(|| Config::default().workers().unwrap());
        assert_eq!(workers, size.min(cores));
        let got = pool.install(|| multiexp::msm(&points, &scalars).unwrap());
        assert_eq!(got, expected);
    }

    // Oversubscribed runs of five thread counts keep at most one extra pool (formerly one per
    // count: 29 idle threads after five counts).
    if let Some(before) = live_threads() {
        let small = 2000;
        for threads in 3..=7 {
            let cfg = Config {
                threads: Some(threads),
                oversubscribe: true,
                split: SplitPolicy::Parts(2),
                ..Config::default()
            };
            let _ = multiexp::msm_with(&points[..small], &scalars[..small], &cfg).unwrap();
        }
        let after = live_threads().unwrap();
        assert!(
            after <= before + 7,
            "{before} threads before, {after} after five oversubscribed thread counts"
        );
    }
}
