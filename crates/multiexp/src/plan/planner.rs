//! The planner: a pure function (curve spec, n, P, profile, options) → [`Plan`].
//!
//! It prices every candidate (window c × split) with the cost model and the pool executor's
//! exact LPT makespan, and picks the fastest:
//!
//! - **unsplit**: every chunk is one task; K = chunks(c) tasks.
//! - **whole split** into k parts (every chunk cut into k point ranges): only when K < P, for
//!   k = 2..=ceil(P/K), because with K ≥ P every core already has a chunk and a split only
//!   adds bucket reductions and merges.
//! - **tail balancing**: when K > P and the last wave is partial (r = K mod P chunks), only
//!   those r chunks are cut, into k = 2..=ceil(P/r) parts, so the idle cores of that wave
//!   get work.
//!
//! Each chunk's processor is the one the profile prices cheapest for its tasks (XYZZ, or a
//! batch-affine processor once the chunk has enough buckets and the task fills a batch).
//!
//! Predicted time = dispatch + digits/P + records/P + LPT makespan of the tasks + merges +
//! Horner: everything the executor does (`cost.rs`). A split is taken only if it beats the
//! best unsplit plan by the margin (default 3%); ties go to less work.

use crate::bucket::{batch_size, ifma_batch_size, Processor, TaskShape};
use crate::curves::CurveSpec;
use crate::digits::{Windowing, MAX_WINDOW};
use crate::plan::cost::CostModel;
use crate::plan::makespan::{lpt, lpt_makespan, lpt_order, Schedule};
use crate::plan::probe::{Blind, Probe};
use crate::plan::profile::Weights;
use crate::Error;

mod decide;
pub use decide::{Candidate, CandidatePrice, Decision};

/// Smallest window the engine implements.
pub const MIN_WINDOW: u32 = 1;

/// Smallest window at which the planner considers batch-affine buckets: below 2^(c-1) = 64
/// buckets a batch (at most a quarter of the buckets) is too short to share its inversion.
pub const MIN_BATCH_WINDOW: u32 = 7;

/// Default margin by which a split must beat the unsplit plan.
pub const DEFAULT_MARGIN: f64 = 0.03;

/// Whether the planner may split chunks into point ranges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SplitPolicy {
    /// Split when the model says it fills idle cores by more than the margin.
    #[default]
    Auto,
    /// Never split.
    Never,
    /// Cut every chunk into exactly this many parts (for experiments and tests).
    Parts(usize),
}

/// How a plan splits its chunks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SplitKind {
    /// Every chunk is one task.
    None,
    /// Every chunk cut into this many parts.
    Whole(usize),
    /// Only the last wave's `chunks` chunks, each cut into `parts` parts.
    Tail {
        /// How many chunks are cut.
        chunks: usize,
        /// Into how many parts each.
        parts: usize,
    },
}

/// One task of a plan: a chunk's digits over a contiguous range of points.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkTask {
    /// The chunk (window index).
    pub chunk: usize,
    /// Which part of the chunk.
    pub part: usize,
    /// First point index.
    pub start: usize,
    /// One past the last point index.
    pub end: usize,
    /// The processor that accumulates it.
    pub processor: Processor,
    /// Modeled cost, ns.
    pub cost: f64,
}

/// A complete, priced plan for one MSM.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The window and chunk layout.
    pub windowing: Windowing,
    /// Number of points.
    pub n: usize,
    /// Number of workers P.
    pub workers: usize,
    /// The split.
    pub split: SplitKind,
    /// Parts per chunk.
    pub parts: Vec<usize>,
    /// Processor per chunk.
    pub processors: Vec<Processor>,
    /// The tasks, in chunk then part order.
    pub tasks: Vec<ChunkTask>,
    /// Modeled total work over all workers, ns.
    pub work: f64,
    /// Modeled wall time, ns.
    pub makespan: f64,
    /// Whether the executor may move a batch-affine task to XYZZ when its digits turn out
    /// sparse or skewed ([`crate::bucket::refine`]); false when the processor was forced.
    pub adaptive: bool,
    /// A forced batch size for the batch-affine processors, else their default per window.
    pub batch: Option<usize>,
}

impl Plan {
    /// The window c.
    pub fn window(&self) -> u32 {
        self.windowing.window
    }

    /// The number of chunks K.
    pub fn chunks(&self) -> usize {
        self.windowing.chunks
    }

    /// k for a whole-MSM split, 1 otherwise.
    pub fn whole_split(&self) -> usize {
        match self.split {
            SplitKind::Whole(k) => k,
            _ => 1,
        }
    }

    /// Whether any chunk is cut.
    pub fn is_split(&self) -> bool {
        self.split != SplitKind::None
    }

    /// How the executor runs `task`, given its digits: the planned processor, refined by
    /// [`crate::bucket::refine`] when the plan is adaptive.
    pub fn shape_for(&self, task: &ChunkTask, digits: &[i16]) -> TaskShape {
        let processor = if self.adaptive {
            crate::bucket::refine(task.processor, digits, self.window())
        } else {
            task.processor
        };
        TaskShape {
            processor,
            buckets: self.windowing.buckets(task.chunk),
            window: self.window(),
            batch: self.batch,
        }
    }

    /// The executor's schedule of this plan's tasks: LPT on its workers.
    pub fn schedule(&self) -> Schedule {
        let costs: Vec<f64> = self.tasks.iter().map(|t| t.cost).collect();
        lpt(&costs, self.workers)
    }

    /// A short description such as `c=13 split=tail(3x4)`.
    pub fn describe(&self) -> String {
        let split = match self.split {
            SplitKind::None => "none".to_string(),
            SplitKind::Whole(k) => format!("whole({k})"),
            SplitKind::Tail { chunks, parts } => format!("tail({chunks}x{parts})"),
        };
        let batch = self
            .processors
            .iter()
            .filter(|&&p| p != Processor::Xyzz)
            .count();
        let processors = match batch {
            0 => "xyzz".to_string(),
            b if b == self.processors.len() => "batch-affine".to_string(),
            b => format!("batch-affine x{b}, xyzz x{}", self.processors.len() - b),
        };
        let processors = if self.processors.contains(&Processor::BatchAffineIfma) {
            processors.replace("batch-affine", "batch-affine-ifma")
        } else {
            processors
        };
        format!(
            "c={} K={} split={} buckets={}",
            self.window(),
            self.chunks(),
            split,
            processors
        )
    }
}

/// What the planner may choose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlanOptions {
    /// Force this window.
    pub window: Option<u32>,
    /// The split policy.
    pub split: SplitPolicy,
    /// The margin a split must win by, as a fraction (0.03 = 3%).
    pub margin: f64,
    /// Force this processor for every chunk.
    pub processor: Option<Processor>,
    /// Force the batch size of the batch-affine processors (experiments).
    pub batch: Option<usize>,
    /// Whether the IFMA batch-affine processor can run this curve on this host.
    pub ifma: bool,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            window: None,
            split: SplitPolicy::Auto,
            margin: DEFAULT_MARGIN,
            processor: None,
            batch: None,
            ifma: false,
        }
    }
}

/// The chosen plan, every candidate priced, and why.
#[derive(Clone, Debug)]
pub struct PlanReport {
    /// The plan that runs.
    pub chosen: Plan,
    /// Every candidate considered (the chosen one included).
    pub candidates: Vec<Plan>,
    /// Why the chosen split was or was not taken.
    pub reason: String,
}

/// A planner for one curve/group and profile: windowings precomputed, reusable across calls.
#[derive(Clone, Debug)]
pub struct Planner {
    model: CostModel,
    windowings: Vec<Windowing>,
    options: PlanOptions,
}

impl Planner {
    /// A planner for `spec` priced by `weights`.
    pub fn new(spec: &CurveSpec, weights: Weights, options: PlanOptions) -> Result<Self, Error> {
        if let Some(c) = options.window {
            if !(MIN_WINDOW..=MAX_WINDOW).contains(&c) {
                return Err(Error::InvalidWindow {
                    window: c,
                    min: MIN_WINDOW,
                    max: MAX_WINDOW,
                });
            }
        }
        if let SplitPolicy::Parts(0) = options.split {
            return Err(Error::InvalidSplit { parts: 0 });
        }
        let windows = match options.window {
            Some(c) => c..=c,
            None => MIN_WINDOW..=MAX_WINDOW,
        };
        let windowings = windows.map(|c| Windowing::new(spec.modulus(), c)).collect();
        Ok(Planner {
            model: CostModel::new(weights),
            windowings,
            options,
        })
    }

    /// The cost model in use.
    pub fn model(&self) -> &CostModel {
        &self.model
    }

    /// The processor and cost of one task of chunk `chunk` over `n / k` points: the processor
    /// the profile prices cheapest among those that apply. Batch-affine applies once the chunk
    /// has at least 2^(MIN_BATCH_WINDOW-1) buckets and the task's ⌊n/k⌋ points fill one batch;
    /// IFMA where it runs here. Every comparison that depends on n goes through `probe`, so
    /// [`decide`](Self::decide) and the sweep see the same choice as [`plan`](Self::plan).
    pub fn task_priced<Pr: Probe>(
        &self,
        w: &Windowing,
        chunk: usize,
        n: usize,
        k: usize,
        probe: &mut Pr,
    ) -> (Processor, f64) {
        let m = n as f64 / k as f64;
        if let Some(p) = self.options.processor {
            return (p, self.model.task_probed(w, chunk, m, p, probe));
        }
        let mut best = Processor::Xyzz;
        let mut best_cost = self.model.task_probed(w, chunk, m, best, probe);
        if w.buckets(chunk) < 1 << (MIN_BATCH_WINDOW - 1) {
            return (best, best_cost);
        }
        let candidates = [
            (
                Processor::BatchAffine,
                self.options.batch.unwrap_or(batch_size(w.window)),
                true,
            ),
            (
                Processor::BatchAffineIfma,
                self.options.batch.unwrap_or(ifma_batch_size(w.window)),
                self.options.ifma,
            ),
        ];
        for (p, batch, runs) in candidates {
            // ⌊n/k⌋ ≥ batch ⇔ n ≥ k·batch: a predicate monotone in n.
            if !runs || !probe.at_least(n as u64, (k * batch) as u64) {
                continue;
            }
            if let Some(cost) = self.model.task_with_probed(w, chunk, m, p, probe) {
                if probe.lt(cost, best_cost) {
                    best = p;
                    best_cost = cost;
                }
            }
        }
        (best, best_cost)
    }

    /// The phases around the tasks that depend on n, as (work, time): the digit pass on
    /// min(P, n) workers, the IFMA record preparation (plans with IFMA tasks) on workers that
    /// each hold at least 8 points, and the dispatch of the executor's parallel phases.
    pub fn phases<Pr: Probe>(
        &self,
        w: &Windowing,
        n: usize,
        workers: usize,
        ifma: bool,
        probe: &mut Pr,
    ) -> (f64, f64) {
        let digits = self.model.digits(n, w);
        let digits_time = if probe.at_least(n as u64, workers as u64) {
            digits / workers as f64
        } else if probe.at_least(n as u64, 1) {
            // One scalar per worker: the price of one.
            self.model.digits(1, w)
        } else {
            0.0
        };
        let (records, records_time) = if ifma {
            let records = self.model.records(n);
            let time = if probe.at_least(n as u64, 8 * workers as u64) {
                records / workers as f64
            } else if probe.at_least(n as u64, 8) {
                // n/8 workers holding 8 points each.
                self.model.records(8)
            } else {
                records
            };
            (records, time)
        } else {
            (0.0, 0.0)
        };
        let dispatch = self.model.dispatch(2 + ifma as usize, workers);
        (digits + records, dispatch + digits_time + records_time)
    }

    /// Prices a plan with `parts[j]` parts for chunk j.
    pub fn price(
        &self,
        w: &Windowing,
        n: usize,
        workers: usize,
        parts: Vec<usize>,
        split: SplitKind,
    ) -> Plan {
        let workers = workers.max(1);
        let priced: Vec<(Processor, f64)> = parts
            .iter()
            .enumerate()
            .map(|(j, &k)| self.task_priced(w, j, n, k, &mut Blind))
            .collect();
        let processors: Vec<Processor> = priced.iter().map(|&(p, _)| p).collect();
        let mut tasks = Vec::with_capacity(parts.iter().sum());
        for (j, &k) in parts.iter().enumerate() {
            let (processor, cost) = priced[j];
            for part in 0..k {
                tasks.push(ChunkTask {
                    chunk: j,
                    part,
                    start: part * n / k,
                    end: (part + 1) * n / k,
                    processor,
                    cost,
                });
            }
        }
        let costs: Vec<f64> = tasks.iter().map(|t| t.cost).collect();
        // The executor's phases: digits and IFMA records in parallel, the tasks, then merges
        // and Horner on one thread.
        let ifma = processors.contains(&Processor::BatchAffineIfma);
        let (pre_work, pre_time) = self.phases(w, n, workers, ifma, &mut Blind);
        let tail = self.model.merges(&parts) + self.model.horner(w);
        let work = pre_work + costs.iter().sum::<f64>() + tail;
        let makespan = pre_time + lpt_makespan(&costs, workers) + tail;
        Plan {
            windowing: *w,
            n,
            workers,
            split,
            parts,
            processors,
            tasks,
            work,
            makespan,
            adaptive: self.options.processor.is_none(),
            batch: self.options.batch,
        }
    }

    /// The unsplit plan for windowing `w`.
    fn unsplit(&self, w: &Windowing, n: usize, workers: usize) -> Plan {
        self.price(w, n, workers, vec![1; w.chunks], SplitKind::None)
    }

    /// Every split candidate the policy allows for windowing `w`.
    fn splits(&self, w: &Windowing, n: usize, workers: usize) -> Vec<Plan> {
        let k_chunks = w.chunks;
        let mut out = Vec::new();
        match self.options.split {
            SplitPolicy::Never => {}
            SplitPolicy::Parts(k) => {
                let k = k.min(n.max(1));
                if k > 1 {
                    out.push(self.price(w, n, workers, vec![k; k_chunks], SplitKind::Whole(k)));
                }
            }
            SplitPolicy::Auto => {
                if k_chunks < workers {
                    for k in 2..=workers.div_ceil(k_chunks).min(n) {
                        out.push(self.price(w, n, workers, vec![k; k_chunks], SplitKind::Whole(k)));
                    }
                } else if !k_chunks.is_multiple_of(workers) {
                    let r = k_chunks % workers;
                    let unsplit_costs: Vec<f64> = (0..k_chunks)
                        .map(|j| self.task_priced(w, j, n, 1, &mut Blind).1)
                        .collect();
                    let order = lpt_order(&unsplit_costs);
                    let last_wave = &order[k_chunks - r..];
                    for k in 2..=workers.div_ceil(r).min(n) {
                        let mut parts = vec![1; k_chunks];
                        for &j in last_wave {
                            parts[j] = k;
                        }
                        out.push(self.price(
                            w,
                            n,
                            workers,
                            parts,
                            SplitKind::Tail {
                                chunks: r,
                                parts: k,
                            },
                        ));
                    }
                }
            }
        }
        out
    }

    /// Plans an MSM of `n` points on `workers` workers.
    pub fn plan(&self, n: usize, workers: usize) -> PlanReport {
        let workers = workers.max(1);
        let mut candidates = Vec::new();
        for w in &self.windowings {
            candidates.push(self.unsplit(w, n, workers));
            candidates.extend(self.splits(w, n, workers));
        }
        let better = |a: &Plan, b: &Plan| {
            a.makespan < b.makespan || (a.makespan == b.makespan && a.work < b.work)
        };
        let best_of = |pred: &dyn Fn(&Plan) -> bool| {
            candidates
                .iter()
                .filter(|p| pred(p))
                .fold(None::<&Plan>, |best, p| match best {
                    Some(b) if !better(p, b) => Some(b),
                    _ => Some(p),
                })
        };
        let forced = matches!(self.options.split, SplitPolicy::Parts(k) if k > 1 && n > 1);
        let unsplit = best_of(&|p| !p.is_split()).expect("one unsplit candidate per window");
        let split = best_of(&|p| p.is_split());
        let (chosen, reason) = match split {
            Some(s) if forced => (s, format!("split forced: {} parts", s.whole_split())),
            Some(s) if s.makespan <= unsplit.makespan * (1.0 - self.options.margin) => {
                let gain = 1.0 - s.makespan / unsplit.makespan;
                let why = match s.split {
                    SplitKind::Whole(k) => format!(
                        "c={} gives K={} chunks < P={} workers, so {} cores would idle; \
                         a whole split into k={} parts fills them",
                        s.window(),
                        s.chunks(),
                        workers,
                        workers - s.chunks(),
                        k
                    ),
                    SplitKind::Tail { chunks, parts } => format!(
                        "c={} gives K={} chunks on P={} workers, a last wave of {} chunks; \
                         cutting those into {} parts fills the idle cores",
                        s.window(),
                        s.chunks(),
                        workers,
                        chunks,
                        parts
                    ),
                    SplitKind::None => unreachable!("split candidates are split"),
                };
                (
                    s,
                    format!(
                        "split taken: {why}; modeled gain {:.1}% over the best unsplit plan ({}) \
                         ≥ margin {:.1}%",
                        100.0 * gain,
                        unsplit.describe(),
                        100.0 * self.options.margin
                    ),
                )
            }
            Some(s) => {
                let gain = 1.0 - s.makespan / unsplit.makespan;
                let verdict = if gain > 0.0 {
                    format!("gains only {:.1}%", 100.0 * gain)
                } else {
                    format!("would be {:.1}% slower", -100.0 * gain)
                };
                (
                    unsplit,
                    format!(
                        "no split: {}; the best split ({}) {verdict}, below the margin {:.1}%",
                        unsplit_why(unsplit, workers),
                        s.describe(),
                        100.0 * self.options.margin
                    ),
                )
            }
            None => (
                unsplit,
                match self.options.split {
                    SplitPolicy::Never => "no split: split policy is never".to_string(),
                    _ => format!(
                        "no split: {}; no split candidate applies",
                        unsplit_why(unsplit, workers)
                    ),
                },
            ),
        };
        PlanReport {
            chosen: chosen.clone(),
            candidates,
            reason,
        }
    }
}

fn unsplit_why(p: &Plan, workers: usize) -> String {
    let k = p.chunks();
    if k >= workers {
        if k.is_multiple_of(workers) {
            format!(
                "c={} gives K={} chunks ≥ P={} workers in full waves, so every core is busy \
                 and a split would only add bucket reductions",
                p.window(),
                k,
                workers
            )
        } else {
            format!(
                "c={} gives K={} chunks ≥ P={} workers, so a whole split cannot fill idle cores \
                 (only the last wave of {} chunks could be balanced)",
                p.window(),
                k,
                workers,
                k % workers
            )
        }
    } else {
        format!(
            "c={} gives K={} chunks < P={} workers, but splitting costs more than the idle \
             cores it fills",
            p.window(),
            k,
            workers
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves;
    use crate::plan::profile::TaskWeights;

    /// Weights that price only what `keep` names, everything else free.
    fn only(base: &Weights, keep: &str) -> Weights {
        let mut w = base.clone();
        let zero = TaskWeights {
            fixed: 0.0,
            point: 0.0,
            bucket: 0.0,
        };
        for (name, v) in [
            ("add_full", &mut w.add_full),
            ("double", &mut w.double),
            ("digit", &mut w.digit),
            ("digit_scalar", &mut w.digit_scalar),
            ("prepare", &mut w.prepare),
            ("task", &mut w.task),
            ("merge", &mut w.merge),
            ("dispatch", &mut w.dispatch),
        ] {
            if name != keep {
                *v = 0.0;
            }
        }
        if keep != "windows" {
            for win in &mut w.windows {
                win.xyzz = zero;
                win.batch_affine = zero;
                win.batch_affine_ifma = Some(zero);
            }
        }
        w
    }

    fn chosen_window(spec: &CurveSpec, weights: &Weights, n: usize) -> u32 {
        Planner::new(spec, weights.clone(), PlanOptions::default())
            .unwrap()
            .plan(n, 2)
            .chosen
            .window()
    }

    #[test]
    fn window_boundaries_move_when_the_profile_changes() {
        let spec = curves::spec("bn254-g1").unwrap();
        let cheap_buckets = Weights::estimate(10.0);
        let mut dear_buckets = cheap_buckets.clone();
        for w in &mut dear_buckets.windows {
            w.xyzz.bucket *= 4.0;
            w.batch_affine.bucket *= 4.0;
        }
        let sizes: Vec<usize> = (8..=22).map(|e| 1usize << e).collect();
        let a: Vec<u32> = sizes
            .iter()
            .map(|&n| chosen_window(&spec, &cheap_buckets, n))
            .collect();
        let b: Vec<u32> = sizes
            .iter()
            .map(|&n| chosen_window(&spec, &dear_buckets, n))
            .collect();
        // Dearer reductions make wide windows pay off only at larger n: never a wider window,
        // and somewhere a narrower one.
        assert!(a.iter().zip(&b).all(|(x, y)| y <= x), "{a:?} vs {b:?}");
        assert!(a.iter().zip(&b).any(|(x, y)| y < x), "{a:?} vs {b:?}");
        // The first n at which each profile reaches c ≥ 12 differs.
        let first = |v: &[u32]| v.iter().position(|&c| c >= 12);
        assert!(first(&b) > first(&a), "{a:?} vs {b:?}");
    }

    #[test]
    fn the_predicted_time_counts_every_phase_of_the_executor() {
        let spec = curves::spec("bn254-g1").unwrap();
        let base = Weights::estimate(10.0);
        let (n, p) = (10_000usize, 2usize);
        let options = PlanOptions {
            window: Some(10),
            split: SplitPolicy::Never,
            processor: Some(Processor::BatchAffineIfma),
            ifma: true,
            ..PlanOptions::default()
        };
        let makespan = |keep: &str| {
            Planner::new(&spec, only(&base, keep), options)
                .unwrap()
                .plan(n, p)
                .chosen
                .makespan
        };
        let w = Windowing::new(spec.modulus(), 10);
        let k = w.chunks as f64;
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * b.abs().max(1.0);
        let nf = n as f64;
        assert!(close(makespan("digit"), nf * k * base.digit / p as f64));
        assert!(close(
            makespan("digit_scalar"),
            nf * base.digit_scalar / p as f64
        ));
        assert!(close(makespan("prepare"), nf * base.prepare / p as f64));
        assert!(close(makespan("dispatch"), 3.0 * base.dispatch));
        assert!(close(makespan("double"), (k - 1.0) * 10.0 * base.double));
        // Horner's K - 1 additions; the K first merges add into zero and cost no addition.
        assert!(close(makespan("add_full"), (k - 1.0) * base.add_full));
        assert!(close(makespan("merge"), k * base.merge));
        assert!(makespan("task") >= (k / p as f64).floor() * base.task);
        assert!(makespan("windows") > 0.0);
        // XYZZ plans prepare no records and start one phase fewer.
        let xyzz = PlanOptions {
            processor: Some(Processor::Xyzz),
            ..options
        };
        let plan = |keep: &str| {
            Planner::new(&spec, only(&base, keep), xyzz)
                .unwrap()
                .plan(n, p)
                .chosen
                .makespan
        };
        assert_eq!(plan("prepare"), 0.0);
        assert!(close(plan("dispatch"), 2.0 * base.dispatch));
        assert_eq!(
            Planner::new(&spec, only(&base, "dispatch"), options)
                .unwrap()
                .plan(n, 1)
                .chosen
                .makespan,
            0.0
        );
    }

    #[test]
    fn the_processor_is_the_one_the_profile_prices_cheapest() {
        let spec = curves::spec("bn254-g1").unwrap();
        let mut weights = Weights::estimate(10.0);
        for w in &mut weights.windows {
            w.xyzz.point = 100.0;
            w.batch_affine.point = 50.0;
            w.batch_affine_ifma = Some(TaskWeights {
                point: 200.0,
                ..w.batch_affine
            });
        }
        let options = |ifma| PlanOptions {
            window: Some(12),
            ifma,
            ..PlanOptions::default()
        };
        let plan = |w: &Weights, ifma| {
            Planner::new(&spec, w.clone(), options(ifma))
                .unwrap()
                .plan(1 << 16, 2)
                .chosen
        };
        assert_eq!(plan(&weights, true).processors[0], Processor::BatchAffine);
        for w in &mut weights.windows {
            w.batch_affine_ifma.as_mut().unwrap().point = 10.0;
        }
        assert_eq!(
            plan(&weights, true).processors[0],
            Processor::BatchAffineIfma
        );
        // Not where IFMA does not run.
        assert_eq!(plan(&weights, false).processors[0], Processor::BatchAffine);
        // Below 2^(MIN_BATCH_WINDOW - 1) buckets, XYZZ whatever the prices.
        let narrow = PlanOptions {
            window: Some(MIN_BATCH_WINDOW - 1),
            ifma: true,
            ..PlanOptions::default()
        };
        let p = Planner::new(&spec, weights, narrow)
            .unwrap()
            .plan(1 << 16, 2)
            .chosen;
        assert!(p.processors.iter().all(|&q| q == Processor::Xyzz));
    }
}
