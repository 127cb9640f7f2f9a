//! The sweep: every top-level split decision of a model over a whole range of n, for every
//! curve/group, core count and task-budget policy, solved exactly over intervals of n.
//!
//! A row is (model, curve/group, policy, cores). The policy sets gnark's task budget NbTasks
//! (2x: 2·cores, 1x: cores, half: max(1, cores/2)); the real parallelism is
//! P = min(NbTasks, cores). Per row and n the models answer:
//!
//! - `legacy-master`, `legacy-pr875` ([`legacy`](crate::plan::legacy)): split iff post < pre,
//!   with each model's own nbCpus. Oracle: both arms' tasks under the fluid makespan on P
//!   cores, reduction + max(T·t / P, t).
//! - `multiexp` ([`Planner::decide_probed`]): a firing is a whole-MSM split. Oracle: the best
//!   unsplit candidate U and the best whole split S, each priced by the fluid makespan
//!   digits/P + max(Σ t / P, max t) + merges + Horner. Tail balancing is a refinement of the
//!   unsplit decision for the pool executor (under the fluid model a partial wave is free, so it
//!   can only lose there): the oracle's unsplit arm is then the better of U and the tail
//!   split's own window unsplit (the pool's best unsplit window can differ from the tail
//!   split's, e.g. c = 16 against c = 13 with its last wave filled on 16 cores); tail splits
//!   are reported apart, with their modeled (LPT) gain.
//!
//! A row reports the firing bands (maximal intervals of n, inclusive), the sizes hit, the worst
//! slowdown = fluid cost of the decision taken / fluid cost of the better arm and the smallest n
//! where it occurs, `harmful` = sizes where a split was taken that the oracle prices above
//! unsplit (and their bands: the misfires; gnark's issue #876 tabulates these as "fires over"
//! and "sizes hit", which equal all firings wherever the unsplit window fills the cores, e.g. on
//! every row of ≤ 24 cores, and differ where a split fills idle cores and wins, e.g.
//! legacy-pr875 BW6-761 on 32 cores, C = 16, K = 24), and two whole-space invariants: every split arm adds work (for multiexp: over the
//! unsplit plan of the same window), and the decisions depend on (NbTasks, cores) only through
//! min(NbTasks, cores) (checked against the row with NbTasks = cores = P).
//!
//! **Exact and fast.** Every n-dependent comparison of a model goes through a
//! [`Probe`]; a [`Transcript`] records the outcomes. On each residue class of n mod the model's
//! stride (2 for gnark, whose split arm uses ⌊n/2⌋; 1 for multiexp) every compared quantity is
//! affine in n along a fixed path, so two sizes with the same transcript bound an interval on
//! which the whole path, hence the decision, is constant, and every ratio the row reports is a
//! ratio of affine functions, monotone, so its maximum is at an end. Where the transcripts of
//! an interval's ends differ, the first differing comparison is one affine function whose sign
//! changes inside; its recorded gaps at both ends give the crossing by the secant, and the
//! interval is cut there (bisection if that fails twice). Cost: about two decisions per change
//! of path instead of one per n. `brute` walks every n through the same decision function, with
//! an identical result.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use crate::curves::{CurveSpec, Group};
use crate::plan::legacy::{legacy_curve, LegacyCurve, LegacyModel};
use crate::plan::planner::{PlanOptions, Planner};
use crate::plan::probe::{Blind, Probe, Transcript};
use crate::plan::SplitKind;
use crate::profile::Profile;
use crate::Error;

/// The decision models the sweep compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SweepModel {
    /// gnark-crypto master.
    LegacyMaster,
    /// gnark-crypto PR #875.
    LegacyPr875,
    /// This crate's planner.
    Multiexp,
}

impl SweepModel {
    /// All three, in report order.
    pub const ALL: [SweepModel; 3] = [
        SweepModel::LegacyMaster,
        SweepModel::LegacyPr875,
        SweepModel::Multiexp,
    ];

    /// Its name: `legacy-master`, `legacy-pr875` or `multiexp`.
    pub fn name(self) -> &'static str {
        match self {
            SweepModel::LegacyMaster => "legacy-master",
            SweepModel::LegacyPr875 => "legacy-pr875",
            SweepModel::Multiexp => "multiexp",
        }
    }

    /// The model called `name`.
    pub fn parse(name: &str) -> Option<SweepModel> {
        SweepModel::ALL.into_iter().find(|m| m.name() == name)
    }

    fn legacy(self) -> Option<LegacyModel> {
        match self {
            SweepModel::LegacyMaster => Some(LegacyModel::Master),
            SweepModel::LegacyPr875 => Some(LegacyModel::Pr875),
            SweepModel::Multiexp => None,
        }
    }
}

/// How the task budget NbTasks follows the core count.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Policy {
    /// NbTasks = 2·cores (gnark's default).
    Double,
    /// NbTasks = cores.
    Single,
    /// NbTasks = max(1, cores/2).
    Half,
}

impl Policy {
    /// All three, in report order.
    pub const ALL: [Policy; 3] = [Policy::Double, Policy::Single, Policy::Half];

    /// Its name: `2x`, `1x` or `half`.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Double => "2x",
            Policy::Single => "1x",
            Policy::Half => "half",
        }
    }

    /// The policy called `name`.
    pub fn parse(name: &str) -> Option<Policy> {
        Policy::ALL.into_iter().find(|p| p.name() == name)
    }

    /// NbTasks on `cores` cores.
    pub fn nb_tasks(self, cores: usize) -> usize {
        match self {
            Policy::Double => 2 * cores,
            Policy::Single => cores,
            Policy::Half => (cores / 2).max(1),
        }
    }
}

/// Largest n the sweep accepts: far beyond any MSM, and small enough that every model's
/// integer and float arithmetic stays exact where it must.
pub const MAX_N: u64 = 1 << 40;

/// The default core counts.
pub const DEFAULT_CORES: [usize; 12] = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128];

/// What to sweep.
#[derive(Clone, Debug)]
pub struct SweepSpec {
    /// Models, in report order.
    pub models: Vec<SweepModel>,
    /// Curve/groups, in report order.
    pub curves: Vec<CurveSpec>,
    /// Policies, in report order.
    pub policies: Vec<Policy>,
    /// Core counts, in report order.
    pub cores: Vec<usize>,
    /// Smallest n (at least 1).
    pub n_min: u64,
    /// Largest n.
    pub n_max: u64,
    /// Whether the host has AVX-512 IFMA (the planner uses it where the curve allows).
    pub ifma: bool,
    /// Walk every n instead of solving intervals.
    pub brute: bool,
}

/// One row of the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The model.
    pub model: SweepModel,
    /// Catalogue name of the curve/group, e.g. `bn254-g1`.
    pub name: &'static str,
    /// The curve, e.g. `bn254`.
    pub curve: &'static str,
    /// The group.
    pub group: Group,
    /// The policy.
    pub policy: Policy,
    /// Cores.
    pub cores: usize,
    /// NbTasks under the policy.
    pub nb_tasks: usize,
    /// The parallelism the model plugs into its cost: NbTasks for master, min(NbTasks, cores)
    /// for the PR and for multiexp.
    pub nb_cpus: usize,
    /// The row's decisions.
    pub outcome: Outcome,
    /// Whether the decisions equal those of NbTasks = cores = min(NbTasks, cores).
    pub depends_only_on_min: bool,
}

/// What one model decides over the whole range of n, on one (curve/group, NbTasks, cores).
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// Maximal intervals [lo, hi] of n where the model splits at the top level.
    pub bands: Vec<(u64, u64)>,
    /// Number of sizes in the bands.
    pub sizes_hit: u64,
    /// The worst slowdown (≥ 1) of the decision taken against the better arm under the fluid
    /// makespan.
    pub worst_slowdown: f64,
    /// The smallest n where it occurs (the range's first n when the slowdown is 1 throughout).
    pub worst_n: u64,
    /// Sizes where a split was taken that the fluid oracle prices above unsplit.
    pub harmful: u64,
    /// Maximal intervals of those sizes: the bands of the splits that lose.
    pub harmful_bands: Vec<(u64, u64)>,
    /// Sizes where a split arm does not add work.
    pub work_not_added: u64,
    /// Maximal intervals where multiexp balances the tail (empty for gnark).
    pub tail_bands: Vec<(u64, u64)>,
    /// Number of sizes in the tail bands.
    pub tail_sizes: u64,
    /// The largest modeled (LPT) gain of a tail split over the best unsplit plan, 0 if none.
    pub tail_max_gain: f64,
}

impl Outcome {
    /// Whether every split arm adds work over the whole range.
    pub fn split_adds_work(&self) -> bool {
        self.work_not_added == 0
    }
}

/// What the sweep did, for the progress report and the brute-force comparison.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SweepStats {
    /// Distinct decision problems solved (rows sharing inputs share one).
    pub units: usize,
    /// Decisions evaluated in all.
    pub evaluations: u64,
}

/// Whether multiexp's IFMA processor applies to `spec` on a host that has (or lacks) IFMA:
/// the one rule, `ifma::eligible_limbs`.
pub fn ifma_applies(spec: &CurveSpec, host_ifma: bool) -> bool {
    host_ifma && crate::ifma::eligible_limbs(spec.extension_degree, spec.base_bits).is_some()
}

/// The decision inputs of one row: rows with equal keys decide alike.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum UnitKey {
    Legacy {
        model: LegacyModel,
        curve: &'static str,
        nb_cpus: usize,
        workers: usize,
    },
    Multiexp {
        name: &'static str,
        workers: usize,
    },
}

/// One decision problem over n.
enum Unit {
    Legacy {
        model: LegacyModel,
        curve: &'static LegacyCurve,
        nb_cpus: usize,
        workers: usize,
    },
    Multiexp {
        planner: Box<Planner>,
        workers: usize,
    },
}

/// The decision at one n, as the row needs it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sample {
    split: bool,
    tail: bool,
    harmful: bool,
    adds_work: Option<bool>,
    slowdown: f64,
    tail_gain: f64,
}

impl Unit {
    /// Residue classes of n on which every quantity is affine.
    fn stride(&self) -> u64 {
        match self {
            Unit::Legacy { .. } => 2,
            Unit::Multiexp { .. } => 1,
        }
    }

    fn sample<Pr: Probe>(&self, n: u64, probe: &mut Pr) -> Sample {
        match self {
            Unit::Legacy {
                model,
                curve,
                nb_cpus,
                workers,
            } => {
                let sp = model.split_probe_probed(curve, n, *nb_cpus, probe);
                let unsplit = sp.unsplit.fluid_cost(*workers, probe);
                let split = sp.split.fluid_cost(*workers, probe);
                let taken = if sp.splits { split } else { unsplit };
                let better = if probe.lt(split, unsplit) {
                    split
                } else {
                    unsplit
                };
                Sample {
                    split: sp.splits,
                    tail: false,
                    harmful: sp.splits && probe.lt(unsplit, split),
                    adds_work: Some(probe.lt(sp.unsplit.work(), sp.split.work())),
                    slowdown: taken / better,
                    tail_gain: 0.0,
                }
            }
            Unit::Multiexp { planner, workers } => {
                let (n, p) = (n as usize, *workers);
                let d = planner.decide_probed(n, p, probe);
                let price =
                    |c: &crate::plan::planner::Candidate, split: SplitKind, probe: &mut Pr| {
                        planner.candidate_price(&c.windowing, n, p, split, probe)
                    };
                let unsplit = price(&d.unsplit, SplitKind::None, probe);
                let split = matches!(d.chosen.split, SplitKind::Whole(_));
                let tail = matches!(d.chosen.split, SplitKind::Tail { .. });
                let mut adds_work = None;
                let whole = d.whole.map(|c| {
                    let s = price(&c, c.split, probe);
                    let base = price(&c, SplitKind::None, probe);
                    adds_work = Some(probe.lt(base.work, s.work));
                    s
                });
                let chosen = if split || tail {
                    price(&d.chosen, d.chosen.split, probe)
                } else {
                    unsplit
                };
                // The fluid makespan cannot price a tail split (a partial wave is free there):
                // it judges the decision not to split the whole MSM, whose unsplit arm is the
                // better of the unsplit windows the planner weighed for it, the pool's best
                // one (U) and the tail split's own window unsplit (they differ where a window
                // whose last wave the tail split fills beats U on the pool).
                let mut taken = if split { chosen.fluid } else { unsplit.fluid };
                if tail {
                    let base = price(&d.chosen, SplitKind::None, probe);
                    let adds = probe.lt(base.work, chosen.work);
                    adds_work = Some(adds_work.unwrap_or(true) && adds);
                    if probe.lt(base.fluid, taken) {
                        taken = base.fluid;
                    }
                }
                let mut better = match whole {
                    Some(s) if probe.lt(s.fluid, unsplit.fluid) => s.fluid,
                    _ => unsplit.fluid,
                };
                if probe.lt(taken, better) {
                    better = taken;
                }
                Sample {
                    split,
                    tail,
                    harmful: split && probe.lt(unsplit.fluid, chosen.fluid),
                    adds_work,
                    slowdown: taken / better,
                    tail_gain: if tail {
                        1.0 - d.chosen.makespan / d.unsplit.makespan
                    } else {
                        0.0
                    },
                }
            }
        }
    }
}

/// Fired runs of one residue class, then merged into bands.
#[derive(Clone, Debug, Default)]
struct Runs(Vec<(u64, u64)>);

impl Runs {
    fn add(&mut self, lo: u64, hi: u64, stride: u64) {
        match self.0.last_mut() {
            Some(last) if last.1 + stride == lo => last.1 = hi,
            _ => self.0.push((lo, hi)),
        }
    }
}

/// The maximal intervals of the union of per-class runs (class r holds n ≡ r mod `stride`).
fn merge_classes(classes: &[Runs], stride: u64) -> Vec<(u64, u64)> {
    let mut out: Vec<(u64, u64)> = Vec::new();
    let mut push = |lo: u64, hi: u64| match out.last_mut() {
        Some(last) if last.1 + 1 == lo => last.1 = hi,
        _ => out.push((lo, hi)),
    };
    if stride == 1 {
        for &(lo, hi) in classes.iter().flat_map(|c| c.0.iter()) {
            push(lo, hi);
        }
        return out;
    }
    // Between consecutive run boundaries every class is on or off for all of its members.
    let mut bounds = BTreeSet::new();
    for &(lo, hi) in classes.iter().flat_map(|c| c.0.iter()) {
        bounds.insert(lo);
        bounds.insert(hi + 1);
    }
    let bounds: Vec<u64> = bounds.into_iter().collect();
    let mut cursor = vec![0usize; classes.len()];
    for seg in bounds.windows(2) {
        let (x, y) = (seg[0], seg[1]);
        let on: Vec<bool> = classes
            .iter()
            .zip(cursor.iter_mut())
            .map(|(c, i)| {
                while *i < c.0.len() && c.0[*i].1 < x {
                    *i += 1;
                }
                *i < c.0.len() && c.0[*i].0 <= x
            })
            .collect();
        if on.iter().all(|&o| o) {
            push(x, y - 1);
        } else if on.iter().any(|&o| o) {
            for n in x..y {
                if on[(n % stride) as usize] {
                    push(n, n);
                }
            }
        }
    }
    out
}

/// Accumulates a unit's decisions, piece by piece, in ascending n within each class.
struct Tally {
    stride: u64,
    split: Vec<Runs>,
    tail: Vec<Runs>,
    harmful_runs: Vec<Runs>,
    sizes_hit: u64,
    tail_sizes: u64,
    harmful: u64,
    work_not_added: u64,
    worst: Option<(f64, u64)>,
    tail_gain: f64,
    evaluations: u64,
}

/// Keeps the largest value, and the smallest n on a tie.
fn keep_worst(worst: &mut Option<(f64, u64)>, value: f64, n: u64) {
    match worst {
        Some((w, at)) if value < *w || (value == *w && n >= *at) => {}
        _ => *worst = Some((value, n)),
    }
}

impl Tally {
    fn new(stride: u64) -> Self {
        Tally {
            stride,
            split: vec![Runs::default(); stride as usize],
            tail: vec![Runs::default(); stride as usize],
            harmful_runs: vec![Runs::default(); stride as usize],
            sizes_hit: 0,
            tail_sizes: 0,
            harmful: 0,
            work_not_added: 0,
            worst: None,
            tail_gain: 0.0,
            evaluations: 0,
        }
    }

    /// Members lo, lo + s, ..., hi of one class decide alike; `a`, `b` are the ends' samples.
    fn piece(&mut self, lo: u64, hi: u64, step: u64, a: &Sample, b: &Sample) {
        debug_assert_eq!(
            (a.split, a.tail, a.harmful, a.adds_work),
            (b.split, b.tail, b.harmful, b.adds_work)
        );
        let class = (lo % self.stride) as usize;
        let count = (hi - lo) / step + 1;
        if a.split {
            self.split[class].add(lo, hi, step);
            self.sizes_hit += count;
        }
        if a.tail {
            self.tail[class].add(lo, hi, step);
            self.tail_sizes += count;
            self.tail_gain = self.tail_gain.max(a.tail_gain).max(b.tail_gain);
        }
        if a.harmful {
            self.harmful_runs[class].add(lo, hi, step);
            self.harmful += count;
        }
        if a.adds_work == Some(false) {
            self.work_not_added += count;
        }
        keep_worst(&mut self.worst, a.slowdown, lo);
        keep_worst(&mut self.worst, b.slowdown, hi);
    }

    fn outcome(self) -> Outcome {
        let (worst_slowdown, worst_n) = self.worst.unwrap_or((1.0, 0));
        Outcome {
            bands: merge_classes(&self.split, self.stride),
            sizes_hit: self.sizes_hit,
            worst_slowdown,
            worst_n,
            harmful: self.harmful,
            harmful_bands: merge_classes(&self.harmful_runs, self.stride),
            work_not_added: self.work_not_added,
            tail_bands: merge_classes(&self.tail, self.stride),
            tail_sizes: self.tail_sizes,
            tail_max_gain: self.tail_gain,
        }
    }
}

/// One evaluated size: its sample and the path that produced it.
struct Point {
    n: u64,
    sample: Sample,
    transcript: Transcript,
}

fn evaluate(unit: &Unit, n: u64, tally: &mut Tally) -> Point {
    tally.evaluations += 1;
    let mut transcript = Transcript::new();
    let sample = unit.sample(n, &mut transcript);
    Point {
        n,
        sample,
        transcript,
    }
}

/// Solves one residue class: members first, first + s, ..., last.
fn solve_class(unit: &Unit, first: u64, last: u64, tally: &mut Tally) {
    let s = unit.stride();
    let a = evaluate(unit, first, tally);
    if first == last {
        tally.piece(first, first, s, &a.sample, &a.sample);
        return;
    }
    let b = evaluate(unit, last, tally);
    // Pending intervals, the leftmost on top; each remembers the comparison its parent was
    // cut at, so that a cut that did not separate it is followed by a bisection.
    let mut stack: Vec<(Point, Point, Option<usize>)> = vec![(a, b, None)];
    while let Some((a, b, parent_cut)) = stack.pop() {
        if a.transcript.same_path(&b.transcript) {
            tally.piece(a.n, b.n, s, &a.sample, &b.sample);
            continue;
        }
        if b.n - a.n == s {
            tally.piece(a.n, a.n, s, &a.sample, &a.sample);
            tally.piece(b.n, b.n, s, &b.sample, &b.sample);
            continue;
        }
        let difference = a.transcript.first_difference(&b.transcript);
        let index = difference.map(|d| d.0);
        let secant = match difference {
            Some((i, Some((ga, gb)))) if parent_cut != Some(i) && ga != gb => {
                let root = a.n as f64 + (b.n - a.n) as f64 * ga / (ga - gb);
                root.is_finite().then_some(root)
            }
            _ => None,
        };
        let steps = (b.n - a.n) / s;
        let k = match secant {
            Some(root) => ((root - a.n as f64) / s as f64)
                .floor()
                .clamp(0.0, (steps - 1) as f64) as u64,
            None => (steps - 1) / 2,
        };
        let cut = a.n + k * s;
        let left_end = evaluate(unit, cut, tally);
        let right_start = evaluate(unit, cut + s, tally);
        stack.push((right_start, b, index));
        stack.push((a, left_end, index));
    }
}

fn solve(unit: &Unit, n_min: u64, n_max: u64, brute: bool) -> (Outcome, u64) {
    let stride = unit.stride();
    let mut tally = Tally::new(stride);
    if brute {
        // Class by class too, so that the tally sees the same pieces' members; the bands are
        // merged the same way.
        for r in 0..stride {
            let mut n = n_min + (r + stride - n_min % stride) % stride;
            while n <= n_max {
                tally.evaluations += 1;
                let sample = unit.sample(n, &mut Blind);
                tally.piece(n, n, stride, &sample, &sample);
                n += stride;
            }
        }
    } else {
        for r in 0..stride {
            let first = n_min + (r + stride - n_min % stride) % stride;
            if first > n_max {
                continue;
            }
            let last = n_max - (n_max - first) % stride;
            solve_class(unit, first, last, &mut tally);
        }
    }
    let evaluations = tally.evaluations;
    (tally.outcome(), evaluations)
}

/// Runs the sweep: one [`Row`] per (model, curve/group, policy, cores), in that nesting order.
/// Rows are solved in parallel; `progress(done, total)` is called as decision problems finish.
pub fn sweep(
    spec: &SweepSpec,
    profile: &Profile,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<(Vec<Row>, SweepStats), Error> {
    if spec.n_min == 0 || spec.n_min > spec.n_max || spec.n_max > MAX_N {
        return Err(Error::InvalidRange {
            min: spec.n_min,
            max: spec.n_max,
        });
    }
    if spec.cores.contains(&0) {
        return Err(Error::InvalidThreads);
    }
    // Each row's unit and the unit of its reference (NbTasks = cores = P).
    let key = |model: SweepModel, curve: &CurveSpec, nb_tasks: usize, cores: usize| {
        let workers = nb_tasks.min(cores).max(1);
        match model.legacy() {
            Some(m) => UnitKey::Legacy {
                model: m,
                curve: curve.curve,
                nb_cpus: m.nb_cpus(nb_tasks, cores),
                workers,
            },
            None => UnitKey::Multiexp {
                name: curve.name,
                workers,
            },
        }
    };
    let mut layout = Vec::new();
    let mut keys = BTreeSet::new();
    for &model in &spec.models {
        for curve in &spec.curves {
            if model.legacy().is_some() && legacy_curve(curve.curve).is_none() {
                return Err(Error::UnknownCurve {
                    name: curve.name.to_string(),
                });
            }
            for &policy in &spec.policies {
                for &cores in &spec.cores {
                    let nb_tasks = policy.nb_tasks(cores);
                    let p = nb_tasks.min(cores);
                    let own = key(model, curve, nb_tasks, cores);
                    let reference = key(model, curve, p, p);
                    keys.insert(own.clone());
                    keys.insert(reference.clone());
                    layout.push((
                        model,
                        curve.clone(),
                        policy,
                        cores,
                        nb_tasks,
                        own,
                        reference,
                    ));
                }
            }
        }
    }
    let specs: BTreeMap<&str, &CurveSpec> = spec.curves.iter().map(|c| (c.name, c)).collect();
    let keys: Vec<UnitKey> = keys.into_iter().collect();
    let total = keys.len();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let solved: Vec<Result<(Outcome, u64), Error>> = keys
        .par_iter()
        .map(|k| {
            let unit = match k {
                UnitKey::Legacy {
                    model,
                    curve,
                    nb_cpus,
                    workers,
                } => Unit::Legacy {
                    model: *model,
                    curve: legacy_curve(curve).ok_or_else(|| Error::UnknownCurve {
                        name: curve.to_string(),
                    })?,
                    nb_cpus: *nb_cpus,
                    workers: *workers,
                },
                UnitKey::Multiexp { name, workers } => {
                    let curve = specs[name];
                    let options = PlanOptions {
                        ifma: ifma_applies(curve, spec.ifma),
                        ..PlanOptions::default()
                    };
                    Unit::Multiexp {
                        planner: Box::new(Planner::new(
                            curve,
                            profile.weights_for(curve, spec.ifma),
                            options,
                        )?),
                        workers: *workers,
                    }
                }
            };
            let out = solve(&unit, spec.n_min, spec.n_max, spec.brute);
            let finished = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            progress(finished, total);
            Ok(out)
        })
        .collect();
    let mut outcomes = BTreeMap::new();
    let mut stats = SweepStats {
        units: total,
        evaluations: 0,
    };
    for (k, r) in keys.into_iter().zip(solved) {
        let (outcome, evaluations) = r?;
        stats.evaluations += evaluations;
        outcomes.insert(k, outcome);
    }
    let rows = layout
        .into_iter()
        .map(|(model, curve, policy, cores, nb_tasks, own, reference)| {
            let outcome = outcomes[&own].clone();
            let r = &outcomes[&reference];
            let depends_only_on_min =
                outcome.bands == r.bands && outcome.tail_bands == r.tail_bands;
            let nb_cpus = match own {
                UnitKey::Legacy { nb_cpus, .. } => nb_cpus,
                UnitKey::Multiexp { workers, .. } => workers,
            };
            Row {
                model,
                name: curve.name,
                curve: curve.curve,
                group: curve.group,
                policy,
                cores,
                nb_tasks,
                nb_cpus,
                outcome,
                depends_only_on_min,
            }
        })
        .collect();
    Ok((rows, stats))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_runs_merge_into_the_maximal_intervals_of_their_union() {
        let even = Runs(vec![(10, 20), (30, 30)]);
        let odd = Runs(vec![(11, 15), (19, 31)]);
        assert_eq!(
            merge_classes(&[even, odd], 2),
            vec![(10, 16), (18, 21), (23, 23), (25, 25), (27, 27), (29, 31)]
        );
        // Against the union walked n by n, on pseudo-random runs.
        let mut seed = 12345u64;
        let mut next = move |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..200 {
            let mut classes = vec![Runs::default(), Runs::default()];
            for (r, class) in classes.iter_mut().enumerate() {
                let mut n = r as u64 + 2 * next(5);
                while n < 200 {
                    let hi = n + 2 * next(6);
                    class.add(n, hi, 2);
                    n = hi + 2 * (1 + next(6));
                }
            }
            let fired: BTreeSet<u64> = classes
                .iter()
                .flat_map(|c| c.0.iter().flat_map(|&(lo, hi)| (lo..=hi).step_by(2)))
                .collect();
            let mut expected: Vec<(u64, u64)> = Vec::new();
            for n in fired {
                match expected.last_mut() {
                    Some(l) if l.1 + 1 == n => l.1 = n,
                    _ => expected.push((n, n)),
                }
            }
            assert_eq!(merge_classes(&classes, 2), expected);
        }
    }

    #[test]
    fn policies_set_the_task_budget() {
        assert_eq!(Policy::Double.nb_tasks(8), 16);
        assert_eq!(Policy::Single.nb_tasks(8), 8);
        assert_eq!(Policy::Half.nb_tasks(8), 4);
        assert_eq!(Policy::Half.nb_tasks(1), 1);
    }
}
