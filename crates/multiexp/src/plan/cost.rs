//! Operation counts priced by a profile: what one chunk task, the digit pass, the IFMA record
//! preparation, the merges, Horner's rule and the dispatch of parallel phases cost.
//!
//! For window c with K chunks, chunk j has B_j buckets (2^(c-1), or the top digit bound for
//! the top chunk) and digit density δ_j (the share of non-zero digits: 1 - 2^-c, or
//! 1 - 1/(B_top + 1) for the top chunk). A task over m points with processor p costs
//!
//!   t(m, j, p) = task + fixed(c_j, p) + (x - F)·point(c_L, p) + F·bucket(c_j, p)
//!   x = δ_j·m,  F = F(x, B_j) ≈ B_j·(1 - e^(-x/B_j))   (expected filled buckets)
//!
//! where L is the task's lanes per bucket (`crate::bucket::lanes`: 1 but for batch-affine
//! tasks of small windows with many points) and c_L = c_j without lanes. With lanes the
//! additions run in B_j·L slots, with the batches that many slots hold, and cost what the
//! window measured on that many slots charges (`lane_window`: c_j + log2 L for weights
//! measured without lanes; c_j itself for weights measured with them, at full lanes).
//!
//! The first point into a bucket is a copy: x - F points are additions, and each of the F
//! filled buckets costs its copy and its share of the reduction (less an empty bucket's price,
//! which `fixed` carries B times: `bucket` may be below `point`, or negative). The profile
//! keeps fixed + B·(bucket - point) ≥ 0, so cutting a task never looks cheaper than the whole:
//! for x = x1 + x2 the cut costs the whole plus task + fixed + (bucket - point)·G, where
//! G = F(x1) + F(x2) - F(x) lies in [0, B]. F is the chord interpolation
//! of B·(1 - e^(-x/B)) at x/B ∈ {0, 1/64, 1/32, 1/16, 1/8, 1/4, 1/2, 3/4, 1, 3/2, 2, 3, 4, 6, 8, 12} (within
//! 1.2% of B everywhere, 0.4% of x below B/64), constant beyond 12B: piecewise affine in x, so a task's cost is affine in n
//! between two knots, which is what makes the sweep's interval argument exact for this model
//! (`plan::probe`). The knot a size falls in is found through the probe.
//!
//! where c_j is the smallest window with 2^(c_j-1) ≥ B_j (c itself but for a small top
//! chunk): a window's weights carry the cache footprint of its buckets. The rest of an MSM of
//! n points on P workers:
//!
//!   digits    n·(digit_scalar + K·digit) / P            (parallel, every plan)
//!   records   n·prepare / P                             (parallel, plans with IFMA tasks)
//!   merges    (Σ_j k_j)·merge - K·add_full              (sequential: every task's partial
//!                                                        sum, the first of a chunk into zero)
//!   Horner    (K - 1)·(c·double + add_full)             (sequential)
//!   dispatch  phases·dispatch if P ≥ 2                  (2 phases, 3 with IFMA records)

use crate::bucket::Processor;
use crate::digits::Windowing;
use crate::plan::probe::{Blind, Probe};
use crate::profile::Weights;

/// Knots x/B of the filled-bucket interpolation.
const FILL_KNOTS: [f64; 15] = [
    1.0 / 64.0,
    1.0 / 32.0,
    1.0 / 16.0,
    0.125,
    0.25,
    0.5,
    0.75,
    1.0,
    1.5,
    2.0,
    3.0,
    4.0,
    6.0,
    8.0,
    12.0,
];

/// 1 − e^(−t) at each knot t of [`FILL_KNOTS`], computed once: the planner interpolates
/// between them for every chunk of every candidate it weighs, and evaluating the exponential
/// there was a third of its time (`perf`, BN254 2^12 class plans).
fn fill_at_knots() -> &'static [f64; 15] {
    static AT: std::sync::OnceLock<[f64; 15]> = std::sync::OnceLock::new();
    AT.get_or_init(|| FILL_KNOTS.map(|t| -(-t).exp_m1()))
}

/// A profile's weights applied to one curve/group's windowings.
#[derive(Clone, Debug)]
pub struct CostModel {
    /// The per-operation prices.
    pub weights: Weights,
}

impl CostModel {
    /// The model for one curve/group's weights.
    pub fn new(weights: Weights) -> Self {
        CostModel { weights }
    }

    /// Expected share of non-zero digits in chunk `j`.
    pub fn density(w: &Windowing, j: usize) -> f64 {
        if j + 1 == w.chunks {
            1.0 - 1.0 / (w.top_max as f64 + 1.0)
        } else {
            1.0 - 1.0 / (1u64 << w.window) as f64
        }
    }

    /// The window whose weights price chunk `j`: the smallest with at least B_j buckets.
    pub fn priced_window(w: &Windowing, j: usize) -> u32 {
        let buckets = w.buckets(j).max(1);
        let c = usize::BITS - (buckets - 1).leading_zeros() + 1;
        c.min(w.window)
    }

    /// Expected number of filled buckets after `x` uniform digits into `buckets` buckets (the
    /// piecewise-affine approximation of the module header).
    pub fn filled(x: f64, buckets: f64) -> f64 {
        Self::filled_probed(x, buckets, &mut Blind)
    }

    /// [`filled`](Self::filled), the knot comparisons through `probe`.
    pub fn filled_probed<Pr: Probe>(x: f64, buckets: f64, probe: &mut Pr) -> f64 {
        if buckets <= 0.0 {
            return 0.0;
        }
        let at = fill_at_knots();
        let (mut lo, mut flo) = (0.0, 0.0);
        for (&hi, &fhi) in FILL_KNOTS.iter().zip(at) {
            if probe.lt(x, hi * buckets) {
                let slope = (fhi - flo) / (hi - lo);
                return buckets * flo + (x - lo * buckets) * slope;
            }
            (lo, flo) = (hi, fhi);
        }
        buckets * flo
    }

    /// t(m, j, p): one task over `m` points of chunk `j` with `processor`; `None` where the
    /// profile has no weights for that processor.
    pub fn task_with(&self, w: &Windowing, j: usize, m: f64, processor: Processor) -> Option<f64> {
        self.task_with_probed(w, j, m, processor, &mut Blind)
    }

    /// [`task_with`](Self::task_with), its n-dependent comparisons through `probe`.
    pub fn task_with_probed<Pr: Probe>(
        &self,
        w: &Windowing,
        j: usize,
        m: f64,
        processor: Processor,
        probe: &mut Pr,
    ) -> Option<f64> {
        let priced = Self::priced_window(w, j);
        let tw = self.weights.task_weights(priced, processor)?;
        let hits = Self::density(w, j) * m;
        let buckets = w.buckets(j);
        // Lanes (`crate::bucket::lanes`): the additions land in buckets·lanes slots, in the
        // batches those slots hold, so they cost what the window measured on as many charges.
        let lanes = Self::lanes_probed(processor, buckets, m, probe);
        let point = if lanes > 1 {
            let wide = self.lane_window(priced, buckets * lanes, processor);
            self.weights.task_weights(wide, processor)?.point
        } else {
            tw.point
        };
        let filled = Self::filled_probed(hits, buckets as f64, probe);
        Some(self.weights.task + tw.fixed + (hits - filled) * point + filled * tw.bucket)
    }

    /// The window whose `point` weight prices the additions of a task with lanes that spread
    /// its buckets (priced at window `priced`) over `slots` slots: the smallest window from
    /// `priced` up whose weights were measured on at least that many slots. A batch holds each
    /// slot once (at most a quarter of them, `bucket::batch_affine`), so the slots set the
    /// batch size that amortises the shared inversion, the bulk of a small window's price.
    /// Weights measured with lanes (`Weights::lanes_in_windows`) price 2^(c-1)·L slots at
    /// window c, L the most lanes 2^(c-1) buckets take: a task with its buckets' full lanes
    /// is priced at its own window. Weights measured without price 2^(c-1) slots: the task
    /// is priced at window `priced` + log2(lanes).
    pub fn lane_window(&self, priced: u32, slots: usize, processor: Processor) -> u32 {
        let mut c = priced.max(1);
        while c < crate::digits::MAX_WINDOW {
            let buckets = 1usize << (c - 1);
            let measured = if self.weights.lanes_in_windows {
                buckets * crate::bucket::max_lanes(processor, buckets)
            } else {
                buckets
            };
            if measured >= slots {
                break;
            }
            c += 1;
        }
        c
    }

    /// The lanes per bucket of a task of `m` points over `buckets` buckets, the rule the
    /// executor runs (`crate::bucket::lanes` calls this): the most `max_lanes` allows, halved
    /// while the task has fewer than `LANE_POINTS` points a slot; the comparison with m goes
    /// through `probe`.
    pub fn lanes_probed<Pr: Probe>(
        processor: Processor,
        buckets: usize,
        m: f64,
        probe: &mut Pr,
    ) -> usize {
        let mut lanes = crate::bucket::max_lanes(processor, buckets);
        while lanes > 1 && probe.lt(m, (crate::bucket::LANE_POINTS * buckets * lanes) as f64) {
            lanes /= 2;
        }
        lanes
    }

    /// t(m, j, p), with XYZZ's price where the profile has none for `processor`.
    pub fn task(&self, w: &Windowing, j: usize, m: f64, processor: Processor) -> f64 {
        self.task_probed(w, j, m, processor, &mut Blind)
    }

    /// [`task`](Self::task), its n-dependent comparisons through `probe`.
    pub fn task_probed<Pr: Probe>(
        &self,
        w: &Windowing,
        j: usize,
        m: f64,
        processor: Processor,
        probe: &mut Pr,
    ) -> f64 {
        match self.task_with_probed(w, j, m, processor, probe) {
            Some(t) => t,
            None => self
                .task_with_probed(w, j, m, Processor::Xyzz, probe)
                .unwrap_or(0.0),
        }
    }

    /// The digit pass over n scalars and K chunks (total work, before dividing by workers).
    pub fn digits(&self, n: usize, w: &Windowing) -> f64 {
        n as f64 * (self.weights.digit_scalar + w.chunks as f64 * self.weights.digit)
    }

    /// Converting n points to IFMA records (total work, before dividing by workers).
    pub fn records(&self, n: usize) -> f64 {
        n as f64 * self.weights.prepare
    }

    /// Merging the partial sums of chunks cut into `parts[j]` pieces into the chunk sums.
    pub fn merges(&self, parts: &[usize]) -> f64 {
        self.merges_counted(parts.iter().sum(), parts.len())
    }

    /// [`merges`](Self::merges) of `tasks` partial sums into `chunks` chunk sums.
    pub fn merges_counted(&self, tasks: usize, chunks: usize) -> f64 {
        (tasks as f64 * self.weights.merge - chunks as f64 * self.weights.add_full).max(0.0)
    }

    /// Horner's combination of K chunk sums.
    pub fn horner(&self, w: &Windowing) -> f64 {
        (w.chunks - 1) as f64 * (w.window as f64 * self.weights.double + self.weights.add_full)
    }

    /// Starting `phases` parallel phases on `workers` workers (free on one, which runs inline).
    pub fn dispatch(&self, phases: usize, workers: usize) -> f64 {
        if workers >= 2 {
            phases as f64 * self.weights.dispatch
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves;
    use crate::digits::MAX_WINDOW;

    #[test]
    fn the_top_chunk_is_priced_at_the_window_of_its_bucket_count() {
        let spec = curves::spec("bn254-g1").unwrap();
        let w = Windowing::new(spec.modulus(), 16);
        assert_eq!(CostModel::priced_window(&w, 0), 16);
        let top = w.chunks - 1;
        let b = w.buckets(top);
        let c = CostModel::priced_window(&w, top);
        assert!(
            1usize << (c - 1) >= b && (c == 1 || 1usize << (c - 2) < b),
            "B={b} c={c}"
        );
    }

    #[test]
    fn a_task_with_lanes_prices_its_additions_at_the_window_of_its_slots() {
        let spec = curves::spec("bn254-g1").unwrap();
        let mut weights = crate::Profile::builtin().weights_for(&spec, false);
        // Weights measured without lanes (see the next test for those measured with them).
        weights.lanes_in_windows = false;
        let model = CostModel::new(weights.clone());
        let w = Windowing::new(spec.modulus(), 9);
        let p = Processor::BatchAffine;
        // 2^20 points over 256 buckets: 8 lanes, the additions of a 2^11-bucket window.
        let m = (1u64 << 20) as f64;
        let hits = CostModel::density(&w, 0) * m;
        let filled = CostModel::filled(hits, 256.0);
        let (c9, c12) = (
            weights.task_weights(9, p).unwrap(),
            weights.task_weights(12, p).unwrap(),
        );
        let expected = weights.task + c9.fixed + (hits - filled) * c12.point + filled * c9.bucket;
        let got = model.task_with(&w, 0, m, p).unwrap();
        assert!(
            (got - expected).abs() <= 1e-9 * expected,
            "{got} vs {expected}"
        );
        // Too few points for lanes: the window's own price.
        let m = 3000.0;
        let hits = CostModel::density(&w, 0) * m;
        let filled = CostModel::filled(hits, 256.0);
        let expected = weights.task + c9.fixed + (hits - filled) * c9.point + filled * c9.bucket;
        let got = model.task_with(&w, 0, m, p).unwrap();
        assert!(
            (got - expected).abs() <= 1e-9 * expected,
            "{got} vs {expected}"
        );
    }

    #[test]
    fn weights_measured_with_lanes_price_a_task_with_full_lanes_at_its_own_window() {
        let spec = curves::spec("bn254-g1").unwrap();
        let p = Processor::BatchAffine;
        let mut weights = crate::Profile::builtin().weights_for(&spec, false);
        // Measured without lanes: window c prices 2^(c-1) slots.
        weights.lanes_in_windows = false;
        let plain = CostModel::new(weights.clone());
        assert_eq!(plain.lane_window(3, 4 * 16, p), 7);
        assert_eq!(plain.lane_window(4, 8 * 16, p), 8);
        assert_eq!(plain.lane_window(4, 5 * 16, p), 8);
        assert_eq!(plain.lane_window(9, 256 * 8, p), 12);
        assert_eq!(plain.lane_window(12, 1 << 20, p), MAX_WINDOW);
        // Measured with lanes: window c prices its buckets' full lanes.
        weights.lanes_in_windows = true;
        let laned = CostModel::new(weights.clone());
        for c in 1..=10u32 {
            let b = 1usize << (c - 1);
            let full = crate::bucket::max_lanes(p, b);
            assert_eq!(laned.lane_window(c, b * full, p), c, "c={c}");
        }
        // Fewer lanes than full: still no window below its own.
        assert_eq!(laned.lane_window(7, 64 * 4, p), 7);
        // The top chunk of a 16-bit class at c = 14 (4 buckets, 16 lanes over 2^20 points)
        // costs window 3's additions, not window 7's.
        let w = Windowing::for_bits(16, 14);
        let top = w.chunks - 1;
        assert_eq!(w.buckets(top), 4);
        let m = (1u64 << 20) as f64;
        assert_eq!(CostModel::lanes_probed(p, 4, m, &mut Blind), 16);
        let hits = CostModel::density(&w, top) * m;
        let filled = CostModel::filled(hits, 4.0);
        let c3 = weights.task_weights(3, p).unwrap();
        let expected = weights.task + c3.fixed + (hits - filled) * c3.point + filled * c3.bucket;
        let got = laned.task_with(&w, top, m, p).unwrap();
        assert!(
            (got - expected).abs() <= 1e-9 * expected,
            "{got} vs {expected}"
        );
    }

    /// The kept knot values and the exact powers of two give the planner the very numbers
    /// the exponentials gave it (so no decision moves): the interpolation with 1 − e^(−t)
    /// evaluated at each knot, and 1 − 2^(−c), bit for bit.
    #[test]
    fn kept_knots_and_powers_price_as_the_exponentials_did() {
        let direct = |x: f64, buckets: f64| {
            let exact = |t: f64| -(-t).exp_m1();
            let mut lo = 0.0;
            for &hi in &FILL_KNOTS {
                if x < hi * buckets {
                    let (flo, fhi) = (exact(lo), exact(hi));
                    let slope = (fhi - flo) / (hi - lo);
                    return buckets * flo + (x - lo * buckets) * slope;
                }
                lo = hi;
            }
            buckets * exact(lo)
        };
        for buckets in [1.0, 3.0, 128.0, 4096.0, 65536.0, 1e6] {
            for i in 0..4000 {
                let x = buckets * i as f64 / 200.0;
                let got = CostModel::filled(x, buckets);
                assert_eq!(got.to_bits(), direct(x, buckets).to_bits(), "{x} {buckets}");
            }
        }
        for c in 1..=30u32 {
            let power = 1.0 - 1.0 / (1u64 << c) as f64;
            assert_eq!(
                power.to_bits(),
                (1.0 - (-(c as f64)).exp2()).to_bits(),
                "c = {c}"
            );
        }
    }

    #[test]
    fn filled_buckets_grow_from_the_digit_count_to_the_bucket_count() {
        assert!((CostModel::filled(1.0, 1e6) - 1.0).abs() < 1e-2);
        assert!((CostModel::filled(1e9, 100.0) - 100.0).abs() < 1e-3);
        let half = CostModel::filled(100.0, 100.0);
        assert!((half - 100.0 * (1.0 - (-1f64).exp())).abs() < 1e-9);
        // Within 1.2% of B of the exact expectation everywhere, and monotone.
        let b = 1000.0;
        let mut last = 0.0;
        for i in 0..=2000 {
            let x = i as f64 * 10.0;
            let f = CostModel::filled(x, b);
            let exact = b * -(-x / b).exp_m1();
            assert!((f - exact).abs() <= 0.012 * b, "x={x}: {f} vs {exact}");
            assert!(f >= last);
            last = f;
        }
    }
}
