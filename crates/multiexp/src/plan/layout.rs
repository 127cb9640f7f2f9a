//! A [`Plan`]: what the executor runs for one MSM, exactly as the planner chose it.
//!
//! Only the planner makes plans, and a plan cannot be edited: its fields are private and it
//! stores each fact once: the curve/group and the number of points it was made for, the
//! workers, the windowing, and per chunk its number of parts, its processor and the modeled
//! cost of one of its tasks. Everything else is derived from those: the split kind, the task
//! list (chunk j cut into k_j equal point ranges), and the executor's LPT schedule of the
//! tasks. [`crate::execute_plan`] refuses a plan whose curve or size differs from its inputs.

use std::any::TypeId;

use crate::bucket::{Processor, TaskShape};
use crate::digits::{Digit, Windowing};
use crate::ifma::Engine;
use crate::plan::makespan::lpt;

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

impl SplitKind {
    /// A short name: `none`, `whole(k)` or `tail(r x k)` as `tail(3x4)`.
    pub fn name(self) -> String {
        match self {
            SplitKind::None => "none".to_string(),
            SplitKind::Whole(k) => format!("whole({k})"),
            SplitKind::Tail { chunks, parts } => format!("tail({chunks}x{parts})"),
        }
    }
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

/// The planner's choice for one chunk.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct ChunkLayout {
    /// Into how many point ranges the chunk is cut.
    pub(crate) parts: usize,
    /// The processor of its tasks.
    pub(crate) processor: Processor,
    /// The modeled cost of one of its tasks, ns.
    pub(crate) cost: f64,
}

/// The memory one MSM holds beyond its inputs, bytes (the largest it reaches; the executor's
/// rayon stacks aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Memory {
    /// The signed digits: `DIGIT_BYTES`·n·K.
    pub digits: u64,
    /// The IFMA processor's point records: 2L·8 per point, or per point of one block when
    /// streamed.
    pub records: u64,
    /// Every worker's bucket set, at the largest task it runs with each processor.
    pub buckets: u64,
}

impl Memory {
    /// All of it.
    pub fn total(&self) -> u64 {
        self.digits + self.records + self.buckets
    }
}

/// The sizes of one curve/group's elements that the memory of a plan depends on, bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ElementSizes {
    /// One coordinate (a base-field element).
    pub(crate) coordinate: u64,
    /// One IFMA record (x and y in 52-bit limbs), 0 where the IFMA processor does not apply.
    pub(crate) record: u64,
}

/// A complete, priced plan for one MSM of one curve/group.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    curve: &'static str,
    curve_type: TypeId,
    sizes: ElementSizes,
    n: usize,
    workers: usize,
    windowing: Windowing,
    chunks: Vec<ChunkLayout>,
    work: f64,
    makespan: f64,
    adaptive: bool,
    batch: Option<usize>,
    lanes: Option<usize>,
    engine: Option<Engine>,
}

/// What the planner passes to [`Plan::new`].
pub(crate) struct PlanParts {
    pub(crate) curve: &'static str,
    pub(crate) curve_type: TypeId,
    pub(crate) sizes: ElementSizes,
    pub(crate) n: usize,
    pub(crate) workers: usize,
    pub(crate) windowing: Windowing,
    pub(crate) chunks: Vec<ChunkLayout>,
    pub(crate) work: f64,
    pub(crate) makespan: f64,
    pub(crate) adaptive: bool,
    pub(crate) batch: Option<usize>,
    /// Forced lanes per bucket of the batch-affine processors (a power of two).
    pub(crate) lanes: Option<usize>,
    /// Where its IFMA tasks run (`None` without IFMA tasks).
    pub(crate) engine: Option<Engine>,
}

impl Plan {
    /// The plan of `parts` (the planner's constructor).
    pub(crate) fn new(parts: PlanParts) -> Self {
        debug_assert_eq!(parts.chunks.len(), parts.windowing.chunks);
        debug_assert!(parts.chunks.iter().all(|c| c.parts >= 1));
        Plan {
            curve: parts.curve,
            curve_type: parts.curve_type,
            sizes: parts.sizes,
            n: parts.n,
            workers: parts.workers.max(1),
            windowing: parts.windowing,
            chunks: parts.chunks,
            work: parts.work,
            makespan: parts.makespan,
            adaptive: parts.adaptive,
            batch: parts.batch,
            lanes: parts.lanes,
            engine: parts.engine,
        }
    }

    /// The catalogue name of the curve/group it was made for (`custom` outside the catalogue).
    pub fn curve(&self) -> &'static str {
        self.curve
    }

    /// The type of the curve/group config it was made for.
    pub(crate) fn curve_type(&self) -> TypeId {
        self.curve_type
    }

    /// The number of points it was made for.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The number of workers P it runs on.
    pub fn workers(&self) -> usize {
        self.workers
    }

    /// The window c.
    pub fn window(&self) -> u32 {
        self.windowing.window
    }

    /// The number of chunks K.
    pub fn chunks(&self) -> usize {
        self.windowing.chunks
    }

    /// The window and chunk layout.
    pub(crate) fn windowing(&self) -> Windowing {
        self.windowing
    }

    /// Parts per chunk, in chunk order.
    pub fn parts(&self) -> Vec<usize> {
        self.chunks.iter().map(|c| c.parts).collect()
    }

    /// Processor per chunk, in chunk order.
    pub fn processors(&self) -> Vec<Processor> {
        self.chunks.iter().map(|c| c.processor).collect()
    }

    /// Whether any chunk runs on the IFMA processor (the executor then prepares records).
    pub fn uses_ifma(&self) -> bool {
        self.chunks
            .iter()
            .any(|c| c.processor == Processor::BatchAffineIfma)
    }

    /// The lane backend its IFMA tasks run on: `None` without IFMA tasks, or where no IFMA
    /// engine runs (they then run scalar batch-affine).
    pub(crate) fn engine(&self) -> Option<Engine> {
        self.engine
    }

    /// Which arithmetic its batch-affine tasks run on: `avx512-ifma` (the intrinsics),
    /// `ifma-emulated` (the portable emulation of them, for tests) or `portable` (arkworks'
    /// field arithmetic).
    pub fn path(&self) -> &'static str {
        match self.engine {
            Some(e) if e.is_native() => "avx512-ifma",
            Some(_) => "ifma-emulated",
            None => "portable",
        }
    }

    /// How the chunks are split, derived from the parts per chunk.
    pub fn split(&self) -> SplitKind {
        let cut: Vec<usize> = self
            .chunks
            .iter()
            .map(|c| c.parts)
            .filter(|&k| k > 1)
            .collect();
        match cut.first() {
            None => SplitKind::None,
            Some(&k) if cut.len() == self.chunks.len() => SplitKind::Whole(k),
            Some(_) => SplitKind::Tail {
                chunks: cut.len(),
                parts: cut.iter().copied().max().unwrap_or(1),
            },
        }
    }

    /// k for a whole-MSM split, 1 otherwise.
    pub fn whole_split(&self) -> usize {
        match self.split() {
            SplitKind::Whole(k) => k,
            _ => 1,
        }
    }

    /// Whether any chunk is cut.
    pub fn is_split(&self) -> bool {
        self.chunks.iter().any(|c| c.parts > 1)
    }

    /// Modeled total work over all workers, ns.
    pub fn work(&self) -> f64 {
        self.work
    }

    /// Modeled wall time, ns.
    pub fn makespan(&self) -> f64 {
        self.makespan
    }

    /// A forced batch size for the batch-affine processors, else their default per window.
    pub fn batch(&self) -> Option<usize> {
        self.batch
    }

    /// The tasks, in chunk then part order: part i of chunk j covers points
    /// [i·n/k_j, (i+1)·n/k_j).
    pub fn tasks(&self) -> Vec<ChunkTask> {
        let n = self.n;
        let mut out = Vec::with_capacity(self.chunks.iter().map(|c| c.parts).sum());
        for (j, c) in self.chunks.iter().enumerate() {
            for part in 0..c.parts {
                out.push(ChunkTask {
                    chunk: j,
                    part,
                    start: part * n / c.parts,
                    end: (part + 1) * n / c.parts,
                    processor: c.processor,
                    cost: c.cost,
                });
            }
        }
        out
    }

    /// The executor's schedule: per worker, the indices into [`tasks`](Self::tasks) it runs,
    /// in order (the LPT list schedule of the modeled task costs).
    pub fn schedule(&self) -> Vec<Vec<usize>> {
        let costs: Vec<f64> = self.tasks().iter().map(|t| t.cost).collect();
        lpt(&costs, self.workers).workers
    }

    /// How the executor runs `task`, given its digits: the planned processor, refined by
    /// [`crate::bucket::refine`] when the processor was not forced.
    pub(crate) fn shape_for(&self, task: &ChunkTask, digits: &[Digit]) -> TaskShape {
        let processor = if self.adaptive {
            crate::bucket::refine_task(
                task.processor,
                digits,
                self.window(),
                self.windowing.buckets(task.chunk),
            )
        } else {
            task.processor
        };
        let mut shape = TaskShape::new(
            processor,
            self.windowing.buckets(task.chunk),
            self.window(),
            self.batch,
            task.end - task.start,
        );
        if let Some(lanes) = self.lanes {
            shape.lanes = lanes;
        }
        shape
    }

    /// The memory this plan holds beyond its inputs: digits, IFMA records, bucket sets.
    pub fn memory(&self) -> Memory {
        let n = self.n as u64;
        let digits = crate::digits::DIGIT_BYTES * n * self.chunks() as u64;
        let records = if self.uses_ifma() {
            let held = if crate::exec::streams(self) {
                n.min(crate::exec::STREAM_BLOCK as u64)
            } else if crate::exec::fuses(self) {
                // Per worker, a buffer of one block of its longest task.
                let longest = n.div_ceil(self.chunks[0].parts.max(1) as u64);
                self.workers.min(self.tasks_count()) as u64
                    * longest.min(crate::exec::FUSED_BLOCK as u64)
            } else {
                n
            };
            held * self.sizes.record
        } else {
            0
        };
        // A task's buckets: XYZZ four coordinates; batch-affine two, flags and a sparse
        // overflow slot; IFMA a record and the same.
        let fe = self.sizes.coordinate;
        let bucket_bytes = |processor: Processor, b: u64| match processor {
            Processor::Xyzz => 4 * fe * b,
            Processor::BatchAffine => (2 * fe + 8) * b,
            Processor::BatchAffineIfma => (self.sizes.record + 8) * b,
        };
        let buckets = if crate::exec::streams(self) {
            // Streamed, every task keeps its own buckets from block to block.
            (0..self.chunks())
                .map(|j| {
                    let c = &self.chunks[j];
                    c.parts as u64 * bucket_bytes(c.processor, self.windowing.buckets(j) as u64)
                })
                .sum()
        } else {
            // Each worker reuses one bucket set, grown to the largest task of each processor.
            let per_worker: u64 = [
                Processor::Xyzz,
                Processor::BatchAffine,
                Processor::BatchAffineIfma,
            ]
            .into_iter()
            .filter_map(|p| {
                (0..self.chunks())
                    .filter(|&j| self.chunks[j].processor == p)
                    .map(|j| bucket_bytes(p, self.windowing.buckets(j) as u64))
                    .max()
            })
            .sum();
            per_worker * self.workers.min(self.tasks_count()) as u64
        };
        Memory {
            digits,
            records,
            buckets,
        }
    }

    /// The number of tasks.
    fn tasks_count(&self) -> usize {
        self.chunks.iter().map(|c| c.parts).sum()
    }

    /// A short description such as `c=13 K=20 split=tail(3x4) buckets=batch-affine`.
    pub fn describe(&self) -> String {
        let processors = self.processors();
        let batch = processors.iter().filter(|&&p| p != Processor::Xyzz).count();
        let names = match batch {
            0 => "xyzz".to_string(),
            b if b == processors.len() => "batch-affine".to_string(),
            b => format!("batch-affine x{b}, xyzz x{}", processors.len() - b),
        };
        let names = if self.uses_ifma() {
            names.replace("batch-affine", "batch-affine-ifma")
        } else {
            names
        };
        format!(
            "c={} K={} split={} buckets={}",
            self.window(),
            self.chunks(),
            self.split().name(),
            names
        )
    }
}

/// The chosen plan, every candidate priced, and why.
#[derive(Clone, Debug)]
pub struct PlanReport {
    chosen: Plan,
    candidates: Vec<Plan>,
    reason: String,
}

impl PlanReport {
    pub(crate) fn new(chosen: Plan, candidates: Vec<Plan>, reason: String) -> Self {
        PlanReport {
            chosen,
            candidates,
            reason,
        }
    }

    /// The plan that runs.
    pub fn chosen(&self) -> &Plan {
        &self.chosen
    }

    /// The plan that runs, by value.
    pub fn into_chosen(self) -> Plan {
        self.chosen
    }

    /// Every candidate the planner weighed, in the order it weighed them (the chosen one
    /// among them).
    pub fn candidates(&self) -> &[Plan] {
        &self.candidates
    }

    /// Why the chosen split was or was not taken.
    pub fn reason(&self) -> &str {
        &self.reason
    }
}
