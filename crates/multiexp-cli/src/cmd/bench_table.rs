//! `multiexp bench --precomputed BUDGET[,BUDGET…]` and `bench --many M`: MSMs over bases
//! known ahead, timed against the plain MSM on the same inputs and threads, interleaved rep
//! by rep after one warm-up each; ratios are of medians of the same run.
//!
//! - `--precomputed`: one table per budget (bytes such as `16MiB`, or `4x`: that multiple of
//!   the points' size in memory), built before the clock starts (its build time and size are
//!   reported, the build also as a multiple of the plain MSM's median), each timed as
//!   `PrecomputedBases::msm` against `multiexp::msm`;
//! - `--many M`: M scalar vectors over the same points, as M separate `multiexp::msm` calls
//!   against one `multiexp::msm_many` call (and one `msm_many` over each table, with
//!   `--precomputed`).

use ark_ec::short_weierstrass::{Projective, SWCurveConfig};
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::unstable::sample::Distribution;
use multiexp::{Config, PrecomputedBases};
use serde_json::json;

use crate::common::{interleave, time_ms, Contender, Format, Stats};

/// A memory budget: bytes, or a multiple of the points' size in memory.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Bytes.
    Bytes(u64),
    /// This many times the points' size in memory.
    Times(f64),
}

impl Budget {
    /// Bytes for n points of `point_bytes` each.
    pub fn bytes(self, n: usize, point_bytes: u64) -> u64 {
        match self {
            Budget::Bytes(b) => b,
            Budget::Times(x) => (x * n as f64 * point_bytes as f64) as u64,
        }
    }

    /// How it was written.
    pub fn name(self) -> String {
        match self {
            Budget::Bytes(b) => human_bytes(b),
            Budget::Times(x) => format!("{x}x"),
        }
    }
}

/// Parses `16MiB`, `512KiB`, `1GiB`, `1048576` (bytes) or `4x` (times the points' size).
pub fn parse_budget(s: &str) -> Result<Budget, String> {
    let t = s.trim();
    if let Some(x) = t.strip_suffix('x') {
        return match x.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(Budget::Times(v)),
            _ => Err(format!("not a multiple of the points' size: {s:?}")),
        };
    }
    let units = [
        ("GiB", 1u64 << 30),
        ("MiB", 1 << 20),
        ("KiB", 1 << 10),
        ("G", 1 << 30),
        ("M", 1 << 20),
        ("K", 1 << 10),
        ("B", 1),
    ];
    for (suffix, scale) in units {
        if let Some(v) = t.strip_suffix(suffix) {
            let v: f64 = v
                .trim()
                .parse()
                .map_err(|_| format!("not a size in bytes: {s:?}"))?;
            if !(v.is_finite() && v >= 0.0) {
                return Err(format!("not a size in bytes: {s:?}"));
            }
            return Ok(Budget::Bytes((v * scale as f64) as u64));
        }
    }
    t.parse::<u64>()
        .map(Budget::Bytes)
        .map_err(|_| format!("not a budget (bytes such as 16MiB, or 4x): {s:?}"))
}

/// A byte count in binary units.
pub fn human_bytes(b: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} B")
    } else {
        format!("{v:.1} {}", units[u])
    }
}

/// What `bench --precomputed` and `bench --many` need of the `bench` arguments.
#[derive(Clone, Debug)]
pub struct TableArgs {
    /// Curve/group.
    pub curve: String,
    /// Sizes.
    pub n: Vec<usize>,
    /// Worker threads of every contender.
    pub threads: usize,
    /// Interleaved repetitions.
    pub reps: usize,
    /// Seed of the random inputs.
    pub seed: u64,
    /// How the scalars are drawn.
    pub scalars: Distribution,
    /// Table budgets (empty: none).
    pub budgets: Vec<Budget>,
    /// Scalar vectors per call (`--many`; 1: single MSMs).
    pub many: usize,
    /// The profile to plan with.
    pub profile: multiexp::ProfileChoice,
    /// Output format.
    pub format: Format,
}

struct TableRun<'a>(&'a TableArgs);

type Sums<P> = Result<Vec<Projective<P>>, String>;

impl CurveVisitor for TableRun<'_> {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let config = Config {
            threads: Some(args.threads),
            profile: args.profile.clone(),
            ..Config::default()
        };
        let point_bytes = std::mem::size_of::<ark_ec::short_weierstrass::Affine<P>>() as u64;
        let mut rows = Vec::new();
        for &n in &args.n {
            let points = multiexp::unstable::sample::points::<P>(n, args.seed);
            let vectors: Vec<Vec<P::ScalarField>> = (0..args.many.max(1) as u64)
                .map(|k| {
                    multiexp::unstable::sample::scalars_of::<P::ScalarField>(
                        n,
                        args.seed + 1000 * k,
                        args.scalars,
                    )
                })
                .collect();
            let batches: Vec<&[P::ScalarField]> = vectors.iter().map(|v| v.as_slice()).collect();
            // Tables first, outside the clock.
            let mut tables = Vec::new();
            for &budget in &args.budgets {
                let bytes = budget.bytes(n, point_bytes);
                let (table, build_ms) =
                    time_ms(|| PrecomputedBases::with_config(&points, bytes, &config));
                tables.push((budget, table?, build_ms));
            }
            let mut contenders: Vec<Contender<'_, Sums<P>>> = Vec::new();
            let (pts, bs, cfg) = (&points, &batches, &config);
            let many = args.many > 1;
            contenders.push(Contender {
                name: if many {
                    format!("{} msm calls", batches.len())
                } else {
                    "plain msm".into()
                },
                run: Box::new(move || {
                    bs.iter()
                        .map(|s| multiexp::msm_with(pts, s, cfg))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| e.to_string())
                }),
            });
            if many {
                contenders.push(Contender {
                    name: format!("msm_many ({})", batches.len()),
                    run: Box::new(move || {
                        multiexp::msm_many_with(pts, bs, cfg).map_err(|e| e.to_string())
                    }),
                });
            }
            for (budget, table, _) in &tables {
                contenders.push(Contender {
                    name: format!(
                        "table {}{}",
                        budget.name(),
                        if many { ", msm_many" } else { "" }
                    ),
                    run: Box::new(move || {
                        if many {
                            table.msm_many_with(bs, cfg)
                        } else {
                            table.msm_with(bs[0], cfg).map(|r| vec![r])
                        }
                        .map_err(|e| e.to_string())
                    }),
                });
            }
            let timed = interleave(args.reps, contenders);
            let first = match &timed[0].result {
                Ok(r) => r.clone(),
                Err(e) => anyhow::bail!("{e}"),
            };
            for t in &timed {
                match &t.result {
                    Ok(r) if *r == first => {}
                    Ok(_) => anyhow::bail!("{}: the results differ from the plain MSM's", t.name),
                    Err(e) => anyhow::bail!("{}: {e}", t.name),
                }
            }
            let stats: Vec<Stats> = timed.iter().map(|t| Stats::of(&t.samples)).collect();
            let base = stats[0].median;
            let path = if multiexp::unstable::ifma_runs::<P>() {
                "IFMA"
            } else {
                "portable"
            };
            if args.format == Format::Table {
                println!(
                    "{} n={n} threads={} reps={} scalars={} path={path} (interleaved; ratio = \
                     median / the first row's median; results agree)",
                    spec.name, args.threads, args.reps, args.scalars
                );
                println!(
                    "{:<24} {:>11} {:>11} {:>7}  table",
                    "contender", "min ms", "median ms", "ratio"
                );
            }
            for (k, (t, s)) in timed.iter().zip(&stats).enumerate() {
                let table = k
                    .checked_sub(if many { 2 } else { 1 })
                    .and_then(|i| tables.get(i));
                let detail = table.map(|(_, table, build_ms)| {
                    let layout = table
                        .layout()
                        .map_or("the bases alone (plain MSM)".into(), |l| {
                            format!("{} {}", l.describe(), table.form().map_or("", |f| f.name()))
                        });
                    (
                        layout,
                        table.bytes(),
                        *build_ms,
                        table.report().makespan() / 1e6,
                        table.report().chosen.as_ref().map(|c| c.build / 1e6),
                    )
                });
                let ratio = s.median / base;
                match args.format {
                    Format::Json => rows.push(json!({
                        "contender": t.name, "curve": spec.name, "n": n,
                        "threads": args.threads, "reps": args.reps,
                        "scalars": args.scalars.name(), "vectors": batches.len(),
                        "path": path,
                        "min_ms": s.min, "median_ms": s.median, "ratio": ratio,
                        "table": detail.as_ref().map(|d| &d.0),
                        "table_bytes": detail.as_ref().map(|d| d.1),
                        "points_bytes": n as u64 * point_bytes,
                        "build_ms": detail.as_ref().map(|d| d.2),
                        "predicted_ms": detail.as_ref().map(|d| d.3),
                        "predicted_build_ms": detail.as_ref().and_then(|d| d.4),
                    })),
                    Format::Table => {
                        let detail =
                            detail.map_or(String::new(), |(layout, bytes, build, _, modeled)| {
                                let modeled =
                                    modeled.map_or(String::new(), |m| format!(", modeled {m:.0}"));
                                format!(
                                    "{layout}, {} ({:.2}x the points), built in {build:.0} ms \
                                     ({:.1} plain runs{modeled})",
                                    human_bytes(bytes),
                                    bytes as f64 / (n as f64 * point_bytes as f64),
                                    build / base
                                )
                            });
                        println!(
                            "{:<24} {:>11.3} {:>11.3} {:>7.3}  {detail}",
                            t.name, s.min, s.median, ratio
                        );
                    }
                }
            }
            if args.format == Format::Table {
                println!();
            }
        }
        if args.format == Format::Json {
            println!("{}", serde_json::to_string_pretty(&rows)?);
        }
        Ok(())
    }
}

/// Runs `multiexp bench --precomputed` / `--many`.
pub fn run(args: &TableArgs) -> anyhow::Result<()> {
    multiexp::curves::visit(&args.curve, TableRun(args))?
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_parse_as_bytes_or_multiples() {
        assert_eq!(parse_budget("16MiB"), Ok(Budget::Bytes(16 << 20)));
        assert_eq!(parse_budget("512KiB"), Ok(Budget::Bytes(512 << 10)));
        assert_eq!(parse_budget("1048576"), Ok(Budget::Bytes(1 << 20)));
        assert_eq!(parse_budget("4x"), Ok(Budget::Times(4.0)));
        assert_eq!(parse_budget("1.5 GiB"), Ok(Budget::Bytes(3 << 29)));
        assert!(parse_budget("lots").is_err());
        assert!(parse_budget("-1x").is_err());
        assert_eq!(Budget::Times(4.0).bytes(100, 104), 41600);
    }
}
