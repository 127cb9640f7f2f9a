//! `multiexp bench --kzg`: EIP-4844 blob commitments under the mainnet setup, multiexp against
//! c-kzg's `blob_to_kzg_commitment` (single-threaded C over blst's Pippenger) on identical
//! blobs, interleaved rep by rep after one warm-up each.
//!
//! Every contender takes the raw blob bytes and returns the 48 commitment bytes, so each pays
//! what c-kzg pays: reading the 4096 field elements (canonical checks), the MSM, the
//! compression. Contenders: c-kzg; `multiexp::kzg::blob_to_commitment` (the plain MSM); and
//! one `kzg::Committer` per `--precomputed` budget, its table built before the clock (build
//! time and size reported). The multiexp rows run on `--threads` threads; c-kzg on one. With
//! `--many B`, each rep commits B different blobs (multiexp: one `commit_many`).

use multiexp::kzg::{self, Committer, TrustedSetup};
use multiexp::Config;
use serde_json::json;

use crate::cmd::bench_table::{human_bytes, Budget};
use crate::common::{interleave, time_ms, Contender, Format, Stats};

/// What `bench --kzg` needs of the `bench` arguments.
#[derive(Clone, Debug)]
pub struct KzgArgs {
    /// Worker threads of the multiexp contenders.
    pub threads: usize,
    /// Interleaved repetitions.
    pub reps: usize,
    /// Seed of the blobs.
    pub seed: u64,
    /// Table budgets (each one contender).
    pub budgets: Vec<Budget>,
    /// Blobs per rep.
    pub blobs: usize,
    /// The profile to plan with.
    pub profile: multiexp::ProfileChoice,
    /// Output format.
    pub format: Format,
}

type Commitments = Result<Vec<[u8; 48]>, String>;

/// Random canonical blobs: 4096 uniform field elements each, big-endian.
fn blobs(count: usize, seed: u64) -> Vec<Vec<u8>> {
    use ark_ff::{BigInteger, PrimeField};
    (0..count as u64)
        .map(|k| {
            multiexp::unstable::sample::scalars::<ark_bls12_381::Fr>(
                kzg::FIELD_ELEMENTS_PER_BLOB,
                seed + 7919 * k,
            )
            .iter()
            .flat_map(|e| e.into_bigint().to_bytes_be())
            .collect()
        })
        .collect()
}

/// c-kzg's commitments of `raw` blobs, or `None` without the peers.
#[cfg(feature = "peers")]
fn c_kzg_contender(raw: &[Vec<u8>]) -> Option<Contender<'_, Commitments>> {
    let settings = c_kzg::ethereum_kzg_settings(0);
    Some(Contender {
        name: "c-kzg (1 thread)".into(),
        run: Box::new(move || {
            raw.iter()
                .map(|bytes| {
                    let blob = c_kzg::Blob::from_bytes(bytes).map_err(|e| format!("{e:?}"))?;
                    settings
                        .blob_to_kzg_commitment(&blob)
                        .map(|c| c.to_bytes().into_inner())
                        .map_err(|e| format!("{e:?}"))
                })
                .collect()
        }),
    })
}

#[cfg(not(feature = "peers"))]
fn c_kzg_contender(_: &[Vec<u8>]) -> Option<Contender<'_, Commitments>> {
    None
}

/// Runs `multiexp bench --kzg`.
pub fn run(args: &KzgArgs) -> anyhow::Result<()> {
    let config = Config {
        threads: Some(args.threads),
        profile: args.profile.clone(),
        ..Config::default()
    };
    let setup = TrustedSetup::ethereum();
    let raw = blobs(args.blobs.max(1), args.seed);
    let point_bytes = std::mem::size_of::<ark_bls12_381::G1Affine>() as u64;
    let n = kzg::FIELD_ELEMENTS_PER_BLOB;
    let mut committers = Vec::new();
    for &budget in &args.budgets {
        let bytes = budget.bytes(n, point_bytes);
        let (committer, ms) = time_ms(|| Committer::new(setup, bytes, &config));
        committers.push((budget, committer?, ms));
    }
    let mut contenders: Vec<Contender<'_, Commitments>> = Vec::new();
    let ckzg = c_kzg_contender(&raw);
    let has_ckzg = ckzg.is_some();
    contenders.extend(ckzg);
    let (raw_ref, cfg) = (&raw, &config);
    let read = move || -> Result<Vec<Vec<ark_bls12_381::Fr>>, String> {
        raw_ref
            .iter()
            .map(|b| kzg::blob_from_bytes(b, "blob").map_err(|e| e.to_string()))
            .collect()
    };
    contenders.push(Contender {
        name: "multiexp".into(),
        run: Box::new(move || {
            read()?
                .iter()
                .map(|blob| {
                    kzg::blob_to_commitment(setup, blob, cfg)
                        .map(|c| kzg::commitment_bytes(&c))
                        .map_err(|e| e.to_string())
                })
                .collect()
        }),
    });
    for (budget, committer, _) in &committers {
        contenders.push(Contender {
            name: format!("multiexp table {}", budget.name()),
            run: Box::new(move || {
                let blobs = read()?;
                let refs: Vec<&[ark_bls12_381::Fr]> = blobs.iter().map(|b| b.as_slice()).collect();
                committer
                    .commit_many(&refs, cfg)
                    .map(|cs| cs.iter().map(kzg::commitment_bytes).collect())
                    .map_err(|e| e.to_string())
            }),
        });
    }
    let timed = interleave(args.reps, contenders);
    let first = timed[0].result.clone().map_err(anyhow::Error::msg)?;
    for t in &timed {
        match &t.result {
            Ok(r) if *r == first => {}
            Ok(_) => anyhow::bail!("{}: the commitments differ", t.name),
            Err(e) => anyhow::bail!("{}: {e}", t.name),
        }
    }
    let stats: Vec<Stats> = timed.iter().map(|t| Stats::of(&t.samples)).collect();
    let base = stats[0].median;
    let path = if multiexp::unstable::ifma_runs::<ark_bls12_381::g1::Config>() {
        "IFMA"
    } else {
        "portable"
    };
    let mut rows = Vec::new();
    if args.format == Format::Table {
        println!(
            "EIP-4844 blob_to_kzg_commitment, mainnet setup, {} blob(s) per rep, multiexp on {} \
             thread(s), path={path}, reps={} (interleaved; ratio = median / the first row's; \
             commitments agree)",
            raw.len(),
            args.threads,
            args.reps
        );
        println!(
            "{:<26} {:>11} {:>11} {:>7}  table",
            "contender", "min ms", "median ms", "ratio"
        );
    }
    let offset = timed.len() - committers.len();
    for (k, (t, s)) in timed.iter().zip(&stats).enumerate() {
        let table = k.checked_sub(offset).map(|i| &committers[i]);
        let detail = table.map(|(_, c, build)| (c.describe(), c.bytes(), *build));
        let ratio = s.median / base;
        match args.format {
            Format::Json => rows.push(json!({
                "contender": t.name, "blobs": raw.len(), "threads": args.threads,
                "reps": args.reps, "path": path, "min_ms": s.min, "median_ms": s.median,
                "ratio": ratio, "first": timed[0].name,
                "table": detail.as_ref().map(|d| &d.0),
                "table_bytes": detail.as_ref().map(|d| d.1),
                "build_ms": detail.as_ref().map(|d| d.2),
            })),
            Format::Table => println!(
                "{:<26} {:>11.3} {:>11.3} {:>7.3}  {}",
                t.name,
                s.min,
                s.median,
                ratio,
                detail.map_or(String::new(), |(layout, bytes, build)| format!(
                    "{layout}, {}, built in {build:.0} ms",
                    human_bytes(bytes)
                ))
            ),
        }
    }
    if args.format == Format::Table && !has_ckzg {
        println!("(c-kzg runs only with the `peers` feature)");
    }
    if args.format == Format::Json {
        println!("{}", serde_json::to_string_pretty(&rows)?);
    }
    Ok(())
}
