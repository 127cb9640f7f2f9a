//! `multiexp plan`: the planner's candidates, its choice, and why.

use ark_ec::short_weierstrass::SWCurveConfig;
use clap::Parser;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::unstable::sample::Distribution;
use multiexp::unstable::{PlanOptions, Planner};
use multiexp::{Plan, SplitKind, SplitPolicy};
use serde_json::{json, Value};

use crate::common::{load_profile, parse_size, parse_split, Format};

/// Arguments of `multiexp plan`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bn254-g1.
    #[arg(long, default_value = "bn254-g1")]
    pub curve: String,
    /// Number of points.
    #[arg(long, value_parser = parse_size)]
    pub n: usize,
    /// Worker threads; the planner uses min(threads, available cores).
    #[arg(long, conflicts_with = "cores")]
    pub threads: Option<usize>,
    /// Simulate this many cores (e.g. 64 or 256, at most 65536) without the hardware.
    #[arg(long, value_parser = parse_size)]
    pub cores: Option<usize>,
    /// Force the window size.
    #[arg(long)]
    pub window: Option<u32>,
    /// Split policy: auto, never or partsK.
    #[arg(long, value_parser = parse_split, default_value = "auto")]
    pub split: SplitPolicy,
    /// Plan for scalars drawn this way (as `bench --scalars`): their classes, and whether the
    /// MSM runs by classes or as one (default: the plan of uniform scalars alone).
    #[arg(long, value_parser = Distribution::parse)]
    pub scalars: Option<Distribution>,
    /// Seed of the --scalars sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Margin a split must win by, in percent.
    #[arg(long, default_value_t = 3.0)]
    pub margin: f64,
    /// Cost profile (default: $MULTIEXP_PROFILE, else <config dir>/multiexp/profile.json, else
    /// the built-in one).
    #[arg(long)]
    pub profile: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// The JSON shape of one plan.
pub fn plan_json(p: &Plan) -> Value {
    json!({
        "window": p.window(),
        "chunks": p.chunks(),
        "whole_split": p.whole_split(),
        "split": p.split().name(),
        "parts": p.parts(),
        "work": p.work() / 1e6,
        "makespan": p.makespan() / 1e6,
    })
}

/// The most candidates the table shows.
const TABLE_ROWS: usize = 80;

/// What the table's terms mean, printed under it.
pub const LEGEND: [&str; 8] = [
    "legend: * marks the chosen candidate.",
    "  c         window: each scalar is cut into digits of c bits, 2^(c-1) buckets per chunk",
    "  K         chunks: one per digit position; each is one task unless split",
    "  split     none: K tasks | whole k: every chunk cut into k point ranges (K·k tasks, only",
    "            when K < P) | tail r x k: the r chunks of the partial last wave cut into k",
    "  work      modeled CPU time over all workers, ms (a split always adds some)",
    "  makespan  modeled wall time on P workers, ms: the executor's LPT schedule plus digits,",
    "            records, merges and Horner; ratio = makespan / the chosen one's",
];

struct PlanRun(Args);

impl CurveVisitor for PlanRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let cores = match args.cores {
            Some(0) => anyhow::bail!("--cores must be at least 1"),
            Some(c) if c > multiexp::MAX_THREADS => {
                return Err(multiexp::Error::TooManyThreads {
                    threads: c,
                    max: multiexp::MAX_THREADS,
                }
                .into())
            }
            Some(c) => c,
            None => multiexp::Config {
                threads: args.threads,
                ..Default::default()
            }
            .workers()?,
        };
        let options = PlanOptions {
            window: args.window,
            split: args.split,
            margin: args.margin / 100.0,
            processor: None,
            batch: None,
            ifma: multiexp::unstable::ifma_runs::<P>(),
            ..PlanOptions::default()
        };
        let (profile, source) = load_profile(args.profile.as_deref());
        let planner = Planner::new(spec, profile.weights(spec), options)?;
        let report = planner.report(args.n, cores);
        let chosen = report.chosen();
        let by_classes = args.scalars.map(|dist| {
            let scalars =
                multiexp::unstable::sample::scalars_of::<P::ScalarField>(args.n, args.seed, dist);
            let stats = multiexp::ScalarStats::of(&scalars);
            (dist, planner.plan_classes(&stats, cores))
        });
        match args.format {
            Format::Json => {
                let out = json!({
                    "curve": spec.name,
                    "n": args.n,
                    "cores": cores,
                    "profile": source.to_string(),
                    "caches": multiexp::profile::Caches::host().describe(),
                    "unit": "ms",
                    "chosen": plan_json(chosen),
                    "candidates": report.candidates().iter().map(plan_json).collect::<Vec<_>>(),
                    "reason": report.reason(),
                    "scalars": by_classes.as_ref().map(|(dist, cp)| json!({
                        "distribution": dist.name(),
                        "classes": cp.stats().counts,
                        "by_classes": cp.uses_classes(),
                        "makespan": cp.makespan() / 1e6,
                        "one_msm_makespan": cp.whole_makespan().map(|t| t / 1e6),
                        "groups": cp.groups().iter().map(|g| json!({
                            "n": g.n, "bits": g.bits, "gathered": g.gathered,
                            "plan": plan_json(&g.plan),
                        })).collect::<Vec<_>>(),
                        "ones": cp.ones(),
                        "describe": cp.describe(),
                        "reason": cp.reason(),
                    })),
                });
                println!("{}", serde_json::to_string_pretty(&out)?);
            }
            Format::Table => {
                println!(
                    "{} n={} P={} cores, profile {} carried to {} (modeled ms; ratio = \
                     makespan / chosen makespan)",
                    spec.name,
                    args.n,
                    cores,
                    source,
                    multiexp::profile::Caches::host().describe()
                );
                println!(
                    "  {:>2} {:>4} {:<14} {:>12} {:>12} {:>7}",
                    "c", "K", "split", "work", "makespan", "ratio"
                );
                // Many cores give many split candidates: the table keeps every unsplit one and
                // the fastest splits (JSON lists them all).
                let candidates = report.candidates();
                let mut shown: Vec<&Plan> = candidates.iter().collect();
                if shown.len() > TABLE_ROWS {
                    let mut splits: Vec<&Plan> =
                        candidates.iter().filter(|p| p.is_split()).collect();
                    splits.sort_by(|a, b| a.makespan().total_cmp(&b.makespan()));
                    splits.truncate(TABLE_ROWS.saturating_sub(16));
                    shown.retain(|p| !p.is_split() || splits.contains(p) || *p == chosen);
                }
                for p in shown.iter().copied() {
                    let mark = if p == chosen { "*" } else { " " };
                    let split = match p.split() {
                        SplitKind::None => "none".to_string(),
                        SplitKind::Whole(k) => format!("whole {k}"),
                        SplitKind::Tail { chunks, parts } => format!("tail {chunks}x{parts}"),
                    };
                    println!(
                        "{mark} {:>2} {:>4} {:<14} {:>12.3} {:>12.3} {:>7.3}",
                        p.window(),
                        p.chunks(),
                        split,
                        p.work() / 1e6,
                        p.makespan() / 1e6,
                        p.makespan() / chosen.makespan()
                    );
                }
                if shown.len() < candidates.len() {
                    println!(
                        "  ({} slower split candidates not shown; --format json lists all {})",
                        candidates.len() - shown.len(),
                        candidates.len()
                    );
                }
                println!("chosen: {}", chosen.describe());
                println!("why:    {}", report.reason());
                if let Some((dist, cp)) = &by_classes {
                    let one = cp
                        .whole_makespan()
                        .map_or("not planned".to_string(), |t| format!("{:.3} ms", t / 1e6));
                    println!(
                        "scalars {dist}: {}; modeled {:.3} ms (one MSM {one})",
                        cp.describe(),
                        cp.makespan() / 1e6,
                    );
                    println!("why:    {}", cp.reason());
                }
                println!();
                for line in LEGEND {
                    println!("{line}");
                }
            }
        }
        Ok(())
    }
}

/// Runs `multiexp plan`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, PlanRun(args))?
}
