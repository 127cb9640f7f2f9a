//! The planner's decision: the one place that enumerates candidate plans and compares them.
//!
//! A candidate is a window c and a split (none, whole into k parts, or tail balancing of the
//! last wave). Its tasks come in at most three runs of equal cost (regular chunks, the top
//! chunk, and their cut parts), so a candidate is priced from those runs: the makespan by
//! [`lpt_makespan_grouped_in`] (the same f64 loads as the executor's LPT schedule of the
//! materialised tasks), the work by the sequential sum over tasks in chunk order. Every
//! n-dependent comparison goes through a [`Probe`], so the sweep solves decisions over
//! intervals of n with this same code: what the sweep proves about [`Planner::decide_probed`]
//! holds for every plan the library runs, because [`Planner::plan`] materialises exactly the
//! candidate this function chooses.
//!
//! Rules (DESIGN §3): per window c with K chunks on P workers,
//! - unsplit: always a candidate;
//! - whole split into k = 2..=ceil(P/K) parts when K < P; and, while the unsplit schedule
//!   leaves the cores idle by more than the margin, into every further k ≤ ceil(P/K_eff),
//!   where K_eff = Σ t / t_0 counts the full chunks' worth of work ([`Planner::chunk_load`];
//!   t_0: chunk 0, a full digit, so a heavier top chunk raises K_eff and only light chunks
//!   open these splits). With small scalars the top chunks hold only carries: 16-bit
//!   scalars at c = 16 give K = 2 chunks whose work is less than two. With K_eff ≥ P every
//!   core already has a chunk's work and a split only adds reductions and merges, so no
//!   whole split is weighed;
//! - tail balancing: when K > P and the last wave is partial (r = K mod P chunks), those r
//!   chunks cut into k = 2..=ceil(P/r) parts;
//! - `SplitPolicy::Never`: unsplit only; `SplitPolicy::Parts(k)`: every chunk in min(k, n)
//!   parts, taken whatever the model says.
//!
//! The best unsplit candidate wins unless the best split beats it by the margin; among equal
//! makespans the one with less work wins, then the first enumerated.

use std::cmp::Ordering;

use super::{Planner, SplitKind, SplitPolicy};
use crate::bucket::Processor;
use crate::digits::Windowing;
use crate::plan::makespan::{lpt_makespan_grouped_in, LptScratch};
use crate::plan::probe::{Blind, Probe};

/// A candidate plan named by its window and split, with its modeled makespan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Candidate {
    /// The window and chunk layout.
    pub windowing: Windowing,
    /// The split.
    pub split: SplitKind,
    /// Modeled wall time, ns.
    pub makespan: f64,
}

/// What the planner decides for one (n, P), and the plans it weighed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decision {
    /// The plan that runs.
    pub chosen: Candidate,
    /// The best unsplit candidate.
    pub unsplit: Candidate,
    /// The best split candidate of any kind, if the policy allows one.
    pub split: Option<Candidate>,
    /// The best whole-MSM split candidate, if any.
    pub whole: Option<Candidate>,
}

/// A candidate's modeled work, makespan and fluid makespan.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CandidatePrice {
    /// Total work over all workers, ns (as `Plan::work`).
    pub work: f64,
    /// Modeled wall time on the pool executor, ns (as `Plan::makespan`).
    pub makespan: f64,
    /// The same tasks under the fluid makespan: dispatch + digits/P + records/P +
    /// max(Σ t / P, max t) + merges + Horner (the sweep's oracle).
    pub fluid: f64,
}

/// A candidate's tasks as runs of equal cost, in chunk order.
#[derive(Clone, Copy, Debug)]
struct Priced {
    candidate: Candidate,
    runs: [(f64, usize); 3],
    /// Work of the digit and record phases.
    pre_work: f64,
    /// Their time, with the dispatch of the parallel phases.
    pre_time: f64,
    tail: f64,
    /// The LPT makespan of the tasks alone.
    lpt: f64,
}

impl Priced {
    fn work(&self) -> f64 {
        let tasks = self
            .runs
            .iter()
            .flat_map(|&(c, k)| std::iter::repeat_n(c, k))
            .sum::<f64>();
        self.pre_work + tasks + self.tail
    }

    /// Σ t over the tasks, and the cost of one task of chunk 0 (a full digit; the top chunk
    /// when it is the only one).
    fn load(&self) -> (f64, f64) {
        let sum = self.runs.iter().map(|&(c, k)| c * k as f64).sum();
        let regular = if self.runs[0].1 > 0 {
            self.runs[0].0
        } else {
            self.runs[1].0
        };
        (sum, regular)
    }
}

/// Faster, then less work.
fn better<Pr: Probe>(a: &Priced, b: &Priced, probe: &mut Pr) -> bool {
    match probe.cmp(a.candidate.makespan, b.candidate.makespan) {
        Ordering::Less => true,
        Ordering::Equal => probe.lt(a.work(), b.work()),
        Ordering::Greater => false,
    }
}

/// Keeps the first best candidate.
fn keep_best<Pr: Probe>(best: &mut Option<Priced>, p: Priced, probe: &mut Pr) {
    match best {
        Some(b) if !better(&p, b, probe) => {}
        _ => *best = Some(p),
    }
}

/// Where the cut chunks of a tail split sit in the unsplit LPT order.
///
/// The executor orders tasks longest first, ties by index. Regular chunks all cost the same,
/// so the order is the top chunk first if it costs strictly more than a regular chunk, then
/// chunks 0, 1, ..., else chunks 0, 1, ... with the top chunk last; the last wave is the last
/// r chunks of that order.
pub(crate) fn tail_chunks(chunks: usize, r: usize, top_first: bool) -> std::ops::Range<usize> {
    if top_first {
        chunks - 1 - r..chunks - 1
    } else {
        chunks - r..chunks
    }
}

impl Planner {
    /// The decision for `n` points on `workers` workers.
    pub fn decide(&self, n: usize, workers: usize) -> Decision {
        self.decide_probed(n, workers, &mut Blind)
    }

    /// [`decide`](Self::decide) with every n-dependent comparison through `probe`.
    pub fn decide_probed<Pr: Probe>(&self, n: usize, workers: usize, probe: &mut Pr) -> Decision {
        self.decide_in(n, workers, probe, &mut |_| {})
    }

    /// The decision, with every candidate weighed passed to `seen` in enumeration order.
    pub(crate) fn decide_in<Pr: Probe>(
        &self,
        n: usize,
        workers: usize,
        probe: &mut Pr,
        seen: &mut dyn FnMut(Candidate),
    ) -> Decision {
        let workers = workers.clamp(1, crate::MAX_THREADS);
        let mut scratch = LptScratch::default();
        let mut unsplit: Option<Priced> = None;
        let mut split: Option<Priced> = None;
        let mut whole: Option<Priced> = None;
        for w in &self.windowings {
            let mut weigh = |kind: SplitKind, probe: &mut Pr| {
                let p = self.priced(w, n, workers, kind, &mut scratch, probe);
                seen(p.candidate);
                p
            };
            let p = weigh(SplitKind::None, probe);
            keep_best(&mut unsplit, p, probe);
            let k_chunks = w.chunks;
            match self.options.split {
                SplitPolicy::Never => {}
                SplitPolicy::Parts(k) => {
                    let k = if probe.at_least(n as u64, k as u64) {
                        k
                    } else {
                        n.max(1)
                    };
                    if k > 1 {
                        let s = weigh(SplitKind::Whole(k), probe);
                        keep_best(&mut split, s, probe);
                        keep_best(&mut whole, s, probe);
                    }
                }
                SplitPolicy::Auto => {
                    // Whole splits: k ≤ ceil(P/K) when K < P; beyond that only while the
                    // unsplit tasks leave the cores idle by more than the margin (a split can
                    // gain at most that idle share) and k - 1 < P/K_eff, K_eff = Σ t / t_0.
                    let mut gate: Option<(bool, f64, f64)> = None;
                    for k in 2..=workers {
                        let listed = k_chunks < workers && k <= workers.div_ceil(k_chunks);
                        let more = !listed && {
                            let (idle, sum, regular) = *gate.get_or_insert_with(|| {
                                let (sum, regular) = p.load();
                                let busy = (1.0 - self.options.margin) * workers as f64 * p.lpt;
                                (probe.lt(sum, busy), sum, regular)
                            });
                            idle && probe.lt((k - 1) as f64 * sum, workers as f64 * regular)
                        };
                        if !(listed || more) || !probe.at_least(n as u64, k as u64) {
                            break;
                        }
                        let s = weigh(SplitKind::Whole(k), probe);
                        keep_best(&mut split, s, probe);
                        keep_best(&mut whole, s, probe);
                    }
                    if k_chunks > workers && !k_chunks.is_multiple_of(workers) {
                        let r = k_chunks % workers;
                        for k in 2..=workers.div_ceil(r) {
                            if !probe.at_least(n as u64, k as u64) {
                                break;
                            }
                            let s = weigh(
                                SplitKind::Tail {
                                    chunks: r,
                                    parts: k,
                                },
                                probe,
                            );
                            keep_best(&mut split, s, probe);
                        }
                    }
                }
            }
        }
        let unsplit = unsplit.expect("a planner has at least one window");
        let forced = matches!(self.options.split, SplitPolicy::Parts(k) if k > 1)
            && probe.at_least(n as u64, 2);
        let chosen = match split {
            Some(s) if forced => s,
            Some(s)
                if probe.cmp(
                    s.candidate.makespan,
                    unsplit.candidate.makespan * (1.0 - self.options.margin),
                ) != Ordering::Greater =>
            {
                s
            }
            _ => unsplit,
        };
        Decision {
            chosen: chosen.candidate,
            unsplit: unsplit.candidate,
            split: split.map(|s| s.candidate),
            whole: whole.map(|s| s.candidate),
        }
    }

    /// Σ t / t_0 over the unsplit tasks of window `window` for `n` points (t_0: chunk 0, a
    /// full digit): how many full chunks of work its K chunks carry, the K_eff of the
    /// whole-split rule. About K for full scalars; less when the top chunks of small scalars
    /// hold little more than carries.
    pub fn chunk_load(&self, window: u32, n: usize) -> f64 {
        let w = self.windowing(window);
        let p = self.priced(
            &w,
            n,
            1,
            SplitKind::None,
            &mut LptScratch::default(),
            &mut Blind,
        );
        let (sum, regular) = p.load();
        if regular > 0.0 {
            sum / regular
        } else {
            w.chunks as f64
        }
    }

    /// Work, makespan and fluid makespan of the candidate `(w, split)` for `n` points on
    /// `workers` workers, its comparisons through `probe`.
    pub fn candidate_price<Pr: Probe>(
        &self,
        w: &Windowing,
        n: usize,
        workers: usize,
        split: SplitKind,
        probe: &mut Pr,
    ) -> CandidatePrice {
        let workers = workers.clamp(1, crate::MAX_THREADS);
        let p = self.priced(w, n, workers, split, &mut LptScratch::default(), probe);
        let tasks: f64 = p
            .runs
            .iter()
            .flat_map(|&(c, k)| std::iter::repeat_n(c, k))
            .sum();
        let mut longest = 0.0;
        for &(c, k) in &p.runs {
            if k > 0 {
                longest = probe.max(longest, c);
            }
        }
        let fluid = probe.max(tasks / workers as f64, longest);
        CandidatePrice {
            work: p.work(),
            makespan: p.candidate.makespan,
            fluid: p.pre_time + fluid + p.tail,
        }
    }

    /// Whether the top chunk's unsplit task costs strictly more than a regular chunk's (it
    /// then leads the LPT order; see [`tail_chunks`]).
    pub(crate) fn top_first<Pr: Probe>(&self, w: &Windowing, n: usize, probe: &mut Pr) -> bool {
        let top = w.chunks - 1;
        if top == 0 {
            return false;
        }
        let regular = self.task_priced(w, 0, n, 1, probe).1;
        let top_whole = self.task_priced(w, top, n, 1, probe).1;
        probe.cmp(top_whole, regular) == Ordering::Greater
    }

    /// Prices candidate `(w, split)`: its task runs, digits, merges + Horner and makespan.
    fn priced<Pr: Probe>(
        &self,
        w: &Windowing,
        n: usize,
        workers: usize,
        split: SplitKind,
        scratch: &mut LptScratch,
        probe: &mut Pr,
    ) -> Priced {
        let k_chunks = w.chunks;
        let top = k_chunks - 1;
        // Whether any run with tasks uses the IFMA processor (the record phase).
        let mut ifma = false;
        let mut cost = |j: usize, k: usize, count: usize, probe: &mut Pr| {
            if count == 0 {
                (0.0, 0)
            } else {
                let (processor, cost) = self.task_priced(w, j, n, k, probe);
                ifma |= processor == Processor::BatchAffineIfma;
                (cost, count)
            }
        };
        // Runs in chunk order, and Σ_j (k_j - 1) over the parts vector.
        let (runs, extra_parts) = match split {
            SplitKind::None => (
                [cost(0, 1, top, probe), cost(top, 1, 1, probe), (0.0, 0)],
                0,
            ),
            SplitKind::Whole(k) => (
                [cost(0, k, top * k, probe), cost(top, k, k, probe), (0.0, 0)],
                k_chunks * (k - 1),
            ),
            SplitKind::Tail {
                chunks: r,
                parts: k,
            } => {
                let runs = if self.top_first(w, n, probe) {
                    [
                        cost(0, 1, top - r, probe),
                        cost(0, k, r * k, probe),
                        cost(top, 1, 1, probe),
                    ]
                } else {
                    [
                        cost(0, 1, k_chunks - r, probe),
                        cost(0, k, (r - 1) * k, probe),
                        cost(top, k, k, probe),
                    ]
                };
                (runs, r * (k - 1))
            }
        };
        let (pre_work, pre_time) = self.phases(w, n, workers, ifma, probe);
        let tail =
            self.model.merges_counted(k_chunks + extra_parts, k_chunks) + self.model.horner(w);
        let mut groups = runs;
        let lpt = lpt_makespan_grouped_in(&mut groups, workers, probe, scratch);
        let makespan = pre_time + lpt + tail;
        Priced {
            candidate: Candidate {
                windowing: *w,
                split,
                makespan,
            },
            runs,
            pre_work,
            pre_time,
            tail,
            lpt,
        }
    }
}
