//! `multiexp plan`: the planner's candidates, its choice, and why.

use ark_ec::short_weierstrass::SWCurveConfig;
use clap::Parser;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::unstable::sample::Distribution;
use multiexp::unstable::{PlanOptions, Planner};
use multiexp::{Plan, SplitKind, SplitPolicy};
use serde_json::{json, Value};

use crate::cmd::bench_table::{parse_budget, Budget};
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
    /// MSM runs by classes or as one (default: uniform scalars, which run as one MSM or, where
    /// the curve has GLV and it wins, split by it).
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
    /// Plan a table of precomputed multiples of the points within this memory budget (bytes
    /// such as 16MiB, or 4x: times the points' size in memory): the layouts weighed against
    /// the plain MSM, and the choice.
    #[arg(long, value_parser = parse_budget)]
    pub precomputed: Option<Budget>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Prints the table plan of `multiexp plan --precomputed`.
fn print_table_plan<P: SWCurveConfig>(
    spec: &CurveSpec,
    args: &Args,
    cores: usize,
    budget: Budget,
    profile: std::sync::Arc<multiexp::Profile>,
    source: &str,
) -> anyhow::Result<()> {
    let point_bytes = std::mem::size_of::<ark_ec::short_weierstrass::Affine<P>>() as u64;
    let bytes = budget.bytes(args.n, point_bytes);
    let config = multiexp::Config {
        threads: Some(cores),
        oversubscribe: true,
        window: args.window,
        split: args.split,
        margin: Some(args.margin / 100.0),
        profile: multiexp::ProfileChoice::Given(profile),
        ..Default::default()
    };
    let report = multiexp::precomputed::plan_table::<P>(args.n, bytes, &config)?;
    let row = |p: &multiexp::precomputed::TablePrice| {
        json!({
            "window": p.layout.window, "copies": p.layout.copies, "groups": p.layout.groups,
            "stride_bits": p.layout.stride(), "form": p.form.name(),
            "processor": p.processor.name(), "top_processor": p.top.name(),
            "parts": p.parts, "bytes": p.bytes,
            "makespan": p.makespan / 1e6, "work": p.work / 1e6,
        })
    };
    match args.format {
        Format::Json => {
            let out = json!({
                "curve": spec.name, "n": args.n, "cores": cores, "profile": source,
                "budget_bytes": bytes, "points_bytes": args.n as u64 * point_bytes,
                "unit": "ms",
                "chosen": report.chosen.as_ref().map(row),
                "plain": report.plain, "plain_makespan": report.plain_makespan / 1e6,
                "candidates": report.candidates.iter().map(row).collect::<Vec<_>>(),
                "reason": report.reason,
            });
            println!("{}", serde_json::to_string_pretty(&out)?);
        }
        Format::Table => {
            println!(
                "{} n={} P={cores} cores, table budget {} ({} bytes; the points take {}), profile {source} (modeled ms; ratio = makespan / the plain MSM's)",
                spec.name,
                args.n,
                budget.name(),
                bytes,
                args.n as u64 * point_bytes
            );
            println!(
                "  {:>2} {:>4} {:>4} {:>6} {:<8} {:<18} {:<18} {:>5} {:>12} {:>12} {:>7}",
                "c",
                "m",
                "G",
                "stride",
                "form",
                "processor",
                "top digit",
                "parts",
                "bytes",
                "makespan",
                "ratio"
            );
            println!(
                "  {:<80} {:>12.3} {:>7.3}  plain MSM: {}",
                "",
                report.plain_makespan / 1e6,
                1.0,
                report.plain
            );
            for p in &report.candidates {
                let mark = if Some(*p) == report.chosen { "*" } else { " " };
                println!(
                    "{mark} {:>2} {:>4} {:>4} {:>6} {:<8} {:<18} {:<18} {:>5} {:>12} {:>12.3} {:>7.3}",
                    p.layout.window,
                    p.layout.copies,
                    p.layout.groups,
                    p.layout.stride(),
                    p.form.name(),
                    p.processor.name(),
                    p.top.name(),
                    p.parts,
                    p.bytes,
                    p.makespan / 1e6,
                    p.makespan / report.plain_makespan
                );
            }
            println!("(the fastest layout of each window within the budget)");
            println!("why:    {}", report.reason);
            println!();
            for line in TABLE_LEGEND {
                println!("{line}");
            }
        }
    }
    Ok(())
}

/// What the table plan's terms mean.
const TABLE_LEGEND: [&str; 6] = [
    "legend: * marks the chosen layout.",
    "  c, m, G   window c; m multiples 2^(j·stride)·P kept per base; G = ⌈K/m⌉ windows per MSM",
    "  form      points: arkworks affine points; records: IFMA records (52-bit limbs)",
    "  top digit the processor of the top digit's task where its few buckets run alone",
    "  parts     each window's points cut into this many tasks (a split where G < P)",
    "  makespan  modeled wall time of one MSM over the table, ms",
];

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
pub const LEGEND: [&str; 9] = [
    "legend: * marks the chosen candidate.",
    "  c         window: each scalar is cut into digits of c bits, 2^(c-1) buckets per chunk",
    "  K         chunks: one per digit position; each is one task unless split",
    "  split     none: K tasks | whole k: every chunk cut into k point ranges (K·k tasks, only",
    "            while cores would idle: K < P, or the K chunks carry < P chunks' work) |",
    "            tail r x k: the r chunks of the partial last wave cut into k parts",
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
            lanes: None,
            ifma: multiexp::unstable::ifma_runs::<P>(),
            glv_bits: multiexp::unstable::glv_bits::<P>(),
            glv_max: multiexp::unstable::glv_max::<P>(),
            glv_cache: Some(multiexp::profile::Caches::host().l3_share_or_default()),
            ..PlanOptions::default()
        };
        let (profile, source) = load_profile(args.profile.as_deref());
        if let Some(budget) = args.precomputed {
            return print_table_plan::<P>(spec, &args, cores, budget, profile, &source.to_string());
        }
        let planner = Planner::new(spec, profile.weights(spec), options)?;
        let report = planner.report(args.n, cores);
        let chosen = report.chosen();
        // What runs for these scalars (uniform ones by default: one MSM, or split by GLV).
        let by_classes = {
            let dist = args.scalars.unwrap_or(Distribution::Uniform);
            let stats = match args.scalars {
                None => multiexp::ScalarStats::uniform(args.n),
                Some(d) => multiexp::ScalarStats::of(&multiexp::unstable::sample::scalars_of::<
                    P::ScalarField,
                >(args.n, args.seed, d)),
            };
            Some((dist, planner.plan_classes(&stats, cores)))
        };
        match args.format {
            Format::Json => {
                let out = json!({
                    "curve": spec.name,
                    "n": args.n,
                    "cores": cores,
                    "profile": source.to_string(),
                    "profile_weights": profile.describe_for(multiexp::Ifma::Auto.native()),
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
                    "{} n={} P={} cores, profile {} [{}] carried to {} (modeled ms; ratio = \
                     makespan / chosen makespan)",
                    spec.name,
                    args.n,
                    cores,
                    source,
                    profile.describe_for(multiexp::Ifma::Auto.native()),
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
