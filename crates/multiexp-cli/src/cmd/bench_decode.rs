//! `multiexp bench --decode`: reading points, timed against blst and against the MSM they
//! feed, all on the same `--threads` threads, interleaved rep by rep.
//!
//! Contenders, on the same n random points of the curve/group:
//! - `hex, full`: `input::points_from_hex` with every check (what `msm --points` does);
//! - `hex, full, arkworks arith.` (with `--arkworks-arithmetic`): the same without the IFMA
//!   kernels;
//! - `blst uncompress+in_g1` (BLS12-381 G1): blst's `blst_p1_uncompress` and
//!   `blst_p1_affine_in_g1` per point from the 48 compressed bytes (already out of hex: blst
//!   is spared the hex decoding), a rayon parallel map over the points on a pool of the same
//!   size;
//! - `bin uncompressed, no subgroup`: `input::points_from_binary`, uncompressed, subgroup
//!   check off (on-curve and canonical checks on);
//! - `msm`: `multiexp::msm_with` on those points and random scalars.
//!
//! Ratios: each row's median over blst's median, and over the MSM's median.

use ark_ec::short_weierstrass::SWCurveConfig;
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::input::{self, PointOptions};
use multiexp::Config;
#[cfg(feature = "peers")]
use rayon::prelude::*;
use serde_json::json;

use crate::common::{interleave, Contender, Format, Stats};

/// What `bench --decode` needs of the `bench` arguments.
#[derive(Clone, Debug)]
pub struct DecodeArgs {
    /// Curve/group.
    pub curve: String,
    /// Sizes.
    pub n: Vec<usize>,
    /// Worker threads (default: all cores).
    pub threads: Option<usize>,
    /// Interleaved repetitions.
    pub reps: usize,
    /// Seed of the random inputs.
    pub seed: u64,
    /// Also time validation on arkworks' scalar arithmetic.
    pub arkworks_arithmetic: bool,
    /// Output format.
    pub format: Format,
}

struct DecodeRun<'a>(&'a DecodeArgs);

impl CurveVisitor for DecodeRun<'_> {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        let threads = args
            .threads
            .unwrap_or_else(multiexp::unstable::available_cores);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        let mut rows = Vec::new();
        for &n in &args.n {
            let points = multiexp::unstable::sample::points::<P>(n, args.seed);
            let scalars = multiexp::unstable::sample::scalars::<P::ScalarField>(n, args.seed);
            let hex = pool.install(|| input::points_to_hex(&points));
            let binary = input::points_to_binary(&points, false);
            let full = PointOptions::default();
            let arkworks = PointOptions {
                ifma: multiexp::Ifma::Off,
                ..full
            };
            let trusted = PointOptions {
                subgroup_check: false,
                ..full
            };
            // Correctness first, outside the clock.
            let decoded =
                pool.install(|| input::points_from_hex::<P>("bench", hex.as_bytes(), &full))?;
            anyhow::ensure!(decoded == points, "hex round trip differs");
            let decoded = pool.install(|| {
                input::points_from_binary::<P>("bench", &binary, Some(false), &trusted)
            })?;
            anyhow::ensure!(decoded == points, "binary round trip differs");
            drop(decoded);

            let pool = &pool;
            let (hex, binary) = (hex.as_bytes(), binary.as_slice());
            let mut contenders: Vec<Contender<'_, Result<usize, String>>> = Vec::new();
            let decode_hex = move |options: PointOptions| {
                move || {
                    pool.install(|| input::points_from_hex::<P>("bench", hex, &options))
                        .map(|v| v.len())
                        .map_err(|e| e.to_string())
                }
            };
            contenders.push(Contender {
                name: "hex, full".into(),
                run: Box::new(decode_hex(full)),
            });
            if args.arkworks_arithmetic {
                contenders.push(Contender {
                    name: "hex, full, arkworks arith.".into(),
                    run: Box::new(decode_hex(arkworks)),
                });
            }
            let blst_row = blst_contender(spec.name, &points, pool)?;
            let has_blst = blst_row.is_some();
            contenders.extend(blst_row);
            contenders.push(Contender {
                name: "bin uncompressed, no subgroup".into(),
                run: Box::new(move || {
                    pool.install(|| {
                        input::points_from_binary::<P>("bench", binary, Some(false), &trusted)
                    })
                    .map(|v| v.len())
                    .map_err(|e| e.to_string())
                }),
            });
            let config = Config {
                threads: Some(threads),
                ..Config::default()
            };
            let (pts, scs) = (&points, &scalars);
            contenders.push(Contender {
                name: "msm".into(),
                run: Box::new(move || {
                    multiexp::msm_with(pts, scs, &config)
                        .map(|_| n)
                        .map_err(|e| e.to_string())
                }),
            });
            let timed = interleave(args.reps, contenders);
            for t in &timed {
                match &t.result {
                    Ok(count) if *count == n => {}
                    Ok(count) => anyhow::bail!("{}: {count} points, expected {n}", t.name),
                    Err(e) => anyhow::bail!("{}: {e}", t.name),
                }
            }
            let stats: Vec<Stats> = timed.iter().map(|t| Stats::of(&t.samples)).collect();
            let median_of = |name: &str| {
                timed
                    .iter()
                    .zip(&stats)
                    .find(|(t, _)| t.name.starts_with(name))
                    .map(|(_, s)| s.median)
            };
            let blst = median_of("blst");
            let msm = median_of("msm").unwrap_or(f64::NAN);
            if args.format == Format::Table {
                println!(
                    "{} n={n} threads={threads} reps={} (interleaved; ratios of medians)",
                    spec.name, args.reps
                );
                println!(
                    "{:<30} {:>11} {:>11} {:>9} {:>9}",
                    "contender", "min ms", "median ms", "/ blst", "/ msm"
                );
            }
            for (t, s) in timed.iter().zip(&stats) {
                let vs_blst = blst.map(|b| s.median / b);
                let vs_msm = s.median / msm;
                match args.format {
                    Format::Json => rows.push(json!({
                        "contender": t.name, "curve": spec.name, "n": n, "threads": threads,
                        "reps": args.reps, "min_ms": s.min, "median_ms": s.median,
                        "ratio_to_blst": vs_blst, "ratio_to_msm": vs_msm,
                    })),
                    Format::Table => println!(
                        "{:<30} {:>11.3} {:>11.3} {:>9} {:>9.3}",
                        t.name,
                        s.min,
                        s.median,
                        vs_blst.map_or("-".to_string(), |r| format!("{r:.3}")),
                        vs_msm
                    ),
                }
            }
            if args.format == Format::Table {
                if !has_blst {
                    println!("(blst decodes BLS12-381 G1 only, and only with the `peers` feature)");
                }
                println!();
            }
        }
        if args.format == Format::Json {
            println!("{}", serde_json::to_string_pretty(&rows)?);
        }
        Ok(())
    }
}

/// blst's decoding of the same points, or `None` where blst does not apply.
#[cfg(feature = "peers")]
fn blst_contender<'a, P: SWCurveConfig>(
    curve: &str,
    points: &[ark_ec::short_weierstrass::Affine<P>],
    pool: &'a rayon::ThreadPool,
) -> anyhow::Result<Option<Contender<'a, Result<usize, String>>>> {
    if curve != "bls12-381-g1" {
        return Ok(None);
    }
    let encoding = input::PointEncoding::standard::<P>();
    let compressed: Vec<[u8; 48]> = points
        .iter()
        .map(|p| {
            let bytes = input::encode_point(p, encoding, true);
            <[u8; 48]>::try_from(bytes.as_slice()).map_err(|_| anyhow::anyhow!("48 bytes"))
        })
        .collect::<anyhow::Result<_>>()?;
    Ok(Some(Contender {
        name: "blst uncompress+in_g1".into(),
        run: Box::new(move || {
            pool.install(|| {
                compressed
                    .par_iter()
                    .map(crate::peers::blst_g1_decode)
                    .collect::<Option<Vec<_>>>()
            })
            .map(|v| v.len())
            .ok_or_else(|| "blst rejected a point".to_string())
        }),
    }))
}

#[cfg(not(feature = "peers"))]
fn blst_contender<'a, P: SWCurveConfig>(
    _: &str,
    _: &[ark_ec::short_weierstrass::Affine<P>],
    _: &'a rayon::ThreadPool,
) -> anyhow::Result<Option<Contender<'a, Result<usize, String>>>> {
    Ok(None)
}

/// Runs `multiexp bench --decode`.
pub fn run(args: &DecodeArgs) -> anyhow::Result<()> {
    multiexp::curves::visit(&args.curve, DecodeRun(args))?
}
