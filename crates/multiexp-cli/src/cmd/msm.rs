//! `multiexp msm`: one MSM on deterministic random inputs.

use ark_ec::short_weierstrass::SWCurveConfig;
use ark_ec::CurveGroup;
use clap::Parser;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::{Config, SplitPolicy};
use serde_json::json;

use crate::common::{compressed_hex, load_profile, parse_size, parse_split, time_ms, Format};

/// Arguments of `multiexp msm`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bn254-g1 (see `multiexp curves`).
    #[arg(long, default_value = "bn254-g1")]
    pub curve: String,
    /// Number of points, e.g. 65536 or 2^16.
    #[arg(long, value_parser = parse_size, default_value = "65536")]
    pub n: usize,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Force the window size c (1..=16).
    #[arg(long)]
    pub window: Option<u32>,
    /// Split policy: auto, never or partsK.
    #[arg(long, value_parser = parse_split, default_value = "auto")]
    pub split: SplitPolicy,
    /// Cost profile (default: $MULTIEXP_PROFILE, else <config dir>/multiexp/profile.json, else
    /// the built-in one).
    #[arg(long)]
    pub profile: Option<std::path::PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

struct MsmRun(Args);

impl CurveVisitor for MsmRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let points = multiexp::sample::points::<P>(args.n, args.seed);
        let scalars = multiexp::sample::scalars::<P::ScalarField>(args.n, args.seed);
        let config = Config {
            threads: args.threads,
            window: args.window,
            split: args.split,
            profile: Some(load_profile(args.profile.as_deref()).0),
            ..Config::default()
        };
        let report = multiexp::plan_for::<P>(args.n, &config)?;
        let plan = &report.chosen;
        let (result, ms) = time_ms(|| multiexp::execute_plan(&points, &scalars, plan, false));
        let (result, _) = result?;
        let hex = compressed_hex(&result.into_affine());
        match args.format {
            Format::Json => println!(
                "{}",
                json!({
                    "curve": spec.name,
                    "n": args.n,
                    "window": plan.window(),
                    "threads": plan.workers,
                    "plan": plan.describe(),
                    "predicted_ms": plan.makespan / 1e6,
                    "ms": ms,
                    "result": hex,
                })
            ),
            Format::Table => {
                println!("curve    {}", spec.name);
                println!("n        {}", args.n);
                println!("threads  {}", plan.workers);
                println!("plan     {}", plan.describe());
                println!(
                    "time     {ms:.3} ms (predicted {:.3} ms)",
                    plan.makespan / 1e6
                );
                println!("result   {hex}");
            }
        }
        Ok(())
    }
}

/// Runs `multiexp msm`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, MsmRun(args))?
}
