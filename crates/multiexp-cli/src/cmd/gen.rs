//! `multiexp gen`: writes deterministic random points and scalars in the formats `msm` reads,
//! for examples, tests and benchmarks.

use std::path::{Path, PathBuf};

use ark_ec::short_weierstrass::SWCurveConfig;
use clap::{Parser, ValueEnum};
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::input::{self, Endianness};

use crate::common::parse_size;

/// File formats `gen` writes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum GenFormat {
    /// Hex lines: points in the standard compressed encoding, scalars big-endian.
    #[default]
    Hex,
    /// arkworks binary (`CanonicalSerialize` of the `Vec`s).
    Bin,
}

/// Arguments of `multiexp gen`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    /// Curve/group, e.g. bls12-381-g1 (see `multiexp curves`).
    #[arg(long)]
    pub curve: String,
    /// Number of points and scalars, e.g. 4096 or 2^12.
    #[arg(long, value_parser = parse_size)]
    pub n: usize,
    /// Seed of the random inputs (the same as `msm --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Where to write the points.
    #[arg(long)]
    pub points: PathBuf,
    /// Where to write the scalars.
    #[arg(long)]
    pub scalars: PathBuf,
    /// Format of both files (`msm --points-format` / `--scalars-format` read them back).
    #[arg(long, value_enum, default_value_t)]
    pub file_format: GenFormat,
    /// Binary points uncompressed (with --file-format bin).
    #[arg(long)]
    pub uncompressed: bool,
    /// Hex scalars little-endian (read them back with `msm --scalars-le`).
    #[arg(long)]
    pub scalars_le: bool,
}

struct GenRun(Args);

impl CurveVisitor for GenRun {
    type Output = anyhow::Result<()>;

    fn visit<P: SWCurveConfig>(self, spec: &CurveSpec) -> anyhow::Result<()> {
        let args = self.0;
        if args.uncompressed && args.file_format == GenFormat::Hex {
            anyhow::bail!("hex points are always compressed; use --file-format bin --uncompressed");
        }
        if args.n == 0 {
            anyhow::bail!(
                "--n must be at least 1: `multiexp msm` refuses an input without elements"
            );
        }
        if same_file(&args.points, &args.scalars) {
            anyhow::bail!(
                "--points and --scalars name the same file ({}): the scalars would overwrite \
                 the points",
                args.points.display()
            );
        }
        // The inputs and their encodings (at most twice their size again) must fit.
        multiexp::check_memory(
            &format!("writing {} random points and scalars", args.n),
            multiexp::input_bytes::<P>(args.n).saturating_mul(3),
        )?;
        let points = multiexp::unstable::sample::points::<P>(args.n, args.seed);
        let scalars = multiexp::unstable::sample::scalars::<P::ScalarField>(args.n, args.seed);
        let (point_bytes, scalar_bytes) = match args.file_format {
            GenFormat::Hex => {
                let endianness = if args.scalars_le {
                    Endianness::Little
                } else {
                    Endianness::Big
                };
                (
                    input::points_to_hex(&points).into_bytes(),
                    input::scalars_to_hex(&scalars, endianness).into_bytes(),
                )
            }
            GenFormat::Bin => (
                input::points_to_binary(&points, !args.uncompressed),
                input::scalars_to_binary(&scalars),
            ),
        };
        let write = |path: &PathBuf, bytes: &[u8]| {
            std::fs::write(path, bytes)
                .map_err(|e| anyhow::anyhow!("{}: cannot write: {e}", path.display()))
        };
        write(&args.points, &point_bytes)?;
        write(&args.scalars, &scalar_bytes)?;
        eprintln!(
            "{}: wrote {} points to {} and {} scalars to {} (seed {})",
            spec.name,
            args.n,
            args.points.display(),
            args.n,
            args.scalars.display(),
            args.seed
        );
        Ok(())
    }
}

/// Whether two paths name one file: the same path, or (where both exist) the same file
/// through another spelling or a link.
fn same_file(a: &Path, b: &Path) -> bool {
    if a == b {
        return true;
    }
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => {
            // A file that does not exist yet: compare its directory and name.
            let parent = |p: &Path| {
                let dir = p.parent().filter(|d| !d.as_os_str().is_empty());
                dir.map_or_else(
                    || std::env::current_dir().ok(),
                    |d| std::fs::canonicalize(d).ok(),
                )
            };
            a.file_name() == b.file_name() && parent(a).is_some() && parent(a) == parent(b)
        }
    }
}

/// Runs `multiexp gen`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let curve = args.curve.clone();
    multiexp::curves::visit(&curve, GenRun(args))?
}
