//! `multiexp table`: builds a table of precomputed multiples of a set of bases (a points file,
//! or deterministic random points) within a memory budget, and writes it to a file that
//! `multiexp msm --table FILE --scalars FILE` reads. The planner chooses the layout (or none,
//! keeping the bases alone, where no table beats the plain MSM); the build runs on `--threads`
//! threads with a progress bar on a terminal.

use std::io::{BufWriter, IsTerminal};
use std::path::PathBuf;

use anyhow::Context;
use ark_ec::short_weierstrass::SWCurveConfig;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::input::{self, PointOptions};
use multiexp::{Config, PrecomputedBases};
use serde_json::json;

use crate::cmd::bench_table::{human_bytes, parse_budget, Budget};
use crate::cmd::msm::PointsFormat;
use crate::common::{load_profile, parse_size, time_ms, Format};

/// Arguments of `multiexp table`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bls12-381-g1.
    #[arg(long, default_value = "bn254-g1")]
    pub curve: String,
    /// Points file (the bases), in --points-format.
    #[arg(long, conflicts_with = "n")]
    pub points: Option<PathBuf>,
    /// Format of the points file.
    #[arg(long, value_enum, default_value_t)]
    pub points_format: PointsFormat,
    /// Skip the prime-order subgroup check of the points. UNSAFE for untrusted input.
    #[arg(long)]
    pub no_subgroup_check: bool,
    /// Deterministic random bases instead of a file: this many (e.g. 2^16).
    #[arg(long, value_parser = parse_size)]
    pub n: Option<usize>,
    /// Seed of the random bases.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Memory the table may take: bytes such as 64MiB, or 4x (times the points' size).
    #[arg(long, value_parser = parse_budget)]
    pub budget: Budget,
    /// The table file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads for validation and the build (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Cost profile (default: $MULTIEXP_PROFILE, else <config dir>/multiexp/profile.json, else
    /// the built-in one).
    #[arg(long)]
    pub profile: Option<PathBuf>,
    /// Output format of the summary.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

struct TableRun(Args);

impl CurveVisitor for TableRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let config = Config {
            threads: args.threads,
            profile: multiexp::ProfileChoice::Given(load_profile(args.profile.as_deref()).0),
            ..Config::default()
        };
        let workers = config.workers()?;
        let points = match (&args.points, args.n) {
            (Some(path), _) => {
                let options = PointOptions {
                    subgroup_check: !args.no_subgroup_check,
                    ..PointOptions::default()
                };
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(workers)
                    .build()?;
                pool.install(|| {
                    input::points_from_file::<P>(path, args.points_format.into(), &options)
                })?
            }
            (None, Some(n)) => multiexp::unstable::sample::points::<P>(n, args.seed),
            (None, None) => anyhow::bail!("give the bases: --points FILE or --n N"),
        };
        let n = points.len();
        let point_bytes = std::mem::size_of::<ark_ec::short_weierstrass::Affine<P>>() as u64;
        let budget = args.budget.bytes(n, point_bytes);
        let bar = ProgressBar::new(0);
        if std::io::stderr().is_terminal() {
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {pos}/{len} multiples  {msg}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
            );
        } else {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let (table, build_ms) = time_ms(|| {
            PrecomputedBases::with_progress(&points, budget, &config, &|done, total| {
                bar.set_length(total);
                bar.set_position(done);
            })
        });
        bar.finish_and_clear();
        let table = table?;
        let file = std::fs::File::create(&args.out)
            .with_context(|| format!("creating {}", args.out.display()))?;
        let (written, write_ms) = time_ms(|| table.write_to(BufWriter::new(file)));
        written.with_context(|| format!("writing {}", args.out.display()))?;
        let layout = describe_table(&table);
        let report = table.report();
        match args.format {
            Format::Json => println!(
                "{}",
                json!({
                    "curve": spec.name, "n": n, "threads": workers,
                    "budget_bytes": budget, "table_bytes": table.bytes(),
                    "points_bytes": n as u64 * point_bytes, "layout": layout,
                    "predicted_ms": report.makespan() / 1e6,
                    "plain_predicted_ms": report.plain_makespan / 1e6,
                    "build_ms": build_ms, "write_ms": write_ms,
                    "file": args.out.display().to_string(), "reason": report.reason,
                })
            ),
            Format::Table => {
                println!("curve     {}", spec.name);
                println!("bases     {n}");
                println!("layout    {layout}");
                println!(
                    "memory    {} of a {} budget ({:.2}x the points)",
                    human_bytes(table.bytes()),
                    human_bytes(budget),
                    table.bytes() as f64 / (n.max(1) as u64 * point_bytes) as f64
                );
                println!(
                    "msm       predicted {:.3} ms (plain MSM {:.3} ms)",
                    report.makespan() / 1e6,
                    report.plain_makespan / 1e6
                );
                println!("build     {build_ms:.0} ms on {workers} threads");
                println!("file      {} ({write_ms:.0} ms)", args.out.display());
                println!("why       {}", report.reason);
            }
        }
        Ok(())
    }
}

/// Runs `multiexp table`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, TableRun(args))?
}

/// A table's layout in words (window, multiples, form), or that it keeps the bases alone.
pub fn describe_table<P: SWCurveConfig>(table: &PrecomputedBases<P>) -> String {
    table
        .layout()
        .map_or("the bases alone (plain MSM)".into(), |l| {
            format!(
                "{} in {}",
                l.describe(),
                table.form().map_or("", |f| f.name())
            )
        })
}
