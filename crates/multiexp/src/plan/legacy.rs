//! gnark-crypto's split decision, as two pure models to compare against: `legacy-master` (the
//! released `MultiExp`) and `legacy-pr875` (its batch-affine pricing PR). They never run an
//! MSM.
//!
//! Both price a window c for n points by the work of one chunk task, over b = `fr.Bits` scalar
//! bits and K = ceil(b / c) chunks, and choose c among the curve's implemented windows:
//!
//! - master: bestC(n) = argmin (b+1)·(n + 2^c) / c, the product formed in integers and the
//!   quotient in float64, scanning c ascending with a strict `<` (ties → smaller c); a task
//!   costs n + 2^c group operations.
//! - PR #875: bestC(n) = argmin (b+1)·(w(c)·n + 2^c) / c in float64 with `<=` (ties → larger
//!   c); a task costs w(c)·n + 2^c, with w(c) = 1 for c < 10, else 0.5 + 14 / batchSize(c) and
//!   batchSize(10..=16) = 80, 150, 200, 350, 400, 500, 640.
//!
//! The split probe (both): C = bestC(n), C' = bestC(⌊n/2⌋), and
//!
//!   pre  = cost(K(C) tasks, task(C, n)),   post = cost(2·K(C') tasks, task(C', ⌊n/2⌋)),
//!   cost(T, t) = reduction + ceil(T / nbCpus)·t   (a wave scheduler: partial waves cost full),
//!
//! where master charges reduction = T with nbCpus = NbTasks (the configured task budget,
//! 2·NumCPU by default), and the PR charges reduction = T·(c + 1) with that arm's window and
//! nbCpus = min(NbTasks, NumCPU). The MSM splits iff post < pre, and then each half
//! (⌊n/2⌋ and n − ⌊n/2⌋ points) decides again with NbTasks = ceil(NbTasks / 2). G2 uses G1's
//! model. The PR's float64 wave cost adds t once per wave, as its Go loop does; the formulas
//! here use no fused multiply-add (Go on amd64 does not fuse; on arm64 it may, which can move a
//! tie by one rounding).
//!
//! Every comparison that depends on n goes through a [`Probe`], so the sweep can solve the
//! decision over intervals of n (see [`crate::plan::probe`]); quantities are affine in n on
//! each residue class of n mod 2, because of ⌊n/2⌋.

use crate::plan::probe::{Blind, Probe};

/// Which of gnark-crypto's models.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LegacyModel {
    /// gnark-crypto master.
    Master,
    /// gnark-crypto PR #875 (batch-affine pricing, reduction in group operations, nbCpus capped
    /// by NumCPU).
    Pr875,
}

/// The facts a legacy model knows about a curve: b and the implemented windows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LegacyCurve {
    /// gnark-crypto's curve name (without the group).
    pub curve: &'static str,
    /// `fr.Bits`: bit length of the scalar field modulus.
    pub scalar_bits: u32,
    /// `implementedCs`, ascending.
    pub windows: &'static [u32],
}

const C4_16: &[u32] = &[4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
const C4_15: &[u32] = &[4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// Every curve gnark-crypto's MultiExp covers, with its b and implemented windows.
pub const LEGACY_CURVES: &[LegacyCurve] = &[
    LegacyCurve {
        curve: "bn254",
        scalar_bits: 254,
        windows: C4_16,
    },
    LegacyCurve {
        curve: "bls12-381",
        scalar_bits: 255,
        windows: C4_16,
    },
    LegacyCurve {
        curve: "bls12-377",
        scalar_bits: 253,
        windows: C4_16,
    },
    LegacyCurve {
        curve: "bls24-315",
        scalar_bits: 253,
        windows: C4_16,
    },
    LegacyCurve {
        curve: "bls24-317",
        scalar_bits: 255,
        windows: C4_16,
    },
    LegacyCurve {
        curve: "bw6-761",
        scalar_bits: 377,
        windows: &[4, 5, 8, 10, 16],
    },
    LegacyCurve {
        curve: "bw6-633",
        scalar_bits: 315,
        windows: &[4, 5, 6, 8, 12, 16],
    },
    LegacyCurve {
        curve: "grumpkin",
        scalar_bits: 254,
        windows: C4_16,
    },
    LegacyCurve {
        curve: "secp256k1",
        scalar_bits: 256,
        windows: C4_15,
    },
    LegacyCurve {
        curve: "secp256r1",
        scalar_bits: 256,
        windows: C4_15,
    },
    LegacyCurve {
        curve: "stark-curve",
        scalar_bits: 252,
        windows: C4_16,
    },
];

/// The legacy facts of curve `curve` (e.g. `bls12-381`), if gnark-crypto has it.
pub fn legacy_curve(curve: &str) -> Option<&'static LegacyCurve> {
    LEGACY_CURVES.iter().find(|c| c.curve == curve)
}

/// gnark's batch size of the batch-affine processor at window c (0: extended Jacobian).
pub fn batch_size(c: u32) -> u32 {
    match c {
        10 => 80,
        11 => 150,
        12 => 200,
        13 => 350,
        14 => 400,
        15 => 500,
        16 => 640,
        _ => 0,
    }
}

/// One arm of the split probe: a window, its task list and its modeled cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arm {
    /// The window c.
    pub window: u32,
    /// Points per task (n, or ⌊n/2⌋ for the split arm).
    pub points: u64,
    /// Number of tasks T (K chunks, twice that for the split arm).
    pub tasks: u64,
    /// Cost of one task, group operations.
    pub task_cost: f64,
    /// The reduction term the model charges.
    pub reduction: f64,
    /// The model's wall-time cost: reduction + ceil(T / nbCpus)·task.
    pub cost: f64,
}

impl Arm {
    /// Total work: reduction + T·task.
    pub fn work(&self) -> f64 {
        self.reduction + self.tasks as f64 * self.task_cost
    }

    /// The same tasks under the fluid makespan on `p` cores, partial waves pro rata:
    /// reduction + max(T·task / p, task).
    pub fn fluid_cost<Pr: Probe>(&self, p: usize, probe: &mut Pr) -> f64 {
        let spread = self.tasks as f64 * self.task_cost / p.max(1) as f64;
        self.reduction + probe.max(spread, self.task_cost)
    }
}

/// The outcome of the top-level split probe.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SplitProbe {
    /// The nbCpus the model used.
    pub nb_cpus: usize,
    /// The unsplit arm (`costPreSplit`).
    pub unsplit: Arm,
    /// The split arm (`costPostSplit`).
    pub split: Arm,
    /// Whether the model splits: post < pre.
    pub splits: bool,
}

/// One MSM the recursion runs in the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SubMsm {
    /// Its number of points.
    pub points: u64,
    /// Its window.
    pub window: u32,
    /// The NbTasks it was planned with.
    pub nb_tasks: usize,
}

/// Deepest recursion [`LegacyModel::split_tree`] follows (gnark has no bound; every split
/// halves NbTasks, and with nbCpus = 1 neither model splits).
pub const MAX_SPLIT_DEPTH: u32 = 64;

impl LegacyModel {
    /// Both models.
    pub const ALL: [LegacyModel; 2] = [LegacyModel::Master, LegacyModel::Pr875];

    /// The sweep's name for it.
    pub fn name(self) -> &'static str {
        match self {
            LegacyModel::Master => "legacy-master",
            LegacyModel::Pr875 => "legacy-pr875",
        }
    }

    /// The nbCpus the model plugs into its wave cost: NbTasks for master, min(NbTasks,
    /// NumCPU) for the PR.
    pub fn nb_cpus(self, nb_tasks: usize, cores: usize) -> usize {
        match self {
            LegacyModel::Master => nb_tasks.max(1),
            LegacyModel::Pr875 => nb_tasks.min(cores).max(1),
        }
    }

    /// The price of one point in one bucket at window c (`msmBucketAddCost`).
    pub fn bucket_add_cost(self, c: u32) -> f64 {
        match (self, batch_size(c)) {
            (LegacyModel::Master, _) | (LegacyModel::Pr875, 0) => 1.0,
            (LegacyModel::Pr875, b) => 0.5 + 14.0 / b as f64,
        }
    }

    /// `costPerTask(c, points)`: one chunk over `points` points.
    pub fn task_cost(self, c: u32, points: u64) -> f64 {
        match self {
            LegacyModel::Master => (points + (1u64 << c)) as f64,
            LegacyModel::Pr875 => self.bucket_add_cost(c) * points as f64 + (1u64 << c) as f64,
        }
    }

    /// The score bestC minimises for window c.
    fn window_score(self, curve: &LegacyCurve, c: u32, points: u64) -> f64 {
        let bits1 = curve.scalar_bits as u64 + 1;
        match self {
            LegacyModel::Master => (bits1 * (points + (1u64 << c))) as f64 / c as f64,
            LegacyModel::Pr875 => bits1 as f64 * self.task_cost(c, points) / c as f64,
        }
    }

    /// bestC(points).
    pub fn best_window(self, curve: &LegacyCurve, points: u64) -> u32 {
        self.best_window_probed(curve, points, &mut Blind)
    }

    /// bestC(points), its comparisons through `probe`.
    pub fn best_window_probed<Pr: Probe>(
        self,
        curve: &LegacyCurve,
        points: u64,
        probe: &mut Pr,
    ) -> u32 {
        let mut best = curve.windows[0];
        let mut min = f64::MAX;
        for &c in curve.windows {
            let score = self.window_score(curve, c, points);
            let take = match self {
                LegacyModel::Master => probe.lt(score, min),
                LegacyModel::Pr875 => probe.cmp(score, min) != std::cmp::Ordering::Greater,
            };
            if take {
                min = score;
                best = c;
            }
        }
        best
    }

    /// `computeNbChunks(c)` = ceil(b / c).
    pub fn chunks(curve: &LegacyCurve, c: u32) -> u64 {
        (curve.scalar_bits as u64).div_ceil(c as u64)
    }

    /// `costFunction`: the model's wall time of `tasks` tasks of `task_cost` at window c.
    pub fn wave_cost(self, c: u32, tasks: u64, nb_cpus: usize, task_cost: f64) -> (f64, f64) {
        let nb_cpus = nb_cpus.max(1) as u64;
        let waves = tasks.div_ceil(nb_cpus);
        match self {
            LegacyModel::Master => {
                // Integers throughout, as in Go: exact in f64 below 2^53.
                let reduction = tasks;
                let cost = reduction + waves * task_cost as u64;
                (reduction as f64, cost as f64)
            }
            LegacyModel::Pr875 => {
                let reduction = tasks as f64 * (c + 1) as f64;
                let mut cost = reduction;
                for _ in 0..waves {
                    cost += task_cost;
                }
                (reduction, cost)
            }
        }
    }

    fn arm(self, c: u32, points: u64, tasks: u64, nb_cpus: usize) -> Arm {
        let task_cost = self.task_cost(c, points);
        let (reduction, cost) = self.wave_cost(c, tasks, nb_cpus, task_cost);
        Arm {
            window: c,
            points,
            tasks,
            task_cost,
            reduction,
            cost,
        }
    }

    /// The top-level split probe for n points with the model's `nb_cpus`.
    pub fn split_probe(self, curve: &LegacyCurve, n: u64, nb_cpus: usize) -> SplitProbe {
        self.split_probe_probed(curve, n, nb_cpus, &mut Blind)
    }

    /// [`split_probe`](Self::split_probe), its comparisons through `probe`.
    pub fn split_probe_probed<Pr: Probe>(
        self,
        curve: &LegacyCurve,
        n: u64,
        nb_cpus: usize,
        probe: &mut Pr,
    ) -> SplitProbe {
        let c = self.best_window_probed(curve, n, probe);
        let unsplit = self.arm(c, n, Self::chunks(curve, c), nb_cpus);
        let half = n / 2;
        let c2 = self.best_window_probed(curve, half, probe);
        let split = self.arm(c2, half, 2 * Self::chunks(curve, c2), nb_cpus);
        let splits = probe.lt(split.cost, unsplit.cost);
        SplitProbe {
            nb_cpus,
            unsplit,
            split,
            splits,
        }
    }

    /// The MSMs the recursion ends up running for n points, NbTasks `nb_tasks` and `cores`
    /// CPUs, in point order (first half first).
    pub fn split_tree(
        self,
        curve: &LegacyCurve,
        n: u64,
        nb_tasks: usize,
        cores: usize,
    ) -> Vec<SubMsm> {
        let mut out = Vec::new();
        self.split_into(curve, n, nb_tasks.max(1), cores, 0, &mut out);
        out
    }

    fn split_into(
        self,
        curve: &LegacyCurve,
        n: u64,
        nb_tasks: usize,
        cores: usize,
        depth: u32,
        out: &mut Vec<SubMsm>,
    ) {
        let probe = self.split_probe(curve, n, self.nb_cpus(nb_tasks, cores));
        if probe.splits && depth < MAX_SPLIT_DEPTH {
            let next = nb_tasks.div_ceil(2);
            self.split_into(curve, n / 2, next, cores, depth + 1, out);
            self.split_into(curve, n - n / 2, next, cores, depth + 1, out);
        } else {
            out.push(SubMsm {
                points: n,
                window: probe.unsplit.window,
                nb_tasks,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(name: &str) -> &'static LegacyCurve {
        legacy_curve(name).unwrap()
    }

    /// First n of each window over [0, 2^24], by scanning bestC.
    fn boundaries(model: LegacyModel, curve: &LegacyCurve) -> Vec<(u64, u32)> {
        let mut out = vec![(0, model.best_window(curve, 0))];
        // bestC is monotone in n (the scores are lines whose slopes fall as c grows), so a
        // binary search per change finds every boundary.
        let mut lo = 0u64;
        let top = 1u64 << 24;
        while model.best_window(curve, top) != out.last().unwrap().1 {
            let current = out.last().unwrap().1;
            let (mut a, mut b) = (lo, top);
            while b - a > 1 {
                let mid = (a + b) / 2;
                if model.best_window(curve, mid) == current {
                    a = mid;
                } else {
                    b = mid;
                }
            }
            out.push((b, model.best_window(curve, b)));
            lo = b;
        }
        out
    }

    #[test]
    fn master_windows_change_where_n_exceeds_two_to_the_c_times_c_minus_one() {
        // (n + 2^(c+1))/(c+1) < (n + 2^c)/c  ⇔  n > 2^c·(c - 1); the tie keeps the smaller c.
        let expected: Vec<(u64, u32)> = std::iter::once((0, 4))
            .chain((4..16).map(|c| ((1u64 << c) * (c as u64 - 1) + 1, c + 1)))
            .collect();
        assert_eq!(expected.last(), Some(&(458_753, 16)));
        for name in ["bn254", "bls12-381", "bls12-377", "grumpkin", "stark-curve"] {
            assert_eq!(
                boundaries(LegacyModel::Master, curve(name)),
                expected,
                "{name}"
            );
        }
        let bls = curve("bls12-381");
        assert_eq!(LegacyModel::Master.best_window(bls, 768), 7);
        assert_eq!(LegacyModel::Master.best_window(bls, 769), 8);
        assert_eq!(LegacyModel::Master.best_window(bls, 458_752), 15);
        assert_eq!(LegacyModel::Master.best_window(bls, 458_753), 16);
        // secp256k1 stops at 15.
        assert_eq!(
            boundaries(LegacyModel::Master, curve("secp256k1")).last(),
            Some(&(212_993, 15))
        );
        // BW6 curves skip windows: 5 → 8 once 3n > 1024, 8 → 10 once 2n > 5632, ...
        assert_eq!(
            boundaries(LegacyModel::Master, curve("bw6-761")),
            vec![(0, 4), (49, 5), (342, 8), (2817, 10), (106_497, 16)]
        );
        assert_eq!(
            boundaries(LegacyModel::Master, curve("bw6-633")),
            vec![
                (0, 4),
                (49, 5),
                (129, 6),
                (513, 8),
                (7425, 12),
                (180_225, 16)
            ]
        );
    }

    #[test]
    fn pr875_moves_the_batch_affine_windows_and_never_picks_nine() {
        // Exact crossings of (w(c)·n + 2^c)/c, ties to the larger c; e.g. 8 → 10 where
        // 10(n + 256) = 8(0.675 n + 1024), n = 1224.3.
        let expected = vec![
            (0, 4),
            (48, 5),
            (128, 6),
            (320, 7),
            (768, 8),
            (1225, 10),
            (6179, 11),
            (24_095, 12),
            (48_448, 13),
            (162_486, 14),
            (336_481, 15),
            (740_072, 16),
        ];
        for name in ["bn254", "bls12-381", "bls24-317"] {
            assert_eq!(
                boundaries(LegacyModel::Pr875, curve(name)),
                expected,
                "{name}"
            );
        }
        let bls = curve("bls12-381");
        assert_eq!(LegacyModel::Pr875.best_window(bls, 1224), 8);
        assert_eq!(LegacyModel::Pr875.best_window(bls, 1225), 10);
        assert!((0..100_000).all(|n| LegacyModel::Pr875.best_window(bls, n) != 9));
        assert_eq!(
            boundaries(LegacyModel::Pr875, curve("bw6-761")),
            vec![(0, 4), (48, 5), (342, 8), (1225, 10), (114_487, 16)]
        );
        assert_eq!(
            boundaries(LegacyModel::Pr875, curve("bw6-633")),
            vec![
                (0, 4),
                (48, 5),
                (128, 6),
                (512, 8),
                (3992, 12),
                (252_283, 16)
            ]
        );
    }

    #[test]
    fn wave_cost_charges_a_partial_wave_in_full() {
        // 16 chunks on 12 CPUs: two waves.
        let (red, cost) = LegacyModel::Master.wave_cost(16, 16, 12, 1000.0);
        assert_eq!((red, cost), (16.0, 2016.0));
        let (red, cost) = LegacyModel::Pr875.wave_cost(16, 16, 12, 1000.0);
        assert_eq!((red, cost), (16.0 * 17.0, 16.0 * 17.0 + 2000.0));
        assert_eq!(LegacyModel::Master.wave_cost(16, 16, 16, 1000.0).1, 1016.0);
    }

    #[test]
    fn master_counts_the_task_budget_as_cpus_and_the_pr_caps_it() {
        assert_eq!(LegacyModel::Master.nb_cpus(16, 8), 16);
        assert_eq!(LegacyModel::Pr875.nb_cpus(16, 8), 8);
        assert_eq!(LegacyModel::Pr875.nb_cpus(4, 8), 4);
    }

    #[test]
    fn master_splits_on_eight_cores_with_the_default_task_budget() {
        // BLS12-381 at n = 300000 with NbTasks = 16 (2 × 8 CPUs): C = 15 gives 17 chunks, two
        // waves on 16 "CPUs"; the halves at C' = 14 give 2 × 19 = 38 tasks in three waves of
        // half the points, and the model calls that cheaper:
        // 38 + 3(150000 + 2^14) < 17 + 2(300000 + 2^15).
        let bls = curve("bls12-381");
        let probe = LegacyModel::Master.split_probe(bls, 300_000, 16);
        assert_eq!((probe.unsplit.window, probe.unsplit.tasks), (15, 17));
        assert_eq!((probe.split.window, probe.split.tasks), (14, 38));
        assert_eq!(probe.unsplit.cost, 17.0 + 2.0 * (300_000.0 + 32_768.0));
        assert_eq!(probe.split.cost, 38.0 + 3.0 * (150_000.0 + 16_384.0));
        assert!(probe.splits);
        // Every split adds work: each half pays its own bucket reductions.
        assert!(probe.split.work() > probe.unsplit.work());
        // Under the fluid makespan on the 8 real cores the split is a loss.
        let mut blind = Blind;
        assert!(probe.split.fluid_cost(8, &mut blind) > probe.unsplit.fluid_cost(8, &mut blind));
    }

    #[test]
    fn split_tree_halves_the_task_budget_at_every_level() {
        let bls = curve("bls12-381");
        let leaves = LegacyModel::Master.split_tree(bls, 300_000, 16, 8);
        assert!(leaves.len() >= 2);
        assert_eq!(leaves.iter().map(|l| l.points).sum::<u64>(), 300_000);
        for l in &leaves {
            assert!(l.nb_tasks < 16);
        }
        // nbCpus = 1 never splits: the halves pay two full waves each.
        for n in [2, 100, 10_000, 1 << 20] {
            assert_eq!(LegacyModel::Master.split_tree(bls, n, 1, 1).len(), 1);
            assert_eq!(LegacyModel::Pr875.split_tree(bls, n, 1, 1).len(), 1);
        }
    }

    #[test]
    fn legacy_scalar_bits_match_the_catalogue() {
        for spec in crate::curves::specs() {
            let legacy = legacy_curve(spec.curve).expect("every catalogue curve is gnark's");
            assert_eq!(legacy.scalar_bits, spec.scalar_bits, "{}", spec.name);
        }
    }
}
