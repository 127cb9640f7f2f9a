//! Scalar classes: the planner's view of the scalars' sizes.
//!
//! Provers' scalars are rarely uniform: witnesses hold 0, 1, small integers and small
//! negatives r − k. Each scalar s is normalised to s or r − s, whichever has fewer bits (the
//! point negated with it), and falls into one class: zero (dropped), one (±1: a plain sum of
//! points, no windows), at most 8, 16, 32, 64 or 128 bits, or full. A size class is an MSM of
//! its own whose windowing follows from its bound (fewer chunks, a smaller top chunk).
//!
//! The decision is priced by the same cost model as every plan: one MSM over all n scalars
//! (the plan of uniform scalars, what runs when the classes do not pay), against zero
//! dropped + the plain sum + the cheapest partition of the size classes into runs of
//! neighbouring classes, each run one MSM at its largest bound on the pool, plus gathering its
//! points and scalars. Classes are taken only when they win by the planner's margin, so
//! uniform scalars (all full) keep their plan.

use crate::bucket::Processor;
use crate::plan::layout::Plan;
use crate::plan::planner::{Candidate, Planner};

/// Number of scalar classes.
pub const CLASSES: usize = 8;
/// The class of zero.
pub const ZERO: usize = 0;
/// The class of ±1.
pub const ONE: usize = 1;
/// The class of scalars that stay full-size both ways.
pub const FULL: usize = CLASSES - 1;
/// The bit bound of the size classes 2..=6 (8, 16, 32, 64, 128 bits).
pub const SIZE_BITS: [u32; 5] = [8, 16, 32, 64, 128];

/// The class of a scalar whose normalised form has `bits` bits (≥ 1).
#[inline(always)]
pub fn class_of_bits(bits: u32) -> usize {
    match bits {
        0 => ZERO,
        1 => ONE,
        2..=8 => 2,
        9..=16 => 3,
        17..=32 => 4,
        33..=64 => 5,
        65..=128 => 6,
        _ => FULL,
    }
}

/// The name of class `class`, for explanations.
pub fn class_name(class: usize) -> String {
    match class {
        ZERO => "zero".into(),
        ONE => "±1".into(),
        FULL => "full".into(),
        c => format!("≤{} bits", SIZE_BITS[c - 2]),
    }
}

/// How many scalars fall into each class, and how many of those were negated (r − s).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScalarStats {
    /// Scalars per class: zero, ±1, ≤ 8, 16, 32, 64, 128 bits, full.
    pub counts: [usize; CLASSES],
    /// Of those, the scalars normalised to r − s (their points negated).
    pub negated: [usize; CLASSES],
}

impl ScalarStats {
    /// Statistics of n uniform (full-size) scalars: what a plan without scalars assumes.
    pub fn uniform(n: usize) -> Self {
        let mut s = ScalarStats::default();
        s.counts[FULL] = n;
        s
    }

    /// The classes of `scalars` (in parallel on the current rayon pool).
    pub fn of<F: ark_ff::PrimeField>(scalars: &[F]) -> Self {
        use rayon::prelude::*;
        scalars
            .par_chunks(4096)
            .map(crate::classes::stats_of_scalars)
            .reduce(ScalarStats::default, |mut a, b| {
                a.add(&b);
                a
            })
    }

    /// The number of scalars.
    pub fn n(&self) -> usize {
        self.counts.iter().sum()
    }

    /// Counts one scalar of class code `code` (class, and 0x80 if negated).
    #[inline(always)]
    pub(crate) fn count(&mut self, code: u8) {
        self.count_many(code, 1);
    }

    /// Counts `times` scalars of class code `code`.
    pub(crate) fn count_many(&mut self, code: u8, times: usize) {
        let c = (code & !crate::classes::NEGATED) as usize;
        self.counts[c] += times;
        self.negated[c] += times * (code & crate::classes::NEGATED != 0) as usize;
    }

    /// Adds the counts of `other`.
    pub fn add(&mut self, other: &ScalarStats) {
        for c in 0..CLASSES {
            self.counts[c] += other.counts[c];
            self.negated[c] += other.negated[c];
        }
    }

    /// The classes' shares, in words: `25.0% zero, 25.0% ±1, 50.0% full`.
    pub fn describe(&self) -> String {
        let n = self.n().max(1) as f64;
        (0..CLASSES)
            .filter(|&c| self.counts[c] > 0)
            .map(|c| {
                format!(
                    "{:.1}% {}",
                    100.0 * self.counts[c] as f64 / n,
                    class_name(c)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One MSM of the class plan: a run of neighbouring size classes at its largest bound.
#[derive(Clone, Debug)]
pub struct ClassGroup {
    /// The first and last class of the run (2..=[`FULL`]).
    pub classes: (usize, usize),
    /// The bit bound its scalars are planned for.
    pub bits: u32,
    /// Its scalars.
    pub n: usize,
    /// Whether its points and scalars are gathered (copied) first; else it runs in place,
    /// over all the MSM's points with zero digits outside the group (the cheaper of the two
    /// as the cost model prices them).
    pub gathered: bool,
    /// Whether its full-size scalars are split by the curve's GLV endomorphism: each runs
    /// as two scalars of at most `bits` bits, on its point and the endomorphism's image (so a
    /// GLV group is gathered, and `n` counts both halves).
    pub glv: bool,
    /// Its plan: for its `n` points if gathered, for all the MSM's points in place.
    pub plan: Plan,
}

/// The price of one run of neighbouring size classes, and how it runs.
#[derive(Clone, Copy, Debug)]
struct Run {
    /// Modeled makespan, ns (its gathering and GLV split included).
    cost: f64,
    /// Points of its MSM: all n in place, its own gathered (two per full-size scalar under
    /// GLV).
    points: usize,
    /// The bit bound its windows are planned for.
    bits: u32,
    gathered: bool,
    glv: bool,
    /// Its windows are cut for the GLV halves' bound (every scalar of it below that).
    exact: bool,
    /// The candidate its planner chose for its points (materialised into the group's plan
    /// without deciding again).
    chosen: Candidate,
}

impl ClassGroup {
    /// Whether class `class` runs in this group.
    pub fn holds(&self, class: usize) -> bool {
        (self.classes.0..=self.classes.1).contains(&class)
    }
}

/// The planner's decision for given scalars: one MSM over all of them, or their classes.
#[derive(Clone, Debug)]
pub struct ClassPlan {
    stats: ScalarStats,
    /// The one-MSM plan; not made where no scalar needs windows (only zero and ±1).
    whole: Option<Plan>,
    whole_cost: Option<f64>,
    classes: Option<Classes>,
    reason: String,
}

/// The class side of a [`ClassPlan`]: the plain sum and the size-class MSMs.
#[derive(Clone, Debug)]
struct Classes {
    ones: usize,
    ones_workers: usize,
    ones_ifma: bool,
    groups: Vec<ClassGroup>,
    cost: f64,
}

impl ClassPlan {
    /// The scalars' statistics it was made from.
    pub fn stats(&self) -> &ScalarStats {
        &self.stats
    }

    /// The plan of one MSM over all the scalars (what runs unless the classes do); `None`
    /// where every scalar is zero or ±1, which the classes always win.
    pub fn whole(&self) -> Option<&Plan> {
        self.whole.as_ref()
    }

    /// Whether the MSM runs by classes.
    pub fn uses_classes(&self) -> bool {
        self.classes.is_some()
    }

    /// The size-class MSMs (empty when the MSM runs whole).
    pub fn groups(&self) -> &[ClassGroup] {
        self.classes.as_ref().map_or(&[], |c| &c.groups)
    }

    /// Scalars ±1 summed without windows (0 when the MSM runs whole).
    pub fn ones(&self) -> usize {
        self.classes.as_ref().map_or(0, |c| c.ones)
    }

    /// Workers of the plain sum.
    pub fn ones_workers(&self) -> usize {
        self.classes.as_ref().map_or(1, |c| c.ones_workers)
    }

    /// Whether the plain sum runs on IFMA records (the model prices it lower there).
    pub fn ones_ifma(&self) -> bool {
        self.classes.as_ref().is_some_and(|c| c.ones_ifma)
    }

    /// The modeled time of what runs, in ns.
    pub fn makespan(&self) -> f64 {
        match &self.classes {
            Some(c) => c.cost,
            None => self.whole_cost.unwrap_or(0.0),
        }
    }

    /// The modeled time of one MSM over all the scalars, in ns (`None` where it was not
    /// planned: see [`whole`](Self::whole)).
    pub fn whole_makespan(&self) -> Option<f64> {
        self.whole_cost
    }

    /// Why it runs whole or by classes, in words.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// What runs, in one paragraph.
    pub fn describe(&self) -> String {
        match &self.classes {
            None => format!(
                "one MSM: {}",
                self.whole.as_ref().map(Plan::describe).unwrap_or_default()
            ),
            Some(c) => {
                let mut parts = vec![format!("{} zero scalars dropped", self.stats.counts[ZERO])];
                if c.ones > 0 {
                    parts.push(format!(
                        "{} scalars ±1: a plain sum on {} workers",
                        c.ones, c.ones_workers
                    ));
                }
                for g in &c.groups {
                    let span = if g.classes.0 == g.classes.1 {
                        class_name(g.classes.0)
                    } else {
                        format!("{} … {}", class_name(g.classes.0), class_name(g.classes.1))
                    };
                    parts.push(format!(
                        "{} scalars {span} ({} bits{}): {}",
                        if g.glv {
                            g.n - self.stats.counts[FULL]
                        } else {
                            g.n
                        },
                        g.bits,
                        if g.glv {
                            ", GLV: full-size split in two, gathered"
                        } else if g.gathered {
                            ", gathered"
                        } else {
                            ", in place"
                        },
                        g.plan.describe()
                    ));
                }
                parts.join("; ")
            }
        }
    }
}

impl Planner {
    /// The plan for n = `stats.n()` scalars of these classes on `workers` workers: one MSM
    /// (the plan [`plan`](Self::plan) makes for n uniform scalars), or zero dropped, ±1 summed
    /// and the size classes run as the cheapest partition into runs of neighbouring classes,
    /// whichever the cost model prices lower by the planner's margin.
    pub fn plan_classes(&self, stats: &ScalarStats, workers: usize) -> ClassPlan {
        self.plan_classes_with(stats, workers, false)
    }

    /// [`plan_classes`](Self::plan_classes); with `always`, by classes whenever any scalar is
    /// not full-size, whatever the prices (the cheapest partition all the same).
    pub fn plan_classes_with(
        &self,
        stats: &ScalarStats,
        workers: usize,
        always: bool,
    ) -> ClassPlan {
        let n = stats.n();
        let workers = workers.clamp(1, crate::MAX_THREADS);
        let windowed = stats.counts[2..].iter().sum::<usize>();
        // Zero and ±1 alone: a plain sum, always below any MSM over them.
        let whole = (windowed > 0).then(|| self.plan(n, workers));
        let whole_cost = whole.as_ref().map(Plan::makespan);
        let run_whole = |reason: String| ClassPlan {
            stats: *stats,
            whole: whole.clone(),
            whole_cost,
            classes: None,
            reason,
        };
        let glv_bits = self.options().glv_bits;
        if stats.counts[FULL] == n && glv_bits.is_none() {
            return run_whole("one MSM: every scalar is full-size".into());
        }
        let ones = stats.counts[ONE];
        let ones_workers = workers.min(ones.div_ceil(PLAIN_SUM_MIN)).max(1);
        let ones_cost = if ones > 0 {
            self.plain_sum_cost(ones, ones_workers)
        } else {
            0.0
        };
        // The non-empty size classes, and the price of each run of neighbours among them.
        let sizes: Vec<usize> = (2..=FULL).filter(|&c| stats.counts[c] > 0).collect();
        let full_bits = self.scalar_bits();
        let bits_of = |c: usize| {
            if c == FULL {
                full_bits
            } else {
                SIZE_BITS[c - 2]
            }
        };
        let m = sizes.len();
        let count_of =
            |a: usize, b: usize| -> usize { sizes[a..=b].iter().map(|&c| stats.counts[c]).sum() };
        let mut runs: Vec<Vec<Option<Run>>> = vec![vec![None; m]; m];
        let mut run = |a: usize, b: usize| -> Run {
            *runs[a][b].get_or_insert_with(|| {
                let count = count_of(a, b);
                // In place: an MSM over all n points, the others' digits zero (priced as if
                // every point had one: an upper bound). Gathered: over its own points, plus
                // the copies.
                let bits = bits_of(sizes[b]);
                let planner = self.class_planner(bits);
                let in_place = planner.decide(n, workers).chosen;
                let mut best = Run {
                    cost: in_place.makespan,
                    points: n,
                    bits,
                    gathered: false,
                    glv: false,
                    exact: false,
                    chosen: in_place,
                };
                if count < n {
                    let chosen = planner.decide(count, workers).chosen;
                    let gathered = chosen.makespan + self.gather_cost(count, workers);
                    if gathered < best.cost {
                        best = Run {
                            cost: gathered,
                            points: count,
                            gathered: true,
                            chosen,
                            ..best
                        };
                    }
                }
                // GLV: each full-size scalar of the run as two halves, gathered.
                let full = stats.counts[FULL];
                let points = count + full;
                let fits = self.glv_fits(points, workers) || self.options().glv_always;
                if let (Some(half), FULL, true) = (glv_bits, sizes[b], fits) {
                    let below = if a < b { bits_of(sizes[b - 1]) } else { 0 };
                    let bits = half.max(below);
                    let exact = below < half && self.options().glv_max.is_some();
                    let chosen = self
                        .group_planner(bits, exact)
                        .decide(points, workers)
                        .chosen;
                    let cost = chosen.makespan
                        + self.gather_cost(points, workers)
                        + self.glv_split_cost(full, workers);
                    if cost < best.cost || self.options().glv_always {
                        best = Run {
                            cost,
                            points,
                            bits,
                            gathered: true,
                            glv: true,
                            exact,
                            chosen,
                        };
                    }
                }
                best
            })
        };
        // Every partition of the m classes into runs: bit i of `cuts` ends a run after i.
        let mut best: Option<(f64, u32)> = None;
        for cuts in 0..1u32 << m.saturating_sub(1) {
            let mut cost = ones_cost;
            let mut start = 0;
            for i in 0..m {
                if i + 1 == m || cuts >> i & 1 == 1 {
                    cost += run(start, i).cost;
                    start = i + 1;
                }
            }
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, cuts));
            }
        }
        let (classes_cost, cuts) = best.unwrap_or((ones_cost, 0));
        let margin = self.options().margin;
        if let Some(whole_cost) = whole_cost {
            let forced = always || (self.options().glv_always && glv_bits.is_some());
            if !forced && classes_cost >= whole_cost * (1.0 - margin) {
                return run_whole(format!(
                    "one MSM: scalars {}; by classes {:.0} µs modeled vs one MSM {:.0} µs, \
                     not below it by the margin {:.1}%",
                    stats.describe(),
                    classes_cost / 1e3,
                    whole_cost / 1e3,
                    100.0 * margin
                ));
            }
        }
        let mut groups = Vec::new();
        let mut start = 0;
        for i in 0..m {
            if i + 1 == m || cuts >> i & 1 == 1 {
                let r = run(start, i);
                groups.push(ClassGroup {
                    classes: (sizes[start], sizes[i]),
                    bits: r.bits,
                    n: if r.gathered {
                        r.points
                    } else {
                        count_of(start, i)
                    },
                    gathered: r.gathered,
                    glv: r.glv,
                    plan: self
                        .group_planner(r.bits, r.exact)
                        .materialise(&r.chosen, r.points, workers),
                });
                start = i + 1;
            }
        }
        let reason = match whole_cost {
            Some(whole_cost) => format!(
                "by classes: scalars {}; modeled {:.0} µs vs one MSM {:.0} µs ({:.1}% less)",
                stats.describe(),
                classes_cost / 1e3,
                whole_cost / 1e3,
                100.0 * (1.0 - classes_cost / whole_cost)
            ),
            None => format!(
                "by classes: scalars {}; no scalar needs windows: {:.0} µs modeled",
                stats.describe(),
                classes_cost / 1e3
            ),
        };
        ClassPlan {
            stats: *stats,
            whole,
            whole_cost,
            classes: Some(Classes {
                ones,
                ones_workers,
                ones_ifma: self.plain_sum_on_ifma(),
                groups,
                cost: classes_cost,
            }),
            reason,
        }
    }

    /// The planner of a size class of `bits` bits (this one for the full class).
    fn class_planner(&self, bits: u32) -> Planner {
        if bits >= self.scalar_bits() {
            self.clone()
        } else {
            self.for_bits(bits)
        }
    }

    /// Whether a GLV run of `points` points (two per full-size scalar) keeps its points and
    /// digits within the `workers` workers' shares of the last-level cache
    /// ([`PlanOptions::glv_cache`]; always where that is unknown).
    pub fn glv_fits(&self, points: usize, workers: usize) -> bool {
        const DIGIT_BYTES: u64 = 16;
        match self.options().glv_cache {
            Some(share) => {
                let bytes = points as u64 * (2 * self.sizes().coordinate + DIGIT_BYTES);
                bytes <= share.saturating_mul(workers as u64)
            }
            None => true,
        }
    }

    /// The planner of a run of GLV halves alone (every scalar full-size, so 2 points each),
    /// where GLV is offered and a run of `points` points fits the cache (or GLV is forced):
    /// the one a class plan of full-size scalars prices its GLV run with.
    pub fn glv_planner(&self, points: usize, workers: usize) -> Option<Planner> {
        let half = self.options().glv_bits?;
        let fits = self.glv_fits(points, workers) || self.options().glv_always;
        fits.then(|| self.group_planner(half, self.options().glv_max.is_some()))
    }

    /// The planner of a run of `bits` bits, its windows cut for the GLV halves' bound where
    /// `exact`.
    fn group_planner(&self, bits: u32, exact: bool) -> Planner {
        match (exact, self.options().glv_max) {
            (true, Some(max)) => self.for_max(bits, &max),
            _ => self.class_planner(bits),
        }
    }

    /// The plain sum of `ones` points on `workers` workers: one batch-affine addition each
    /// (the profile's price at window 16, its largest batch), on IFMA records where
    /// [`plain_sum_on_ifma`](Self::plain_sum_on_ifma), in parallel, then a dispatch.
    pub fn plain_sum_cost(&self, ones: usize, workers: usize) -> f64 {
        let (scalar, ifma) = self.plain_sum_prices();
        let add = if self.plain_sum_on_ifma() {
            ifma
        } else {
            scalar
        };
        ones as f64 * add / workers as f64 + self.model().dispatch(1, workers)
    }

    /// Whether the plain sum runs on IFMA records: where the planner runs IFMA and an
    /// addition there, plus converting its point (each is used once), costs less than the
    /// scalar one (so BN254's 5-limb field does, BLS12-381's 8 limbs do not).
    pub fn plain_sum_on_ifma(&self) -> bool {
        let (scalar, ifma) = self.plain_sum_prices();
        self.options().ifma && ifma < scalar
    }

    /// The price of one plain-sum addition: scalar batch-affine, and IFMA with the point's
    /// record conversion (infinite where the profile has no IFMA weights).
    fn plain_sum_prices(&self) -> (f64, f64) {
        let w = &self.model().weights;
        let scalar = w
            .task_weights(16, Processor::BatchAffine)
            .map_or(w.add_mixed, |t| t.point);
        let ifma = w
            .task_weights(16, Processor::BatchAffineIfma)
            .map_or(f64::INFINITY, |t| t.point + w.prepare);
        (scalar, ifma)
    }

    /// Splitting `full` full-size scalars by GLV on `workers` workers: each scalar's split
    /// (about four exits from the Montgomery form's worth of products) and its point's image
    /// under the endomorphism (one product; with the two copies, an eighth of an addition).
    pub fn glv_split_cost(&self, full: usize, workers: usize) -> f64 {
        let w = &self.model().weights;
        full as f64 * (4.0 * w.digit_scalar + w.add_mixed / 8.0) / workers.min(full.max(1)) as f64
            + self.model().dispatch(1, workers)
    }

    /// Gathering `count` points and scalars of a class (a copy into fresh memory, the point
    /// negated where its scalar was, and the scalar's exit from the Montgomery form) on
    /// `workers` workers: the copy priced as half a point's record conversion (which reads a
    /// point and writes its coordinates anew, as the copy does, with two products more).
    pub fn gather_cost(&self, count: usize, workers: usize) -> f64 {
        let w = &self.model().weights;
        count as f64 * (0.5 * w.prepare + w.digit_scalar) / workers.min(count.max(1)) as f64
            + self.model().dispatch(1, workers)
    }
}

/// The fewest ±1 scalars per plain-sum worker.
pub const PLAIN_SUM_MIN: usize = 256;
