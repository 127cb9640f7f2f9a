//! The planner: a pure function (curve spec, n, P, profile, options) → [`Plan`].
//!
//! It prices every candidate (window c × split) with the cost model and the pool executor's
//! exact LPT makespan, and picks the fastest:
//!
//! - **unsplit**: every chunk is one task; K = chunks(c) tasks.
//! - **whole split** into k parts (every chunk cut into k point ranges): for k = 2..=ceil(P/K)
//!   when K < P; and for every further k ≤ ceil(P/K_eff) while the unsplit tasks leave the
//!   cores idle by more than the margin, where K_eff = Σ t / t_0 counts the full chunks'
//!   worth of work ([`Planner::chunk_load`]; t_0: chunk 0, a full digit; with small scalars
//!   the top chunks hold only carries).
//!   With K_eff ≥ P every core already has a chunk's work and a split only adds bucket
//!   reductions and merges, so none is weighed.
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
//!
//! One decision path: [`Planner::decide_probed`] (`decide.rs`) is the only code that
//! enumerates and compares candidates; the sweep runs it over every n. [`Planner::plan`]
//! materialises the candidate it chooses into a [`Plan`] (tasks, processors, costs), and
//! [`Planner::report`] materialises every candidate it weighed, for `multiexp plan`.

use std::any::TypeId;

use crate::bucket::{batch_size, ifma_batch_size, Processor};
use crate::curves::CurveSpec;
use crate::digits::{Windowing, MAX_WINDOW};
use crate::ifma::{Engine, Ifma};
use crate::plan::cost::CostModel;
use crate::plan::layout::{ChunkLayout, ElementSizes, Plan, PlanParts, PlanReport, SplitKind};
use crate::plan::makespan::lpt_makespan;
use crate::plan::probe::{Blind, Probe};
use crate::profile::Weights;
use crate::Error;

mod decide;
mod table;
pub(crate) use decide::tail_chunks;
pub use decide::{Candidate, CandidatePrice, Decision};
pub use table::{TableForm, TableLayout, TablePrice, TableQuery};

/// Smallest window the engine implements.
pub const MIN_WINDOW: u32 = 1;

/// Smallest window at which the planner considers batch-affine buckets: below 2^(c-1) = 64
/// buckets a batch (at most a quarter of the buckets) is too short to share its inversion.
pub const MIN_BATCH_WINDOW: u32 = 7;

/// The most parts a forced split may cut a chunk into ([`SplitPolicy::Parts`]).
pub const MAX_PARTS: usize = 1 << 16;

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
    /// Force the lanes per bucket of the batch-affine processors (experiments; a power of
    /// two, 1 for none; see `bucket::lanes`). The model prices the default lanes.
    pub lanes: Option<usize>,
    /// Whether the planner may choose the IFMA batch-affine processor (it runs natively on
    /// this curve and host).
    pub ifma: bool,
    /// Where IFMA tasks run, a forced [`Processor::BatchAffineIfma`] included (default: the
    /// intrinsics where the CPU has them; `None`: those tasks run scalar batch-affine).
    pub engine: Option<Engine>,
    /// `Some(b)`: the curve has a GLV endomorphism splitting a full-size scalar into two of at
    /// most b bits, and the planner may price that split for full-size scalars (`None`: no
    /// GLV, the curve has none or the config turned it off).
    pub glv_bits: Option<u32>,
    /// The largest magnitude of a GLV half (little-endian limbs) where known: the halves'
    /// windows are cut for it, which can spare the top window that 2^glv_bits − 1 would need
    /// for its carry (`None`: cut for 2^glv_bits − 1).
    pub glv_max: Option<[u64; 4]>,
    /// One worker's share of the last-level cache, bytes, where known: GLV is priced only
    /// while its halves (2 points and their digits per full-size scalar) fit the workers'
    /// shares. It doubles the points every window streams to halve the reductions; past the
    /// cache that stream costs more than the reductions save (Zen 4, portable: 2–7% slower at
    /// 2^18 and 2^20, 8 windows against 16), which the per-addition prices do not see.
    pub glv_cache: Option<u64>,
    /// Split every full-size scalar by GLV where `glv_bits` allows, whatever the prices (so
    /// the MSM runs by classes; tests and experiments).
    pub glv_always: bool,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            window: None,
            split: SplitPolicy::Auto,
            margin: DEFAULT_MARGIN,
            processor: None,
            batch: None,
            lanes: None,
            ifma: false,
            engine: Ifma::Auto.engine(),
            glv_bits: None,
            glv_max: None,
            glv_cache: None,
            glv_always: false,
        }
    }
}

/// A planner for one curve/group and profile: windowings precomputed, reusable across calls.
#[derive(Clone, Debug)]
pub struct Planner {
    curve: &'static str,
    curve_type: TypeId,
    sizes: ElementSizes,
    modulus: Vec<u64>,
    /// `Some(b)`: a planner for a scalar class of at most b bits (see [`Planner::for_bits`]).
    class_bits: Option<u32>,
    /// The class's largest scalar (little-endian limbs), where tighter than 2^b − 1 (see
    /// [`Planner::for_max`]).
    class_max: Option<Vec<u64>>,
    model: CostModel,
    windowings: Vec<Windowing>,
    options: PlanOptions,
    /// Whether a table build doubles on IFMA lanes (`crate::doubling`): the IFMA processor
    /// may run natively and a = 0.
    lane_doublings: bool,
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
        match options.split {
            SplitPolicy::Parts(0) => return Err(Error::InvalidSplit { parts: 0 }),
            SplitPolicy::Parts(k) if k > MAX_PARTS => {
                return Err(Error::InvalidSplit { parts: k });
            }
            _ => {}
        }
        if !(options.margin.is_finite() && (0.0..1.0).contains(&options.margin)) {
            return Err(Error::InvalidMargin {
                margin: options.margin,
            });
        }
        let windows = match options.window {
            Some(c) => c..=c,
            None => MIN_WINDOW..=MAX_WINDOW,
        };
        let windowings = windows.map(|c| Windowing::new(spec.modulus(), c)).collect();
        Ok(Planner {
            curve: spec.name,
            curve_type: spec.type_id,
            sizes: ElementSizes {
                coordinate: 8 * spec.base_limbs as u64 * spec.extension_degree as u64,
                record: if crate::plan::sweep::ifma_applies(spec, true) {
                    16 * (spec.base_bits as u64 + 1).div_ceil(52)
                } else {
                    0
                },
            },
            modulus: spec.modulus().to_vec(),
            class_bits: None,
            class_max: None,
            model: CostModel::new(weights),
            windowings,
            lane_doublings: options.ifma && spec.a_is_zero,
            options,
        })
    }

    /// The same planner for a class of scalars of at most `bits` bits (after their signed
    /// normalisation): the windowings, so the chunk counts, top buckets and prices, follow
    /// from that bound instead of r.
    pub fn for_bits(&self, bits: u32) -> Planner {
        self.for_class(bits, None)
    }

    /// The same planner for a class of `bits` bits whose largest scalar is `max`
    /// (little-endian limbs, below 2^bits): its windows are cut for `max`, which can need one
    /// window fewer than 2^bits − 1 (GLV halves).
    pub fn for_max(&self, bits: u32, max: &[u64]) -> Planner {
        self.for_class(bits, Some(max.to_vec()))
    }

    /// The planner of a class of `bits` bits, its windows cut for `max` where given.
    fn for_class(&self, bits: u32, max: Option<Vec<u64>>) -> Planner {
        let mut class = self.clone();
        class.class_bits = Some(bits);
        class.class_max = max;
        class.windowings = self
            .windowings
            .iter()
            .map(|w| class.windowing(w.window))
            .collect();
        class
    }

    /// The bit bound of the scalars it plans for: a class's, or r's bit length.
    pub fn scalar_bits(&self) -> u32 {
        self.class_bits.unwrap_or_else(|| {
            let top = self.modulus.iter().rposition(|&l| l != 0).unwrap_or(0);
            64 * top as u32 + (64 - self.modulus[top].leading_zeros())
        })
    }

    /// The windowing of window `c` for the scalars it plans for.
    pub(crate) fn windowing(&self, c: u32) -> Windowing {
        match (&self.class_max, self.class_bits) {
            (Some(max), _) => Windowing::for_max(max, c),
            (None, Some(bits)) => Windowing::for_bits(bits, c),
            (None, None) => Windowing::new(&self.modulus, c),
        }
    }

    /// The sizes of its curve's elements.
    pub(crate) fn sizes(&self) -> ElementSizes {
        self.sizes
    }

    /// The cost model in use.
    pub fn model(&self) -> &CostModel {
        &self.model
    }

    /// The options it plans under.
    pub fn options(&self) -> &PlanOptions {
        &self.options
    }

    /// The processor and cost of one task of chunk `chunk` over `n / k` points: the processor
    /// the profile prices cheapest among those that apply, IFMA's price with the task's share
    /// of the records (the returned cost is the task's alone: `phases` prices the records
    /// once for the plan). Batch-affine applies once the chunk
    /// has at least 2^(MIN_BATCH_WINDOW-1) buckets, or slots counting its lanes (a task with
    /// many points per bucket, `bucket::lanes`), and the task's ⌊n/k⌋ points fill one batch;
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
        // The choice weighs IFMA with a K-th of its task's records (see the doc above).
        let mut best_weighed = best_cost;
        let buckets = w.buckets(chunk);
        if buckets < 1 << (MIN_BATCH_WINDOW - 1) {
            let lanes = CostModel::lanes_probed(Processor::BatchAffine, buckets, m, probe);
            if buckets * lanes < 1 << (MIN_BATCH_WINDOW - 1) {
                return (best, best_cost);
            }
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
                let weighed = match p {
                    Processor::BatchAffineIfma => {
                        cost + self.model.records(1) * m / w.chunks as f64
                    }
                    _ => cost,
                };
                if probe.lt(weighed, best_weighed) {
                    best = p;
                    best_cost = cost;
                    best_weighed = weighed;
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

    /// The plan for `n` points on `workers` workers: the decision, materialised.
    pub fn plan(&self, n: usize, workers: usize) -> Plan {
        let workers = workers.clamp(1, crate::MAX_THREADS);
        let decision = self.decide(n, workers);
        self.materialise(&decision.chosen, n, workers)
    }

    /// The plan with every candidate the decision weighed, materialised, and the reason for
    /// the choice.
    pub fn report(&self, n: usize, workers: usize) -> PlanReport {
        let workers = workers.clamp(1, crate::MAX_THREADS);
        let mut seen = Vec::new();
        let decision = self.decide_in(n, workers, &mut Blind, &mut |c| seen.push(c));
        let candidates: Vec<Plan> = seen
            .iter()
            .map(|c| self.materialise(c, n, workers))
            .collect();
        let chosen = self.materialise(&decision.chosen, n, workers);
        let reason = self.reason(&decision, n, workers);
        PlanReport::new(chosen, candidates, reason)
    }

    /// The tasks, processors and costs of candidate `c`, exactly as [`decide`](Self::decide)
    /// priced them: the same per-task prices, the cut chunks of a tail split where its runs
    /// put them, and its makespan.
    pub(crate) fn materialise(&self, c: &Candidate, n: usize, workers: usize) -> Plan {
        let w = c.windowing;
        let k_chunks = w.chunks;
        let mut parts = vec![1usize; k_chunks];
        match c.split {
            SplitKind::None => {}
            SplitKind::Whole(k) => parts.fill(k),
            SplitKind::Tail { chunks, parts: k } => {
                let top_first = self.top_first(&w, n, &mut Blind);
                for j in tail_chunks(k_chunks, chunks, top_first) {
                    parts[j] = k;
                }
            }
        }
        let chunks = self.layout(&w, n, &parts);
        self.assemble(w, n, workers, chunks, c.makespan)
    }

    /// A plan the decision did not choose: window `c` with chunk j cut into `parts[j]` point
    /// ranges, priced by the same model (for experiments and tests of the executor).
    pub fn plan_parts(
        &self,
        c: u32,
        n: usize,
        workers: usize,
        parts: &[usize],
    ) -> Result<Plan, Error> {
        if !(MIN_WINDOW..=MAX_WINDOW).contains(&c) {
            return Err(Error::InvalidWindow {
                window: c,
                min: MIN_WINDOW,
                max: MAX_WINDOW,
            });
        }
        let w = self.windowing(c);
        if parts.len() != w.chunks || parts.contains(&0) {
            return Err(Error::InvalidParts {
                chunks: w.chunks,
                parts: parts.to_vec(),
            });
        }
        let workers = workers.clamp(1, crate::MAX_THREADS);
        let chunks = self.layout(&w, n, parts);
        let costs: Vec<f64> = chunks
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.cost, c.parts))
            .collect();
        let (_, pre_time) = self.phases(&w, n, workers, uses_ifma(&chunks), &mut Blind);
        let tail = self.model.merges(parts) + self.model.horner(&w);
        let makespan = pre_time + lpt_makespan(&costs, workers) + tail;
        Ok(self.assemble(w, n, workers, chunks, makespan))
    }

    /// Per chunk: its parts, and the processor and cost the model gives its tasks.
    fn layout(&self, w: &Windowing, n: usize, parts: &[usize]) -> Vec<ChunkLayout> {
        parts
            .iter()
            .enumerate()
            .map(|(j, &k)| {
                let (processor, cost) = self.task_priced(w, j, n, k, &mut Blind);
                ChunkLayout {
                    parts: k,
                    processor,
                    cost,
                }
            })
            .collect()
    }

    /// The plan of a layout with its makespan; its work is the phases, the tasks in chunk
    /// order, the merges and Horner.
    fn assemble(
        &self,
        w: Windowing,
        n: usize,
        workers: usize,
        chunks: Vec<ChunkLayout>,
        makespan: f64,
    ) -> Plan {
        let parts: Vec<usize> = chunks.iter().map(|c| c.parts).collect();
        let (pre_work, _) = self.phases(&w, n, workers, uses_ifma(&chunks), &mut Blind);
        let tail = self.model.merges(&parts) + self.model.horner(&w);
        let tasks: f64 = chunks
            .iter()
            .flat_map(|c| std::iter::repeat_n(c.cost, c.parts))
            .sum();
        let engine = self.options.engine.filter(|_| uses_ifma(&chunks));
        Plan::new(PlanParts {
            curve: self.curve,
            curve_type: self.curve_type,
            sizes: self.sizes,
            n,
            workers,
            windowing: w,
            chunks,
            work: pre_work + tasks + tail,
            makespan,
            adaptive: self.options.processor.is_none(),
            batch: self.options.batch,
            lanes: self.options.lanes,
            engine,
        })
    }

    /// Why the decision took or declined a split, in words.
    fn reason(&self, d: &Decision, n: usize, workers: usize) -> String {
        let describe = |c: &Candidate| self.materialise(c, n, workers).describe();
        let unsplit = &d.unsplit;
        let forced = matches!(self.options.split, SplitPolicy::Parts(k) if k > 1 && n > 1);
        let margin = 100.0 * self.options.margin;
        match d.split {
            Some(s) if forced => format!(
                "split forced: {} parts",
                match s.split {
                    SplitKind::Whole(k) => k,
                    _ => 1,
                }
            ),
            Some(s) if d.chosen.split != SplitKind::None => {
                let gain = 1.0 - s.makespan / unsplit.makespan;
                let chunks = s.windowing.chunks;
                let why = match s.split {
                    SplitKind::Whole(k) if chunks < workers => format!(
                        "c={} gives K={} chunks < P={} workers, so {} cores would idle; \
                         a whole split into k={} parts fills them",
                        s.windowing.window,
                        chunks,
                        workers,
                        workers - chunks,
                        k
                    ),
                    SplitKind::Whole(k) => format!(
                        "c={} gives K={} chunks on P={} workers, but they carry the work of \
                         {:.2} full chunks (small scalars: the top chunks hold carries), so \
                         cores would idle; a whole split into k={} parts fills them",
                        s.windowing.window,
                        chunks,
                        workers,
                        self.chunk_load(s.windowing.window, n),
                        k
                    ),
                    SplitKind::Tail { chunks: r, parts } => format!(
                        "c={} gives K={} chunks on P={} workers, a last wave of {} chunks; \
                         cutting those into {} parts fills the idle cores",
                        s.windowing.window, chunks, workers, r, parts
                    ),
                    SplitKind::None => unreachable!("split candidates are split"),
                };
                format!(
                    "split taken: {why}; modeled gain {:.1}% over the best unsplit plan ({}) \
                     ≥ margin {margin:.1}%",
                    100.0 * gain,
                    describe(unsplit),
                )
            }
            Some(s) => {
                let gain = 1.0 - s.makespan / unsplit.makespan;
                let verdict = if gain > 0.0 {
                    format!("gains only {:.1}%", 100.0 * gain)
                } else {
                    format!("would be {:.1}% slower", -100.0 * gain)
                };
                format!(
                    "no split: {}; the best split ({}) {verdict}, below the margin {margin:.1}%",
                    self.unsplit_why(unsplit, n, workers),
                    describe(&s),
                )
            }
            None => match self.options.split {
                SplitPolicy::Never => "no split: split policy is never".to_string(),
                _ => format!(
                    "no split: {}; no split candidate applies",
                    self.unsplit_why(unsplit, n, workers)
                ),
            },
        }
    }

    fn unsplit_why(&self, c: &Candidate, n: usize, workers: usize) -> String {
        let (window, k) = (c.windowing.window, c.windowing.chunks);
        let load = self.chunk_load(window, n);
        if k >= workers && load < (1.0 - self.options.margin) * workers as f64 {
            format!(
                "c={window} gives K={k} chunks on P={workers} workers, but they carry the work \
                 of {load:.2} full chunks; splitting costs more than the idle cores it fills"
            )
        } else if k >= workers {
            if k.is_multiple_of(workers) {
                format!(
                    "c={window} gives K={k} chunks ≥ P={workers} workers in full waves, so every \
                     core is busy and a split would only add bucket reductions"
                )
            } else {
                format!(
                    "c={window} gives K={k} chunks ≥ P={workers} workers, so a whole split cannot \
                     fill idle cores (only the last wave of {} chunks could be balanced)",
                    k % workers
                )
            }
        } else {
            format!(
                "c={window} gives K={k} chunks < P={workers} workers, but splitting costs more than \
                 the idle cores it fills"
            )
        }
    }
}

/// Whether any chunk of a layout runs on the IFMA processor (the record phase).
fn uses_ifma(chunks: &[ChunkLayout]) -> bool {
    chunks
        .iter()
        .any(|c| c.processor == Processor::BatchAffineIfma)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves;
    use crate::profile::TaskWeights;

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
                .makespan()
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
                .makespan()
        };
        assert_eq!(plan("prepare"), 0.0);
        assert!(close(plan("dispatch"), 2.0 * base.dispatch));
        assert_eq!(
            Planner::new(&spec, only(&base, "dispatch"), options)
                .unwrap()
                .plan(n, 1)
                .makespan(),
            0.0
        );
    }

    /// Estimated weights with every window's point prices set: XYZZ, scalar batch-affine,
    /// IFMA batch-affine (its other terms the scalar one's).
    fn priced(xyzz: f64, batch: f64, ifma: f64) -> Weights {
        let mut weights = Weights::estimate(10.0);
        for w in &mut weights.windows {
            w.xyzz.point = xyzz;
            w.batch_affine.point = batch;
            w.batch_affine_ifma = Some(TaskWeights {
                point: ifma,
                ..w.batch_affine
            });
        }
        weights
    }

    #[test]
    fn the_processor_is_the_one_the_profile_prices_cheapest() {
        let spec = curves::spec("bn254-g1").unwrap();
        let weights = priced(100.0, 50.0, 200.0);
        let options = |ifma| PlanOptions {
            window: Some(12),
            ifma,
            ..PlanOptions::default()
        };
        let plan = |w: &Weights, ifma| {
            Planner::new(&spec, w.clone(), options(ifma))
                .unwrap()
                .plan(1 << 16, 2)
        };
        assert_eq!(plan(&weights, true).processors()[0], Processor::BatchAffine);
        let weights = priced(100.0, 50.0, 10.0);
        assert_eq!(
            plan(&weights, true).processors()[0],
            Processor::BatchAffineIfma
        );
        // Not where IFMA does not run.
        assert_eq!(
            plan(&weights, false).processors()[0],
            Processor::BatchAffine
        );
        // Below 2^(MIN_BATCH_WINDOW - 1) buckets, XYZZ whatever the prices, unless the tasks
        // have points enough for lanes that make that many slots: 32 buckets need 2 lanes
        // (512 points a task).
        let narrow = PlanOptions {
            window: Some(MIN_BATCH_WINDOW - 1),
            ifma: true,
            ..PlanOptions::default()
        };
        let p = Planner::new(&spec, weights.clone(), narrow).unwrap();
        assert!(p
            .plan(500, 1)
            .processors()
            .iter()
            .all(|&q| q == Processor::Xyzz));
        let wide = p.plan(1 << 16, 2);
        let procs = wide.processors();
        assert!(procs[..procs.len() - 1]
            .iter()
            .all(|&q| q == Processor::BatchAffineIfma));
    }

    #[test]
    fn ifma_is_chosen_with_its_records_counted() {
        // IFMA tasks 20 ns a point cheaper than scalar batch-affine ones, records 60 ns a
        // point: worth it where a record serves many windows, not in a one-window plan.
        let spec = curves::spec("bn254-g1").unwrap();
        let mut weights = priced(500.0, 100.0, 80.0);
        weights.prepare = 60.0;
        let options = PlanOptions {
            window: Some(10),
            ifma: true,
            ..PlanOptions::default()
        };
        let planner = Planner::new(&spec, weights, options).unwrap();
        let full = planner.plan(1 << 16, 2);
        assert!(full.chunks() > 3);
        assert!(full.processors()[..full.chunks() - 1]
            .iter()
            .all(|&q| q == Processor::BatchAffineIfma));
        let one = planner.for_bits(8).plan(1 << 16, 2);
        assert_eq!(one.chunks(), 1);
        assert!(one
            .processors()
            .iter()
            .all(|&q| q == Processor::BatchAffine));
        assert!(!one.uses_ifma());
    }
}
