//! Pricing MSMs over bases known ahead: tables of precomputed multiples, and many scalar
//! vectors over one set of bases.
//!
//! A table of layout (c, m) keeps, for every base P_i, the m multiples 2^(j·t)·P_i,
//! j = 0..m, with stride t = c·G and G = ⌈K/m⌉, where K is the number of c-bit windows of a
//! full scalar. Window k = j·G + g of a scalar's signed digits then belongs to multiple j in
//! window g of a t-bit MSM:
//!
//!   Σ_i s_i·P_i = Σ_g 2^(g·c) · Σ_{i, j} d_(j·G+g)(s_i) · (2^(j·t)·P_i)
//!
//! so one MSM runs G bucket sets (instead of K) over n·m_g points each, where
//! m_g = ⌈(K − g)/G⌉ multiples take part in window g. It pays the same n·K additions as the
//! plain MSM but K/G times fewer bucket reductions and Horner steps, which lets a wider window
//! pay off; m = K (one window, G = 1) leaves one reduction and no doublings at all.
//!
//! Price of one such MSM on P workers (the terms of `cost.rs`, with the windows of c priced at
//! chunk 0, the regular chunk):
//!
//!   dispatch(2, P) + q·digits(n, K)/P + Σ LPT over the q·G·k tasks t(n·m_g/k, c, p)
//!   + q·(merges(G·k, G) + (G − 1)·(c·double + add_full))
//!
//! for q scalar vectors at once (`msm_many`), k parts per window (a whole split, only where
//! q·G < P, taken only when it beats the unsplit plan by the margin). A table in IFMA
//! records adds nothing per call; plain bases whose tasks run on IFMA records pay the
//! conversion n·prepare/P once per call, however many vectors share it. The processor of
//! a table of arkworks points is XYZZ or scalar batch-affine, whichever the profile prices
//! lower (batch-affine only from 64 buckets and tasks that fill a batch); a table of
//! records runs the IFMA processor. Building a table costs n·(m − 1)·t doublings (and n·m
//! record conversions) on the workers, the doublings on IFMA lanes where those run
//! ([`Planner::build_doubling`]).

use std::cmp::Ordering;

use super::{Planner, SplitPolicy, MIN_BATCH_WINDOW};
use crate::bucket::{batch_size, Processor};
use crate::digits::Windowing;
use crate::plan::makespan::lpt_makespan;

/// How a table stores its multiples.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TableForm {
    /// arkworks affine points (any CPU; the XYZZ and scalar batch-affine processors).
    Points,
    /// IFMA records of 52-bit limbs (the IFMA processor; CPUs with AVX-512 IFMA).
    Records,
}

impl TableForm {
    /// `points` or `records`.
    pub fn name(self) -> &'static str {
        match self {
            TableForm::Points => "points",
            TableForm::Records => "records",
        }
    }
}

/// Which multiples a table keeps: window c, and m multiples 2^(j·t)·P of every base with
/// stride t = c·G.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TableLayout {
    /// The window c.
    pub window: u32,
    /// The windows K of a full scalar at c.
    pub chunks: usize,
    /// The multiples m kept per base (1: the bases alone).
    pub copies: usize,
    /// The windows G of one MSM over the table: ⌈K/m⌉.
    pub groups: usize,
}

impl TableLayout {
    /// The layout of window c (whose windowing has `chunks` windows) with at most `copies`
    /// multiples: G = ⌈K/copies⌉, and only the ⌈K/G⌉ multiples those windows use.
    pub fn new(window: u32, chunks: usize, copies: usize) -> Self {
        let chunks = chunks.max(1);
        let groups = chunks.div_ceil(copies.clamp(1, chunks));
        TableLayout {
            window,
            chunks,
            copies: chunks.div_ceil(groups),
            groups,
        }
    }

    /// The bits between two multiples: t = c·G.
    pub fn stride(&self) -> u32 {
        self.window * self.groups as u32
    }

    /// How many multiples take part in window g: those j with j·G + g < K.
    pub fn copies_in(&self, g: usize) -> usize {
        self.chunks.saturating_sub(g).div_ceil(self.groups)
    }

    /// A short description such as `c=13 m=20 G=1 (stride 13 bits)`.
    pub fn describe(&self) -> String {
        format!(
            "c={} m={} G={} (stride {} bits)",
            self.window,
            self.copies,
            self.groups,
            self.stride()
        )
    }
}

/// One priced way to run MSMs over bases known ahead.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TablePrice {
    /// The multiples kept.
    pub layout: TableLayout,
    /// How they are stored.
    pub form: TableForm,
    /// The processor of its tasks.
    pub processor: Processor,
    /// The processor of the top digit's task, where that digit has fewer buckets than the
    /// others and runs alone (see `exec::execute_table`): the cheaper for its buckets, XYZZ
    /// where they are too few for batches; else the same as `processor`.
    pub top: Processor,
    /// Parts per window (1: unsplit).
    pub parts: usize,
    /// Modeled wall time of one call, ns.
    pub makespan: f64,
    /// Modeled work of one call over all workers, ns.
    pub work: f64,
    /// Modeled wall time of building the table, ns: n·(m − 1)·t doublings (and, for records,
    /// n·m conversions) on the workers.
    pub build: f64,
    /// Bytes of the table (the multiples in their form).
    pub bytes: u64,
}

/// What the table pricing needs to know besides the planner.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableQuery {
    /// Bases.
    pub n: usize,
    /// Scalar vectors per call.
    pub jobs: usize,
    /// Workers.
    pub workers: usize,
    /// Bytes of one arkworks affine point.
    pub point_bytes: u64,
    /// Whether IFMA records are converted on every call (plain bases) rather than kept.
    pub convert_per_call: bool,
}

impl Planner {
    /// The price of one doubling of a table build, ns: arkworks' projective doubling
    /// (`double`), or on IFMA lanes that price scaled by how much cheaper the profile prices
    /// an IFMA batch-affine addition than a scalar one (window 12, points only: the same field
    /// products on lanes and on scalar arithmetic, measured on one host).
    pub fn build_doubling(&self) -> f64 {
        let w = &self.model.weights;
        if !self.lane_doublings {
            return w.double;
        }
        let ratio = w.windows.iter().find(|x| x.window == 12).and_then(|x| {
            let lanes = x.batch_affine_ifma.as_ref()?.point;
            (lanes > 0.0 && lanes < x.batch_affine.point).then(|| lanes / x.batch_affine.point)
        });
        w.double * ratio.unwrap_or(1.0)
    }

    /// Bytes of one IFMA record of this curve (0 where the IFMA processor does not apply).
    pub fn record_bytes(&self) -> u64 {
        self.sizes.record
    }

    /// The price of running `query.jobs` MSMs over a table of `layout` in `form`, its best
    /// split; `None` where the form cannot run here (records without the IFMA processor).
    pub fn price_table(
        &self,
        layout: TableLayout,
        form: TableForm,
        query: &TableQuery,
    ) -> Option<TablePrice> {
        let TableQuery {
            n,
            jobs,
            workers,
            point_bytes,
            convert_per_call,
        } = *query;
        let (jobs, workers) = (jobs.max(1), workers.clamp(1, crate::MAX_THREADS));
        let w = self.windowing(layout.window);
        debug_assert_eq!(w.chunks, layout.chunks);
        let g_count = layout.groups;
        // The largest window's points fix the processor; a window with fewer multiples
        // runs the same one.
        let biggest = n * layout.copies_in(0);
        let processor = match form {
            TableForm::Records => {
                if !self.options.ifma || self.sizes.record == 0 {
                    return None;
                }
                Processor::BatchAffineIfma
            }
            TableForm::Points => self.table_processor(&w, biggest, workers, jobs * g_count)?,
        };
        let bytes_each = match form {
            TableForm::Points => point_bytes,
            TableForm::Records => self.sizes.record,
        };
        let records_per_call = convert_per_call && form == TableForm::Records;
        let digits = jobs as f64 * self.model.digits(n, &w) / workers.min(n.max(1)) as f64;
        let records = if records_per_call {
            self.model.records(n) / workers.min(n.div_ceil(8).max(1)) as f64
        } else {
            0.0
        };
        let phases = 2 + records_per_call as usize;
        let horner = (g_count - 1) as f64
            * (layout.window as f64 * self.model.weights.double + self.model.weights.add_full);
        // The top digit, where it has fewer buckets than the others, is a task of its own
        // over its multiple's n points, priced as chunk K − 1 (its buckets and density) with
        // the cheaper processor; XYZZ over a table of records decodes them first.
        let top = layout.chunks - 1;
        let top_task = (w.buckets(top) < 1usize << (layout.window - 1)).then(|| {
            let batch = self.model.task(&w, top, n as f64, processor);
            let decode = match form {
                TableForm::Records => self.model.records(n),
                TableForm::Points => 0.0,
            };
            let xyzz = self.model.task(&w, top, n as f64, Processor::Xyzz) + decode;
            if xyzz < batch {
                (Processor::Xyzz, xyzz)
            } else {
                (processor, batch)
            }
        });
        let top_group = top % g_count;
        let price = |k: usize| {
            let mut costs = Vec::with_capacity(jobs * (g_count * k + 1));
            for _ in 0..jobs {
                for g in 0..g_count {
                    let mut points = n * layout.copies_in(g);
                    if let Some((_, cost)) = top_task.filter(|_| g == top_group) {
                        costs.push(cost);
                        points -= n;
                    }
                    if points > 0 {
                        let m = points as f64 / k as f64;
                        costs.extend(std::iter::repeat_n(self.model.task(&w, 0, m, processor), k));
                    }
                }
            }
            let tasks: f64 = costs.iter().sum();
            let partials = costs.len() / jobs;
            let tail = jobs as f64 * (self.model.merges_counted(partials, g_count) + horner);
            let pre = self.model.dispatch(phases, workers) + digits + records;
            let makespan = pre + lpt_makespan(&costs, workers) + tail;
            let work = self.model.dispatch(phases, workers)
                + digits * workers.min(n.max(1)) as f64
                + records * workers as f64
                + tasks
                + tail;
            (makespan, work)
        };
        let (unsplit, unsplit_work) = price(1);
        let mut best = (1usize, unsplit, unsplit_work);
        let cap = |k: usize| k.clamp(1, n.max(1));
        match self.options.split {
            SplitPolicy::Never => {}
            SplitPolicy::Parts(k) => {
                let k = cap(k);
                let (m, w) = price(k);
                best = (k, m, w);
            }
            SplitPolicy::Auto => {
                let tasks = jobs * g_count;
                if tasks < workers {
                    for k in 2..=cap(workers.div_ceil(tasks)) {
                        let (m, w) = price(k);
                        if m <= unsplit * (1.0 - self.options.margin) && m < best.1 {
                            best = (k, m, w);
                        }
                    }
                }
            }
        }
        Some(TablePrice {
            layout,
            form,
            processor,
            top: top_task.map_or(processor, |(p, _)| p),
            parts: best.0,
            makespan: best.1,
            work: best.2,
            build: {
                let doublings = (n * (layout.copies - 1)) as f64 * layout.stride() as f64;
                let convert = match form {
                    TableForm::Records => self.model.records(n * layout.copies),
                    TableForm::Points => 0.0,
                };
                (doublings * self.build_doubling() + convert) / workers as f64
            },
            bytes: (n as u64)
                .saturating_mul(layout.copies as u64)
                .saturating_mul(bytes_each),
        })
    }

    /// The processor of a table of arkworks points whose largest window holds `points`
    /// points: the one the profile prices lower, or the forced one (`None` where a forced
    /// processor cannot read arkworks points).
    fn table_processor(
        &self,
        w: &Windowing,
        points: usize,
        workers: usize,
        tasks: usize,
    ) -> Option<Processor> {
        match self.options.processor {
            Some(Processor::BatchAffineIfma) => return None,
            Some(p) => return Some(p),
            None => {}
        }
        let m = points as f64;
        let xyzz = self.model.task(w, 0, m, Processor::Xyzz);
        let batch = self.options.batch.unwrap_or(batch_size(w.window));
        // Whole splits cut a window into at most ⌈P/tasks⌉ parts: each should still fill a
        // batch.
        let parts = workers.div_ceil(tasks.max(1)).max(1);
        let fits = w.window >= MIN_BATCH_WINDOW && points >= batch * parts;
        match self.model.task_with(w, 0, m, Processor::BatchAffine) {
            Some(ba) if fits && ba < xyzz => Some(Processor::BatchAffine),
            _ => Some(Processor::Xyzz),
        }
    }

    /// Every table layout within `budget` bytes, priced, in window then copies order: per
    /// window c, each distinct number of windows G = ⌈K/m⌉ at the fewest multiples that give
    /// it, in each form that runs here.
    pub fn table_candidates(&self, query: &TableQuery, budget: u64) -> Vec<TablePrice> {
        let mut out = Vec::new();
        let forms = [TableForm::Points, TableForm::Records];
        for w in &self.windowings {
            let k_chunks = w.chunks;
            for groups in (1..=k_chunks).rev() {
                let layout = TableLayout::new(w.window, k_chunks, k_chunks.div_ceil(groups));
                if layout.groups != groups {
                    continue;
                }
                for form in forms {
                    if let Some(p) = self.price_table(layout, form, query) {
                        if p.bytes <= budget {
                            out.push(p);
                        }
                    }
                }
            }
        }
        out
    }

    /// The fastest of `candidates` (ties: the smaller table, then the first).
    pub fn fastest_table(candidates: &[TablePrice]) -> Option<TablePrice> {
        candidates
            .iter()
            .copied()
            .reduce(|best, p| match p.makespan.total_cmp(&best.makespan) {
                Ordering::Less => p,
                Ordering::Equal if p.bytes < best.bytes => p,
                _ => best,
            })
    }

    /// How `jobs` MSMs over plain bases run as one job: the fastest window with the bases
    /// alone (one multiple), their records converted once per call where the IFMA processor
    /// wins.
    pub fn plan_many(&self, n: usize, jobs: usize, workers: usize, point_bytes: u64) -> TablePrice {
        let query = TableQuery {
            n,
            jobs,
            workers,
            point_bytes,
            convert_per_call: true,
        };
        let candidates: Vec<TablePrice> = self
            .windowings
            .iter()
            .flat_map(|w| {
                let layout = TableLayout::new(w.window, w.chunks, 1);
                [TableForm::Points, TableForm::Records]
                    .into_iter()
                    .filter_map(move |f| self.price_table(layout, f, &query))
            })
            .collect();
        Self::fastest_table(&candidates).expect("the points form always prices")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves;
    use crate::plan::planner::PlanOptions;
    use crate::profile::Profile;

    fn planner(ifma: bool) -> Planner {
        let spec = curves::spec("bls12-381-g1").unwrap();
        let options = PlanOptions {
            ifma,
            ..PlanOptions::default()
        };
        Planner::new(&spec, Profile::builtin().weights_for(&spec, ifma), options).unwrap()
    }

    #[test]
    fn layouts_keep_only_the_multiples_their_windows_use() {
        // K = 20 windows: m = 7 gives G = 3, which needs only 7 multiples; m = 8 gives G = 3
        // too, so it is the same layout.
        let a = TableLayout::new(13, 20, 7);
        assert_eq!((a.groups, a.copies, a.stride()), (3, 7, 39));
        assert_eq!(TableLayout::new(13, 20, 8), a);
        // Windows 0 and 1 use 7 multiples, window 2 six (6·3 + 2 = 20 is past K).
        assert_eq!(
            (0..3).map(|g| a.copies_in(g)).collect::<Vec<_>>(),
            vec![7, 7, 6]
        );
        assert_eq!((0..3).map(|g| a.copies_in(g)).sum::<usize>(), 20);
        let full = TableLayout::new(13, 20, 20);
        assert_eq!((full.groups, full.copies, full.copies_in(0)), (1, 20, 20));
        let plain = TableLayout::new(13, 20, 1);
        assert_eq!((plain.groups, plain.copies), (20, 1));
        assert!((0..20).all(|g| plain.copies_in(g) == 1));
    }

    #[test]
    fn a_build_doubles_on_lanes_only_where_the_ifma_processor_runs() {
        let (scalar, lanes) = (planner(false), planner(true));
        let w = Profile::builtin().weights_for(&curves::spec("bls12-381-g1").unwrap(), true);
        let at12 = w.windows.iter().find(|x| x.window == 12).unwrap();
        let ratio = at12.batch_affine_ifma.as_ref().unwrap().point / at12.batch_affine.point;
        assert!(ratio > 0.0 && ratio < 1.0);
        assert_eq!(scalar.build_doubling(), scalar.model.weights.double);
        assert!((lanes.build_doubling() - w.double * ratio).abs() < 1e-9);
        // The build price follows it: n·(m − 1)·t doublings on the workers.
        let query = TableQuery {
            n: 4096,
            jobs: 1,
            workers: 2,
            point_bytes: 104,
            convert_per_call: false,
        };
        let layout = TableLayout::new(13, 20, 4);
        let price = lanes
            .price_table(layout, TableForm::Points, &query)
            .unwrap();
        let doublings = 4096.0 * 3.0 * layout.stride() as f64;
        assert!((price.build - doublings * lanes.build_doubling() / 2.0).abs() < 1e-6);
        // a ≠ 0 (secp256r1): arkworks' doubling even where the IFMA processor runs.
        let r1 = curves::spec("secp256r1-g1").unwrap();
        let options = PlanOptions {
            ifma: true,
            ..PlanOptions::default()
        };
        let r1 = Planner::new(&r1, Profile::builtin().weights_for(&r1, true), options).unwrap();
        assert_eq!(r1.build_doubling(), r1.model.weights.double);
    }

    #[test]
    fn more_multiples_never_price_higher_for_the_same_window_and_cut_reductions() {
        let p = planner(false);
        let query = TableQuery {
            n: 4096,
            jobs: 1,
            workers: 1,
            point_bytes: 104,
            convert_per_call: false,
        };
        let w = p.windowing(12);
        let price = |m| {
            p.price_table(TableLayout::new(12, w.chunks, m), TableForm::Points, &query)
                .unwrap()
        };
        let (plain, full) = (price(1), price(w.chunks));
        assert!(full.makespan < plain.makespan, "{full:?} vs {plain:?}");
        assert_eq!(full.bytes, 4096 * w.chunks as u64 * 104);
        assert_eq!(plain.bytes, 4096 * 104);
    }

    #[test]
    fn the_budget_bounds_every_candidate_and_a_larger_one_is_never_slower() {
        let p = planner(false);
        let query = TableQuery {
            n: 1 << 16,
            jobs: 1,
            workers: 2,
            point_bytes: 104,
            convert_per_call: false,
        };
        let mut last = f64::INFINITY;
        for copies in [1u64, 2, 4, 8, 32] {
            let budget = (copies * 104) << 16;
            let all = p.table_candidates(&query, budget);
            assert!(all.iter().all(|c| c.bytes <= budget));
            let best = Planner::fastest_table(&all).unwrap();
            assert!(best.makespan <= last, "{copies}: {best:?}");
            last = best.makespan;
        }
    }

    #[test]
    fn records_price_only_where_the_ifma_processor_runs() {
        let query = TableQuery {
            n: 1 << 12,
            jobs: 1,
            workers: 2,
            point_bytes: 104,
            convert_per_call: false,
        };
        let layout = TableLayout::new(12, planner(false).windowing(12).chunks, 4);
        assert!(planner(false)
            .price_table(layout, TableForm::Records, &query)
            .is_none());
        if planner(true).record_bytes() > 0 {
            let r = planner(true)
                .price_table(layout, TableForm::Records, &query)
                .unwrap();
            assert_eq!(r.processor, Processor::BatchAffineIfma);
        }
    }

    #[test]
    fn a_whole_split_only_where_the_windows_leave_workers_idle() {
        let p = planner(false);
        let query = |workers| TableQuery {
            n: 1 << 14,
            jobs: 1,
            workers,
            point_bytes: 104,
            convert_per_call: false,
        };
        let w = p.windowing(12);
        let full = TableLayout::new(12, w.chunks, w.chunks);
        // One window on 8 workers: split.
        let split = p.price_table(full, TableForm::Points, &query(8)).unwrap();
        assert!(split.parts > 1, "{split:?}");
        // K windows ≥ P workers: never.
        let plain = TableLayout::new(12, w.chunks, 1);
        assert_eq!(
            p.price_table(plain, TableForm::Points, &query(8))
                .unwrap()
                .parts,
            1
        );
    }
}
