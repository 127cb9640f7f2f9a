//! `multiexp bench --verify-plan`: the planner's choices, proved on the clock.
//!
//! For each n of the range (every power of two and the midpoint 3·2^(k-1) between two
//! powers), the planner's plan under the profile in use is timed, interleaved rep by rep on
//! the same inputs, against its alternatives:
//! - every window c in c* - span ..= c* + span (span 3 by default) around the chosen c*, each
//!   with the processors the planner picks for it, unsplit and with every split the planner
//!   prices at that window (tail balancing; whole splits where cores would idle);
//! - at c*, a whole split into two parts and each processor forced on every chunk.
//!
//! Windows further away are not timed: the time of an MSM is unimodal in c (per-point work
//! falls like 1/c while bucket work grows like 2^c/c), so a window three steps from the
//! choice is already far slower than the choice's neighbours, and `multiexp plan` shows the
//! modeled price of all sixteen. Every variant is planned before timing and run through
//! `execute_plan`, so a sample is exactly what the executor does (dispatch, digits, IFMA
//! records, tasks, merges, Horner) and what the predicted makespan models.
//!
//! Reported per n: the chosen plan and window, the best measured variant, the slowdown of the
//! choice (its median over the best median), and the predicted against the measured time.

use std::path::PathBuf;
use std::sync::Arc;

use ark_ec::short_weierstrass::SWCurveConfig;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::unstable::sample::Distribution;
use multiexp::{Config, Plan, Processor, Profile, SplitKind, SplitPolicy};
use serde_json::json;

use crate::common::{interleave, Contender, Format, Stats};
use crate::plot::{write_svg, Look, Panel, Series};
use multiexp::profile::ProfileSource;

/// What `bench --verify-plan` was asked.
#[derive(Clone, Debug)]
pub struct VerifyArgs {
    /// Curve/group.
    pub curve: String,
    /// Smallest and largest n.
    pub range: (usize, usize),
    /// Worker threads.
    pub threads: usize,
    /// Timed repetitions per variant; `None`: as many as fit [`BUDGET_NS`] per size, from
    /// [`MIN_REPS`] to [`MAX_REPS`].
    pub reps: Option<usize>,
    /// Seed of the inputs.
    pub seed: u64,
    /// How the scalars are drawn.
    pub scalars: Distribution,
    /// Windows timed around the chosen one.
    pub span: u32,
    /// CSV output.
    pub csv: PathBuf,
    /// SVG output.
    pub svg: PathBuf,
    /// Output format.
    pub format: Format,
    /// Which statistic of the samples compares variants and predictions.
    pub stat: Statistic,
    /// The profile in use.
    pub profile: Arc<Profile>,
    /// Where the profile came from.
    pub profile_source: ProfileSource,
}

/// Timing budget per n, ns: small sizes get more repetitions, up to `MAX_REPS`.
const BUDGET_NS: f64 = 3e9;
/// The fewest repetitions per variant without `--reps`.
const MIN_REPS: usize = 5;
/// The most repetitions per variant without `--reps`.
const MAX_REPS: usize = 25;

/// Slowdown within which the choice counts as a match, and the bound it must never exceed.
const WITHIN: f64 = 1.05;
const NEVER_ABOVE: f64 = 1.10;
/// Median prediction error allowed.
const PREDICTION: f64 = 0.15;

/// Every power of two in `lo..=hi` and the midpoints 3·2^(k-1) between consecutive ones.
pub fn sizes(lo: usize, hi: usize) -> Vec<usize> {
    let mut out = Vec::new();
    for k in 0..usize::BITS - 1 {
        let p = 1usize << k;
        if p > hi {
            break;
        }
        if p >= lo {
            out.push(p);
        }
        if k >= 1 {
            let mid = 3usize << (k - 1);
            if (lo..=hi).contains(&mid) {
                out.push(mid);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// A short label: window, split, and the processor of most chunks.
fn label(p: &Plan) -> String {
    let split = match p.split() {
        SplitKind::None => String::new(),
        s => format!(" {}", s.name()),
    };
    let processors = p.processors();
    let count = |q| processors.iter().filter(|&&x| x == q).count();
    let main = [
        Processor::Xyzz,
        Processor::BatchAffine,
        Processor::BatchAffineIfma,
    ]
    .into_iter()
    .max_by_key(|&q| count(q))
    .unwrap_or(Processor::Xyzz);
    let proc = match main {
        Processor::Xyzz => "xyzz",
        Processor::BatchAffine => "batch",
        Processor::BatchAffineIfma => "ifma",
    };
    format!("c{} {proc}{split}", p.window())
}

/// The label of a variant with `processor` forced on every chunk.
fn forced_label(p: &Plan, processor: Processor) -> String {
    format!("c{} all-{}", p.window(), processor.name())
}

/// What identifies a variant: window, parts per chunk, processors.
fn key(p: &Plan) -> (u32, Vec<usize>, Vec<Processor>) {
    (p.window(), p.parts(), p.processors())
}

/// Which statistic of a variant's samples stands for its time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Statistic {
    /// The median sample.
    #[default]
    Median,
    /// The fastest sample: on a loaded machine, noise only ever adds time.
    Min,
}

impl Statistic {
    fn of(self, s: &Stats) -> f64 {
        match self {
            Statistic::Median => s.median,
            Statistic::Min => s.min,
        }
    }
}

/// One timed variant at one n.
struct Row {
    label: String,
    window: u32,
    split: String,
    chosen: bool,
    predicted_ms: f64,
    stats: Stats,
}

/// The outcome at one n.
struct SizeResult {
    n: usize,
    reps: usize,
    rows: Vec<Row>,
    stat: Statistic,
}

impl SizeResult {
    /// A row's time under the statistic in use, ms.
    fn time(&self, row: &Row) -> f64 {
        self.stat.of(&row.stats)
    }
    fn chosen(&self) -> &Row {
        self.rows.iter().find(|r| r.chosen).unwrap_or(&self.rows[0])
    }
    fn best(&self) -> &Row {
        self.rows
            .iter()
            .min_by(|a, b| self.time(a).total_cmp(&self.time(b)))
            .unwrap_or(&self.rows[0])
    }
    fn slowdown(&self) -> f64 {
        self.time(self.chosen()) / self.time(self.best())
    }
    fn measured(&self) -> f64 {
        self.time(self.chosen())
    }
    fn error(&self) -> f64 {
        (self.chosen().predicted_ms - self.measured()).abs() / self.measured()
    }
}

/// The variants timed at `n`, with their labels: the chosen plan first.
fn variants<P: SWCurveConfig>(
    n: usize,
    base: &Config,
    span: u32,
) -> anyhow::Result<Vec<(String, Plan)>> {
    let chosen = multiexp::plan_for::<P>(n, base)?.into_chosen();
    let c0 = chosen.window();
    let mut out = vec![(label(&chosen), chosen)];
    let add_labelled = |name: String, p: Plan, out: &mut Vec<(String, Plan)>| {
        if !out.iter().any(|(_, q)| key(q) == key(&p)) {
            out.push((name, p));
        }
    };
    let add = |p: Plan, out: &mut Vec<(String, Plan)>| add_labelled(label(&p), p, out);
    let lo = c0.saturating_sub(span).max(multiexp::unstable::MIN_WINDOW);
    let hi = (c0 + span).min(multiexp::unstable::MAX_WINDOW);
    for c in lo..=hi {
        let config = Config {
            window: Some(c),
            ..base.clone()
        };
        for cand in multiexp::plan_for::<P>(n, &config)?.candidates() {
            add(cand.clone(), &mut out);
        }
    }
    let whole = Config {
        window: Some(c0),
        split: SplitPolicy::Parts(2),
        ..base.clone()
    };
    if n >= 2 {
        add(multiexp::plan_for::<P>(n, &whole)?.into_chosen(), &mut out);
    }
    for p in [
        Processor::Xyzz,
        Processor::BatchAffine,
        Processor::BatchAffineIfma,
    ] {
        if p.supports::<P>() {
            let forced = Config {
                window: Some(c0),
                split: SplitPolicy::Never,
                processor: Some(p),
                ..base.clone()
            };
            let plan = multiexp::plan_for::<P>(n, &forced)?.into_chosen();
            add_labelled(forced_label(&plan, p), plan, &mut out);
        }
    }
    Ok(out)
}

struct VerifyRun(VerifyArgs);

impl CurveVisitor for VerifyRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let ns = sizes(args.range.0, args.range.1);
        anyhow::ensure!(!ns.is_empty(), "no power of two in {:?}", args.range);
        let n_max = *ns.last().unwrap_or(&1);
        let points = multiexp::unstable::sample::points::<P>(n_max, args.seed);
        let scalars = multiexp::unstable::sample::scalars_of::<P::ScalarField>(
            n_max,
            args.seed,
            args.scalars,
        );
        let base = Config {
            threads: Some(args.threads),
            profile: multiexp::ProfileChoice::Given(args.profile.clone()),
            ..Config::default()
        };
        if args.format == Format::Table {
            println!(
                "{} --verify-plan threads={} scalars={} profile={} [{}] carried to {}, path {} \
                 (interleaved, {:?} of each variant; slowdown = chosen / best)",
                spec.name,
                args.threads,
                args.scalars,
                args.profile_source,
                args.profile.describe_for(multiexp::Ifma::Auto.native()),
                multiexp::profile::Caches::host().describe(),
                if multiexp::unstable::ifma_runs::<P>() {
                    "IFMA"
                } else {
                    "portable"
                },
                args.stat
            );
            println!(
                "{:>8} {:<22} {:<22} {:>8} {:>10} {:>10} {:>6} {:>4} {:>4}",
                "n", "chosen", "best", "slowdown", "pred ms", "meas ms", "error", "vars", "reps"
            );
        }
        let mut results = Vec::new();
        for &n in &ns {
            let (names, plans): (Vec<String>, Vec<Plan>) =
                variants::<P>(n, &base, args.span)?.into_iter().unzip();
            let predicted = plans[0].makespan();
            let reps = args.reps.unwrap_or_else(|| {
                ((BUDGET_NS / (plans.len() as f64 * predicted.max(1.0))).ceil() as usize)
                    .clamp(MIN_REPS, MAX_REPS)
            });
            eprintln!(
                "verify-plan {}: n = {n} ({} of {}), {} variants x {reps} reps",
                spec.name,
                results.len() + 1,
                ns.len(),
                plans.len()
            );
            let (pts, scs) = (&points[..n], &scalars[..n]);
            // Where the planner runs these scalars by classes, that run is its choice and the
            // one-MSM plans are the alternatives.
            let by_classes = multiexp::plan_for_scalars::<P>(scs, &base)?;
            let by_classes = by_classes.uses_classes().then_some(by_classes);
            let mut contenders: Vec<Contender<'_, Result<_, String>>> = Vec::new();
            if by_classes.is_some() {
                let base = &base;
                contenders.push(Contender {
                    name: "classes".to_string(),
                    run: Box::new(move || {
                        multiexp::msm_with(pts, scs, base).map_err(|e| e.to_string())
                    }),
                });
            }
            contenders.extend(plans.iter().zip(&names).map(|(plan, name)| Contender {
                name: name.clone(),
                run: Box::new(move || {
                    multiexp::execute_plan(pts, scs, plan, false)
                        .map(|r| r.0)
                        .map_err(|e| e.to_string())
                }),
            }));
            let timed = interleave(reps, contenders);
            let first = timed[0].result.clone().map_err(anyhow::Error::msg)?;
            for t in &timed {
                let r = t.result.clone().map_err(anyhow::Error::msg)?;
                anyhow::ensure!(r == first, "{} n={n}: {} disagrees", spec.name, t.name);
            }
            let mut rows: Vec<Row> = Vec::new();
            let mut timed = timed.iter();
            if let Some((cp, t)) = by_classes.as_ref().and_then(|cp| Some((cp, timed.next()?))) {
                rows.push(Row {
                    label: t.name.clone(),
                    window: 0,
                    split: "classes".to_string(),
                    chosen: true,
                    predicted_ms: cp.makespan() / 1e6,
                    stats: Stats::of(&t.samples),
                });
            }
            for (i, (plan, t)) in plans.iter().zip(timed).enumerate() {
                rows.push(Row {
                    label: t.name.clone(),
                    window: plan.window(),
                    split: plan.split().name(),
                    chosen: i == 0 && by_classes.is_none(),
                    predicted_ms: plan.makespan() / 1e6,
                    stats: Stats::of(&t.samples),
                });
            }
            let result = SizeResult {
                n,
                reps,
                rows,
                stat: args.stat,
            };
            if args.format == Format::Table {
                let (c, b) = (result.chosen(), result.best());
                println!(
                    "{:>8} {:<22} {:<22} {:>8.3} {:>10.3} {:>10.3} {:>5.1}% {:>4} {:>4}",
                    n,
                    c.label,
                    b.label,
                    result.slowdown(),
                    c.predicted_ms,
                    result.measured(),
                    100.0 * result.error(),
                    result.rows.len(),
                    reps
                );
            }
            results.push(result);
        }
        let within = results.iter().filter(|r| r.slowdown() <= WITHIN).count();
        let worst = results.iter().map(SizeResult::slowdown).fold(1.0, f64::max);
        let errors: Vec<f64> = results.iter().map(SizeResult::error).collect();
        let median_error = Stats::of(&errors).median;
        let share = within as f64 / results.len() as f64;
        let met = share >= 0.9 && worst <= NEVER_ABOVE && median_error <= PREDICTION;
        write_csv(&args, spec.name, &results)?;
        write_plot(&args, spec.name, &results)?;
        match args.format {
            Format::Json => {
                let rows: Vec<_> = results
                    .iter()
                    .map(|r| {
                        json!({
                            "n": r.n,
                            "chosen_window": r.chosen().window,
                            "best_window": r.best().window,
                            "slowdown": r.slowdown(),
                            "predicted_ms": r.chosen().predicted_ms,
                            "measured_ms": r.measured(),
                            "chosen": r.chosen().label,
                            "best": r.best().label,
                        })
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&rows)?);
            }
            Format::Table => {
                println!(
                    "within {:.0}% of the best: {within}/{} sizes ({:.0}%); worst slowdown {:.3}; \
                     median |predicted - measured| / measured {:.1}%",
                    100.0 * (WITHIN - 1.0),
                    results.len(),
                    100.0 * share,
                    worst,
                    100.0 * median_error
                );
                println!(
                    "targets (≥ 90% within 5%, never > 10% slower, median error ≤ 15%): {}",
                    if met { "met" } else { "NOT met" }
                );
            }
        }
        eprintln!("wrote {} and {}", args.csv.display(), args.svg.display());
        Ok(())
    }
}

fn write_csv(args: &VerifyArgs, curve: &str, results: &[SizeResult]) -> anyhow::Result<()> {
    let mut text = String::from(
        "curve,n,threads,reps,variant,window,split,chosen,best,predicted_ms,min_ms,median_ms,ratio_to_best\n",
    );
    for r in results {
        let best = r.time(r.best());
        let best_label = r.best().label.clone();
        for row in &r.rows {
            text.push_str(&format!(
                "{curve},{},{},{},{},{},{},{},{},{:.4},{:.4},{:.4},{:.4}\n",
                r.n,
                args.threads,
                r.reps,
                row.label,
                row.window,
                row.split,
                row.chosen,
                row.label == best_label,
                row.predicted_ms,
                row.stats.min,
                row.stats.median,
                r.time(row) / best
            ));
        }
    }
    std::fs::write(&args.csv, text)
        .map_err(|e| anyhow::anyhow!("writing {}: {e}", args.csv.display()))
}

fn write_plot(args: &VerifyArgs, curve: &str, results: &[SizeResult]) -> anyhow::Result<()> {
    let mut windows: Vec<u32> = results
        .iter()
        .flat_map(|r| r.rows.iter().map(|row| row.window))
        .collect();
    windows.sort_unstable();
    windows.dedup();
    // One line per window: its fastest unsplit variant at each n.
    let per_window = |c: u32, value: &dyn Fn(&SizeResult, &Row) -> f64| -> Series {
        let points = results
            .iter()
            .filter_map(|r| {
                r.rows
                    .iter()
                    .filter(|row| row.window == c && row.split == "none")
                    .min_by(|a, b| r.time(a).total_cmp(&r.time(b)))
                    .map(|row| (r.n as f64, value(r, row)))
            })
            .collect();
        Series {
            name: format!("c={c} (unsplit, best processor)"),
            points,
            style: Look::Plain,
        }
    };
    let chosen = |value: &dyn Fn(&SizeResult, &Row) -> f64| -> Series {
        Series {
            name: "planner's choice".into(),
            points: results
                .iter()
                .map(|r| (r.n as f64, value(r, r.chosen())))
                .collect(),
            style: Look::Emphasis,
        }
    };
    let time = |r: &SizeResult, row: &Row| r.time(row);
    let ratio = |r: &SizeResult, row: &Row| r.time(row) / r.time(r.best());
    let mut times: Vec<Series> = windows.iter().map(|&c| per_window(c, &time)).collect();
    times.push(Series {
        name: "predicted time of the choice".into(),
        points: results
            .iter()
            .map(|r| (r.n as f64, r.chosen().predicted_ms))
            .collect(),
        style: Look::Predicted,
    });
    times.push(chosen(&time));
    let mut ratios: Vec<Series> = windows.iter().map(|&c| per_window(c, &ratio)).collect();
    ratios.push(chosen(&ratio));
    write_svg(
        &args.svg,
        &format!(
            "multiexp bench --verify-plan: {curve}, {} threads ({:?} of interleaved reps)",
            args.threads, args.stat
        ),
        &[
            Panel {
                y_label: "measured time, ms",
                series: &times,
            },
            Panel {
                y_label: "time / best variant's time",
                series: &ratios,
            },
        ],
    )
}

/// Runs `bench --verify-plan`.
pub fn run(args: VerifyArgs) -> anyhow::Result<()> {
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, VerifyRun(args))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_powers_of_two_and_their_midpoints() {
        assert_eq!(sizes(256, 1024), vec![256, 384, 512, 768, 1024]);
        assert_eq!(sizes(300, 1000), vec![384, 512, 768]);
        assert_eq!(sizes(1, 4), vec![1, 2, 3, 4]);
    }
}
