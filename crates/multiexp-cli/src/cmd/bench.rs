//! `multiexp bench`: honest timings. Every contender gets the same inputs; contenders run
//! interleaved rep by rep (A B A B ...) after one warm-up each; min and median are reported
//! and ratios come from medians of the same run.
//!
//! - default: multiexp (planner's choice) against arkworks' `VariableBaseMSM::msm`, both on
//!   the same number of threads, with a check that the results agree;
//! - `--compare auto,never,parts2`: plan variants of multiexp against each other;
//! - `--vs arkworks,halo2curves,blst`: peers, with `--csv` and `--svg` (time vs n per library);
//! - `--verify-plan`: the planner's choice against every nearby window and split, over a range
//!   of n (`verify_plan.rs`).
//!
//! Every mode plans with the profile of `--profile`, `$MULTIEXP_PROFILE`, the config dir or
//! the built-in one.

use std::path::PathBuf;
use std::sync::Arc;

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use clap::Parser;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::unstable::sample::Distribution;
use multiexp::{Config, Profile, SplitPolicy};
use serde_json::json;

use crate::cmd::bench_decode::DecodeArgs;
use crate::cmd::bench_kzg::KzgArgs;
use crate::cmd::bench_table::{parse_budget, Budget, TableArgs};
use crate::cmd::verify_plan::{self, Statistic, VerifyArgs};
use crate::common::{
    interleave, load_profile, parse_size, parse_variant, Contender, Format, Stats, Variant,
};
use crate::peers::{self, PeerRun};
use crate::plot::{write_svg, Look, Panel, Series};

/// Arguments of `multiexp bench`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bn254-g1.
    #[arg(long, default_value = "bn254-g1")]
    pub curve: String,
    /// Number of points, e.g. 1048576 or 2^20; a comma-separated list runs each size.
    #[arg(long, value_delimiter = ',', value_parser = parse_size, default_value = "65536")]
    pub n: Vec<usize>,
    /// Worker threads for every contender (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Timed repetitions per contender, after one warm-up (default 5; with --verify-plan,
    /// as many as fit a 3 s budget per size, from 5 to 25).
    #[arg(long)]
    pub reps: Option<usize>,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the scalars are drawn (every contender gets the same ones): uniform, zero, one,
    /// minus-one, bool, u8, u16, u32, u64, neg-small (−k, k < 2^32) or witness (50% {0, 1},
    /// 30% < 2^32, 20% uniform).
    #[arg(long, value_parser = Distribution::parse, default_value = "uniform")]
    pub scalars: Distribution,
    /// Compare multiexp variants instead: split auto, never, partsK; window cN; processor
    /// xyzz or batch; combined with ':' (e.g. `auto,never,parts2` or `c12:xyzz,c12:batch`).
    #[arg(long, value_delimiter = ',', value_parser = parse_variant)]
    pub compare: Option<Vec<Variant>>,
    /// Peers to time against multiexp: arkworks, halo2curves, blst.
    #[arg(long, value_delimiter = ',', default_value = "arkworks")]
    pub vs: Vec<String>,
    /// Also write the --vs table, or the --verify-plan rows, as CSV to this file
    /// (--verify-plan default: verify-plan-CURVE.csv).
    #[arg(long)]
    pub csv: Option<PathBuf>,
    /// Also plot time vs n (per library for --vs; per variant for --verify-plan) as SVG to this
    /// file (--verify-plan default: verify-plan-CURVE.svg).
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Prove the planner's choices: time its plan against every window within --window-span
    /// of it and the split variants, for every power of two in --n-range and the midpoints.
    #[arg(long)]
    pub verify_plan: bool,
    /// Sizes of --verify-plan: LO..HI, e.g. 2^8..2^22.
    #[arg(long, value_parser = parse_range, default_value = "2^8..2^20")]
    pub n_range: (usize, usize),
    /// Windows timed by --verify-plan on each side of the chosen one.
    #[arg(long, default_value_t = 3)]
    pub window_span: u32,
    /// The statistic of each variant's samples that --verify-plan compares.
    #[arg(long, value_enum, default_value_t)]
    pub stat: Statistic,
    /// Cost profile (default: $MULTIEXP_PROFILE, else <config dir>/multiexp/profile.json, else
    /// the built-in one).
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// Time reading points instead (validation from compressed hex vs blst, uncompressed
    /// binary, and the MSM they feed); see `bench_decode.rs`.
    #[arg(long)]
    pub decode: bool,
    /// With --decode: also time validation on arkworks arithmetic alone (no IFMA kernels).
    #[arg(long, requires = "decode")]
    pub arkworks_arithmetic: bool,
    /// Time MSMs over a table of precomputed multiples of the points, one table per budget
    /// (bytes such as 16MiB, or 4x: times the points' size in memory), against the plain
    /// MSM; see `bench_table.rs`.
    #[arg(long, value_delimiter = ',', value_parser = parse_budget)]
    pub precomputed: Vec<Budget>,
    /// Time EIP-4844 blob commitments under the mainnet setup against c-kzg's
    /// `blob_to_kzg_commitment` (one thread), with one table per --precomputed budget and
    /// --many blobs per rep; see `bench_kzg.rs`.
    #[arg(long)]
    pub kzg: bool,
    /// Time M scalar vectors over the same points: M separate MSMs against one
    /// `msm_many` call (and each --precomputed table's `msm_many`).
    #[arg(long, default_value_t = 1)]
    pub many: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// Parses `LO..HI` of two sizes.
fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let (lo, hi) = s
        .split_once("..")
        .ok_or_else(|| format!("expected LO..HI, e.g. 2^8..2^20, got {s:?}"))?;
    let (lo, hi) = (parse_size(lo)?, parse_size(hi.trim_start_matches('='))?);
    if lo == 0 || lo > hi {
        return Err(format!("empty range {s:?}"));
    }
    Ok((lo, hi))
}

struct BenchRun(Args, Arc<Profile>);

impl CurveVisitor for BenchRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let (args, profile) = (self.0, self.1);
        let reps = args.reps.unwrap_or(DEFAULT_REPS);
        let threads = args
            .threads
            .unwrap_or_else(multiexp::unstable::available_cores);
        let mut json_rows = Vec::new();
        let mut csv_rows: Vec<String> = Vec::new();
        let mut plot: Vec<Series> = Vec::new();
        for &n in &args.n {
            let points = multiexp::unstable::sample::points::<P>(n, args.seed);
            let scalars = multiexp::unstable::sample::scalars_of::<P::ScalarField>(
                n,
                args.seed,
                args.scalars,
            );
            let config = |split| Config {
                threads: Some(threads),
                split,
                profile: multiexp::ProfileChoice::Given(profile.clone()),
                ..Config::default()
            };
            match &args.compare {
                Some(variants) => {
                    let contenders = variants
                        .iter()
                        .map(|v| {
                            let cfg = Config {
                                profile: multiexp::ProfileChoice::Given(profile.clone()),
                                ..v.config(threads)
                            };
                            let (points, scalars) = (&points, &scalars);
                            Contender {
                                name: v.name.clone(),
                                run: Box::new(move || {
                                    multiexp::msm_with(points, scalars, &cfg)
                                        .map_err(|e| e.to_string())
                                }),
                            }
                        })
                        .collect();
                    let timed = interleave(reps, contenders);
                    let agree = agree(timed.iter().map(|t| &t.result))?;
                    let stats: Vec<Stats> = timed.iter().map(|t| Stats::of(&t.samples)).collect();
                    let best = stats.iter().map(|s| s.median).fold(f64::INFINITY, f64::min);
                    let plans: Vec<String> = variants
                        .iter()
                        .map(|v| {
                            let cfg = Config {
                                profile: multiexp::ProfileChoice::Given(profile.clone()),
                                ..v.config(threads)
                            };
                            multiexp::plan_for_scalars::<P>(&scalars, &cfg)
                                .map(|r| r.describe())
                                .unwrap_or_default()
                        })
                        .collect();
                    if args.format == Format::Table {
                        println!(
                            "{} n={} threads={} reps={} scalars={} (interleaved; ratio = median / \
                             best median)",
                            spec.name, n, threads, reps, args.scalars
                        );
                        println!(
                            "{:<14} {:>11} {:>11} {:>8}  plan",
                            "variant", "min ms", "median ms", "ratio"
                        );
                    }
                    for ((t, s), plan) in timed.iter().zip(&stats).zip(&plans) {
                        let ratio = s.median / best;
                        match args.format {
                            Format::Json => json_rows.push(json!({
                                "variant": t.name, "n": n, "threads": threads, "reps": reps,
                                "scalars": args.scalars.name(),
                                "min_ms": s.min, "median_ms": s.median, "ratio_to_best": ratio,
                                "plan": plan, "agree": agree,
                            })),
                            Format::Table => println!(
                                "{:<14} {:>11.3} {:>11.3} {:>8.3}  {}",
                                t.name, s.min, s.median, ratio, plan
                            ),
                        }
                    }
                    if args.format == Format::Table {
                        println!("results agree: {agree}\n");
                    }
                }
                None => {
                    let cfg = config(SplitPolicy::Auto);
                    let (pts, scs) = (&points, &scalars);
                    let mut contenders: Vec<PeerRun<'_, P>> = vec![Contender {
                        name: "multiexp".into(),
                        run: Box::new(move || {
                            multiexp::msm_with(pts, scs, &cfg).map_err(|e| e.to_string())
                        }),
                    }];
                    for peer in &args.vs {
                        contenders.push(peers::contender(peer, spec.name, pts, scs, threads)?);
                    }
                    let timed = interleave(reps, contenders);
                    let agree = agree(timed.iter().map(|t| &t.result))?;
                    let stats: Vec<Stats> = timed.iter().map(|t| Stats::of(&t.samples)).collect();
                    let ours = stats[0].median;
                    if args.format == Format::Table {
                        println!(
                            "{} n={} threads={} reps={} scalars={} (interleaved; 'vs multiexp' \
                             = the library's median time / multiexp's: above 1, multiexp is \
                             faster)",
                            spec.name, n, threads, reps, args.scalars
                        );
                        println!(
                            "{:<12} {:>11} {:>11} {:>12}",
                            "library", "min ms", "median ms", "vs multiexp"
                        );
                    }
                    for (t, s) in timed.iter().zip(&stats) {
                        let ratio = ours / s.median;
                        match plot.iter_mut().find(|p| p.name == t.name) {
                            Some(series) => series.points.push((n as f64, s.median)),
                            None => plot.push(Series {
                                name: t.name.clone(),
                                points: vec![(n as f64, s.median)],
                                style: if t.name == "multiexp" {
                                    Look::Emphasis
                                } else {
                                    Look::Plain
                                },
                            }),
                        }
                        csv_rows.push(format!(
                            "{},{},{},{},{},{},{:.4},{:.4},{:.4},{}",
                            t.name,
                            spec.name,
                            args.scalars,
                            n,
                            threads,
                            reps,
                            s.min,
                            s.median,
                            ratio,
                            agree
                        ));
                        match args.format {
                            Format::Json => json_rows.push(json!({
                                "library": t.name, "name": t.name, "curve": spec.name, "n": n,
                                "scalars": args.scalars.name(),
                                "threads": threads, "reps": reps, "min_ms": s.min,
                                "median_ms": s.median, "ratio": ratio, "agree": agree,
                            })),
                            Format::Table => println!(
                                "{:<12} {:>11.3} {:>11.3} {:>11.2}x",
                                t.name,
                                s.min,
                                s.median,
                                s.median / ours
                            ),
                        }
                    }
                    if args.format == Format::Table {
                        println!("results agree: {agree}\n");
                    }
                    if !agree {
                        anyhow::bail!("{} n={n}: the libraries' results differ", spec.name);
                    }
                }
            }
        }
        if let Some(path) = &args.csv {
            let mut text =
                String::from("library,curve,scalars,n,threads,reps,min_ms,median_ms,ratio,agree\n");
            for row in &csv_rows {
                text.push_str(row);
                text.push('\n');
            }
            std::fs::write(path, text)
                .map_err(|e| anyhow::anyhow!("writing {}: {e}", path.display()))?;
        }
        if let Some(path) = &args.svg {
            if args.compare.is_some() {
                anyhow::bail!("--svg plots --vs or --verify-plan runs, not --compare");
            }
            write_svg(
                path,
                &format!(
                    "multiexp bench --vs: {}, {threads} threads (median of {} interleaved reps)",
                    spec.name, reps
                ),
                &[Panel {
                    y_label: "median time, ms",
                    series: &plot,
                }],
            )?;
        }
        if args.format == Format::Json {
            println!("{}", serde_json::to_string_pretty(&json_rows)?);
        }
        Ok(())
    }
}

/// Whether every contender computed the same point; an error if one failed.
fn agree<'a, P: SWCurveConfig>(
    mut results: impl Iterator<Item = &'a Result<Projective<P>, String>>,
) -> anyhow::Result<bool> {
    let first = match results.next() {
        Some(Ok(r)) => *r,
        Some(Err(e)) => anyhow::bail!("{e}"),
        None => return Ok(true),
    };
    let mut same = true;
    for r in results {
        match r {
            Ok(r) => same &= *r == first,
            Err(e) => anyhow::bail!("{e}"),
        }
    }
    Ok(same)
}

/// Timed repetitions per contender unless `--reps` says otherwise.
pub const DEFAULT_REPS: usize = 5;

/// Runs `multiexp bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(t) = args.threads {
        if t == 0 {
            anyhow::bail!("--threads must be at least 1");
        }
        if args.compare.is_none() && !args.verify_plan {
            peers::pin_threads(t)?;
        }
    }
    if args.reps == Some(0) {
        anyhow::bail!("--reps must be at least 1");
    }
    if args.decode {
        return crate::cmd::bench_decode::run(&DecodeArgs {
            curve: args.curve.clone(),
            n: args.n.clone(),
            threads: args.threads,
            reps: args.reps.unwrap_or(DEFAULT_REPS),
            seed: args.seed,
            arkworks_arithmetic: args.arkworks_arithmetic,
            format: args.format,
        });
    }
    let (profile, source) = load_profile(args.profile.as_deref());
    let curve = args.curve.clone();
    if args.many == 0 {
        anyhow::bail!("--many must be at least 1");
    }
    if args.kzg {
        let threads = multiexp::Config {
            threads: args.threads,
            ..Default::default()
        }
        .workers()?;
        return crate::cmd::bench_kzg::run(&KzgArgs {
            threads,
            reps: args.reps.unwrap_or(DEFAULT_REPS),
            seed: args.seed,
            budgets: args.precomputed.clone(),
            blobs: args.many,
            profile: multiexp::ProfileChoice::Given(profile),
            format: args.format,
        });
    }
    if !args.precomputed.is_empty() || args.many > 1 {
        let threads = multiexp::Config {
            threads: args.threads,
            ..Default::default()
        }
        .workers()?;
        return crate::cmd::bench_table::run(&TableArgs {
            curve,
            n: args.n.clone(),
            threads,
            reps: args.reps.unwrap_or(DEFAULT_REPS),
            seed: args.seed,
            scalars: args.scalars,
            budgets: args.precomputed.clone(),
            many: args.many,
            profile: multiexp::ProfileChoice::Given(profile),
            format: args.format,
        });
    }
    if args.verify_plan {
        let spec = multiexp::curves::spec(&curve)?;
        let threads = multiexp::Config {
            threads: args.threads,
            ..Default::default()
        }
        .workers()?;
        let default_file = |ext: &str| PathBuf::from(format!("verify-plan-{}.{ext}", spec.name));
        return verify_plan::run(VerifyArgs {
            curve,
            range: args.n_range,
            threads,
            reps: args.reps,
            seed: args.seed,
            scalars: args.scalars,
            span: args.window_span,
            csv: args.csv.clone().unwrap_or_else(|| default_file("csv")),
            svg: args.svg.clone().unwrap_or_else(|| default_file("svg")),
            format: args.format,
            stat: args.stat,
            profile,
            profile_source: source,
        });
    }
    multiexp::curves::visit(&curve, BenchRun(args, profile))?
}
