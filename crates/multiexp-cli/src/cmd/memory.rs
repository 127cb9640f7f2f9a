//! `multiexp memory`: the memory one MSM needs beyond its inputs.
//!
//! The inputs are made first; then the kernel's peak-RSS mark is reset (`/proc/self/clear_refs`)
//! and one MSM runs. Its working memory is the new peak minus the RSS before it: digits, bucket
//! sets, IFMA point records and the pool's stacks. The yardstick is points + scalars + digits,
//! the least any bucket method holds; the ratio compares points + scalars + working memory
//! with it.

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use clap::Parser;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::Config;
use serde_json::json;

use crate::common::{parse_size, time_ms, Format};

/// Arguments of `multiexp memory`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bn254-g1.
    #[arg(long, default_value = "bn254-g1")]
    pub curve: String,
    /// Number of points, e.g. 2^22.
    #[arg(long, value_parser = parse_size, default_value = "4194304")]
    pub n: usize,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
}

/// A field of /proc/self/status, in bytes.
fn status_bytes(field: &str) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| anyhow::anyhow!("reading /proc/self/status: {e}"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().strip_suffix("kB")?.trim().parse::<u64>().ok())
        .map(|kb| kb * 1024)
        .ok_or_else(|| anyhow::anyhow!("no {field} in /proc/self/status"))
}

struct MemoryRun(Args);

impl CurveVisitor for MemoryRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let n = args.n;
        let points = multiexp::unstable::sample::points::<P>(n, args.seed);
        let scalars = multiexp::unstable::sample::scalars::<P::ScalarField>(n, args.seed);
        let config = Config {
            threads: args.threads,
            ..Config::default()
        };
        let plan = multiexp::plan_for::<P>(n, &config)?.into_chosen();
        std::fs::write("/proc/self/clear_refs", "5")
            .map_err(|e| anyhow::anyhow!("resetting the peak RSS (/proc/self/clear_refs): {e}"))?;
        let before = status_bytes("VmRSS")?;
        let (result, ms) = time_ms(|| multiexp::execute_plan(&points, &scalars, &plan, false));
        let (_sum, _) = result?;
        let peak = status_bytes("VmHWM")?;
        let mib = |b: u64| b as f64 / (1u64 << 20) as f64;
        let points_b = (n * std::mem::size_of::<Affine<P>>()) as u64;
        let scalars_b = (n * std::mem::size_of::<P::ScalarField>()) as u64;
        let digits_b = multiexp::unstable::DIGIT_BYTES * (n * plan.chunks()) as u64;
        let working = peak.saturating_sub(before);
        let estimate = plan.memory();
        let yardstick = points_b + scalars_b + digits_b;
        let ratio = (points_b + scalars_b + working) as f64 / yardstick as f64;
        match args.format {
            Format::Json => println!(
                "{}",
                json!({
                    "curve": spec.name, "n": n, "threads": plan.workers(), "plan": plan.describe(),
                    "streamed": multiexp::unstable::streams(&plan),
                    "fused": multiexp::unstable::fuses(&plan), "ms": ms,
                    "points_bytes": points_b, "scalars_bytes": scalars_b,
                    "digits_bytes": digits_b, "rss_before_bytes": before, "peak_rss_bytes": peak,
                    "working_bytes": working, "ratio": ratio,
                    "estimate_bytes": estimate.total(), "estimate_digits_bytes": estimate.digits,
                    "estimate_records_bytes": estimate.records,
                    "estimate_buckets_bytes": estimate.buckets,
                })
            ),
            Format::Table => {
                println!(
                    "{} n={} threads={} plan: {}",
                    spec.name,
                    n,
                    plan.workers(),
                    plan.describe()
                );
                println!(
                    "streamed records      {}",
                    multiexp::unstable::streams(&plan)
                );
                println!("fused records         {}", multiexp::unstable::fuses(&plan));
                println!("points                {:>10.1} MiB", mib(points_b));
                println!("scalars               {:>10.1} MiB", mib(scalars_b));
                println!("digits (2·n·K)        {:>10.1} MiB", mib(digits_b));
                println!("RSS before the MSM    {:>10.1} MiB", mib(before));
                println!("peak RSS during it    {:>10.1} MiB", mib(peak));
                println!("MSM working memory    {:>10.1} MiB", mib(working));
                println!(
                    "planner's estimate    {:>10.1} MiB (digits {:.1}, records {:.1}, buckets {:.1})",
                    mib(estimate.total()),
                    mib(estimate.digits),
                    mib(estimate.records),
                    mib(estimate.buckets)
                );
                println!("(points + scalars + working) / (points + scalars + digits) = {ratio:.3}");
                println!("time                  {ms:>10.1} ms");
            }
        }
        Ok(())
    }
}

/// Runs `multiexp memory`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.threads == Some(0) {
        anyhow::bail!("--threads must be at least 1");
    }
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, MemoryRun(args))?
}
