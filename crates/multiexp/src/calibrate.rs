//! Calibration: measures this host's cost profile, every weight the planner uses, for each
//! curve/group, the way the MSM runs it. `multiexp calibrate` is this module plus a progress
//! bar and a file.
//!
//! - Task weights, per window c = 1..=16 and processor (XYZZ, scalar batch-affine, and the
//!   IFMA processor where it runs): the real chunk processor (`BucketSet::process`) accumulates
//!   chunk 0's digits of uniform scalars over m points into B = 2^(c-1) buckets, at its batch
//!   size, and reduces them. A coarse pass times every processor at m = 3B/8, 2B and 4B (the
//!   first fills 31% of the buckets, which tells the fixed price from the per-bucket one); a
//!   refining pass adds m = 16B (8B with `quick`, or where a sample would run long) for the
//!   processors that are the cheapest at that window or within 50% of it: those the planner
//!   can choose, whose per-point price must hold up to the large m/B of big MSMs. `fixed`,
//!   `point` and `bucket` are the non-negative least-squares solution of
//!   t = task + fixed + (x - F)·point + F·bucket, x = δm, F = F(x, B) (`plan::cost`)
//!   over those sizes, on relative errors (`bucket` = 0 for the two-size fits).
//! - `digit`, `digit_scalar`: `exec::digits` on one worker at c = 4 and c = 16, solved for the
//!   price per scalar and per scalar·chunk; `prepare`: `exec::records` on one worker.
//! - `add_mixed`, `add_full`, `double`, `merge`: loops of exactly the operation the executor
//!   runs (a mixed XYZZ add, a projective add, a projective doubling, a partial sum converted
//!   and added); `task`: an empty chunk task; `dispatch`: an empty parallel phase on all cores.
//!
//! Every sample runs on all cores at once, one copy per core, as the MSM's workers run their
//! tasks side by side, and counts the CPU time of its thread: time that other processes of a
//! shared machine take from the core is not the cost of the operation. A task sample first runs
//! an untimed task of at most B points on the same buckets, as a worker's previous task warms
//! them. All probes of a curve run interleaved, round by round (4, or 2 for samples over 50 ms;
//! 5 and 3 with `quick`), so that the drift of the machine's speed hits them alike, on every
//! core: a weight is the median of those samples.
//!
//! Cost: under 3 minutes for all 18 curve/groups on 2 cores, well under 30 s for the two
//! default curves with `quick`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::AdditiveGroup;
use serde_json::json;

use crate::bucket::{batch_size, ifma_batch_size, BucketSet, Processor, Records, TaskShape, Xyzz};
use crate::curves::{CurveSpec, CurveVisitor};
use crate::digits::{Digit, Windowing, PROFILED_WINDOW};
use crate::plan::cost::CostModel;
use crate::profile::{
    Caches, Host, Profile, TaskWeights, Weights, WindowWeights, MULTIEXP_VERSION,
};
use crate::{Error, Ifma};

/// The curves calibration measures unless told otherwise: the G1 groups most MSMs run on.
pub const DEFAULT_CURVES: [&str; 2] = ["bn254-g1", "bls12-381-g1"];

/// What to measure, and how hard.
#[derive(Clone, Debug)]
pub struct CalibrateOptions {
    /// Catalogue names of the curve/groups to measure (curves not measured keep the built-in
    /// profile's weights).
    pub curves: Vec<String>,
    /// Shorter samples and a smaller digit probe, in more rounds (so that the windows' order
    /// stays stable from run to run): the default curves in well under 30 s.
    pub quick: bool,
    /// Cores to measure on side by side (default: all available).
    pub threads: Option<usize>,
}

impl Default for CalibrateOptions {
    fn default() -> Self {
        CalibrateOptions {
            curves: DEFAULT_CURVES
                .iter()
                .filter(|name| crate::curves::NAMES.contains(name))
                .map(|s| s.to_string())
                .collect(),
            quick: false,
            threads: None,
        }
    }
}

/// What calibration reports while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress<'a> {
    /// A curve/group enters a phase (`inputs`, `coarse`, `refine`).
    Phase {
        /// The curve/group.
        curve: &'a str,
        /// The phase.
        phase: &'static str,
    },
    /// One sampling round finished; there are [`rounds`] in all.
    Round,
}

/// The sampling rounds a calibration runs, for a progress bar: two passes per curve.
pub fn rounds(options: &CalibrateOptions) -> usize {
    options.curves.len() * 2 * Effort::of(options.quick).rounds
}

/// A finished calibration.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The measured profile.
    pub profile: Profile,
    /// Every probe's median time and the task fits, per curve (JSON).
    pub samples: serde_json::Value,
    /// The cores it measured on.
    pub threads: usize,
    /// How long it took.
    pub elapsed: Duration,
}

/// Measures the profile of `options.curves` on this host; `progress` hears of every phase
/// and round.
pub fn calibrate(
    options: &CalibrateOptions,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<Calibration, Error> {
    let mut specs = Vec::with_capacity(options.curves.len());
    for name in &options.curves {
        specs.push(crate::curves::spec(name)?);
    }
    let cores = crate::exec::available_cores();
    let threads = match options.threads {
        Some(0) => return Err(Error::InvalidThreads),
        Some(t) => t.min(cores),
        None => cores,
    };
    let effort = Effort::of(options.quick);
    let started = Instant::now();
    let (warm, cold) = measure_dispatch(threads)?;
    // An MSM starts one phase cold and the next ones warm.
    let dispatch = (warm + cold) / 2.0;
    let mut profile = Profile::empty(
        Host {
            cpu: cpu_model(),
            cores,
            date: utc_now(),
            multiexp_version: MULTIEXP_VERSION.to_string(),
            ..Host::default()
        }
        .with_caches(&Caches::host()),
    );
    let mut samples = vec![json!({"dispatch_warm_ns": warm, "dispatch_cold_ns": cold})];
    for spec in &specs {
        let (weights, raw) = crate::curves::visit(
            spec.name,
            Calibrate {
                effort,
                threads,
                progress,
                dispatch,
            },
        )??;
        profile.curves.insert(spec.name.to_string(), weights);
        samples.push(raw);
    }
    Ok(Calibration {
        profile,
        samples: serde_json::Value::Array(samples),
        threads,
        elapsed: started.elapsed(),
    })
}

/// CPU time this thread has run, ns: unlike the wall clock it does not count the time other
/// processes of a shared machine take the core, so calibration measures the host and not its
/// load. Falls back to the wall clock where the thread clock is unavailable.
pub fn thread_cpu_ns() -> u64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes one timespec through a valid pointer; measured reason:
        // wall-clock samples on a loaded 2-core host were inflated up to 10x by preemption.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64;
        }
    }
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

/// The median of `samples` (0 for none).
fn median(samples: &[f64]) -> f64 {
    let mut v = samples.to_vec();
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// How hard to measure.
#[derive(Clone, Copy, Debug)]
struct Effort {
    /// Timed rounds (every sample warms its own buckets first).
    rounds: usize,
    /// Timed rounds of a probe whose sample takes over `LONG_NS`.
    rounds_long: usize,
    /// m_hi / B of the refining pass.
    refine_ratio: usize,
    /// Refined samples are cut to this many ns (but never below 8B points).
    sample_cap_ns: f64,
    /// Small probes repeat until a sample lasts this long, ns.
    sample_min_ns: f64,
    /// Scalars in a digit-pass probe.
    digit_scalars: usize,
}

impl Effort {
    fn of(quick: bool) -> Self {
        if quick {
            Effort {
                rounds: 5,
                rounds_long: 3,
                refine_ratio: 8,
                sample_cap_ns: 10e6,
                sample_min_ns: 0.3e6,
                digit_scalars: 1 << 13,
            }
        } else {
            Effort {
                rounds: 4,
                rounds_long: 2,
                refine_ratio: 16,
                sample_cap_ns: 40e6,
                sample_min_ns: 1e6,
                digit_scalars: 1 << 16,
            }
        }
    }
}

/// One kind of measurement. Task probes report ns per task; the others ns per operation.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Probe {
    /// One chunk task of `m` points at window `window` with `processor`.
    Task {
        window: u32,
        processor: Processor,
        m: usize,
    },
    /// A chunk task over no points (the fixed cost).
    EmptyTask,
    /// The digit pass of `Effort::digit_scalars` scalars at `window`, per scalar.
    Digits { window: u32 },
    /// IFMA records, per point.
    Prepare,
    /// A mixed XYZZ addition.
    AddMixed,
    /// A projective addition.
    AddFull,
    /// A projective doubling.
    Double,
    /// A partial sum converted to projective and added.
    Merge,
}

/// Elements in one iteration of the per-operation loops.
const LOOP: usize = 1024;

/// The inputs every probe of one curve reads.
struct Inputs<P: SWCurveConfig> {
    points: Vec<Affine<P>>,
    scalars: Vec<P::ScalarField>,
    records: Option<Records>,
    /// Chunk 0's digits at window c, at index c - 1.
    digits: Vec<Vec<Digit>>,
    windowings: Vec<Windowing>,
    xyzz: Vec<Xyzz<P>>,
    projective: Vec<Projective<P>>,
    digit_scalars: usize,
}

impl<P: SWCurveConfig> Inputs<P> {
    /// Runs `probe` `iters` times after warming its buckets; ns per iteration.
    fn run(&self, probe: Probe, set: &mut BucketSet<P>, iters: usize) -> f64 {
        // An MSM's worker runs its tasks back to back on warm buckets: warm them the same way,
        // untimed, with a task of at most B points.
        if let Probe::Task {
            window,
            processor,
            m,
        } = probe
        {
            let b = self.windowings[window as usize - 1].buckets(0);
            let warm = Probe::Task {
                window,
                processor,
                m: m.min(b),
            };
            self.timed(warm, set, 1);
        }
        self.timed(probe, set, iters)
    }

    /// Runs `probe` `iters` times; ns per iteration.
    ///
    /// A task probe takes the same `m` points every time (as every chunk task of an MSM does)
    /// but the digits of another stretch of the chunk each time (as the chunks of an MSM have
    /// other digits): a task repeated on the same digits lets the branch predictor learn their
    /// pattern, which priced the IFMA tasks of 256 points at c = 8 on BN254 G1 17% below what
    /// they take in an MSM.
    fn timed(&self, probe: Probe, set: &mut BucketSet<P>, iters: usize) -> f64 {
        let start = thread_cpu_ns();
        for i in 0..iters {
            match probe {
                Probe::Task {
                    window,
                    processor,
                    m,
                } => {
                    let w = &self.windowings[window as usize - 1];
                    let shape = TaskShape::new(processor, w.buckets(0), window, None, m);
                    let digits = &self.digits[window as usize - 1];
                    let stretches = (digits.len() / m.max(1)).max(1);
                    let at = (i % stretches) * m;
                    let sum = set.process(
                        shape,
                        &self.points[..m],
                        self.records.as_ref().map(|r| r.range(0, m)),
                        &digits[at..at + m],
                    );
                    black_box(sum);
                }
                Probe::EmptyTask => {
                    let shape = TaskShape {
                        processor: Processor::Xyzz,
                        buckets: 1,
                        window: 1,
                        batch: None,
                        lanes: 1,
                    };
                    black_box(set.process(shape, &[], None, &[]));
                }
                Probe::Digits { window } => {
                    let d = crate::exec::digits(
                        &self.scalars[..self.digit_scalars],
                        self.windowings[window as usize - 1],
                        1,
                    );
                    black_box(d.ok());
                }
                Probe::Prepare => {
                    let points = &self.points[..self.digit_scalars];
                    black_box(crate::exec::records(points, 1, Ifma::Auto.engine()).ok());
                }
                Probe::AddMixed => {
                    let mut acc = Xyzz::<P>::from_affine(&self.points[LOOP]);
                    for p in &self.points[..LOOP] {
                        acc.add_affine(p);
                    }
                    black_box(acc);
                }
                Probe::AddFull => {
                    let mut acc = self.projective[LOOP];
                    for p in &self.projective[..LOOP] {
                        acc += p;
                    }
                    let _ = black_box(acc);
                }
                Probe::Double => {
                    let mut acc = self.projective[0];
                    for _ in 0..LOOP {
                        acc.double_in_place();
                    }
                    let _ = black_box(acc);
                }
                Probe::Merge => {
                    let mut acc = self.projective[LOOP];
                    for x in &self.xyzz[..LOOP] {
                        acc += x.into_projective();
                    }
                    let _ = black_box(acc);
                }
            }
        }
        let ns = thread_cpu_ns().saturating_sub(start) as f64 / iters.max(1) as f64;
        match probe {
            Probe::Task { .. } | Probe::EmptyTask => ns,
            Probe::Digits { .. } | Probe::Prepare => ns / self.digit_scalars as f64,
            _ => ns / LOOP as f64,
        }
    }
}

/// Samples longer than this get `Effort::rounds_long` rounds, ns.
const LONG_NS: f64 = 50e6;

/// A probe, how many times one sample repeats it, and in how many rounds it is sampled.
#[derive(Clone, Copy, Debug)]
struct Sampled {
    probe: Probe,
    iters: usize,
    rounds: usize,
}

/// Samples every probe in its rounds on each of `threads` workers side by side, round by
/// round; every worker's samples of probe i, in ns per iteration.
fn sample<P: SWCurveConfig>(
    inputs: &Inputs<P>,
    probes: &[Sampled],
    threads: usize,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> Result<Vec<Vec<f64>>, Error> {
    let rounds = probes.iter().map(|s| s.rounds).max().unwrap_or(0);
    let per_worker = crate::exec::on_workers(vec![(); threads], |worker, ()| {
        let mut set = BucketSet::<P>::default();
        let mut out = vec![Vec::with_capacity(rounds); probes.len()];
        for round in 0..rounds {
            for (i, s) in probes.iter().enumerate() {
                if round < s.rounds {
                    out[i].push(inputs.run(s.probe, &mut set, s.iters));
                }
            }
            if worker == 0 {
                progress(Progress::Round);
            }
        }
        out
    })?;
    let mut merged = vec![Vec::new(); probes.len()];
    for worker in per_worker {
        for (m, samples) in merged.iter_mut().zip(worker) {
            m.extend(samples);
        }
    }
    Ok(merged)
}

/// The processors that can run `P` here.
fn processors<P: SWCurveConfig>() -> Vec<Processor> {
    [
        Processor::Xyzz,
        Processor::BatchAffine,
        Processor::BatchAffineIfma,
    ]
    .into_iter()
    .filter(|p| p.supports::<P>())
    .collect()
}

/// The task weights that best explain measured task times `(m, t)`, by non-negative least
/// squares on relative errors of
///
///   t - task = fixed₀ + x·point + F·extra + (B - F)·empty,   x = δ·m, F = F(x, B),
///
/// all four ≥ 0: `extra` is what a filled bucket costs beyond an addition (its copy and its
/// share of the reduction), `empty` what an empty bucket costs (measured for the batch-affine
/// processors, whose sparse tasks fill few batches and reduce their buckets by the gap-aware
/// XYZZ sum; on BN254 G1 a task of 3B/8 points takes longer than one of 2B at c = 11..13).
/// Stored as fixed = fixed₀ + B·empty and bucket = point + extra - empty, which keeps
/// fixed + B·(bucket - point) = fixed₀ + B·extra ≥ 0, the bound under which no cut of a task
/// looks cheaper than the whole. The empty-bucket term enters only when some sample leaves a
/// tenth of the buckets empty (otherwise its column is all but zero and the fit would trade
/// it against `fixed` at random); with fewer than three sizes only fixed + x·point is fitted.
fn solve_task(samples: &[(usize, f64)], task: f64, density: f64, buckets: usize) -> TaskWeights {
    let b = buckets as f64;
    let mut sparse = false;
    let rows: Vec<([f64; 4], f64)> = samples
        .iter()
        .map(|&(m, t)| {
            let x = density * m as f64;
            let scale = 1.0 / t.max(1.0);
            let f = CostModel::filled(x, b);
            sparse |= f <= 0.9 * b;
            (
                [scale, x * scale, f * scale, (b - f) * scale],
                (t - task).max(0.0) * scale,
            )
        })
        .collect();
    // Two sizes cannot separate three prices: take the line fixed + x·point (bucket = point),
    // so that a processor measured only coarsely never looks cheaper than it is.
    let allowed: u32 = match (samples.len() >= 3, sparse) {
        (false, _) => 0b0011,
        (true, false) => 0b0111,
        (true, true) => 0b1111,
    };
    let mut best: Option<([f64; 4], f64)> = None;
    for subset in 1..16u32 {
        // Columns 0, 2 and 3 are dependent (B - F = B·1 - F): any two of them say it all.
        if subset & !allowed != 0 || subset & 0b1101 == 0b1101 {
            continue;
        }
        let cols: Vec<usize> = (0..4).filter(|k| subset >> k & 1 == 1).collect();
        let Some(coef) = least_squares(&rows, &cols) else {
            continue;
        };
        if coef.iter().any(|&v| v < 0.0) {
            continue;
        }
        let residual: f64 = rows
            .iter()
            .map(|(a, y)| (a.iter().zip(&coef).map(|(a, c)| a * c).sum::<f64>() - y).powi(2))
            .sum();
        // Prefer fewer parameters (and the ones without the empty-bucket term, tried first)
        // unless more explain clearly better.
        if best.is_none_or(|(_, r)| residual < r - 1e-12) {
            best = Some((coef, residual));
        }
    }
    let [fixed, point, extra, empty] = best.map(|b| b.0).unwrap_or([0.0; 4]);
    TaskWeights {
        fixed: fixed + b * empty,
        point,
        bucket: point + extra - empty,
    }
}

/// Least-squares coefficients of `rows` on columns `cols` (others 0); `None` if singular.
fn least_squares(rows: &[([f64; 4], f64)], cols: &[usize]) -> Option<[f64; 4]> {
    let k = cols.len();
    let mut ata = [[0.0f64; 4]; 4];
    let mut aty = [0.0f64; 4];
    for (a, y) in rows {
        for i in 0..k {
            aty[i] += a[cols[i]] * y;
            for j in 0..k {
                ata[i][j] += a[cols[i]] * a[cols[j]];
            }
        }
    }
    // Gaussian elimination with partial pivoting on the k×k system.
    for col in 0..k {
        let pivot = (col..k).max_by(|&x, &y| ata[x][col].abs().total_cmp(&ata[y][col].abs()))?;
        if ata[pivot][col].abs() < 1e-18 {
            return None;
        }
        ata.swap(col, pivot);
        aty.swap(col, pivot);
        let (pivot_row, pivot_y) = (ata[col], aty[col]);
        for (row, (a, y)) in ata.iter_mut().zip(aty.iter_mut()).enumerate().take(k) {
            if row != col {
                let f = a[col] / pivot_row[col];
                for (x, p) in a.iter_mut().zip(pivot_row).take(k) {
                    *x -= f * p;
                }
                *y -= f * pivot_y;
            }
        }
    }
    let mut out = [0.0; 4];
    for i in 0..k {
        out[cols[i]] = aty[i] / ata[i][i];
    }
    Some(out)
}

/// How many times a sample must repeat a probe of about `ns` to last `min_ns`.
fn iters_for(ns: f64, min_ns: f64) -> usize {
    (min_ns / ns.max(1.0)).ceil().clamp(1.0, 1e6) as usize
}

/// Measures one curve/group.
struct Calibrate<'a> {
    effort: Effort,
    threads: usize,
    progress: &'a (dyn Fn(Progress<'_>) + Sync),
    dispatch: f64,
}

impl CurveVisitor for Calibrate<'_> {
    /// The weights, and the samples they were solved from.
    type Output = Result<(Weights, serde_json::Value), Error>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> Self::Output {
        let effort = self.effort;
        let progress = self.progress;
        progress(Progress::Phase {
            curve: spec.name,
            phase: "inputs",
        });
        let procs = processors::<P>();
        let windows: Vec<u32> = (1..=PROFILED_WINDOW).collect();
        let windowings: Vec<Windowing> = windows
            .iter()
            .map(|&c| Windowing::new(spec.modulus(), c))
            .collect();

        // A first guess of the price of a mixed addition sizes every probe.
        let guess = {
            let pts = crate::sample::points::<P>(2 * LOOP, 11);
            let start = thread_cpu_ns();
            let mut acc = Xyzz::<P>::from_affine(&pts[0]);
            for _ in 0..4 {
                for p in &pts {
                    acc.add_affine(p);
                }
            }
            black_box(acc);
            (thread_cpu_ns() - start) as f64 / (8 * LOOP) as f64
        };
        // A task of m points at window c costs about (m + 2B)·guess·(cache factor).
        let estimate = |c: u32, m: usize| {
            let b = (1usize << (c - 1)) as f64;
            (m as f64 + 2.0 * b) * guess * if c >= 13 { 2.5 } else { 1.3 }
        };
        // Refined sizes follow the coarse per-point price of each processor at 4B.
        // Narrow windows have so few buckets that m = 2B..16B points is a handful, timed mostly
        // as task overhead: their samples take at least `SMALL_M` points (x ≫ B there, so the
        // fit still sees the per-point price; fixed + B·bucket comes out as one constant).
        const SMALL_M: usize = 256;
        // The refining sample streams at least 2^18 points (16-64 MiB of points or
        // IFMA records: beyond the L2 cache), as a task of a large MSM does; below that the
        // per-point price is the in-cache one and the planner underprices narrow windows at
        // large n (measured: up to 40% at 2^16 on BN254 G1 before this floor).
        // (Capped at about 40 ms a sample, so slow groups such as BW6-761 G2 keep the full
        // calibration of 18 curve/groups within 3 minutes.)
        const LARGE_M: usize = 1 << 18;
        const LARGE_SAMPLE_NS: f64 = 40e6;
        let refine_m = |c: u32, per_point: f64| {
            let b = 1usize << (c - 1);
            let budget = (effort.sample_cap_ns / per_point.max(1.0)) as usize;
            budget
                .clamp(
                    (8 * b).max(8 * SMALL_M),
                    (effort.refine_ratio * b).max(8 * SMALL_M),
                )
                .max(((LARGE_SAMPLE_NS / per_point.max(1.0)) as usize).clamp(1 << 14, LARGE_M))
        };
        // 3B/8 fills 31% of the buckets: enough to tell `fixed` from `bucket`, and above the
        // 25% at which the batch-affine processors switch to their sparse reduction (only
        // where that is a sizeable task).
        let lo_m = |c: u32| (2usize << (c - 1)).max(SMALL_M);
        let sparse_m = |c: u32| {
            let m = (3usize << (c - 1)).div_ceil(8);
            if m >= SMALL_M {
                m
            } else {
                lo_m(c)
            }
        };
        let coarse_m = |c: u32| (4usize << (c - 1)).max(4 * SMALL_M);
        let max_m = windows
            .iter()
            .map(|&c| {
                (effort.refine_ratio << (c - 1))
                    .max(coarse_m(c))
                    .max(8 * SMALL_M)
                    .max(LARGE_M)
            })
            .max()
            .unwrap_or(1)
            .max(effort.digit_scalars)
            .max(2 * LOOP);

        // Points: a sample of up to 2^16, repeated to the largest probe.
        let distinct = max_m.min(1 << 16);
        let base = crate::sample::points::<P>(distinct, 7);
        let points: Vec<Affine<P>> = base.iter().cycle().take(max_m).copied().collect();
        let scalars = crate::sample::scalars::<P::ScalarField>(max_m, 7);
        let records = crate::exec::records(&points, self.threads, Ifma::Auto.engine())?;
        let mut digits = Vec::with_capacity(windows.len());
        for (&c, w) in windows.iter().zip(&windowings) {
            let m = (effort.refine_ratio << (c - 1))
                .max(coarse_m(c))
                .max(8 * SMALL_M)
                .max(LARGE_M);
            let d = crate::exec::digits(&scalars[..m], *w, self.threads)?;
            digits.push(d.chunk(0).to_vec());
        }
        let projective: Vec<Projective<P>> = points[..=LOOP].iter().map(|p| (*p).into()).collect();
        let xyzz: Vec<Xyzz<P>> = projective
            .iter()
            .map(|p| {
                let mut x = Xyzz::<P>::from_affine(&(*p).into());
                x.double_in_place();
                x
            })
            .collect();
        let inputs = Inputs {
            points,
            scalars,
            records,
            digits,
            windowings: windowings.clone(),
            xyzz,
            projective,
            digit_scalars: effort.digit_scalars,
        };

        // Coarse pass: everything, task probes at 3B/8, 2B and 4B.
        let mut probes: Vec<Sampled> = Vec::new();
        let op = |probe, ns: f64| {
            let iters = iters_for(ns, effort.sample_min_ns);
            Sampled {
                probe,
                iters,
                rounds: if ns * iters as f64 > LONG_NS {
                    effort.rounds_long
                } else {
                    effort.rounds
                },
            }
        };
        probes.push(op(Probe::EmptyTask, 50.0));
        probes.push(op(Probe::AddMixed, guess * LOOP as f64));
        probes.push(op(Probe::AddFull, 1.5 * guess * LOOP as f64));
        probes.push(op(Probe::Double, guess * LOOP as f64));
        probes.push(op(Probe::Merge, 2.0 * guess * LOOP as f64));
        let digit_ns = effort.digit_scalars as f64 * 60.0;
        probes.push(op(Probe::Digits { window: 4 }, digit_ns));
        probes.push(op(Probe::Digits { window: 16 }, digit_ns));
        if inputs.records.is_some() {
            probes.push(op(Probe::Prepare, effort.digit_scalars as f64 * guess));
        }
        for &c in &windows {
            for &p in &procs {
                let mut sizes = vec![sparse_m(c), lo_m(c), coarse_m(c)];
                sizes.dedup();
                for m in sizes {
                    let probe = Probe::Task {
                        window: c,
                        processor: p,
                        m,
                    };
                    probes.push(op(probe, estimate(c, m)));
                }
            }
        }
        progress(Progress::Phase {
            curve: spec.name,
            phase: "coarse",
        });
        let coarse = sample(&inputs, &probes, self.threads, progress)?;
        let median = |i: usize, samples: &[Vec<f64>]| median(&samples[i]);
        let find = |probes: &[Sampled], probe: Probe| probes.iter().position(|s| s.probe == probe);
        let coarse_at = |probe| find(&probes, probe).map(|i| median(i, &coarse));
        let value = |probe| coarse_at(probe).unwrap_or(0.0);

        let task = value(Probe::EmptyTask);
        // Refining pass: the processors the planner may choose at each window.
        let mut refine: Vec<Sampled> = Vec::new();
        for &c in &windows {
            let per_point: Vec<(Processor, f64)> = procs
                .iter()
                .map(|&p| {
                    let probe = Probe::Task {
                        window: c,
                        processor: p,
                        m: coarse_m(c),
                    };
                    (p, value(probe) / coarse_m(c) as f64)
                })
                .collect();
            let best = per_point.iter().map(|x| x.1).fold(f64::INFINITY, f64::min);
            for &(p, cost) in &per_point {
                if cost <= 1.5 * best {
                    let m = refine_m(c, cost);
                    let probe = Probe::Task {
                        window: c,
                        processor: p,
                        m,
                    };
                    refine.push(op(probe, cost * m as f64));
                }
            }
        }
        progress(Progress::Phase {
            curve: spec.name,
            phase: "refine",
        });
        let refined = sample(&inputs, &refine, self.threads, progress)?;
        // The refined (m, t) of processor p at window c, if it was refined.
        let refined_at = |c: u32, p: Processor| {
            refine.iter().enumerate().find_map(|(i, s)| match s.probe {
                Probe::Task {
                    window,
                    processor,
                    m,
                } if window == c && processor == p => Some((m, median(i, &refined))),
                _ => None,
            })
        };

        let mut window_weights = Vec::with_capacity(windows.len());
        let mut raw = Vec::new();
        for (&c, w) in windows.iter().zip(&windowings) {
            let density = CostModel::density(w, 0);
            let buckets = w.buckets(0);
            let mut fits = Vec::new();
            for &p in &procs {
                let at = |m| Probe::Task {
                    window: c,
                    processor: p,
                    m,
                };
                let mut samples: Vec<(usize, f64)> = [sparse_m(c), lo_m(c), coarse_m(c)]
                    .iter()
                    .map(|&m| (m, value(at(m))))
                    .collect();
                samples.dedup_by_key(|s| s.0);
                samples.extend(refined_at(c, p));
                let fit = solve_task(&samples, task, density, buckets);
                raw.push(json!({
                    "window": c,
                    "processor": p.name(),
                    "buckets": buckets,
                    "samples": samples
                        .iter()
                        .map(|&(m, t)| json!({"m": m, "ns": t}))
                        .collect::<Vec<_>>(),
                    "fit": fit,
                }));
                fits.push((p, fit));
            }
            let fit_of = |p| fits.iter().find(|f| f.0 == p).map(|f| f.1);
            window_weights.push(WindowWeights {
                window: c,
                xyzz: fit_of(Processor::Xyzz).unwrap_or(TaskWeights {
                    fixed: 0.0,
                    point: 0.0,
                    bucket: 0.0,
                }),
                batch_affine: fit_of(Processor::BatchAffine).unwrap_or(TaskWeights {
                    fixed: 0.0,
                    point: 0.0,
                    bucket: 0.0,
                }),
                batch_size: batch_size(c),
                batch_affine_ifma: fit_of(Processor::BatchAffineIfma),
                ifma_batch_size: ifma_batch_size(c),
            });
        }
        for (i, s) in probes.iter().enumerate() {
            if !matches!(s.probe, Probe::Task { .. }) {
                raw.push(json!({
                    "probe": format!("{:?}", s.probe),
                    "ns": median(i, &coarse),
                }));
            }
        }
        let (k4, k16) = (windowings[3].chunks as f64, windowings[15].chunks as f64);
        let (d4, d16) = (
            value(Probe::Digits { window: 4 }),
            value(Probe::Digits { window: 16 }),
        );
        let digit = ((d4 - d16) / (k4 - k16)).max(0.0);
        let weights = Weights {
            add_mixed: value(Probe::AddMixed),
            add_full: value(Probe::AddFull),
            double: value(Probe::Double),
            digit,
            digit_scalar: (d16 - k16 * digit).max(0.0),
            prepare: value(Probe::Prepare),
            task,
            merge: value(Probe::Merge),
            dispatch: self.dispatch,
            windows: window_weights,
            // The task probes run `TaskShape::new`, so the lanes the executor gives them.
            lanes_in_windows: true,
            wide: None,
        };
        weights.validate(spec.name)?;
        Ok((weights, json!({ "curve": spec.name, "probes": raw })))
    }
}

/// Median ns of starting one empty parallel phase on `threads` workers, right after another
/// (`warm`, as between the phases of one MSM) or after the pool went idle (`cold`, as at the
/// start of an MSM).
fn measure_dispatch(threads: usize) -> Result<(f64, f64), Error> {
    if threads < 2 {
        return Ok((0.0, 0.0));
    }
    let mut warm = Vec::new();
    let mut cold = Vec::new();
    for i in 0..160 {
        let idle = i % 2 == 0;
        if idle {
            std::thread::sleep(Duration::from_millis(1));
        }
        let start = Instant::now();
        crate::exec::on_workers(vec![(); threads], |_, ()| black_box(()))?;
        let ns = start.elapsed().as_nanos() as f64;
        if i >= 20 {
            if idle {
                cold.push(ns)
            } else {
                warm.push(ns)
            }
        }
    }
    Ok((median(&warm), median(&cold)))
}

/// The host's CPU model name.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// The current time as ISO 8601 UTC, e.g. `2025-01-31T12:00:00Z`.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solving_task_times_recovers_the_fixed_point_and_bucket_prices() {
        let (fixed, point, bucket, task, density, buckets) =
            (5000.0, 120.0, 300.0, 50.0, 0.99, 1024);
        let t = |fixed: f64, m: usize| {
            let x = density * m as f64;
            let f = CostModel::filled(x, buckets as f64);
            task + fixed + (x - f) * point + f * bucket
        };
        let three: Vec<(usize, f64)> = [1024, 4096, 16384]
            .iter()
            .map(|&m| (m, t(fixed, m)))
            .collect();
        let w = solve_task(&three, task, density, buckets);
        assert!((w.fixed - fixed).abs() < 1e-3, "{w:?}");
        assert!((w.point - point).abs() < 1e-6 && (w.bucket - bucket).abs() < 1e-4);
        // Two sizes: a line that prices large tasks right and small ones dear.
        let two = [(4096, t(0.0, 4096)), (16384, t(0.0, 16384))];
        let w = solve_task(&two, task, density, buckets);
        assert_eq!(w.bucket, w.point);
        for m in [1024, 4096, 1 << 16, 1 << 20] {
            let x = density * m as f64;
            let line = task + w.fixed + x * w.point;
            assert!(line >= t(0.0, m) * (1.0 - 1e-3), "m={m} {w:?}");
            if m >= 4096 {
                assert!(line <= t(0.0, m) * 1.02, "m={m} {w:?}");
            }
        }
    }

    #[test]
    fn an_empty_bucket_price_lowers_the_bucket_price_and_no_cut_looks_cheaper() {
        // A batch-affine-like task: empty buckets cost 150 ns each, so a sparse task of 3B/8
        // points takes longer than a dense one of 2B.
        let (fixed0, point, extra, empty, task, density, buckets) =
            (40_000.0, 48.0, 10.0, 150.0, 50.0, 0.9999, 4096);
        let b = buckets as f64;
        let t = |m: usize| {
            let x = density * m as f64;
            let f = CostModel::filled(x, b);
            task + fixed0 + x * point + f * extra + (b - f) * empty
        };
        assert!(t(1536) > t(8192));
        let samples: Vec<(usize, f64)> = [1536, 8192, 16384, 1 << 18]
            .iter()
            .map(|&m| (m, t(m)))
            .collect();
        let w = solve_task(&samples, task, density, buckets);
        assert!(
            (w.fixed - (fixed0 + b * empty)).abs() < 1e-3 * w.fixed,
            "{w:?}"
        );
        assert!((w.point - point).abs() < 1e-6, "{w:?}");
        assert!((w.bucket - (point + extra - empty)).abs() < 1e-6, "{w:?}");
        assert!(w.bucket < 0.0 && w.fixed_full(b) >= 0.0, "{w:?}");
        let model = |m: usize| {
            let x = density * m as f64;
            let f = CostModel::filled(x, b);
            task + w.fixed + (x - f) * w.point + f * w.bucket
        };
        for m in [100, 1536, 4096, 20_000, 1 << 20] {
            assert!((model(m) - t(m)).abs() < 1e-6 * t(m), "m={m}");
            for cut in [1, m / 7, m / 2] {
                assert!(model(cut) + model(m - cut) >= model(m), "m={m} cut={cut}");
            }
        }
        // Dense samples only: no empty-bucket term, the bucket price stays at least the point's.
        let dense: Vec<(usize, f64)> = [1 << 15, 1 << 16, 1 << 18]
            .iter()
            .map(|&m| (m, t(m)))
            .collect();
        let w = solve_task(&dense, task, density, buckets);
        assert!(w.bucket >= w.point, "{w:?}");
    }

    #[test]
    fn utc_dates_are_iso_8601() {
        let d = utc_now();
        assert_eq!(d.len(), 20);
        assert!(d.ends_with('Z') && d.as_bytes()[10] == b'T');
        assert!(d.as_str() > "2024-01-01");
    }
}
