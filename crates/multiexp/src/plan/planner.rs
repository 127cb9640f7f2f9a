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
//! Predicted time = digits/P + LPT makespan of the tasks + merges + Horner. A split is taken
//! only if it beats the best unsplit plan by the margin (default 3%); ties go to less work.

use crate::bucket::{batch_size, Processor, TaskShape};
use crate::curves::CurveSpec;
use crate::digits::{Windowing, MAX_WINDOW};
use crate::plan::cost::CostModel;
use crate::plan::makespan::{lpt, lpt_makespan, lpt_order, Schedule};
use crate::plan::profile::Weights;
use crate::Error;

mod decide;
pub use decide::{Candidate, CandidatePrice, Decision};

/// Smallest window the engine implements.
pub const MIN_WINDOW: u32 = 1;

/// Smallest window for which the planner picks batch-affine buckets.
pub const MIN_BATCH_WINDOW: u32 = 9;

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

    /// The processor for chunk `chunk` of a task over `m` points: batch-affine once the window
    /// is wide enough that a batch rarely meets its own bucket twice and the task fills at
    /// least one batch, and the profile prices it below a mixed XYZZ addition.
    fn processor(&self, w: &Windowing, chunk: usize, m: usize) -> Processor {
        self.processor_when(w, chunk, m >= batch_size(w.window))
    }

    /// [`processor`](Self::processor) given whether the task's points fill one batch (the only
    /// part of the choice that depends on n, which `decide` probes).
    fn processor_when(&self, w: &Windowing, chunk: usize, fills_batch: bool) -> Processor {
        if let Some(p) = self.options.processor {
            return p;
        }
        let wide = w.window >= MIN_BATCH_WINDOW && w.buckets(chunk) >= 1 << (MIN_BATCH_WINDOW - 1);
        if !wide || !fills_batch {
            return Processor::Xyzz;
        }
        let weights = &self.model.weights;
        if self.options.ifma && weights.add_batch_ifma < weights.add_mixed {
            Processor::BatchAffineIfma
        } else if weights.add_batch < weights.add_mixed {
            Processor::BatchAffine
        } else {
            Processor::Xyzz
        }
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
        let processors: Vec<Processor> = (0..w.chunks)
            .map(|j| self.processor(w, j, n / parts[j]))
            .collect();
        let mut tasks = Vec::with_capacity(parts.iter().sum());
        for (j, &k) in parts.iter().enumerate() {
            let cost = self.model.task(w, j, n as f64 / k as f64, processors[j]);
            for part in 0..k {
                tasks.push(ChunkTask {
                    chunk: j,
                    part,
                    start: part * n / k,
                    end: (part + 1) * n / k,
                    processor: processors[j],
                    cost,
                });
            }
        }
        let costs: Vec<f64> = tasks.iter().map(|t| t.cost).collect();
        let digits = self.model.digits(n, w);
        let tail = self.model.merges(&parts) + self.model.horner(w);
        let work = digits + costs.iter().sum::<f64>() + tail;
        let makespan = digits / workers as f64 + lpt_makespan(&costs, workers) + tail;
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
                        .map(|j| self.model.task(w, j, n as f64, self.processor(w, j, n)))
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
                (
                    unsplit,
                    format!(
                        "no split: {}; the best split ({}) gains {:.1}% < margin {:.1}%",
                        unsplit_why(unsplit, workers),
                        s.describe(),
                        100.0 * gain,
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
