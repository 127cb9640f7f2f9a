//! `multiexp msm`: one MSM, on points and scalars read from files (`--points`, `--scalars`)
//! or on deterministic random inputs (`--n`).
//!
//! Files are read in blocks by `multiexp::input`, each block parsed and validated on
//! `--threads` threads before the next is read, so a bad element stops the read where it is;
//! any bad element is an error naming the file, the line or byte offset and what was
//! expected (exit code 2). Times are reported separately: reading with validation, MSM.

use std::path::{Path, PathBuf};

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::CurveGroup;
use clap::{Parser, ValueEnum};
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::input::{self, Endianness, PointFormat, PointOptions, ScalarFormat, ScalarOptions};
use multiexp::{Config, SplitPolicy};
use serde_json::json;

use crate::common::{load_profile, parse_size, parse_split, time_ms};

/// Formats of a points file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum PointsFormat {
    /// Hex lines of the curve's standard compressed encoding (ZCash's for BLS12-381/377).
    #[default]
    Hex,
    /// arkworks binary (`CanonicalSerialize` of `Vec<Affine>`), compressed or uncompressed
    /// as the length says.
    Bin,
    /// arkworks binary, compressed.
    BinCompressed,
    /// arkworks binary, uncompressed.
    BinUncompressed,
}

impl From<PointsFormat> for PointFormat {
    fn from(f: PointsFormat) -> Self {
        match f {
            PointsFormat::Hex => PointFormat::Hex,
            PointsFormat::Bin => PointFormat::Binary,
            PointsFormat::BinCompressed => PointFormat::BinaryCompressed,
            PointsFormat::BinUncompressed => PointFormat::BinaryUncompressed,
        }
    }
}

/// Formats of a scalars file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum ScalarsFormat {
    /// Hex lines, big-endian (`--scalars-le`: little-endian), ⌈bits(r)/8⌉ bytes each.
    #[default]
    Hex,
    /// arkworks binary (`CanonicalSerialize` of `Vec<Fr>`).
    Bin,
}

impl From<ScalarsFormat> for ScalarFormat {
    fn from(f: ScalarsFormat) -> Self {
        match f {
            ScalarsFormat::Hex => ScalarFormat::Hex,
            ScalarsFormat::Bin => ScalarFormat::Binary,
        }
    }
}

/// How the result is printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum OutputFormat {
    /// Human-readable table.
    #[default]
    Table,
    /// The result alone, as hex of the curve's standard compressed encoding.
    Hex,
    /// JSON: curve, n, window, threads, plan, times and the result.
    Json,
}

/// Arguments of `multiexp msm`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bn254-g1 (see `multiexp curves`).
    #[arg(long, default_value = "bn254-g1")]
    pub curve: String,
    /// Number of random points, e.g. 65536 or 2^16 (without --points).
    #[arg(long, value_parser = parse_size, default_value = "65536", conflicts_with = "points")]
    pub n: usize,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Points file (with --scalars): the MSM of these inputs instead of random ones.
    #[arg(long, requires = "scalars")]
    pub points: Option<PathBuf>,
    /// Scalars file, one per point (with --points or --table).
    #[arg(long)]
    pub scalars: Option<PathBuf>,
    /// A table of precomputed multiples written by `multiexp table` (with --scalars): the
    /// MSM over its bases.
    #[arg(long, requires = "scalars", conflicts_with = "points")]
    pub table: Option<PathBuf>,
    /// Format of the points file.
    #[arg(long, value_enum, default_value_t)]
    pub points_format: PointsFormat,
    /// Format of the scalars file.
    #[arg(long, value_enum, default_value_t)]
    pub scalars_format: ScalarsFormat,
    /// Hex scalars are little-endian.
    #[arg(long)]
    pub scalars_le: bool,
    /// Reduce scalars ≥ r mod r instead of rejecting them.
    #[arg(long)]
    pub reduce: bool,
    /// Skip the prime-order subgroup check. UNSAFE for untrusted input: an MSM over points
    /// outside the subgroup can be steered by whoever chose them. For trusted files only.
    #[arg(long)]
    pub no_subgroup_check: bool,
    /// Worker threads for validation and the MSM (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Force the window size c (1..=20).
    #[arg(long)]
    pub window: Option<u32>,
    /// Split policy: auto, never or partsK.
    #[arg(long, value_parser = parse_split, default_value = "auto")]
    pub split: SplitPolicy,
    /// Cost profile (default: $MULTIEXP_PROFILE, else <config dir>/multiexp/profile.json, else
    /// the built-in one).
    #[arg(long)]
    pub profile: Option<std::path::PathBuf>,
    /// Output format: a table, the result alone as hex, or JSON (as `--format` of every
    /// command; the input files' formats are --points-format and --scalars-format).
    #[arg(long = "format", alias = "output-format", value_enum, default_value_t)]
    pub output_format: OutputFormat,
}

struct MsmRun(Args);

/// Inputs of one run and how long reading and validating them took.
struct Inputs<P: SWCurveConfig> {
    points: Vec<ark_ec::short_weierstrass::Affine<P>>,
    scalars: Vec<P::ScalarField>,
    /// Reading and validating both files (one pass: each block is checked as it is read).
    load_ms: f64,
}

/// How the scalar files are read: byte order and reduction, from the flags.
fn scalar_options(args: &Args) -> ScalarOptions {
    ScalarOptions {
        endianness: if args.scalars_le {
            Endianness::Little
        } else {
            Endianness::Big
        },
        reduce: args.reduce,
    }
}

fn from_files<P: SWCurveConfig>(
    args: &Args,
    points_path: &Path,
    scalars_path: &Path,
    threads: usize,
) -> anyhow::Result<Inputs<P>> {
    let point_options = PointOptions {
        subgroup_check: !args.no_subgroup_check,
        ..PointOptions::default()
    };
    let scalar_options = scalar_options(args);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()?;
    let (parsed, load_ms) = time_ms(|| {
        pool.install(|| {
            let points = input::points_from_file::<P>(
                points_path,
                args.points_format.into(),
                &point_options,
            )?;
            let scalars = input::scalars_from_file::<P::ScalarField>(
                scalars_path,
                args.scalars_format.into(),
                &scalar_options,
            )?;
            let (points_name, scalars_name) = (
                points_path.display().to_string(),
                scalars_path.display().to_string(),
            );
            input::check_counts(&points_name, points.len(), &scalars_name, scalars.len())?;
            Ok::<_, input::InputError>((points, scalars))
        })
    });
    let (points, scalars) = parsed?;
    Ok(Inputs {
        points,
        scalars,
        load_ms,
    })
}

impl CurveVisitor for MsmRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let config = Config {
            threads: args.threads,
            window: args.window,
            split: args.split,
            profile: multiexp::ProfileChoice::Given(load_profile(args.profile.as_deref()).0),
            ..Config::default()
        };
        let workers = config.workers()?;
        if let Some(table) = &args.table {
            return over_table::<P>(&args, spec, table, &config);
        }
        if args.scalars.is_some() && args.points.is_none() {
            anyhow::bail!("--scalars needs --points FILE or --table FILE");
        }
        if args.points.is_none() {
            // Random inputs: refuse before making them what cannot fit.
            let plan = multiexp::plan_for::<P>(args.n, &config)?.into_chosen();
            multiexp::check_memory(
                &format!("an MSM of {} random points", args.n),
                multiexp::input_bytes::<P>(args.n).saturating_add(plan.memory().total()),
            )?;
        }
        let inputs = match (&args.points, &args.scalars) {
            (Some(p), Some(s)) => from_files::<P>(&args, p, s, workers)?,
            _ => Inputs {
                points: multiexp::unstable::sample::points::<P>(args.n, args.seed),
                scalars: multiexp::unstable::sample::scalars::<P::ScalarField>(args.n, args.seed),
                load_ms: 0.0,
            },
        };
        let from_files = args.points.is_some();
        let n = inputs.points.len();
        let report = multiexp::plan_for::<P>(n, &config)?;
        let plan = report.chosen();
        if from_files {
            // The inputs are held; refuse a working memory that cannot fit on top of them.
            multiexp::check_memory(
                &format!(
                    "the MSM of the {n} points of {}",
                    args.points.as_ref().unwrap().display()
                ),
                plan.memory().total(),
            )?;
        }
        let (result, ms) =
            time_ms(|| multiexp::execute_plan(&inputs.points, &inputs.scalars, plan, false));
        let (result, _) = result?;
        let hex = input::point_to_hex(&result.into_affine());
        match args.output_format {
            OutputFormat::Hex => println!("{hex}"),
            OutputFormat::Json => {
                let mut out = json!({
                    "curve": spec.name,
                    "n": n,
                    "window": plan.window(),
                    "threads": plan.workers(),
                    "plan": plan.describe(),
                    "path": plan.path(),
                    "predicted_ms": plan.makespan() / 1e6,
                    "ms": ms,
                    "msm_ms": ms,
                    "result": hex,
                });
                if from_files {
                    out["validate_ms"] = json!(inputs.load_ms);
                    out["subgroup_check"] = json!(!args.no_subgroup_check);
                }
                println!("{out}");
            }
            OutputFormat::Table => {
                println!("curve     {}", spec.name);
                println!("n         {n}");
                println!("threads   {}", plan.workers());
                println!("plan      {}", plan.describe());
                println!("path      {}", plan.path());
                if from_files {
                    let sub = if args.no_subgroup_check {
                        " (no subgroup check)"
                    } else {
                        ""
                    };
                    println!("validate  {:.3} ms (reading included){sub}", inputs.load_ms);
                }
                println!(
                    "msm       {ms:.3} ms (predicted {:.3} ms)",
                    plan.makespan() / 1e6
                );
                println!("result    {hex}");
            }
        }
        Ok(())
    }
}

/// `msm --table FILE --scalars FILE`: the MSM over a table's bases.
fn over_table<P: SWCurveConfig>(
    args: &Args,
    spec: &CurveSpec,
    path: &Path,
    config: &Config,
) -> anyhow::Result<()> {
    let scalars_path = args.scalars.as_deref().expect("clap requires --scalars");
    let (table, load_ms) = time_ms(|| {
        let file = std::fs::File::open(path)?;
        Ok::<_, anyhow::Error>(multiexp::PrecomputedBases::<P>::read_from(
            std::io::BufReader::new(file),
            config,
        )?)
    });
    let table = table.map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let scalar_options = scalar_options(args);
    let scalars = input::scalars_from_file::<P::ScalarField>(
        scalars_path,
        args.scalars_format.into(),
        &scalar_options,
    )?;
    input::check_counts(
        &path.display().to_string(),
        table.len(),
        &scalars_path.display().to_string(),
        scalars.len(),
    )?;
    let (result, ms) = time_ms(|| table.msm_with(&scalars, config));
    let hex = input::point_to_hex(&result?.into_affine());
    let layout = super::table::describe_table(&table);
    match args.output_format {
        OutputFormat::Hex => println!("{hex}"),
        OutputFormat::Json => println!(
            "{}",
            json!({
                "curve": spec.name, "n": table.len(), "threads": config.workers()?,
                "table": layout, "table_bytes": table.bytes(), "load_ms": load_ms,
                "ms": ms, "msm_ms": ms, "result": hex,
            })
        ),
        OutputFormat::Table => {
            println!("curve     {}", spec.name);
            println!("n         {}", table.len());
            println!("threads   {}", config.workers()?);
            println!("table     {layout}, {} bytes", table.bytes());
            println!("load      {load_ms:.3} ms (checked)");
            println!("msm       {ms:.3} ms");
            println!("result    {hex}");
        }
    }
    Ok(())
}

/// Runs `multiexp msm`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, MsmRun(args))?
}
