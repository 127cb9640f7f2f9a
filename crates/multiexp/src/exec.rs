//! The pool executor: runs a [`Plan`] on P workers.
//!
//! Each worker is one thread of a pool built once per process for that P and reused. The
//! plan's tasks are assigned by the LPT list schedule of their modeled costs
//! ([`Plan::schedule`]): worker w runs its tasks in order, without preemption, each into a
//! bucket set it reuses. Assignment and order are a pure function of the plan, so the model
//! predicts them exactly. After all tasks, partial sums are merged per chunk and the chunks
//! combined by Horner's rule on the calling thread.
//!
//! Instrumentation: with `trace` on, every task records its worker and its start and end
//! (ns since the run began); off, nothing is measured.
//!
//! Plans with IFMA tasks first convert the points into records ([`records`]), in parallel,
//! on the engine the plan records (the one the caller's `Config::ifma` resolved to when it
//! was planned); without one those tasks run scalar batch-affine.

use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::{BigInteger, PrimeField, Zero};
use rayon::ThreadPool;

use crate::bucket::{convert_records, BucketSet, Processor, RecordSlice, Records, TaskShape};
use crate::digits::{
    decompose_bigints_into, decompose_coded_into, decompose_counting_into, decompose_into,
    decompose_signed_into, Digit, Digits, Windowing,
};
use crate::ifma::Engine;
use crate::plan::classes::ScalarStats;
use crate::plan::planner::TableLayout;
use crate::plan::{Plan, SplitKind};
use crate::reduce::horner;
use crate::Error;

/// One executed task, as recorded by the instrumentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskRecord {
    /// Index into the plan's task list.
    pub task: usize,
    /// The worker that ran it.
    pub worker: usize,
    /// Start, ns since the run began.
    pub start_ns: u64,
    /// End, ns since the run began.
    pub end_ns: u64,
}

/// Every task of one run, in the order each worker ran them (worker by worker).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trace {
    /// The records.
    pub tasks: Vec<TaskRecord>,
    /// The run's phases in order (`digits`, `records` where converted up front, `tasks`,
    /// `combine`), each with its wall time in ns.
    pub phases: Vec<(&'static str, u64)>,
}

impl Trace {
    /// Per worker, the task indices it ran, in order.
    pub fn assignment(&self, workers: usize) -> Vec<Vec<usize>> {
        let mut out = vec![Vec::new(); workers];
        for r in &self.tasks {
            if r.worker < workers {
                out[r.worker].push(r.task);
            }
        }
        out
    }
}

/// The number of cores this process may use: the standard library's count (the CPU
/// affinity mask, bounded by a cgroup CPU quota), read at most once per [`CORES_REFRESH_NS`].
/// Reading it opens and parses the cgroup files, some 30 µs on Linux (measured on a 2-vCPU
/// AMD EPYC host): a tenth of a 2^12 MSM of ±1 scalars, most of an all-zero one, were it
/// read on every call. A change of affinity or quota reaches the MSMs that start a refresh
/// period after it.
pub fn available_cores() -> usize {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::sync::OnceLock;
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    // The count (0: never read) and when it was read, in ns since EPOCH.
    static CORES: AtomicUsize = AtomicUsize::new(0);
    static READ_AT: AtomicU64 = AtomicU64::new(0);
    let now = EPOCH.get_or_init(Instant::now).elapsed().as_nanos() as u64;
    let cached = CORES.load(Ordering::Acquire);
    if cached != 0 && now.saturating_sub(READ_AT.load(Ordering::Relaxed)) < CORES_REFRESH_NS {
        return cached;
    }
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    READ_AT.store(now, Ordering::Relaxed);
    CORES.store(cores, Ordering::Release);
    cores
}

/// How long [`available_cores`] keeps a count, ns (one second).
const CORES_REFRESH_NS: u64 = 1_000_000_000;

/// The memory this process may still take, bytes: `MemAvailable` of `/proc/meminfo`, at
/// most the cgroup's limit less its usage; `None` where neither can be read.
pub fn available_memory() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok();
    let available = meminfo.as_deref().and_then(|text| {
        text.lines()
            .find_map(|l| l.strip_prefix("MemAvailable:"))
            .and_then(|v| v.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
            .map(|kb| kb * 1024)
    });
    let read = |path: &str| {
        std::fs::read_to_string(path)
            .ok()
            .and_then(|v| v.trim().parse::<u64>().ok())
    };
    let cgroup = match (
        read("/sys/fs/cgroup/memory.max"),
        read("/sys/fs/cgroup/memory.current"),
    ) {
        (Some(max), Some(used)) => Some(max.saturating_sub(used)),
        _ => None,
    };
    match (available, cgroup) {
        (Some(a), Some(c)) => Some(a.min(c)),
        (a, c) => a.or(c),
    }
}

/// The workers the calling context allows: the threads of the rayon pool the call runs in
/// (the caller's pool when called inside one, else rayon's global pool, whose size honours
/// `RAYON_NUM_THREADS`), at most the available cores.
pub fn available_workers() -> usize {
    rayon::current_num_threads().clamp(1, available_cores())
}

/// A pool of exactly `workers` threads for runs that oversubscribe the caller's pool. One is
/// kept for the next run of the same size; a run of another size replaces it, so at most one
/// such pool outlives the runs that use it.
fn oversubscribed_pool(workers: usize) -> Result<Arc<ThreadPool>, Error> {
    static KEPT: Mutex<Option<Arc<ThreadPool>>> = Mutex::new(None);
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = kept.as_ref().filter(|p| p.current_num_threads() == workers) {
        return Ok(p.clone());
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(move |i| format!("multiexp-{workers}-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool {
            reason: e.to_string(),
        })?;
    let pool = Arc::new(built);
    *kept = Some(pool.clone());
    Ok(pool)
}

/// Runs `f` on a thread of the pool that its parallel phases will use, so that an MSM's
/// phases (classes, digits, records, tasks) are handed to the workers from inside the pool:
/// a caller outside it (the main thread) hands the MSM over once and sleeps until it is done,
/// instead of once a phase, and each phase finds the other workers still spinning from the
/// one before. Inline where `workers` ≤ 1 or the caller is already a worker of a big enough
/// pool; on rayon's global pool where it has a thread per worker; else on the kept pool of
/// exactly `workers` threads that [`on_workers`] would use.
pub(crate) fn in_pool<R: Send>(
    workers: usize,
    f: impl FnOnce() -> Result<R, Error> + Send,
) -> Result<R, Error> {
    let threads = rayon::current_num_threads();
    if workers <= 1 || (rayon::current_thread_index().is_some() && workers <= threads) {
        f()
    } else if workers <= threads {
        rayon::scope(|_| f())
    } else {
        oversubscribed_pool(workers)?.install(f)
    }
}

/// Runs `f(w, items[w])` for every worker w = 0..items.len() at once, each as its own job,
/// and returns the results in worker order. The jobs run on the caller's rayon pool (the
/// global one outside any pool) when it has a thread per worker, else on a pool of exactly
/// that many threads; one item runs inline.
pub(crate) fn on_workers<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(usize, T) -> R + Sync,
) -> Result<Vec<R>, Error> {
    let workers = items.len();
    if workers <= 1 {
        return Ok(items.into_iter().map(|t| f(0, t)).collect());
    }
    let mut results: Vec<Option<R>> = (0..workers).map(|_| None).collect();
    let run = |results: &mut Vec<Option<R>>| {
        rayon::scope(|scope| {
            for ((w, item), slot) in items.into_iter().enumerate().zip(results.iter_mut()) {
                let f = &f;
                scope.spawn(move |_| *slot = Some(f(w, item)));
            }
        })
    };
    if workers <= rayon::current_num_threads() {
        run(&mut results);
    } else {
        oversubscribed_pool(workers)?.install(|| run(&mut results));
    }
    Ok(results.into_iter().flatten().collect())
}

/// `parts + 1` bounds cutting 0..n into `parts` near-equal ranges.
pub(crate) fn even_bounds(n: usize, parts: usize) -> Vec<usize> {
    (0..=parts).map(|i| i * n / parts).collect()
}

/// `v` cut at `bounds` (consecutive, from 0 to v.len()).
pub(crate) fn split_ranges<'a, T>(v: &'a mut [T], bounds: &[usize]) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(bounds.len().saturating_sub(1));
    let mut rest = v;
    for w in bounds.windows(2) {
        let (head, tail) = rest.split_at_mut(w[1] - w[0]);
        out.push(head);
        rest = tail;
    }
    out
}

/// The signed digits of `scalars`, computed on `workers` workers.
pub(crate) fn digits<F: PrimeField>(
    scalars: &[F],
    windowing: Windowing,
    workers: usize,
) -> Result<Digits, Error> {
    let (digits, _) = digits_by(scalars.len(), windowing, workers, |range, out| {
        decompose_into(&scalars[range], windowing, out)
    })?;
    Ok(digits)
}

/// [`digits`], counting the scalars' classes on the way.
pub(crate) fn digits_counting<F: PrimeField>(
    scalars: &[F],
    windowing: Windowing,
    workers: usize,
) -> Result<(Digits, ScalarStats), Error> {
    let (digits, per) = digits_by(scalars.len(), windowing, workers, |range, out| {
        decompose_counting_into(&scalars[range], windowing, out)
    })?;
    let mut stats = ScalarStats::default();
    for s in &per {
        stats.add(s);
    }
    Ok((digits, stats))
}

/// [`digits`] of scalars already out of the Montgomery form (the scalar-class pass's).
pub(crate) fn digits_of_bigints<B: BigInteger>(
    scalars: &[B],
    windowing: Windowing,
    workers: usize,
) -> Result<Digits, Error> {
    let (digits, _) = digits_by(scalars.len(), windowing, workers, |range, out| {
        decompose_bigints_into(&scalars[range], windowing, out)
    })?;
    Ok(digits)
}

/// The digits of signed integers (negative, |s|) ([`decompose_signed_into`]) on `workers`
/// workers: GLV halves, a negative half's digits negated.
pub(crate) fn digits_of_signed<B: BigInteger>(
    scalars: &[(bool, B)],
    windowing: Windowing,
    workers: usize,
) -> Result<Digits, Error> {
    let (digits, _) = digits_by(scalars.len(), windowing, workers, |range, out| {
        decompose_signed_into(&scalars[range], windowing, out)
    })?;
    Ok(digits)
}

/// The digits of the scalars of one class in place ([`decompose_coded_into`]): the scalars
/// whose code `holds` takes, from the integers of the classification pass (`ints`, the same
/// number of limbs per code), r − s ones as negated digits, all others zero.
pub(crate) fn digits_coded(
    codes: &[u8],
    ints: &[u64],
    holds: impl Fn(u8) -> bool + Sync,
    windowing: Windowing,
    workers: usize,
) -> Result<Digits, Error> {
    let limbs = ints.len() / codes.len().max(1);
    let (digits, _) = digits_by(codes.len(), windowing, workers, |range, out| {
        decompose_coded_into(
            &codes[range.clone()],
            &ints[range.start * limbs..range.end * limbs],
            &holds,
            windowing,
            out,
        )
    })?;
    Ok(digits)
}

/// The digit pass over n scalars on `workers` workers: `fill(range, writers)` writes the
/// digits of one even range of them; its results come back in range order.
fn digits_by<R: Send>(
    n: usize,
    windowing: Windowing,
    workers: usize,
    fill: impl Fn(Range<usize>, &mut [&mut [Digit]]) -> R + Sync,
) -> Result<(Digits, Vec<R>), Error> {
    let workers = workers.clamp(1, n.max(1));
    let mut digits = Digits::zeroed(windowing, n);
    let bounds = even_bounds(n, workers);
    let writers = digits.writers(&bounds);
    let per = on_workers(writers, |w, mut out| {
        fill(bounds[w]..bounds[w + 1], &mut out)
    })?;
    Ok((digits, per))
}

/// The IFMA records of `points`, converted on `workers` workers on `engine`, or `None`
/// without one or where the IFMA processor does not apply to `P`.
pub(crate) fn records<P: SWCurveConfig>(
    points: &[Affine<P>],
    workers: usize,
    engine: Option<Engine>,
) -> Result<Option<Records>, Error> {
    let (Some(engine), Some(limbs)) = (engine, crate::ifma::limbs_of::<P::BaseField>()) else {
        return Ok(None);
    };
    let mut data = vec![0u64; 2 * limbs * points.len()];
    records_into(points, engine, limbs, &mut data, workers)?;
    Ok(Some(Records { limbs, data }))
}

/// Converts `points` into `out` (2·`limbs` u64 per point) on `workers` workers, in ranges of
/// whole groups of 8 points.
pub(crate) fn records_into<P: SWCurveConfig>(
    points: &[Affine<P>],
    engine: Engine,
    limbs: usize,
    out: &mut [u64],
    workers: usize,
) -> Result<(), Error> {
    let n = points.len();
    let groups = n.div_ceil(8);
    let bounds: Vec<usize> = even_bounds(groups, workers.clamp(1, groups.max(1)))
        .into_iter()
        .map(|g| (8 * g).min(n))
        .collect();
    let mut slices = Vec::with_capacity(bounds.len());
    let mut rest = &mut out[..2 * limbs * n];
    for w in bounds.windows(2) {
        let (head, tail) = rest.split_at_mut(2 * limbs * (w[1] - w[0]));
        slices.push(head);
        rest = tail;
    }
    on_workers(slices, |w, out| {
        convert_records(engine, &points[bounds[w]..bounds[w + 1]], limbs, out)
    })?;
    Ok(())
}

/// Runs `plan` over `points` with their `digits`, its IFMA tasks on the plan's engine.
/// Returns the MSM and, if `trace`, the record of every task.
pub(crate) fn execute<P: SWCurveConfig>(
    plan: &Plan,
    points: &[Affine<P>],
    digits: &Digits,
    trace: bool,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    let engine = plan.engine();
    if streams(plan) {
        let limbs = crate::ifma::limbs_of::<P::BaseField>();
        if let (Some(engine), Some(limbs)) = (engine, limbs) {
            return execute_streamed(plan, points, digits, (engine, limbs), trace, STREAM_BLOCK);
        }
    }
    if fuses(plan) {
        let limbs = crate::ifma::limbs_of::<P::BaseField>();
        if let (Some(engine), Some(limbs)) = (engine, limbs) {
            return execute_fused(plan, points, digits, (engine, limbs), trace, FUSED_BLOCK);
        }
    }
    let tasks = plan.tasks();
    let schedule = plan.schedule();
    let converting = Instant::now();
    let records = if plan.uses_ifma() {
        records(points, plan.workers(), engine)?
    } else {
        None
    };
    let records_ns = converting.elapsed().as_nanos() as u64;
    let records = records.as_ref();
    let started = Instant::now();
    let per_worker = on_workers(schedule, |worker, mine| {
        let mut buckets = BucketSet::<P>::with_engine(engine);
        let mut out = Vec::with_capacity(mine.len());
        for t in mine {
            let task = &tasks[t];
            let start = trace.then(|| started.elapsed().as_nanos() as u64);
            let chunk_digits = &digits.chunk(task.chunk)[task.start..task.end];
            let sum = buckets.process(
                plan.shape_for(task, chunk_digits),
                &points[task.start..task.end],
                records.map(|r| r.range(task.start, task.end)),
                chunk_digits,
            );
            let record = start.map(|start_ns| TaskRecord {
                task: t,
                worker,
                start_ns,
                end_ns: started.elapsed().as_nanos() as u64,
            });
            out.push((task.chunk, sum.into_projective(), record));
        }
        out
    })?;
    let tasks_ns = started.elapsed().as_nanos() as u64;
    let times = RunTimes {
        started,
        records: records.map(|_| records_ns),
        tasks: tasks_ns,
        tasks_end: tasks_ns,
    };
    Ok(combine(plan, per_worker, trace, times))
}

/// One finished task: its chunk, its partial chunk sum, its trace record.
type Finished<P> = (usize, Projective<P>, Option<TaskRecord>);

/// When a run's phases ended, for its trace: the record conversion's time (`None`: no
/// records), the tasks' time, and the ns since `started` at which the tasks ended.
struct RunTimes {
    started: Instant,
    records: Option<u64>,
    tasks: u64,
    tasks_end: u64,
}

/// Merges the partial sums of every chunk, then Horner over the chunks; the trace, if asked
/// for, gets the phases records (where converted), tasks and combine (this merge).
fn combine<P: SWCurveConfig>(
    plan: &Plan,
    per_worker: Vec<Vec<Finished<P>>>,
    trace: bool,
    times: RunTimes,
) -> (Projective<P>, Option<Trace>) {
    let mut chunk_sums = vec![Projective::<P>::zero(); plan.chunks()];
    let mut records = Vec::new();
    for (chunk, sum, record) in per_worker.into_iter().flatten() {
        chunk_sums[chunk] += sum;
        records.extend(record);
    }
    let result = horner(&chunk_sums, plan.window());
    let trace = trace.then(|| {
        let mut phases: Vec<(&'static str, u64)> =
            times.records.map(|r| ("records", r)).into_iter().collect();
        phases.push(("tasks", times.tasks));
        let end = times.started.elapsed().as_nanos() as u64;
        phases.push(("combine", end - times.tasks_end));
        Trace {
            tasks: records,
            phases,
        }
    });
    (result, trace)
}

/// Points per block of a streamed run.
pub const STREAM_BLOCK: usize = 1 << 18;

/// Whether `plan` runs streamed: an unsplit plan with IFMA chunks over at least four blocks.
///
/// The IFMA processor reads points as records of 52-bit limbs (2L u64 per point, more than the
/// affine point itself). Converting all n at once would add that much memory; streamed, the
/// run converts one block of [`STREAM_BLOCK`] points at a time into one reused buffer and every
/// chunk task accumulates that block, its buckets kept from block to block, before the next
/// block is converted. Each worker runs the same tasks as unstreamed (the LPT schedule), so
/// every block is a small copy of the whole schedule and the makespan is unchanged but for
/// two pool dispatches per block. Split plans cut chunks into point ranges, which would leave
/// workers idle within a block, so they convert all records up front instead.
pub fn streams(plan: &Plan) -> bool {
    plan.split() == SplitKind::None && plan.n() >= 4 * STREAM_BLOCK && plan.uses_ifma()
}

/// The streamed executor (see [`streams`]), in blocks of `block` points, its records of
/// `limbs` limbs converted on `engine`.
fn execute_streamed<P: SWCurveConfig>(
    plan: &Plan,
    points: &[Affine<P>],
    digits: &Digits,
    (engine, limbs): (Engine, usize),
    trace: bool,
    block: usize,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    let tasks = plan.tasks();
    let schedule = plan.schedule();
    let n = points.len();
    let started = Instant::now();
    // Per worker, its tasks with their bucket sets and start times.
    type Running<P> = Vec<(usize, BucketSet<P>, u64)>;
    let states: Vec<Mutex<Running<P>>> = schedule
        .iter()
        .map(|mine| {
            let running = mine
                .iter()
                .map(|&t| {
                    let task = &tasks[t];
                    let mut set = BucketSet::with_engine(Some(engine));
                    set.begin(plan.shape_for(task, digits.chunk(task.chunk)));
                    (t, set, 0)
                })
                .collect();
            Mutex::new(running)
        })
        .collect();
    let lock = |w: usize| states[w].lock().unwrap_or_else(|e| e.into_inner());
    let workers = || vec![(); states.len()];
    let mut buffer = vec![0u64; 2 * limbs * block.min(n)];
    let mut records_ns = 0;
    for lo in (0..n).step_by(block) {
        let hi = (lo + block).min(n);
        let block = &points[lo..hi];
        let converting = Instant::now();
        records_into(block, engine, limbs, &mut buffer, plan.workers())?;
        records_ns += converting.elapsed().as_nanos() as u64;
        let records = RecordSlice {
            limbs,
            data: &buffer[..2 * limbs * block.len()],
        };
        on_workers(workers(), |w, ()| {
            for (t, set, start) in lock(w).iter_mut() {
                if trace && lo == 0 {
                    *start = started.elapsed().as_nanos() as u64;
                }
                let chunk = tasks[*t].chunk;
                set.accumulate(block, Some(records), &digits.chunk(chunk)[lo..hi]);
            }
        })?;
    }
    let per_worker = on_workers(workers(), |worker, ()| {
        lock(worker)
            .iter_mut()
            .map(|(t, set, start)| {
                let sum = set.finish().into_projective();
                let record = trace.then(|| TaskRecord {
                    task: *t,
                    worker,
                    start_ns: *start,
                    end_ns: started.elapsed().as_nanos() as u64,
                });
                (tasks[*t].chunk, sum, record)
            })
            .collect()
    })?;
    let run_ns = started.elapsed().as_nanos() as u64;
    let times = RunTimes {
        started,
        records: Some(records_ns),
        tasks: run_ns - records_ns,
        tasks_end: run_ns,
    };
    Ok(combine(plan, per_worker, trace, times))
}

/// Points per block of a fused task ([`fuses`]): its records take 2·L u64 a point, 640 KiB
/// (BN254, L = 5) to 1 MiB (L = 8), so a block is converted and read back while it is in L2;
/// each block ends with the processor's batch drained, a few part-filled batches against the
/// eight or more full ones of a block.
pub const FUSED_BLOCK: usize = 1 << 13;

/// Whether `plan` runs fused: IFMA tasks over a single chunk (a small-scalar class, K = 1),
/// every worker with a task of its own. Each point then feeds exactly one task, so the task
/// converts its own point range, block by block, into a buffer of its worker that stays in
/// cache, and no record array of the whole input is written: at 2^20 points that array is
/// 80–128 MiB of fresh pages, and their first-touch faults cost as much as a fifth of the
/// run. The conversion work is the same and its share per worker too (the split plans' parts
/// are even ranges); plans with K > 1 chunks would convert every point K times, and a worker
/// without a task would leave the conversion to the others, so those convert up front.
pub fn fuses(plan: &Plan) -> bool {
    plan.uses_ifma() && plan.chunks() == 1 && plan.schedule().iter().all(|m| !m.is_empty())
}

/// The fused executor (see [`fuses`]), converting each task's points in blocks of `block`
/// on `engine` with `limbs` limbs. Its trace's "records" phase is the conversion time within
/// the tasks, the mean over workers.
fn execute_fused<P: SWCurveConfig>(
    plan: &Plan,
    points: &[Affine<P>],
    digits: &Digits,
    (engine, limbs): (Engine, usize),
    trace: bool,
    block: usize,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    let tasks = plan.tasks();
    let schedule = plan.schedule();
    let workers = schedule.len().max(1) as u64;
    let started = Instant::now();
    let per_worker = on_workers(schedule, |worker, mine| {
        let mut buckets = BucketSet::<P>::with_engine(Some(engine));
        let mut buffer = Vec::new();
        let mut converting = 0u64;
        let mut out = Vec::with_capacity(mine.len());
        for t in mine {
            let task = &tasks[t];
            let start = trace.then(|| started.elapsed().as_nanos() as u64);
            let chunk_digits = digits.chunk(task.chunk);
            let shape = plan.shape_for(task, &chunk_digits[task.start..task.end]);
            let sum = if shape.processor == Processor::BatchAffineIfma {
                buckets.begin(shape);
                for lo in (task.start..task.end).step_by(block.max(1)) {
                    let hi = (lo + block.max(1)).min(task.end);
                    let len = 2 * limbs * (hi - lo);
                    if buffer.len() < len {
                        buffer.resize(len, 0u64);
                    }
                    let converted = trace.then(Instant::now);
                    convert_records(engine, &points[lo..hi], limbs, &mut buffer[..len]);
                    if let Some(at) = converted {
                        converting += at.elapsed().as_nanos() as u64;
                    }
                    let records = RecordSlice {
                        limbs,
                        data: &buffer[..len],
                    };
                    buckets.accumulate(&points[lo..hi], Some(records), &chunk_digits[lo..hi]);
                }
                buckets.finish()
            } else {
                let range = task.start..task.end;
                buckets.process(shape, &points[range.clone()], None, &chunk_digits[range])
            };
            let record = start.map(|start_ns| TaskRecord {
                task: t,
                worker,
                start_ns,
                end_ns: started.elapsed().as_nanos() as u64,
            });
            out.push((task.chunk, sum.into_projective(), record));
        }
        (out, converting)
    })?;
    let tasks_ns = started.elapsed().as_nanos() as u64;
    let converting: u64 = per_worker.iter().map(|(_, c)| c).sum();
    let per_worker = per_worker.into_iter().map(|(out, _)| out).collect();
    let times = RunTimes {
        started,
        records: Some(converting / workers),
        tasks: tasks_ns,
        tasks_end: tasks_ns,
    };
    Ok(combine(plan, per_worker, trace, times))
}

/// A table of bases as [`execute_table`] reads it: `copies` blocks of `n` points, block j
/// holding 2^(j·stride)·P_i at j·n + i, as arkworks points, IFMA records, or both.
pub(crate) struct TableRef<'a, P: SWCurveConfig> {
    /// Bases per block.
    pub(crate) n: usize,
    /// The arkworks points, where kept.
    pub(crate) points: Option<&'a [Affine<P>]>,
    /// The IFMA records, where kept.
    pub(crate) records: Option<RecordSlice<'a>>,
}

impl<P: SWCurveConfig> Clone for TableRef<'_, P> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<P: SWCurveConfig> Copy for TableRef<'_, P> {}

/// How [`execute_table`] runs: the table's layout, the processor and parts per window.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableRun {
    /// The table's layout.
    pub(crate) layout: TableLayout,
    /// The windowing of full scalars at the layout's window (its K chunks).
    pub(crate) windowing: Windowing,
    /// The processor of every task but the top digit's.
    pub(crate) processor: Processor,
    /// The processor of the top digit's task, where it runs alone (few buckets).
    pub(crate) top: Processor,
    /// Parts per window.
    pub(crate) parts: usize,
    /// Where IFMA tasks run.
    pub(crate) engine: Option<Engine>,
}

/// One task of a table run: window `group` of scalar vector `job`, over positions
/// `start..end` of that window's points (its multiples one after the other).
#[derive(Clone, Copy, Debug)]
struct TableTask {
    job: usize,
    group: usize,
    start: usize,
    end: usize,
    /// Its bucket count.
    buckets: usize,
    /// Its processor, before `refine` sees its digits.
    processor: Processor,
}

/// Runs one MSM per digit set of `digits` over `table` (see `plan/planner/table.rs`): window
/// g of job q adds digit k = j·G + g of every scalar into the buckets of multiple j; the G
/// window sums are combined by Horner's rule. Tasks (job × window × part) are assigned by the
/// LPT schedule of their point counts; a part is a range of the window's points.
///
/// The top digit k = K − 1 has few buckets (`Windowing::buckets`): its multiple is a task of
/// its own over that many buckets, as the top chunk of a plain MSM is. Among the regular
/// digits of its window, its points would crowd a few buckets, so that batch-affine batches
/// could not fill and most of them would conflict.
pub(crate) fn execute_table<P: SWCurveConfig>(
    table: TableRef<'_, P>,
    run: &TableRun,
    digits: &[Digits],
    workers: usize,
) -> Result<Vec<Projective<P>>, Error> {
    let layout = run.layout;
    let n = table.n;
    let full = 1usize << (layout.window - 1);
    let top = layout.chunks - 1;
    let top_buckets = run.windowing.buckets(top);
    // The window and the first position of the top digit's multiple, if it runs alone.
    let top_alone = (top_buckets < full).then_some((top % layout.groups, top / layout.groups * n));
    let mut tasks = Vec::new();
    for job in 0..digits.len() {
        for group in 0..layout.groups {
            let mut len = n * layout.copies_in(group);
            if let Some((_, start)) = top_alone.filter(|&(g, _)| g == group) {
                tasks.push(TableTask {
                    job,
                    group,
                    start,
                    end: len,
                    buckets: top_buckets,
                    processor: run.top,
                });
                len = start;
            }
            let parts = run.parts.clamp(1, len.max(1));
            for part in 0..parts {
                let (start, end) = (part * len / parts, (part + 1) * len / parts);
                if start < end {
                    tasks.push(TableTask {
                        job,
                        group,
                        start,
                        end,
                        buckets: full,
                        processor: run.processor,
                    });
                }
            }
        }
    }
    let costs: Vec<f64> = tasks.iter().map(|t| (t.end - t.start) as f64).collect();
    let schedule = crate::plan::makespan::lpt(&costs, workers.max(1)).workers;
    let per_worker = on_workers(schedule, |_, mine| {
        let mut set = BucketSet::<P>::with_engine(run.engine);
        mine.iter()
            .map(|&t| {
                let task = tasks[t];
                let job = &digits[task.job];
                let sum = run_table_task(&mut set, table, run, job, task);
                (task.job, task.group, sum.into_projective())
            })
            .collect::<Vec<_>>()
    })?;
    let mut sums = vec![vec![Projective::<P>::zero(); layout.groups]; digits.len()];
    for (job, group, sum) in per_worker.into_iter().flatten() {
        sums[job][group] += sum;
    }
    Ok(sums.iter().map(|s| horner(s, layout.window)).collect())
}

/// One table task: its positions cut at the multiples' boundaries, each piece accumulated
/// with the digits of its own window.
fn run_table_task<P: SWCurveConfig>(
    set: &mut BucketSet<P>,
    table: TableRef<'_, P>,
    run: &TableRun,
    digits: &Digits,
    task: TableTask,
) -> crate::xyzz::Xyzz<P> {
    let (n, groups) = (table.n, run.layout.groups);
    // Piece of multiple j: its positions lo..hi within the block, its window's digits.
    let pieces = (task.start / n.max(1)..task.end.div_ceil(n.max(1))).map(move |j| {
        let lo = task.start.max(j * n) - j * n;
        let hi = task.end.min((j + 1) * n) - j * n;
        (j, lo, hi, j * groups + task.group)
    });
    let mut processor = task.processor;
    if processor == Processor::BatchAffineIfma && table.records.is_none() {
        processor = Processor::BatchAffine;
    }
    // Sparse or skewed digits (small scalars; the few buckets of the top digit) go to XYZZ,
    // as in a plain MSM.
    if let Some((_, lo, hi, chunk)) = pieces.clone().next() {
        processor = crate::bucket::refine_task(
            processor,
            &digits.chunk(chunk)[lo..hi],
            run.layout.window,
            task.buckets,
        );
    }
    set.begin(TaskShape::new(
        processor,
        task.buckets,
        run.layout.window,
        None,
        task.end - task.start,
    ));
    for (j, lo, hi, chunk) in pieces {
        let d = &digits.chunk(chunk)[lo..hi];
        let (a, b) = (j * n + lo, j * n + hi);
        match (table.points, table.records, run.engine) {
            (Some(points), records, _) => {
                set.accumulate(&points[a..b], records.map(|r| r.range(a, b)), d)
            }
            (None, Some(records), _) if processor == Processor::BatchAffineIfma => {
                set.accumulate_records(records.range(a, b), d)
            }
            (None, Some(records), Some(engine)) => {
                // A table of records alone, on a processor that reads points: this piece's.
                let points = crate::bucket::decode_records::<P>(engine, records.range(a, b));
                set.accumulate(&points, None, d)
            }
            _ => {}
        }
    }
    set.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::planner::{PlanOptions, Planner};
    use crate::profile::Profile;
    use crate::Processor;
    use ark_ec::VariableBaseMSM;

    /// The kept count of cores is the standard library's, on the first call and on later ones.
    #[test]
    fn available_cores_is_the_standard_count() {
        let std_count = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        for _ in 0..3 {
            assert_eq!(available_cores(), std_count);
        }
        assert!(available_workers() >= 1 && available_workers() <= std_count);
    }

    /// Streamed runs on `engine` in blocks that do not divide n, nor batches, nor the 8-point
    /// conversion groups, equal arkworks' MSM and record the LPT assignment.
    fn check<P: SWCurveConfig>(engine: Engine) {
        let limbs = crate::ifma::limbs_of::<P::BaseField>().expect("an IFMA curve");
        let n = 1500;
        let points = crate::sample::points::<P>(n, 3);
        let scalars = crate::sample::scalars::<P::ScalarField>(n, 3);
        let expected = <Projective<P> as VariableBaseMSM>::msm_unchecked(&points, &scalars);
        let spec = crate::spec_of::<P>();
        for (window, workers) in [(10, 2), (13, 3)] {
            let options = PlanOptions {
                window: Some(window),
                split: crate::SplitPolicy::Never,
                processor: Some(Processor::BatchAffineIfma),
                ifma: true,
                ..PlanOptions::default()
            };
            let planner =
                Planner::new(&spec, Profile::builtin().weights_for(&spec, true), options).unwrap();
            let plan = planner.plan(n, workers);
            let digits = digits(&scalars, plan.windowing(), workers).unwrap();
            for block in [1, 7, 64, 333, n] {
                let (got, trace) =
                    execute_streamed(&plan, &points, &digits, (engine, limbs), true, block)
                        .unwrap();
                assert_eq!(got, expected, "window {window}, block {block}");
                let assignment = trace.unwrap().assignment(workers);
                assert_eq!(assignment, plan.schedule(), "block {block}");
            }
        }
    }

    /// Fused runs of a class of 8-bit scalars (one chunk), unsplit and cut into 2 and 5
    /// parts on one to three workers, in blocks that divide nothing, equal arkworks' MSM and
    /// record the LPT assignment; the executor takes the fused path exactly where every
    /// worker has a task.
    fn check_fused<P: SWCurveConfig>(engine: Engine) {
        let limbs = crate::ifma::limbs_of::<P::BaseField>().expect("an IFMA curve");
        let n = 1100;
        let points = crate::sample::points::<P>(n, 4);
        let scalars =
            crate::sample::scalars_of::<P::ScalarField>(n, 4, crate::sample::Distribution::U8);
        let expected = <Projective<P> as VariableBaseMSM>::msm_unchecked(&points, &scalars);
        let spec = crate::spec_of::<P>();
        for (split, workers) in [
            (crate::SplitPolicy::Never, 1),
            (crate::SplitPolicy::Never, 2),
            (crate::SplitPolicy::Parts(2), 2),
            (crate::SplitPolicy::Parts(5), 3),
        ] {
            let options = PlanOptions {
                window: Some(9),
                split,
                processor: Some(Processor::BatchAffineIfma),
                ifma: true,
                ..PlanOptions::default()
            };
            let planner = Planner::new(&spec, Profile::builtin().weights_for(&spec, true), options)
                .unwrap()
                .for_bits(8);
            let plan = planner.plan(n, workers);
            assert_eq!(plan.chunks(), 1);
            assert_eq!(
                fuses(&plan),
                workers == 1 || split != crate::SplitPolicy::Never
            );
            if fuses(&plan) {
                // No record array of all n: a buffer per worker of its task's points.
                let record = 16 * limbs as u64;
                let tasks = plan.tasks().len() as u64;
                let longest = (n as u64).div_ceil(tasks);
                assert_eq!(
                    plan.memory().records,
                    (workers as u64).min(tasks) * longest * record
                );
            }
            let digits = digits(&scalars, plan.windowing(), workers).unwrap();
            for block in [1, 7, 64, 333, n] {
                let (got, trace) =
                    execute_fused(&plan, &points, &digits, (engine, limbs), true, block).unwrap();
                assert_eq!(got, expected, "{split:?} on {workers}, block {block}");
                let trace = trace.unwrap();
                assert_eq!(trace.assignment(workers), plan.schedule(), "block {block}");
                let phases: Vec<&str> = trace.phases.iter().map(|p| p.0).collect();
                assert_eq!(phases, ["records", "tasks", "combine"]);
            }
        }
    }

    fn every_limb_count(engine: Engine) {
        check::<ark_bn254::g1::Config>(engine);
        check::<ark_secp256r1::Config>(engine);
        check::<ark_bls12_381::g1::Config>(engine);
        check::<crate::curves::bls24_315::g1::Config>(engine);
        check_fused::<ark_bn254::g1::Config>(engine);
        check_fused::<ark_bls12_381::g1::Config>(engine);
        check_fused::<crate::curves::bls24_315::g1::Config>(engine);
    }

    /// A table run cut into 1..=4 parts by points, on one to three workers,
    /// with several jobs, equals arkworks' MSM of each job (table of 3 multiples, window 8).
    #[test]
    fn table_runs_equal_arkworks_for_every_part_count() {
        type P = ark_bls12_381::g1::Config;
        let n = 300;
        let points = crate::sample::points::<P>(n, 5);
        let layout = TableLayout::new(
            8,
            Windowing::new(ark_bls12_381::Fr::MODULUS.as_ref(), 8).chunks,
            3,
        );
        let stride = layout.stride();
        let mut table = points.clone();
        for j in 1..layout.copies {
            let prev = table[(j - 1) * n..j * n].to_vec();
            table.extend(prev.iter().map(|p| {
                let mut q: Projective<P> = (*p).into();
                for _ in 0..stride {
                    q = q + q;
                }
                ark_ec::CurveGroup::into_affine(q)
            }));
        }
        let jobs: Vec<Vec<ark_bls12_381::Fr>> =
            (0..3).map(|s| crate::sample::scalars(n, 10 + s)).collect();
        let expected: Vec<Projective<P>> = jobs
            .iter()
            .map(|s| <Projective<P> as VariableBaseMSM>::msm_unchecked(&points, s))
            .collect();
        let w = Windowing::new(ark_bls12_381::Fr::MODULUS.as_ref(), 8);
        let digits: Vec<Digits> = jobs.iter().map(|s| digits(s, w, 2).unwrap()).collect();
        let view = TableRef {
            n,
            points: Some(&table[..]),
            records: None,
        };
        for processor in [Processor::BatchAffine, Processor::Xyzz] {
            for parts in 1..=4 {
                for workers in 1..=3 {
                    let run = TableRun {
                        layout,
                        windowing: w,
                        processor,
                        top: Processor::Xyzz,
                        parts,
                        engine: None,
                    };
                    let got = execute_table(view, &run, &digits, workers).unwrap();
                    assert_eq!(
                        got, expected,
                        "{processor:?} {parts} parts, {workers} workers"
                    );
                    let one = execute_table(view, &run, &digits[1..2], workers).unwrap();
                    assert_eq!(one, expected[1..2]);
                }
            }
        }
    }

    #[test]
    fn in_pool_runs_on_a_pool_with_a_thread_per_worker() {
        let global = rayon::current_num_threads();
        // From outside any pool (a test thread): inline for one worker, else on a worker of
        // the global pool where it has a thread per worker, or of a pool of exactly that many.
        for workers in [1, 2, global, global + 1] {
            let (index, threads) = in_pool(workers, || {
                Ok((rayon::current_thread_index(), rayon::current_num_threads()))
            })
            .unwrap();
            if workers <= 1 {
                assert_eq!(index, None, "one worker runs inline");
                continue;
            }
            assert!(index.is_some(), "{workers} workers: on a pool's thread");
            assert_eq!(threads, if workers <= global { global } else { workers });
        }
        // On a worker of a big enough pool: inline, on that same thread; errors pass through.
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| {
            let me = rayon::current_thread_index();
            assert_eq!(
                in_pool(3, || Ok(rayon::current_thread_index())).unwrap(),
                me
            );
            let err = in_pool(2, || Err::<(), _>(Error::InvalidThreads));
            assert!(matches!(err, Err(Error::InvalidThreads)));
            // A pool too small: the run moves to one of exactly `workers` threads.
            assert_eq!(in_pool(5, || Ok(rayon::current_num_threads())).unwrap(), 5);
        });
    }

    #[test]
    fn streamed_runs_equal_arkworks_for_every_block_size() {
        every_limb_count(Engine::Emulated(crate::ifma::Emulated));
    }

    #[test]
    #[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
    fn streamed_runs_equal_arkworks_natively() {
        every_limb_count(crate::ifma::native_engine());
    }
}
