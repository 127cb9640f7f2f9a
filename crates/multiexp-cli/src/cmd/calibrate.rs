//! `multiexp calibrate`: measures this host's cost profile (the library's `calibrate`), shows
//! its progress and writes it, by default where every command looks for it.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use multiexp::calibrate::{calibrate, rounds, CalibrateOptions, Progress, DEFAULT_CURVES};
use multiexp::profile::default_profile_path;

/// Arguments of `multiexp calibrate`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/groups to measure, comma-separated, or `all` for the whole catalogue (default:
    /// bn254-g1,bls12-381-g1; curves not measured keep the built-in profile's weights).
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_CURVES.map(String::from))]
    pub curves: Vec<String>,
    /// Where to write the profile; `-` writes it to stdout (default: the user's config dir,
    /// `<config>/multiexp/profile.json`, where every command looks for it).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Shorter samples and a smaller digit probe, in more rounds (so that the windows' order
    /// stays stable from run to run): the default curves in well under 30 s.
    #[arg(long)]
    pub quick: bool,
    /// Cores to measure on side by side (default: all).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Also write every probe's median time and the task fits as JSON to this file.
    #[arg(long)]
    pub samples: Option<PathBuf>,
}

/// Runs `multiexp calibrate`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let curves: Vec<String> = if args.curves.iter().any(|c| c == "all") {
        multiexp::curves::NAMES
            .iter()
            .map(|s| s.to_string())
            .collect()
    } else {
        args.curves.clone()
    };
    let options = CalibrateOptions {
        curves,
        quick: args.quick,
        threads: args.threads,
    };
    let bar = ProgressBar::new(rounds(&options) as u64);
    if std::io::stderr().is_terminal() {
        bar.set_style(
            ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} rounds  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
    } else {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let calibration = calibrate(&options, &|event| match event {
        Progress::Phase { curve, phase } => bar.set_message(format!("{curve}: {phase}")),
        Progress::Round => bar.inc(1),
    })?;
    bar.finish_and_clear();
    if let Some(path) = &args.samples {
        std::fs::write(path, serde_json::to_string_pretty(&calibration.samples)?)
            .with_context(|| format!("writing {}", path.display()))?;
    }
    let json = calibration.profile.to_json();
    let out = match &args.out {
        Some(p) => p.clone(),
        None => default_profile_path().context(
            "no config directory on this system: give the profile a place with --out FILE",
        )?,
    };
    if out.as_os_str() == "-" {
        println!("{json}");
        return Ok(());
    }
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    std::fs::write(&out, json + "\n").with_context(|| format!("writing {}", out.display()))?;
    eprintln!(
        "calibrated {} curve/group(s) on {} core(s) in {:.1} s; profile written to {}",
        options.curves.len(),
        calibration.threads,
        calibration.elapsed.as_secs_f64(),
        out.display()
    );
    Ok(())
}
