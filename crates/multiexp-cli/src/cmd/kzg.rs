//! `multiexp kzg commit`: the EIP-4844 KZG commitments of blob files, under the embedded
//! mainnet trusted setup or one read from a file (`--setup`).
//!
//! Every blob is read and checked before any commitment is printed: a bad setup or blob is an
//! error naming the file and the line, byte offset or element (exit code 2), and nothing is
//! printed on stdout.

use std::io::Read;
use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};
use multiexp::input::{InputError, InputErrorKind, Location};
use multiexp::kzg::{self, TrustedSetup};
use multiexp::Config;

use crate::cmd::bench_table::parse_budget;
use serde_json::json;

/// The most bytes of a blob file read: a hex blob has 262144 digits; this leaves room for any
/// whitespace and refuses `/dev/zero`.
const BLOB_FILE_LIMIT: u64 = 16 << 20;

/// How the commitments are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum CommitFormat {
    /// One line per blob: the file and its commitment (`0x` and 96 hex digits).
    #[default]
    Text,
    /// A JSON array of {"blob": file, "commitment": "0x…"}.
    Json,
}

/// Arguments of `multiexp kzg`.
#[derive(Parser, Debug, Clone)]
pub struct Args {
    #[command(subcommand)]
    pub command: KzgCommand,
}

/// The subcommands of `multiexp kzg`.
#[derive(Subcommand, Debug, Clone)]
pub enum KzgCommand {
    /// The KZG commitment of each blob (c-kzg's `blob_to_kzg_commitment`).
    Commit(CommitArgs),
}

/// Arguments of `multiexp kzg commit`.
#[derive(Parser, Debug, Clone)]
pub struct CommitArgs {
    /// Trusted setup file in c-kzg's text format (with or without the G1 monomial points).
    /// Default: the Ethereum mainnet setup embedded in multiexp (c-kzg's trusted_setup.txt).
    #[arg(long)]
    pub setup: Option<PathBuf>,
    /// Blob file: 131072 raw bytes, or their hex (optional 0x, whitespace and newlines
    /// ignored); 4096 big-endian field elements below r. Repeat for more blobs.
    #[arg(long, required = true)]
    pub blob: Vec<PathBuf>,
    /// Worker threads for reading the setup and the MSMs (default: all cores).
    #[arg(long)]
    pub threads: Option<usize>,
    /// A table of precomputed multiples of the setup's points: `auto` (default) builds one
    /// of up to 16MiB when the model says the blobs repay its build; `none` never; a budget
    /// (e.g. 16MiB, or 4x the points' size) always.
    #[arg(long, default_value = "auto")]
    pub precomputed: String,
    /// Output format.
    #[arg(long, value_enum, default_value_t)]
    pub format: CommitFormat,
}

/// The bytes of a blob file, read no further than [`BLOB_FILE_LIMIT`].
fn read_blob(path: &Path) -> Result<Vec<u8>, InputError> {
    let name = path.display().to_string();
    let error = |kind| InputError::new(&name, Location::Whole, kind);
    let unreadable = |error: String| InputErrorKind::Unreadable { error };
    let file = std::fs::File::open(path).map_err(|e| error(unreadable(e.to_string())))?;
    if file.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(error(unreadable("is a directory".to_string())));
    }
    let mut bytes = Vec::new();
    file.take(BLOB_FILE_LIMIT + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| error(unreadable(e.to_string())))?;
    if bytes.len() as u64 > BLOB_FILE_LIMIT {
        return Err(error(InputErrorKind::TooLong {
            limit: BLOB_FILE_LIMIT,
        }));
    }
    Ok(bytes)
}

/// The budget of the table to build for `blobs` commitments, or `None` for the plain MSMs:
/// `auto` builds one (of up to [`kzg::DEFAULT_TABLE_BUDGET`]) when the modeled saving over the
/// blobs exceeds the modeled build.
fn table_budget(flag: &str, blobs: usize, config: &Config) -> anyhow::Result<Option<u64>> {
    match flag {
        "none" => Ok(None),
        "auto" => {
            let report = multiexp::precomputed::plan_table::<ark_bls12_381::g1::Config>(
                kzg::FIELD_ELEMENTS_PER_BLOB,
                kzg::DEFAULT_TABLE_BUDGET,
                config,
            )?;
            Ok(report.chosen.and_then(|t| {
                let saved = blobs as f64 * (report.plain_makespan - t.makespan);
                (saved > t.build).then_some(kzg::DEFAULT_TABLE_BUDGET)
            }))
        }
        budget => {
            let b = parse_budget(budget).map_err(anyhow::Error::msg)?;
            let point = std::mem::size_of::<ark_bls12_381::G1Affine>() as u64;
            Ok(Some(b.bytes(kzg::FIELD_ELEMENTS_PER_BLOB, point)))
        }
    }
}

fn commit(args: CommitArgs) -> anyhow::Result<()> {
    let config = Config {
        threads: args.threads,
        ..Config::default()
    };
    let workers = config.workers()?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(workers)
        .build()?;
    let commitments = pool.install(|| {
        let read;
        let setup = match &args.setup {
            Some(path) => {
                read = TrustedSetup::from_file(path)?;
                &read
            }
            None => TrustedSetup::ethereum(),
        };
        let blobs = args
            .blob
            .iter()
            .map(|path| {
                let name = path.display().to_string();
                let blob = kzg::blob_from_bytes(&read_blob(path)?, &name)?;
                Ok((name, blob))
            })
            .collect::<Result<Vec<_>, InputError>>()?;
        let refs: Vec<&[ark_bls12_381::Fr]> = blobs.iter().map(|(_, b)| b.as_slice()).collect();
        let commitments = match table_budget(&args.precomputed, blobs.len(), &config)? {
            Some(budget) => {
                kzg::Committer::new(setup, budget, &config)?.commit_many(&refs, &config)?
            }
            None => kzg::blobs_to_commitments(setup, &refs, &config)?,
        };
        Ok::<_, anyhow::Error>(
            blobs
                .iter()
                .zip(&commitments)
                .map(|((name, _), c)| (name.clone(), kzg::commitment_hex(c)))
                .collect::<Vec<_>>(),
        )
    })?;
    match args.format {
        CommitFormat::Text => {
            for (name, hex) in &commitments {
                println!("{name} {hex}");
            }
        }
        CommitFormat::Json => {
            let out: Vec<_> = commitments
                .iter()
                .map(|(name, hex)| json!({"blob": name, "commitment": hex}))
                .collect();
            println!("{}", serde_json::Value::Array(out));
        }
    }
    Ok(())
}

/// Runs `multiexp kzg`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        KzgCommand::Commit(a) => commit(a),
    }
}
