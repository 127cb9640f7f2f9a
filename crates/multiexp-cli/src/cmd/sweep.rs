//! `multiexp sweep`: every top-level split decision of gnark's models and ours over a range of
//! n, per curve/group, task-budget policy and core count (the library's `plan::sweep`).

mod chart;

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context};
use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use multiexp::curves::CurveSpec;
use multiexp::unstable::sweep::{sweep, Policy, Row, SweepModel, SweepSpec, DEFAULT_CORES, MAX_N};
use serde_json::{json, Value};

use crate::common::parse_size;

/// Output format of `multiexp sweep`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum SweepFormat {
    /// Human-readable table.
    #[default]
    Table,
    /// One JSON object per row, in an array.
    Json,
    /// One CSV line per row.
    Csv,
}

/// Whether the planner may use the AVX-512 IFMA processor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum IfmaSetting {
    /// As this host: on if it has AVX-512 IFMA.
    #[default]
    Host,
    /// As a host with IFMA.
    On,
    /// As a host without IFMA.
    Off,
}

/// Arguments of `multiexp sweep`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Models: legacy-master, legacy-pr875, multiexp.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "legacy-master,legacy-pr875,multiexp"
    )]
    pub model: Vec<String>,
    /// Curve/groups: `all` or a list such as bn254-g1,bls12-381-g1.
    #[arg(long, value_delimiter = ',', default_value = "all")]
    pub curves: Vec<String>,
    /// Core counts.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1,2,4,8,12,16,24,32,48,64,96,128"
    )]
    pub cores: Vec<usize>,
    /// Task-budget policies: 2x, 1x, half (NbTasks = 2·cores, cores, max(1, cores/2)).
    #[arg(long, value_delimiter = ',', default_value = "2x,1x,half")]
    pub policies: Vec<String>,
    /// Smallest n.
    #[arg(long, value_parser = parse_size, default_value = "2")]
    pub n_min: usize,
    /// Largest n.
    #[arg(long, value_parser = parse_size, default_value = "16777216")]
    pub n_max: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: SweepFormat,
    /// Walk every n instead of solving intervals (the output is identical).
    #[arg(long)]
    pub brute: bool,
    /// Also draw the firing bands as a heat-strip chart into this SVG file.
    #[arg(long)]
    pub svg: Option<PathBuf>,
    /// Whether multiexp's planner may use the AVX-512 IFMA processor.
    #[arg(long, value_enum, default_value_t)]
    pub ifma: IfmaSetting,
    /// Cost profile of the multiexp model (default: $MULTIEXP_PROFILE, else <config
    /// dir>/multiexp/profile.json, else the built-in one).
    #[arg(long)]
    pub profile: Option<PathBuf>,
}

fn host_has_ifma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        multiexp::unstable::ifma_available()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

fn parse_spec(args: &Args) -> anyhow::Result<SweepSpec> {
    let models = args
        .model
        .iter()
        .map(|m| {
            SweepModel::parse(m).with_context(|| {
                format!("unknown model {m:?}; expected legacy-master, legacy-pr875 or multiexp")
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let curves: Vec<CurveSpec> = if args.curves.iter().any(|c| c == "all") {
        multiexp::curves::specs()
    } else {
        args.curves
            .iter()
            .map(|c| multiexp::curves::spec(c))
            .collect::<Result<_, _>>()?
    };
    let policies = args
        .policies
        .iter()
        .map(|p| {
            Policy::parse(p)
                .with_context(|| format!("unknown policy {p:?}; expected 2x, 1x or half"))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    if args.cores.contains(&0) {
        bail!("--cores must all be at least 1");
    }
    if args.n_min == 0 || args.n_min > args.n_max || args.n_max as u64 > MAX_N {
        bail!(
            "--n-min {} and --n-max {} must satisfy 1 ≤ n-min ≤ n-max ≤ 2^40",
            args.n_min,
            args.n_max
        );
    }
    let ifma = match args.ifma {
        IfmaSetting::Host => host_has_ifma(),
        IfmaSetting::On => true,
        IfmaSetting::Off => false,
    };
    Ok(SweepSpec {
        models,
        curves,
        policies,
        cores: if args.cores.is_empty() {
            DEFAULT_CORES.to_vec()
        } else {
            args.cores.clone()
        },
        n_min: args.n_min as u64,
        n_max: args.n_max as u64,
        ifma,
        brute: args.brute,
    })
}

fn bands_json(bands: &[(u64, u64)]) -> Value {
    Value::Array(bands.iter().map(|&(lo, hi)| json!([lo, hi])).collect())
}

/// The JSON object of one row.
pub fn row_json(row: &Row, ifma: bool) -> Value {
    let o = &row.outcome;
    let mut v = json!({
        "model": row.model.name(),
        "curve": row.curve,
        "group": row.group.name(),
        "policy": row.policy.name(),
        "cores": row.cores,
        "nb_tasks": row.nb_tasks,
        "nb_cpus": row.nb_cpus,
        "bands": bands_json(&o.bands),
        "sizes_hit": o.sizes_hit,
        "worst_slowdown": o.worst_slowdown,
        "worst_n": o.worst_n,
        "harmful": o.harmful,
        "harmful_bands": bands_json(&o.harmful_bands),
        "split_adds_work": o.split_adds_work(),
        "work_not_added": o.work_not_added,
        "depends_only_on_min": row.depends_only_on_min,
    });
    if row.model == SweepModel::Multiexp {
        v["tail_bands"] = bands_json(&o.tail_bands);
        v["tail_sizes"] = json!(o.tail_sizes);
        v["tail_max_gain"] = json!(o.tail_max_gain);
        v["ifma"] = json!(ifma);
    }
    v
}

fn bands_text(bands: &[(u64, u64)], limit: usize) -> String {
    if bands.is_empty() {
        return "-".to_string();
    }
    let mut s: Vec<String> = bands
        .iter()
        .take(limit)
        .map(|&(lo, hi)| {
            if lo == hi {
                format!("{lo}")
            } else {
                format!("{lo}-{hi}")
            }
        })
        .collect();
    if bands.len() > limit {
        s.push(format!("+{} more", bands.len() - limit));
    }
    s.join(" ")
}

fn print_table(rows: &[Row]) {
    println!(
        "{:<13} {:<15} {:<4} {:>5} {:>7} {:>6} {:>9} {:>5} {:>8} {:>9} {:>8} {:>9} {:>5} {:>5}  bands",
        "model",
        "curve/group",
        "pol",
        "cores",
        "nbTasks",
        "nbCpus",
        "sizes",
        "bands",
        "worst",
        "worst n",
        "harmful",
        "tail",
        "work+",
        "min"
    );
    for r in rows {
        let o = &r.outcome;
        let tail = if r.model == SweepModel::Multiexp {
            o.tail_sizes.to_string()
        } else {
            "-".to_string()
        };
        println!(
            "{:<13} {:<15} {:<4} {:>5} {:>7} {:>6} {:>9} {:>5} {:>8.4} {:>9} {:>8} {:>9} {:>5} {:>5}  {}",
            r.model.name(),
            r.name,
            r.policy.name(),
            r.cores,
            r.nb_tasks,
            r.nb_cpus,
            o.sizes_hit,
            o.bands.len(),
            o.worst_slowdown,
            o.worst_n,
            o.harmful,
            tail,
            if o.split_adds_work() { "yes" } else { "NO" },
            if r.depends_only_on_min { "yes" } else { "NO" },
            if o.harmful_bands == o.bands {
                bands_text(&o.bands, 2)
            } else {
                format!(
                    "{} (harmful: {})",
                    bands_text(&o.bands, 2),
                    bands_text(&o.harmful_bands, 2)
                )
            }
        );
    }
    println!();
    println!(
        "{:<13} {:>5} {:>12} {:>14} {:>12} {:>9} {:>11} {:>14}",
        "summary",
        "rows",
        "rows split",
        "split ≤16 cores",
        "worst",
        "harmful",
        "work+ fails",
        "not min-only"
    );
    for model in SweepModel::ALL {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.model == model).collect();
        if mine.is_empty() {
            continue;
        }
        let worst = mine
            .iter()
            .map(|r| r.outcome.worst_slowdown)
            .fold(1.0, f64::max);
        println!(
            "{:<13} {:>5} {:>12} {:>14} {:>12.4} {:>9} {:>11} {:>14}",
            model.name(),
            mine.len(),
            mine.iter().filter(|r| r.outcome.sizes_hit > 0).count(),
            mine.iter()
                .filter(|r| r.cores <= 16 && r.outcome.sizes_hit > 0)
                .count(),
            worst,
            mine.iter().map(|r| r.outcome.harmful).sum::<u64>(),
            mine.iter().filter(|r| !r.outcome.split_adds_work()).count(),
            mine.iter().filter(|r| !r.depends_only_on_min).count()
        );
    }
}

fn csv_bands(bands: &[(u64, u64)]) -> String {
    bands
        .iter()
        .map(|&(lo, hi)| format!("{lo}-{hi}"))
        .collect::<Vec<_>>()
        .join(";")
}

fn print_csv(rows: &[Row]) {
    println!(
        "model,curve,group,policy,cores,nb_tasks,nb_cpus,sizes_hit,bands,worst_slowdown,worst_n,\
         harmful,harmful_bands,split_adds_work,depends_only_on_min,tail_sizes,tail_bands,\
         tail_max_gain"
    );
    for r in rows {
        let o = &r.outcome;
        println!(
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            r.model.name(),
            r.curve,
            r.group.name(),
            r.policy.name(),
            r.cores,
            r.nb_tasks,
            r.nb_cpus,
            o.sizes_hit,
            csv_bands(&o.bands),
            o.worst_slowdown,
            o.worst_n,
            o.harmful,
            csv_bands(&o.harmful_bands),
            o.split_adds_work(),
            r.depends_only_on_min,
            o.tail_sizes,
            csv_bands(&o.tail_bands),
            o.tail_max_gain
        );
    }
}

/// Runs `multiexp sweep`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let spec = parse_spec(&args)?;
    let (profile, source) = crate::common::load_profile(args.profile.as_deref());
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("sweep {bar:40} {pos}/{len} decision problems, {elapsed}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let (rows, stats) = sweep(&spec, &profile, &|done, total| {
        bar.set_length(total as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    let seconds = start.elapsed().as_secs_f64();
    eprintln!(
        "sweep: {} rows, {} decision problems, {} decisions evaluated ({}), {:.2} s",
        rows.len(),
        stats.units,
        stats.evaluations,
        if spec.brute {
            "every n"
        } else {
            "interval solver"
        },
        seconds
    );
    let header = format!(
        "multiexp sweep: n in [{}, {}], ifma {}, profile {source}",
        spec.n_min,
        spec.n_max,
        if spec.ifma { "on" } else { "off" }
    );
    match args.format {
        SweepFormat::Json => {
            let out: Vec<Value> = rows.iter().map(|r| row_json(r, spec.ifma)).collect();
            println!("{}", serde_json::to_string_pretty(&out)?);
        }
        SweepFormat::Table => {
            println!("# {header}");
            print_table(&rows);
        }
        SweepFormat::Csv => {
            println!("# {header}");
            print_csv(&rows);
        }
    }
    if let Some(path) = &args.svg {
        chart::draw(path, &rows, &spec, &header)?;
        eprintln!("sweep: chart written to {}", path.display());
    }
    Ok(())
}
