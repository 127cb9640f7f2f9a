//! Bases known ahead: tables of precomputed multiples, and many MSMs over one set of bases.
//!
//! Most MSMs run over bases fixed long before the scalars (a KZG structured reference string,
//! a Groth16 proving key, EIP-4844's 4096 Lagrange points). [`PrecomputedBases`] pays memory
//! once to keep, for every base P, the multiples 2^(j·t)·P, j < m: an MSM over them runs
//! G = ⌈K/m⌉ bucket sets instead of K, with fewer bucket reductions and Horner doublings, so
//! a wider window pays off (the layout and its price: `plan/planner/table.rs`). The planner
//! chooses the layout (window c, multiples m, arkworks points or IFMA records) within a memory
//! budget, pricing every candidate and the plain MSM with the same cost model, and keeps the
//! bases alone (the plain MSM) when no table beats it by the split margin. Measured
//! (`docs/bench/precomputed.md`): 0.5–0.85 of the plain MSM at n = 4096, 0.89–0.99 from 2^16
//! up.
//!
//! Building a table costs n·(m − 1)·t doublings (in parallel, t = c·G): measured 5–41 plain
//! MSMs of the same n, most for BN254 on IFMA, whose plain MSM is the fastest. [`PrecomputedBases::write_to`] and
//! [`PrecomputedBases::read_from`] keep it in a versioned file, checked on load (format,
//! curve, layout, length, a checksum, every point on the curve, and sampled bases' multiples
//! recomputed), so a prover builds it once.
//!
//! [`msm_many`] runs several scalar vectors over the same bases as one job on the pool: one
//! plan, one dispatch, the IFMA records of the bases converted once, and every vector's
//! windows scheduled together. Where the planner prices GLV below the plain job (as one
//! [`crate::msm`] would take it: small n, halves within the cache), the job runs over the 2n
//! points [P, φ(P)], made once, and each vector's scalars split into halves whose signs go
//! into their digits, so every vector shares those points. [`PrecomputedBases::msm_many`]
//! does the same over a table (without GLV: a table's multiples are of P alone).
//!
//! Variable time, like every MSM here: do not use it on secret scalars.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AdditiveGroup, AffineRepr, CurveGroup};
use ark_ff::{PrimeField, Zero};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};

use crate::bucket::{Processor, Records};
use crate::curves::spec_of;
use crate::digits::Windowing;
use crate::exec::{self, TableRef, TableRun};
use crate::ifma::Engine;
use crate::plan::planner::Planner;
use crate::{check_memory, planner_for, ClassPolicy, Config, Error};

pub use crate::plan::planner::{TableForm, TableLayout, TablePrice, TableQuery};

/// Σ_i scalars\[i\]·points\[i\] for each scalar vector of `batches`, run as one job on the
/// pool (see the module): every result equals [`crate::msm`] of that vector.
///
/// Vectors of small, zero or ±1 scalars (which [`crate::msm`] runs by scalar classes) run
/// one by one through [`crate::msm_with`]; the others share the job, under GLV where the
/// planner prices it lower (`config.glv`). A vector whose length
/// differs from the points' is an error, and nothing runs.
///
/// ```
/// use ark_bn254::{Fr, G1Affine, G1Projective};
/// use ark_ec::{CurveGroup, PrimeGroup};
///
/// let g = G1Projective::generator();
/// let points: Vec<G1Affine> = vec![g.into_affine(), (g + g).into_affine()];
/// let a = vec![Fr::from(3u64), Fr::from(5u64)];
/// let b = vec![Fr::from(1u64), Fr::from(0u64)];
/// let sums = multiexp::msm_many(&points, &[&a[..], &b[..]]).unwrap();
/// assert_eq!(sums, vec![g * Fr::from(13u64), g]);
/// ```
pub fn msm_many<P: SWCurveConfig>(
    points: &[Affine<P>],
    batches: &[&[P::ScalarField]],
) -> Result<Vec<Projective<P>>, Error> {
    msm_many_with(points, batches, &Config::default())
}

/// [`msm_many`] under `config` (threads, split policy, profile, scalar classes).
pub fn msm_many_with<P: SWCurveConfig>(
    points: &[Affine<P>],
    batches: &[&[P::ScalarField]],
    config: &Config,
) -> Result<Vec<Projective<P>>, Error> {
    let n = points.len();
    check_batches(n, batches)?;
    let planner = planner_for::<P>(config)?;
    let workers = config.workers()?;
    if n == 0 {
        return Ok(vec![Projective::<P>::zero(); batches.len()]);
    }
    crate::exec::in_pool(workers, || {
        many_in_pool(points, batches, config, &planner, workers)
    })
}

/// [`msm_many_with`]'s work, on a thread of the pool its phases run on.
fn many_in_pool<P: SWCurveConfig>(
    points: &[Affine<P>],
    batches: &[&[P::ScalarField]],
    config: &Config,
    planner: &Planner,
    workers: usize,
) -> Result<Vec<Projective<P>>, Error> {
    let n = points.len();
    let mut out = vec![Projective::<P>::zero(); batches.len()];
    // Classes keep their own path: a vector they may speed up runs alone.
    let alone = |s: &[P::ScalarField]| match config.classes {
        ClassPolicy::Off => false,
        ClassPolicy::Always => true,
        ClassPolicy::Auto => n >= 512 && !crate::classes::sample_is_full(s),
    };
    let (shared, single): (Vec<usize>, Vec<usize>) =
        (0..batches.len()).partition(|&q| !alone(batches[q]));
    for q in single {
        out[q] = crate::msm_with(points, batches[q], config)?;
    }
    if shared.len() == 1 {
        let q = shared[0];
        out[q] = crate::msm_with(points, batches[q], config)?;
        return Ok(out);
    }
    if shared.is_empty() {
        return Ok(out);
    }
    let jobs: Vec<&[P::ScalarField]> = shared.iter().map(|&q| batches[q]).collect();
    let price = planner.plan_many(n, jobs.len(), workers, point_bytes::<P>());
    let sums = match glv_many::<P>(planner, n, jobs.len(), workers, &price) {
        Some((glv, glv_planner, glv_price)) => {
            // The images and one vector's halves exist beside what the shared job holds.
            let held = shared_bytes(&glv_planner, &glv_price, 2 * n, jobs.len());
            check_memory(
                "these MSMs under GLV (the points' images, digits, records)",
                glv_bytes::<P>(n).saturating_add(held),
            )?;
            let run = |table: TableRef<'_, P>, run: &TableRun| {
                run_jobs_glv(table, run, &glv, &jobs, workers)
            };
            run_shared(
                config,
                &glv_planner,
                &glv_price,
                &glv.images(points),
                jobs.len(),
                run,
            )?
        }
        None => {
            let run = |table: TableRef<'_, P>, run: &TableRun| run_jobs(table, run, &jobs, workers);
            run_shared(config, planner, &price, points, jobs.len(), run)?
        }
    };
    for (q, sum) in shared.into_iter().zip(sums) {
        out[q] = sum;
    }
    Ok(out)
}

/// The shared job of [`msm_many_with`] as `price` plans it, over `points` (records converted
/// once where its form asks for them): `run` gets the table and the run.
fn run_shared<P: SWCurveConfig>(
    config: &Config,
    planner: &Planner,
    price: &TablePrice,
    points: &[Affine<P>],
    jobs: usize,
    run: impl FnOnce(TableRef<'_, P>, &TableRun) -> Result<Vec<Projective<P>>, Error>,
) -> Result<Vec<Projective<P>>, Error> {
    let workers = config.workers()?;
    let engine = config.ifma.engine();
    let windowing = planner.windowing(price.layout.window);
    check_memory(
        "these MSMs (digits, records)",
        shared_bytes(planner, price, points.len(), jobs),
    )?;
    let records = match price.form {
        TableForm::Records => exec::records(points, workers, engine)?,
        TableForm::Points => None,
    };
    let table_run = TableRun {
        layout: price.layout,
        windowing,
        processor: price.processor,
        top: price.top,
        parts: price.parts,
        engine: engine.filter(|_| records.is_some()),
    };
    crate::asm::notice_once();
    let table = TableRef {
        n: points.len(),
        points: Some(points),
        records: records.as_ref().map(Records::slice),
    };
    run(table, &table_run)
}

/// The bytes the shared job of `jobs` vectors over `points` points holds beyond them, as
/// `price` plans it: every vector's digits ([`crate::digits::DIGIT_BYTES`] a digit) and, for a table of records, the
/// points' records.
fn shared_bytes(planner: &Planner, price: &TablePrice, points: usize, jobs: usize) -> u64 {
    let chunks = planner.windowing(price.layout.window).chunks as u64;
    let digit_bytes = (points as u64)
        .saturating_mul(crate::digits::DIGIT_BYTES * chunks)
        .saturating_mul(jobs as u64);
    let record_bytes = match price.form {
        TableForm::Records => planner.record_bytes().saturating_mul(points as u64),
        TableForm::Points => 0,
    };
    digit_bytes.saturating_add(record_bytes)
}

/// The bytes the GLV form of the shared job adds for `n` bases: the 2n points [P, φ(P)] and
/// one vector's 2n halves (each vector's are turned into digits before the next is split).
fn glv_bytes<P: SWCurveConfig>(n: usize) -> u64 {
    let half = std::mem::size_of::<crate::glv::Half<P::ScalarField>>() as u64;
    (n as u64).saturating_mul(2 * (point_bytes::<P>() + half))
}

/// The shared job of many vectors of full-size scalars under GLV, where the planner offers
/// GLV for 2n points and its price (the run over [P, φ(P)], each vector's split, the images
/// made once) beats `plain` by the split margin, or GLV is forced: the constants, the
/// planner of the halves and its price.
#[allow(clippy::type_complexity)]
fn glv_many<P: SWCurveConfig>(
    planner: &Planner,
    n: usize,
    jobs: usize,
    workers: usize,
    plain: &TablePrice,
) -> Option<(std::sync::Arc<crate::glv::Glv<P>>, Planner, TablePrice)> {
    let halves = planner.glv_planner(2 * n, workers)?;
    let price = halves.plan_many(2 * n, jobs, workers, point_bytes::<P>());
    let extra = jobs as f64 * planner.glv_split_cost(n, workers) + planner.gather_cost(n, workers);
    let margin = planner.options().margin;
    let wins = price.makespan + extra < plain.makespan * (1.0 - margin);
    if !(wins || planner.options().glv_always) {
        return None;
    }
    Some((crate::glv::of::<P>()?, halves, price))
}

/// [`run_jobs`] under GLV, over the table of the 2n points [P, φ(P)]: each job's scalar k_i
/// splits into (±|k1|, ±|k2|), whose digits (negated for a negative half) go to P_i and
/// φ(P_i), so every job shares the same points.
fn run_jobs_glv<P: SWCurveConfig>(
    table: TableRef<'_, P>,
    run: &TableRun,
    glv: &crate::glv::Glv<P>,
    jobs: &[&[P::ScalarField]],
    workers: usize,
) -> Result<Vec<Projective<P>>, Error> {
    let digits = jobs
        .iter()
        .map(|s| {
            let halves = glv.split_all(s, workers)?;
            exec::digits_of_signed(&halves, run.windowing, workers)
        })
        .collect::<Result<Vec<_>, _>>()?;
    exec::execute_table(table, run, &digits, workers)
}

/// The digits of every job, then one table run over all of them.
fn run_jobs<P: SWCurveConfig>(
    table: TableRef<'_, P>,
    run: &TableRun,
    jobs: &[&[P::ScalarField]],
    workers: usize,
) -> Result<Vec<Projective<P>>, Error> {
    let digits = jobs
        .iter()
        .map(|s| exec::digits(s, run.windowing, workers))
        .collect::<Result<Vec<_>, _>>()?;
    exec::execute_table(table, run, &digits, workers)
}

/// Every vector must have one scalar per base.
fn check_batches<F>(n: usize, batches: &[&[F]]) -> Result<(), Error> {
    match batches.iter().find(|b| b.len() != n) {
        Some(b) => Err(Error::LengthMismatch {
            points: n,
            scalars: b.len(),
        }),
        None => Ok(()),
    }
}

/// The planner for tables of `P` under `config`: its window forced where given, and the
/// IFMA processor priced wherever `config` gives it an engine (the emulation included), so a
/// table of records can be priced and run on any engine it was built for.
fn table_planner<P: SWCurveConfig>(config: &Config, window: Option<u32>) -> Result<Planner, Error> {
    let spec = spec_of::<P>();
    let mut options = config.plan_options();
    options.window = window.or(options.window);
    let engine = config.ifma.engine().is_some();
    options.ifma = engine && crate::ifma::limbs_of::<P::BaseField>().is_some();
    Planner::new(
        &spec,
        config.profile.profile().weights_for(&spec, engine),
        options,
    )
}

/// Bytes of one arkworks affine point of `P` in memory.
fn point_bytes<P: SWCurveConfig>() -> u64 {
    std::mem::size_of::<Affine<P>>() as u64
}

/// The windowing of full scalars of `P` at window c.
fn windowing<P: SWCurveConfig>(c: u32) -> Windowing {
    Windowing::new(<P::ScalarField as PrimeField>::MODULUS.as_ref(), c)
}

/// The planner's choice for bases known ahead, and what it weighed.
#[derive(Clone, Debug, PartialEq)]
pub struct TableReport {
    /// Bases.
    pub n: usize,
    /// Workers it was priced for.
    pub workers: usize,
    /// The memory budget, bytes.
    pub budget: u64,
    /// The table chosen, or `None`: the bases alone, run by the plain MSM.
    pub chosen: Option<TablePrice>,
    /// The plain MSM's modeled wall time, ns.
    pub plain_makespan: f64,
    /// The plain MSM's plan, in words.
    pub plain: String,
    /// The fastest candidate of every window within the budget.
    pub candidates: Vec<TablePrice>,
    /// Why, in words.
    pub reason: String,
}

impl TableReport {
    /// The modeled wall time of one MSM as chosen, ns.
    pub fn makespan(&self) -> f64 {
        self.chosen.map_or(self.plain_makespan, |c| c.makespan)
    }
}

/// Plans a table for `n` bases of `P` within `budget` bytes under `config`, without building
/// it: what [`PrecomputedBases::with_config`] would choose, and why.
pub fn plan_table<P: SWCurveConfig>(
    n: usize,
    budget: u64,
    config: &Config,
) -> Result<TableReport, Error> {
    let planner = planner_for::<P>(config)?;
    let workers = config.workers()?;
    Ok(report(&planner, n, budget, workers, point_bytes::<P>()))
}

fn report(planner: &Planner, n: usize, budget: u64, workers: usize, each: u64) -> TableReport {
    let query = TableQuery {
        n,
        jobs: 1,
        workers,
        point_bytes: each,
        convert_per_call: false,
    };
    let all = planner.table_candidates(&query, budget);
    let mut per_window: Vec<TablePrice> = Vec::new();
    for p in &all {
        match per_window
            .iter_mut()
            .find(|q| q.layout.window == p.layout.window)
        {
            Some(q) if p.makespan < q.makespan => *q = *p,
            Some(_) => {}
            None => per_window.push(*p),
        }
    }
    let plain_plan = planner.plan(n, workers);
    let plain_makespan = plain_plan.makespan();
    let best = Planner::fastest_table(&all);
    let margin = planner.options().margin;
    let ms = |ns: f64| ns / 1e6;
    let (chosen, reason) = match best {
        Some(b) if n > 0 && b.makespan < plain_makespan * (1.0 - margin) => (
            Some(b),
            format!(
                "table {} in {}, {}: modeled {:.3} ms against {:.3} ms for the plain MSM \
                 ({:.2}x), {} of the {} budget",
                b.layout.describe(),
                b.form.name(),
                b.processor.name(),
                ms(b.makespan),
                ms(plain_makespan),
                plain_makespan / b.makespan,
                crate::error::bytes(b.bytes),
                crate::error::bytes(budget),
            ),
        ),
        Some(b) => (
            None,
            format!(
                "plain MSM: the best table within the {} budget ({} in {}, modeled {:.3} ms) \
                 does not beat the plain MSM ({:.3} ms) by the margin {:.1}%",
                crate::error::bytes(budget),
                b.layout.describe(),
                b.form.name(),
                ms(b.makespan),
                ms(plain_makespan),
                100.0 * margin
            ),
        ),
        None => (
            None,
            format!(
                "plain MSM: no table fits the {} budget",
                crate::error::bytes(budget)
            ),
        ),
    };
    TableReport {
        n,
        workers,
        budget,
        chosen,
        plain_makespan,
        plain: plain_plan.describe(),
        candidates: per_window,
        reason,
    }
}

/// What a [`PrecomputedBases`] keeps.
enum Kept<P: SWCurveConfig> {
    /// The bases alone, run by the plain MSM.
    Plain(Vec<Affine<P>>),
    /// The multiples as arkworks points, multiple by multiple (n·m).
    Points(TableLayout, Vec<Affine<P>>),
    /// The multiples as IFMA records, and the engine they run on.
    Records(TableLayout, Records, Engine),
}

/// Bases with precomputed multiples for MSMs over them (see the module).
///
/// ```
/// use ark_bls12_381::{Fr, G1Affine};
/// use multiexp::unstable::sample;
/// use multiexp::PrecomputedBases;
///
/// let points: Vec<G1Affine> = sample::points(1000, 1);
/// let scalars: Vec<Fr> = sample::scalars(1000, 2);
/// // Up to 8 MiB of multiples; the planner picks the layout, or none if none pays.
/// let table = PrecomputedBases::new(&points, 8 << 20)?;
/// assert!(table.bytes() <= 8 << 20);
/// assert_eq!(table.msm(&scalars)?, multiexp::msm(&points, &scalars)?);
/// // One scalar per base, else an error.
/// assert!(table.msm(&scalars[..999]).is_err());
/// # Ok::<(), multiexp::Error>(())
/// ```
pub struct PrecomputedBases<P: SWCurveConfig> {
    n: usize,
    kept: Kept<P>,
    report: TableReport,
}

/// Bases per block of a table build (one batch normalisation each).
const BUILD_BLOCK: usize = 1024;

impl<P: SWCurveConfig> PrecomputedBases<P> {
    /// A table of `points` within `budget` bytes, as the planner chooses it on all cores.
    pub fn new(points: &[Affine<P>], budget: u64) -> Result<Self, Error> {
        Self::with_config(points, budget, &Config::default())
    }

    /// A table of `points` within `budget` bytes, chosen and built under `config` (its
    /// threads, profile and IFMA setting; the window and the processor where it forces them).
    pub fn with_config(points: &[Affine<P>], budget: u64, config: &Config) -> Result<Self, Error> {
        Self::with_progress(points, budget, config, &|_, _| {})
    }

    /// [`with_config`](Self::with_config), calling `progress(done, total)` as the multiples
    /// are computed (from the building threads).
    pub fn with_progress(
        points: &[Affine<P>],
        budget: u64,
        config: &Config,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Result<Self, Error> {
        let planner = planner_for::<P>(config)?;
        let workers = config.workers()?;
        let report = report(&planner, points.len(), budget, workers, point_bytes::<P>());
        let kept = match report.chosen {
            None => Kept::Plain(points.to_vec()),
            Some(p) => build(points, p.layout, p.form, config, workers, progress)?,
        };
        Ok(PrecomputedBases {
            n: points.len(),
            kept,
            report,
        })
    }

    /// A table of exactly `layout` (window c, at most `copies` multiples) in `form`, whatever
    /// the planner would choose: for experiments, benchmarks and tests. Records need the IFMA
    /// processor ([`Config::ifma`] may ask for the emulation).
    pub fn with_layout(
        points: &[Affine<P>],
        window: u32,
        copies: usize,
        form: TableForm,
        config: &Config,
    ) -> Result<Self, Error> {
        if !(1..=crate::digits::MAX_WINDOW).contains(&window) {
            return Err(Error::InvalidWindow {
                window,
                min: 1,
                max: crate::digits::MAX_WINDOW,
            });
        }
        let workers = config.workers()?;
        let layout = TableLayout::new(window, windowing::<P>(window).chunks, copies);
        let planner = table_planner::<P>(config, Some(window))?;
        let mut report = report(
            &planner,
            points.len(),
            u64::MAX,
            workers,
            point_bytes::<P>(),
        );
        let query = TableQuery {
            n: points.len(),
            jobs: 1,
            workers,
            point_bytes: point_bytes::<P>(),
            convert_per_call: false,
        };
        let price =
            planner
                .price_table(layout, form, &query)
                .ok_or(Error::UnsupportedProcessor {
                    processor: Processor::BatchAffineIfma.name(),
                    curve: spec_of::<P>().name,
                })?;
        report.chosen = Some(price);
        report.reason = format!("layout forced: {}", layout.describe());
        let kept = build(points, layout, form, config, workers, &|_, _| {})?;
        Ok(PrecomputedBases {
            n: points.len(),
            kept,
            report,
        })
    }

    /// The number of bases.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there are no bases.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The layout of the table, or `None` for the bases alone (the plain MSM).
    pub fn layout(&self) -> Option<TableLayout> {
        match &self.kept {
            Kept::Plain(_) => None,
            Kept::Points(l, _) | Kept::Records(l, _, _) => Some(*l),
        }
    }

    /// How the multiples are stored, or `None` for the bases alone.
    pub fn form(&self) -> Option<TableForm> {
        match &self.kept {
            Kept::Plain(_) => None,
            Kept::Points(..) => Some(TableForm::Points),
            Kept::Records(..) => Some(TableForm::Records),
        }
    }

    /// Bytes it holds (the bases alone, or the multiples in their form).
    pub fn bytes(&self) -> u64 {
        match &self.kept {
            Kept::Plain(p) | Kept::Points(_, p) => p.len() as u64 * point_bytes::<P>(),
            Kept::Records(_, r, _) => 8 * r.data.len() as u64,
        }
    }

    /// The planner's choice and what it weighed.
    pub fn report(&self) -> &TableReport {
        &self.report
    }

    /// Σ_i scalars\[i\]·bases\[i\] on all cores; one scalar per base, else an error.
    pub fn msm(&self, scalars: &[P::ScalarField]) -> Result<Projective<P>, Error> {
        self.msm_with(scalars, &Config::default())
    }

    /// [`msm`](Self::msm) under `config` (threads, split policy; the table's window and form
    /// are fixed when it is built).
    pub fn msm_with(
        &self,
        scalars: &[P::ScalarField],
        config: &Config,
    ) -> Result<Projective<P>, Error> {
        Ok(self.msm_many_with(&[scalars], config)?[0])
    }

    /// One MSM per scalar vector of `batches`, run as one job (see [`msm_many`]).
    pub fn msm_many(&self, batches: &[&[P::ScalarField]]) -> Result<Vec<Projective<P>>, Error> {
        self.msm_many_with(batches, &Config::default())
    }

    /// [`msm_many`](Self::msm_many) under `config`.
    pub fn msm_many_with(
        &self,
        batches: &[&[P::ScalarField]],
        config: &Config,
    ) -> Result<Vec<Projective<P>>, Error> {
        check_batches(self.n, batches)?;
        let (layout, table, form) = match &self.kept {
            Kept::Plain(points) => {
                return match batches {
                    [one] => crate::msm_with(points, one, config).map(|r| vec![r]),
                    _ => msm_many_with(points, batches, config),
                }
            }
            Kept::Points(layout, points) => (
                *layout,
                TableRef {
                    n: self.n,
                    points: Some(&points[..]),
                    records: None,
                },
                TableForm::Points,
            ),
            Kept::Records(layout, records, _) => (
                *layout,
                TableRef {
                    n: self.n,
                    points: None,
                    records: Some(records.slice()),
                },
                TableForm::Records,
            ),
        };
        if self.n == 0 || batches.is_empty() {
            return Ok(vec![Projective::<P>::zero(); batches.len()]);
        }
        let workers = config.workers()?;
        let planner = table_planner::<P>(config, Some(layout.window))?;
        let engine = match &self.kept {
            Kept::Records(_, _, engine) => Some(*engine),
            _ => None,
        };
        let query = TableQuery {
            n: self.n,
            jobs: batches.len(),
            workers,
            point_bytes: point_bytes::<P>(),
            convert_per_call: false,
        };
        let priced = planner.price_table(layout, form, &query);
        let (processor, top, parts) = priced.map_or((Processor::Xyzz, Processor::Xyzz, 1), |p| {
            (p.processor, p.top, p.parts)
        });
        // A table's tasks read it in its form: records feed the IFMA processor (on the engine
        // they were built for), points every other one; the top digit's task may run XYZZ
        // over either (decoding records).
        let readable = |p: Processor| match form {
            TableForm::Records => Processor::BatchAffineIfma,
            TableForm::Points if p == Processor::BatchAffineIfma => Processor::BatchAffine,
            TableForm::Points => p,
        };
        let run = TableRun {
            layout,
            windowing: windowing::<P>(layout.window),
            processor: readable(processor),
            top: match top {
                Processor::Xyzz => top,
                _ => readable(top),
            },
            parts,
            engine,
        };
        let digit_bytes = crate::digits::DIGIT_BYTES
            * (self.n as u64)
            * layout.chunks as u64
            * batches.len() as u64;
        check_memory("these MSMs' digits", digit_bytes)?;
        crate::asm::notice_once();
        crate::exec::in_pool(workers, || run_jobs(table, &run, batches, workers))
    }
}

/// Computes the multiples of `layout` in `form`: multiple j from multiple j − 1 by t
/// doublings, bases in blocks of [`BUILD_BLOCK`] (one batch normalisation each) on `workers`
/// workers.
fn build<P: SWCurveConfig>(
    points: &[Affine<P>],
    layout: TableLayout,
    form: TableForm,
    config: &Config,
    workers: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Kept<P>, Error> {
    let n = points.len();
    let each = match form {
        TableForm::Points => point_bytes::<P>(),
        TableForm::Records => 16 * crate::ifma::limbs_of::<P::BaseField>().unwrap_or(0) as u64,
    };
    // The table, plus two multiples in flight while records are made.
    let transient = match form {
        TableForm::Points => 0,
        TableForm::Records => 2 * n as u64 * point_bytes::<P>(),
    };
    check_memory(
        "this table of multiples",
        (n as u64 * layout.copies as u64).saturating_mul(each) + transient,
    )?;
    let total = (n * (layout.copies - 1)) as u64;
    let done = AtomicU64::new(0);
    let stride = layout.stride();
    let engine = config.ifma.engine();
    let step = |src: &[Affine<P>], dst: &mut [Affine<P>]| -> Result<(), Error> {
        double_all(src, dst, stride, engine, workers, &|k| {
            let d = done.fetch_add(k as u64, Ordering::Relaxed) + k as u64;
            progress(d, total);
        })
    };
    match form {
        TableForm::Points => {
            let mut table = vec![Affine::<P>::zero(); n * layout.copies];
            table[..n].copy_from_slice(points);
            for j in 1..layout.copies {
                let (done_part, rest) = table.split_at_mut(j * n);
                step(&done_part[(j - 1) * n..], &mut rest[..n])?;
            }
            Ok(Kept::Points(layout, table))
        }
        TableForm::Records => {
            let engine = config.ifma.engine().ok_or(Error::UnsupportedProcessor {
                processor: Processor::BatchAffineIfma.name(),
                curve: spec_of::<P>().name,
            })?;
            let limbs =
                crate::ifma::limbs_of::<P::BaseField>().ok_or(Error::UnsupportedProcessor {
                    processor: Processor::BatchAffineIfma.name(),
                    curve: spec_of::<P>().name,
                })?;
            let rec = 2 * limbs;
            let mut data = vec![0u64; rec * n * layout.copies];
            let mut current = points.to_vec();
            let mut next = vec![Affine::<P>::zero(); n];
            for j in 0..layout.copies {
                if j > 0 {
                    step(&current, &mut next)?;
                    std::mem::swap(&mut current, &mut next);
                }
                exec::records_into(
                    &current,
                    engine,
                    limbs,
                    &mut data[rec * j * n..rec * (j + 1) * n],
                    workers,
                )?;
            }
            Ok(Kept::Records(layout, Records { limbs, data }, engine))
        }
    }
}

/// dst\[i\] = 2^t·src\[i\] on `workers` workers, reporting each finished block's size; the
/// doublings on eight IFMA lanes of `engine` where they apply ([`crate::doubling`]).
fn double_all<P: SWCurveConfig>(
    src: &[Affine<P>],
    dst: &mut [Affine<P>],
    t: u32,
    engine: Option<Engine>,
    workers: usize,
    report: &(dyn Fn(usize) + Sync),
) -> Result<(), Error> {
    let n = src.len();
    let bounds = exec::even_bounds(n, workers.clamp(1, n.div_ceil(BUILD_BLOCK).max(1)));
    let mut slices = Vec::with_capacity(bounds.len());
    let mut rest = dst;
    for w in bounds.windows(2) {
        let (head, tail) = rest.split_at_mut(w[1] - w[0]);
        slices.push(head);
        rest = tail;
    }
    exec::on_workers(slices, |w, out| {
        let src = &src[bounds[w]..bounds[w + 1]];
        let mut block = Vec::with_capacity(BUILD_BLOCK);
        for (s, d) in src.chunks(BUILD_BLOCK).zip(out.chunks_mut(BUILD_BLOCK)) {
            crate::doubling::double_into(engine, s, t, &mut block);
            d.copy_from_slice(&Projective::<P>::normalize_batch(&block));
            report(s.len());
        }
    })?;
    Ok(())
}

/// The file format's magic bytes.
const MAGIC: &[u8; 8] = b"MXTABLE\0";
/// The file format's version.
pub const TABLE_FORMAT_VERSION: u32 = 1;
/// Bases whose multiples a loaded table recomputes to check it.
const CHECKED_BASES: usize = 8;

/// FNV-1a, 64 bits: the file's checksum (it guards against corruption, not tampering).
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A writer that hashes what passes through it.
struct Hashing<W> {
    inner: W,
    hash: Fnv,
}

impl<W: Write> Write for Hashing<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let k = self.inner.write(buf)?;
        self.hash.update(&buf[..k]);
        Ok(k)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that hashes what passes through it.
struct Hashed<R> {
    inner: R,
    hash: Fnv,
}

impl<R: Read> Read for Hashed<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.hash.update(&buf[..k]);
        Ok(k)
    }
}

fn file_error(reason: impl Into<String>) -> Error {
    Error::TableFile {
        reason: reason.into(),
    }
}

fn io_error(e: std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        file_error("it ends early (truncated)")
    } else {
        file_error(format!("reading or writing it failed: {e}"))
    }
}

impl<P: SWCurveConfig> PrecomputedBases<P> {
    /// Writes the table (its layout and every multiple, uncompressed) in the versioned
    /// format [`read_from`](Self::read_from) reads, with a checksum.
    pub fn write_to<W: Write>(&self, writer: W) -> Result<(), Error> {
        let mut w = Hashing {
            inner: writer,
            hash: Fnv::new(),
        };
        let name = spec_of::<P>().name;
        let (layout, copies) = match self.layout() {
            Some(l) => (Some(l), l.copies),
            None => (None, 1),
        };
        let mut header = Vec::new();
        header.extend_from_slice(MAGIC);
        header.extend_from_slice(&TABLE_FORMAT_VERSION.to_le_bytes());
        header.extend_from_slice(&(name.len() as u16).to_le_bytes());
        header.extend_from_slice(name.as_bytes());
        header.extend_from_slice(&(self.n as u64).to_le_bytes());
        let (c, k, g) = layout.map_or((0, 0, 0), |l| (l.window, l.chunks as u32, l.groups as u32));
        for v in [c, k, copies as u32, g] {
            header.extend_from_slice(&v.to_le_bytes());
        }
        w.write_all(&header).map_err(io_error)?;
        let mut buf = Vec::new();
        let mut put = |points: &[Affine<P>], w: &mut Hashing<W>| -> Result<(), Error> {
            buf.clear();
            for p in points {
                p.serialize_uncompressed(&mut buf)
                    .map_err(|e| file_error(e.to_string()))?;
            }
            w.write_all(&buf).map_err(io_error)
        };
        match &self.kept {
            Kept::Plain(points) | Kept::Points(_, points) => {
                for block in points.chunks(BUILD_BLOCK) {
                    put(block, &mut w)?;
                }
            }
            Kept::Records(_, records, engine) => {
                let total = records.slice().len();
                for lo in (0..total).step_by(BUILD_BLOCK) {
                    let hi = (lo + BUILD_BLOCK).min(total);
                    let points: Vec<Affine<P>> =
                        crate::bucket::decode_records(*engine, records.slice().range(lo, hi));
                    put(&points, &mut w)?;
                }
            }
        }
        let sum = w.hash.0;
        w.inner.write_all(&sum.to_le_bytes()).map_err(io_error)?;
        w.flush().map_err(io_error)
    }

    /// The bytes of [`write_to`](Self::write_to).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_to(&mut out)
            .expect("writing into memory cannot fail");
        out
    }

    /// Reads a table [`write_to`](Self::write_to) wrote, checking its format version, curve,
    /// layout, length and checksum, that every multiple is on the curve, and, for a few
    /// bases, every multiple against its base. Its form (points or IFMA records) is chosen
    /// for this host under `config`, as when building.
    pub fn read_from<R: Read>(reader: R, config: &Config) -> Result<Self, Error> {
        let mut r = Hashed {
            inner: reader,
            hash: Fnv::new(),
        };
        let mut magic = [0u8; 8];
        r.read_exact(&mut magic).map_err(io_error)?;
        if &magic != MAGIC {
            return Err(file_error("it is not a multiexp table (wrong magic bytes)"));
        }
        let u32s = |r: &mut Hashed<R>| -> Result<u32, Error> {
            let mut b = [0u8; 4];
            r.read_exact(&mut b).map_err(io_error)?;
            Ok(u32::from_le_bytes(b))
        };
        let version = u32s(&mut r)?;
        if version != TABLE_FORMAT_VERSION {
            return Err(file_error(format!(
                "format version {version}, this multiexp reads version {TABLE_FORMAT_VERSION}"
            )));
        }
        let mut len = [0u8; 2];
        r.read_exact(&mut len).map_err(io_error)?;
        let mut name = vec![0u8; u16::from_le_bytes(len) as usize];
        r.read_exact(&mut name).map_err(io_error)?;
        let expected = spec_of::<P>().name;
        if name != expected.as_bytes() {
            return Err(file_error(format!(
                "it holds {} points, not {expected}",
                String::from_utf8_lossy(&name)
            )));
        }
        let mut nb = [0u8; 8];
        r.read_exact(&mut nb).map_err(io_error)?;
        let n = u64::from_le_bytes(nb);
        let (c, k, copies, g) = (u32s(&mut r)?, u32s(&mut r)?, u32s(&mut r)?, u32s(&mut r)?);
        let layout = if c == 0 {
            if (k, copies, g) != (0, 1, 0) {
                return Err(file_error("inconsistent layout of the bases alone"));
            }
            None
        } else {
            if c > crate::digits::MAX_WINDOW {
                return Err(file_error(format!("window {c} is beyond 16")));
            }
            let l = TableLayout::new(c, windowing::<P>(c).chunks, copies as usize);
            if (l.chunks, l.copies, l.groups) != (k as usize, copies as usize, g as usize) {
                return Err(file_error(format!(
                    "inconsistent layout: window {c}, {k} windows, {copies} multiples, {g} \
                     windows per MSM"
                )));
            }
            Some(l)
        };
        let count = n
            .checked_mul(copies as u64)
            .filter(|&c| c <= usize::MAX as u64 / 2);
        let count = count.ok_or_else(|| file_error("its point count overflows"))? as usize;
        check_memory(
            "reading this table",
            (count as u64).saturating_mul(point_bytes::<P>()),
        )?;
        let size = Affine::<P>::zero().uncompressed_size();
        let mut points = Vec::with_capacity(count.min(1 << 24));
        let mut buf = vec![0u8; size * BUILD_BLOCK];
        let mut left = count;
        while left > 0 {
            let k = left.min(BUILD_BLOCK);
            r.read_exact(&mut buf[..k * size]).map_err(io_error)?;
            for (i, bytes) in buf[..k * size].chunks(size).enumerate() {
                let p = Affine::<P>::deserialize_with_mode(bytes, Compress::No, Validate::No)
                    .map_err(|e| {
                        file_error(format!("point {} cannot be read: {e}", points.len() + i))
                    })?;
                points.push(p);
            }
            left -= k;
        }
        let sum = r.hash.0;
        let mut tail = [0u8; 8];
        r.inner.read_exact(&mut tail).map_err(io_error)?;
        if u64::from_le_bytes(tail) != sum {
            return Err(file_error(
                "its checksum does not match (the file is corrupt)",
            ));
        }
        let mut extra = [0u8; 1];
        if r.inner.read(&mut extra).map_err(io_error)? != 0 {
            return Err(file_error("it has bytes after its checksum"));
        }
        use rayon::prelude::*;
        if let Some(bad) = points.par_iter().position_first(|p| !p.is_on_curve()) {
            return Err(file_error(format!("point {bad} is not on the curve")));
        }
        let n = n as usize;
        if let Some(l) = layout {
            check_multiples(&points, n, l)?;
        }
        let workers = config.workers()?;
        let planner = planner_for::<P>(config)?;
        let mut report = report(&planner, n, u64::MAX, workers, point_bytes::<P>());
        let kept = match layout {
            None => {
                report.chosen = None;
                report.reason = "read from a file: the bases alone".into();
                Kept::Plain(points)
            }
            Some(l) => {
                let query = TableQuery {
                    n,
                    jobs: 1,
                    workers,
                    point_bytes: point_bytes::<P>(),
                    convert_per_call: false,
                };
                let prices = [TableForm::Points, TableForm::Records]
                    .map(|f| planner.price_table(l, f, &query));
                let records = matches!(
                    prices,
                    [Some(a), Some(b)] if b.makespan < a.makespan
                );
                report.chosen = if records { prices[1] } else { prices[0] };
                report.reason = format!("read from a file: {}", l.describe());
                match (records, config.ifma.engine()) {
                    (true, Some(engine)) => {
                        let limbs = crate::ifma::limbs_of::<P::BaseField>().unwrap_or(0);
                        let mut data = vec![0u64; 2 * limbs * points.len()];
                        exec::records_into(&points, engine, limbs, &mut data, workers)?;
                        Kept::Records(l, Records { limbs, data }, engine)
                    }
                    _ => Kept::Points(l, points),
                }
            }
        };
        Ok(PrecomputedBases { n, kept, report })
    }

    /// [`read_from`](Self::read_from) over bytes in memory.
    pub fn from_bytes(bytes: &[u8], config: &Config) -> Result<Self, Error> {
        Self::read_from(bytes, config)
    }
}

/// For a few bases spread over the table (the first and the last among them), every
/// multiple is 2^t times the one before.
fn check_multiples<P: SWCurveConfig>(
    points: &[Affine<P>],
    n: usize,
    layout: TableLayout,
) -> Result<(), Error> {
    if n == 0 {
        return Ok(());
    }
    let picks = (0..CHECKED_BASES).map(|k| k * (n - 1) / (CHECKED_BASES - 1).max(1));
    for i in picks {
        for j in 1..layout.copies {
            let mut q = points[(j - 1) * n + i].into_group();
            for _ in 0..layout.stride() {
                q.double_in_place();
            }
            if q.into_affine() != points[j * n + i] {
                return Err(file_error(format!(
                    "multiple {j} of base {i} is not 2^{} times multiple {}",
                    layout.stride(),
                    j - 1
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_bn254::g1::Config as G1;

    #[test]
    fn the_shared_job_counts_digits_records_and_glv_images() {
        let n = 1 << 12;
        let planner = table_planner::<G1>(&Config::default(), None).unwrap();
        let price = planner.plan_many(n, 8, 2, point_bytes::<G1>());
        let chunks = planner.windowing(price.layout.window).chunks as u64;
        let records = match price.form {
            TableForm::Records => planner.record_bytes() * n as u64,
            TableForm::Points => 0,
        };
        assert_eq!(
            shared_bytes(&planner, &price, n, 8),
            crate::digits::DIGIT_BYTES * n as u64 * chunks * 8 + records
        );
        // [P, φ(P)] and one vector's halves: 2n points and 2n (sign, 256-bit magnitude).
        let each = std::mem::size_of::<Affine<G1>>() as u64 + 40;
        assert_eq!(glv_bytes::<G1>(n), 2 * n as u64 * each);
        assert_eq!(
            shared_bytes(&planner, &price, usize::MAX, usize::MAX),
            u64::MAX
        );
    }
}
