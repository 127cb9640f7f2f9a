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

use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::{PrimeField, Zero};
use rayon::ThreadPool;

use crate::bucket::{BucketSet, Processor, Records};
use crate::digits::{decompose_into, Digits, Windowing};
use crate::plan::Plan;
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

/// The number of cores this process may use.
pub fn available_cores() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1)
}

/// The process-wide pool of exactly `workers` threads, built on first use.
fn pool(workers: usize) -> Result<&'static ThreadPool, Error> {
    static POOLS: OnceLock<Mutex<Vec<(usize, &'static ThreadPool)>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(Vec::new()));
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = pools.iter().find(|(w, _)| *w == workers) {
        return Ok(p);
    }
    let built = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .thread_name(move |i| format!("multiexp-{workers}-{i}"))
        .build()
        .map_err(|e| Error::ThreadPool {
            reason: e.to_string(),
        })?;
    let leaked: &'static ThreadPool = Box::leak(Box::new(built));
    pools.push((workers, leaked));
    Ok(leaked)
}

/// Runs `f(w, items[w])` on worker w for every w, each on its own thread of the pool of
/// `items.len()` workers; returns the results in worker order. One item runs inline.
pub fn on_workers<T: Send, R: Send>(
    items: Vec<T>,
    f: impl Fn(usize, T) -> R + Sync,
) -> Result<Vec<R>, Error> {
    let workers = items.len();
    if workers <= 1 {
        return Ok(items.into_iter().map(|t| f(0, t)).collect());
    }
    let slots: Vec<Mutex<Option<T>>> = items.into_iter().map(|t| Mutex::new(Some(t))).collect();
    let pool = pool(workers)?;
    let results = pool.broadcast(|ctx| {
        let item = slots[ctx.index()]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        item.map(|t| f(ctx.index(), t))
    });
    Ok(results.into_iter().flatten().collect())
}

/// `parts + 1` bounds cutting 0..n into `parts` near-equal ranges.
pub fn even_bounds(n: usize, parts: usize) -> Vec<usize> {
    (0..=parts).map(|i| i * n / parts).collect()
}

/// The signed digits of `scalars`, computed on `workers` workers.
pub fn digits<F: PrimeField>(
    scalars: &[F],
    windowing: Windowing,
    workers: usize,
) -> Result<Digits, Error> {
    let n = scalars.len();
    let workers = workers.clamp(1, n.max(1));
    let mut digits = Digits::zeroed(windowing, n);
    let bounds = even_bounds(n, workers);
    let writers = digits.writers(&bounds);
    on_workers(writers, |w, mut out| {
        decompose_into(&scalars[bounds[w]..bounds[w + 1]], windowing, &mut out)
    })?;
    Ok(digits)
}

/// Runs `plan` over `points` with their `digits`. Returns the MSM and, if `trace`, the record
/// of every task.
pub fn execute<P: SWCurveConfig>(
    plan: &Plan,
    points: &[Affine<P>],
    digits: &Digits,
    trace: bool,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    let windowing = plan.windowing;
    let schedule = plan.schedule();
    let records = if plan.processors.contains(&Processor::BatchAffineIfma) {
        Records::prepare(points, plan.workers)?
    } else {
        None
    };
    let records = records.as_ref();
    let started = Instant::now();
    let per_worker = on_workers(schedule.workers, |worker, tasks| {
        let mut buckets = BucketSet::<P>::default();
        let mut out = Vec::with_capacity(tasks.len());
        for t in tasks {
            let task = &plan.tasks[t];
            let start = trace.then(|| started.elapsed().as_nanos() as u64);
            let sum = buckets.process(
                task.processor,
                &points[task.start..task.end],
                records.map(|r| r.range(task.start, task.end)),
                &digits.chunk(task.chunk)[task.start..task.end],
                windowing.buckets(task.chunk),
                windowing.window,
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
    let mut chunk_sums = vec![Projective::<P>::zero(); windowing.chunks];
    let mut records = Vec::new();
    for (chunk, sum, record) in per_worker.into_iter().flatten() {
        chunk_sums[chunk] += sum;
        records.extend(record);
    }
    let result = horner(&chunk_sums, windowing.window);
    Ok((result, trace.then_some(Trace { tasks: records })))
}
