#![doc = include_str!("../../../README.md")]
#![deny(missing_docs)]
#![deny(unreachable_pub)]
// The public surface is the crate root, `calibrate`, `curves`, `input`, `profile` and
// `unstable` (the engine's door for the CLI and experiments); the engine modules are private
// and `unreachable_pub` keeps every item in them that no public path reaches `pub(crate)`.
// With curve families off, their encodings, subgroup constants and overrides go unused.
#![cfg_attr(
    not(feature = "all-curves"),
    allow(dead_code, unused_imports, unused_variables)
)]

#[cfg(all(test, not(feature = "all-curves")))]
compile_error!("multiexp's own tests cover every curve family: run them with the default features");

mod asm;
mod bucket;
pub mod calibrate;
mod classes;
pub mod curves;
mod digits;
mod doubling;
mod error;
mod exec;
mod field;
mod glv;
mod ifma;
pub mod input;
mod inverse;
#[cfg(feature = "bls12-381")]
pub mod kzg;
mod mont;
mod plan;
pub mod precomputed;
pub mod profile;
mod reduce;
mod sample;
pub mod unstable;
mod xyzz;

use std::any::TypeId;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::{BigInteger, PrimeField, Zero};
use rayon::prelude::*;

pub use asm::asm_field_arithmetic;
pub use bucket::Processor;
pub use error::Error;
pub use exec::{TaskRecord, Trace};
pub use ifma::Ifma;
pub use plan::classes::{ClassGroup, ClassPlan, ScalarStats};
pub use plan::layout::{ChunkTask, Memory, Plan, PlanReport, SplitKind};
pub use plan::planner::SplitPolicy;
pub use precomputed::{msm_many, msm_many_with, PrecomputedBases};
pub use profile::{Profile, ProfileChoice};

use curves::spec_of;
use plan::planner::{PlanOptions, Planner};

/// The most worker threads a [`Config`] may ask for (and the most cores the planner models):
/// 2^16. Beyond it planning and thread pools would cost more than any MSM gains.
pub const MAX_THREADS: usize = 1 << 16;

/// How to run an MSM. The default chooses everything: all available cores, the planner's
/// window, processor and split.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Worker threads; the effective count is min(threads, available cores). `None`: all cores.
    pub threads: Option<usize>,
    /// Run exactly `threads` workers even beyond the available cores (tests, experiments).
    pub oversubscribe: bool,
    /// Force the window size c (1..=20).
    pub window: Option<u32>,
    /// Whether the planner may split chunks.
    pub split: SplitPolicy,
    /// Force the chunk processor.
    pub processor: Option<Processor>,
    /// Force the batch size of the batch-affine processors (experiments).
    pub batch: Option<usize>,
    /// Force the lanes per bucket of the batch-affine processors (experiments: a power of
    /// two, 1 turns them off; by default small windows with many points per bucket get them).
    pub lanes: Option<usize>,
    /// The split margin (fraction in [0, 1)); `None`: [`unstable::DEFAULT_MARGIN`] (3%).
    pub margin: Option<f64>,
    /// The cost profile: by default this process's ([`ProfileChoice::Discovered`]).
    pub profile: ProfileChoice,
    /// Where the IFMA processor runs (default [`Ifma::Auto`]: natively where the CPU has
    /// AVX-512 IFMA). The planner picks it by itself only where it runs natively; a forced
    /// [`Processor::BatchAffineIfma`] with [`Ifma::Emulated`] runs on the emulation (tests).
    pub ifma: Ifma,
    /// Whether the MSM may run by scalar classes (zero dropped, ±1 summed, small scalars in
    /// MSMs of their size) where the cost model prices that lower (default: it may).
    pub classes: ClassPolicy,
    /// Whether full-size scalars may be split by the curve's GLV endomorphism where it has
    /// one and the cost model prices that lower (default: they may; needs the classes).
    pub glv: GlvPolicy,
}

/// Whether full-size scalars may be split by the curve's GLV endomorphism (k·P = k1·P +
/// k2·φ(P) with k1, k2 of half the bits), on the curves that have one: a = 0 with cube roots
/// of unity in both fields and a scalar field of at most 256 bits (BN254, BLS12-381/377,
/// BLS24, grumpkin, secp256k1; G1 and G2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GlvPolicy {
    /// Priced by the planner like every other choice, taken where it wins by the margin.
    #[default]
    Auto,
    /// Never split.
    Off,
    /// Split every full-size scalar wherever the curve has GLV, whatever the model says (the
    /// MSM then runs by classes: tests and experiments).
    Always,
}

/// Whether an MSM may run by scalar classes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ClassPolicy {
    /// Classify the scalars; run by classes where the model prices that lower by the margin.
    #[default]
    Auto,
    /// One MSM over all the scalars, whatever their sizes (the plan of [`plan_for`]).
    Off,
    /// By classes wherever any scalar is not full-size, whatever the model says (tests and
    /// experiments: the class path on inputs too small for it to pay).
    Always,
}

impl Config {
    /// Effective parallelism P = min(threads, the threads of the caller's rayon pool (the
    /// global pool outside any, which honours `RAYON_NUM_THREADS`), available cores); exactly
    /// `threads` when oversubscribing. At most [`MAX_THREADS`].
    pub fn workers(&self) -> Result<usize, Error> {
        let allowed = exec::available_workers();
        match self.threads {
            Some(0) => Err(Error::InvalidThreads),
            Some(t) if t > MAX_THREADS => Err(Error::TooManyThreads {
                threads: t,
                max: MAX_THREADS,
            }),
            Some(t) if self.oversubscribe => Ok(t),
            Some(t) => Ok(t.min(allowed)),
            None => Ok(allowed),
        }
    }

    /// The planner options this config asks for.
    pub(crate) fn plan_options(&self) -> PlanOptions {
        PlanOptions {
            window: self.window,
            split: self.split,
            margin: self.margin.unwrap_or(plan::planner::DEFAULT_MARGIN),
            processor: self.processor,
            batch: self.batch,
            lanes: self.lanes.map(|l| l.max(1).next_power_of_two()),
            ifma: false,
            engine: self.ifma.engine(),
            glv_bits: None,
            glv_max: None,
            glv_cache: None,
            glv_always: false,
        }
    }
}

/// Plans an MSM of `n` points on curve `P` under `config`: the chosen plan, every candidate
/// the planner weighed, and why it chose as it did.
pub fn plan_for<P: SWCurveConfig>(n: usize, config: &Config) -> Result<PlanReport, Error> {
    let workers = config.workers()?;
    Ok(planner_for::<P>(config)?.report(n, workers))
}

/// The planner for curve `P` under `config`.
fn planner_for<P: SWCurveConfig>(config: &Config) -> Result<Planner, Error> {
    let spec = spec_of::<P>();
    let profile = config.profile.profile();
    let mut options = config.plan_options();
    options.ifma = config.ifma.native() && ifma::limbs_of::<P::BaseField>().is_some();
    options.glv_bits = match config.glv {
        GlvPolicy::Auto | GlvPolicy::Always => glv::bits_of::<P>(),
        GlvPolicy::Off => None,
    };
    options.glv_max = match options.glv_bits {
        Some(_) => glv::max_of::<P>(),
        None => None,
    };
    options.glv_cache = Some(profile::Caches::host().l3_share_or_default());
    options.glv_always = config.glv == GlvPolicy::Always;
    if let Some(p) = options.processor {
        if !p.supports_with::<P>(config.ifma) {
            return Err(Error::UnsupportedProcessor {
                processor: p.name(),
                curve: spec.name,
            });
        }
    }
    Planner::new(
        &spec,
        profile.weights_for(&spec, config.ifma.native()),
        options,
    )
}

/// Runs a given plan: digits on the plan's workers, then the pool executor. With `trace`,
/// also returns which worker ran which task, and when.
///
/// The plan must have been made for these inputs: the same curve/group and the same number
/// of points, else [`Error::PlanCurve`] or [`Error::PlanSize`].
pub fn execute_plan<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    plan: &Plan,
    trace: bool,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    check_lengths(points, scalars)?;
    if plan.curve_type() != TypeId::of::<P>() {
        return Err(Error::PlanCurve {
            plan: plan.curve(),
            input: spec_of::<P>().name,
        });
    }
    if plan.n() != points.len() {
        return Err(Error::PlanSize {
            plan: plan.n(),
            input: points.len(),
        });
    }
    if points.is_empty() {
        return Ok((Projective::<P>::zero(), trace.then(Trace::default)));
    }
    check_memory("this MSM (digits, records, buckets)", plan.memory().total())?;
    asm::notice_once();
    exec::in_pool(plan.workers(), || {
        let started = std::time::Instant::now();
        let digits = exec::digits(scalars, plan.windowing(), plan.workers())?;
        let digits_ns = started.elapsed().as_nanos() as u64;
        let (sum, mut trace) = exec::execute(plan, points, &digits, trace)?;
        if let Some(t) = trace.as_mut() {
            t.phases.insert(0, ("digits", digits_ns));
        }
        Ok((sum, trace))
    })
}

/// An error if `needed` bytes exceed what the system has available (no check where that is
/// unknown, nor below 64 MiB: reading the system's figures costs more than such a run).
pub fn check_memory(what: &str, needed: u64) -> Result<(), Error> {
    if needed < 64 << 20 {
        return Ok(());
    }
    match exec::available_memory() {
        Some(available) if needed > available => Err(Error::OutOfMemory {
            what: what.to_string(),
            needed,
            available,
        }),
        _ => Ok(()),
    }
}

/// The bytes `n` points and scalars of curve `P` take in memory.
pub fn input_bytes<P: SWCurveConfig>(n: usize) -> u64 {
    let each = std::mem::size_of::<Affine<P>>() + std::mem::size_of::<P::ScalarField>();
    (n as u64).saturating_mul(each as u64)
}

fn check_lengths<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
) -> Result<(), Error> {
    if points.len() != scalars.len() {
        return Err(Error::LengthMismatch {
            points: points.len(),
            scalars: scalars.len(),
        });
    }
    Ok(())
}

/// Σ scalars\[i\]·points\[i\] with every choice made by the planner, on all available cores.
///
/// Variable time: run time depends on the scalars, so do not use it on secrets.
///
/// ```
/// use ark_bn254::{Fr, G1Affine, G1Projective};
/// use ark_ec::{CurveGroup, PrimeGroup};
///
/// let g = G1Projective::generator();
/// let points: Vec<G1Affine> = vec![g.into_affine(), (g + g).into_affine()];
/// let scalars = vec![Fr::from(3u64), Fr::from(5u64)];
/// let sum = multiexp::msm(&points, &scalars).unwrap();
/// assert_eq!(sum, g * Fr::from(13u64));
///
/// // Mismatched lengths are an error, never a panic or a silent truncation.
/// assert!(multiexp::msm(&points, &scalars[..1]).is_err());
/// ```
pub fn msm<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
) -> Result<Projective<P>, Error> {
    msm_with(points, scalars, &Config::default())
}

/// Σ scalars\[i\]·points\[i\] under `config` (threads, forced window, split policy, profile).
///
/// The scalars are classified first (one pass, which also leaves their Montgomery form for
/// the digits): where zero, ±1 or small scalars make classes cheaper ([`plan_for_scalars`]
/// explains the choice), zero scalars are dropped, ±1 summed and each size class runs as an
/// MSM of its own; otherwise one MSM runs over all of them, as [`plan_for`] plans it.
pub fn msm_with<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    config: &Config,
) -> Result<Projective<P>, Error> {
    check_lengths(points, scalars)?;
    let planner = planner_for::<P>(config)?;
    let workers = config.workers()?;
    if config.classes == ClassPolicy::Off || points.is_empty() {
        let plan = planner.plan(points.len(), workers);
        return execute_plan(points, scalars, &plan, false).map(|(r, _)| r);
    }
    // Each run below hands its phases to the pool from one of its workers (exec::in_pool),
    // and runs inline where it needs one worker: an input that costs a scan (all zero, a
    // few ±1) never wakes the pool.
    let n = points.len();
    if config.classes == ClassPolicy::Auto && classes::sample_is_full(scalars) {
        // Uniform-looking scalars: unless GLV pays for them, the one-MSM digit pass counts
        // the classes on the way, so they cost no pass of their own; only where the count
        // says classes pay does the classification pass run after it.
        let uniform = planner.plan_classes(&ScalarStats::uniform(n), workers);
        if let (false, Some(plan)) = (uniform.uses_classes(), uniform.whole()) {
            check_memory("this MSM (digits, records, buckets)", plan.memory().total())?;
            asm::notice_once();
            let done = exec::in_pool(plan.workers(), || {
                let (digits, stats) =
                    exec::digits_counting(scalars, plan.windowing(), plan.workers())?;
                let all_full = stats.counts[crate::plan::classes::FULL] == n;
                if all_full || !planner.plan_classes(&stats, workers).uses_classes() {
                    return exec::execute(plan, points, &digits, false).map(|(r, _)| Some(r));
                }
                Ok(None)
            })?;
            if let Some(sum) = done {
                return Ok(sum);
            }
        }
    }
    let pass = classes::classified_bytes::<P::ScalarField>(n);
    check_memory("classifying the scalars", pass)?;
    asm::notice_once();
    let classified = classes::classify(scalars, workers)?;
    let always = config.classes == ClassPolicy::Always;
    let class_plan = planner.plan_classes_with(classified.stats(), workers, always);
    if class_plan.uses_classes() {
        let most = class_plan
            .groups()
            .iter()
            .map(|g| {
                let own = if g.gathered { input_bytes::<P>(g.n) } else { 0 };
                g.plan.memory().total().saturating_add(own)
            })
            .max()
            .unwrap_or(0);
        check_memory("this MSM by scalar classes", pass.saturating_add(most))?;
        let engine = config.ifma.engine();
        let busy = class_plan
            .groups()
            .iter()
            .map(|g| g.plan.workers())
            .chain((class_plan.ones() > 0).then(|| class_plan.ones_workers()))
            .max()
            .unwrap_or(1);
        return exec::in_pool(busy, || {
            classes::execute_classes(points, &classified, &class_plan, engine)
        });
    }
    let plan = match class_plan.whole() {
        Some(plan) => plan.clone(),
        None => planner.plan(n, workers),
    };
    drop(classified);
    execute_plan(points, scalars, &plan, false).map(|(r, _)| r)
}

/// Plans an MSM over these scalars on curve `P` under `config`: their classes (zero, ±1,
/// ≤ 8 … 128 bits, full after normalising s or r − s to the shorter), and whether it runs as
/// one MSM or by classes, with the plans and the reason. [`msm_with`] decides the same way.
pub fn plan_for_scalars<P: SWCurveConfig>(
    scalars: &[P::ScalarField],
    config: &Config,
) -> Result<ClassPlan, Error> {
    config.workers()?;
    plan_for_stats::<P>(&ScalarStats::of(scalars), config)
}

/// [`plan_for_scalars`] from the scalars' statistics alone ([`ScalarStats::uniform`] for
/// uniform scalars).
pub fn plan_for_stats<P: SWCurveConfig>(
    stats: &ScalarStats,
    config: &Config,
) -> Result<ClassPlan, Error> {
    let workers = config.workers()?;
    let planner = planner_for::<P>(config)?;
    Ok(match config.classes {
        ClassPolicy::Auto => planner.plan_classes(stats, workers),
        ClassPolicy::Always => planner.plan_classes_with(stats, workers, true),
        // One MSM over all the scalars, as `msm_with` runs it: no classes, so no GLV either.
        ClassPolicy::Off => {
            let whole = Config {
                glv: GlvPolicy::Off,
                ..config.clone()
            };
            planner_for::<P>(&whole)?.plan_classes(&ScalarStats::uniform(stats.n()), workers)
        }
    })
}

/// The unchecked twin of [`msm`], as arkworks' `msm_unchecked`: uses the first
/// min(points, scalars) pairs.
pub fn msm_unchecked<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
) -> Projective<P> {
    let n = points.len().min(scalars.len());
    let (points, scalars) = (&points[..n], &scalars[..n]);
    // The default run can only fail to start its worker pool; one worker needs no pool.
    msm(points, scalars)
        .or_else(|_| {
            let inline = Config {
                threads: Some(1),
                ..Config::default()
            };
            msm_with(points, scalars, &inline)
        })
        .unwrap_or_else(|_| Projective::<P>::zero())
}

/// Σ scalars\[i\]·points\[i\] for scalars given as big integers, as arkworks' `msm_bigint`: a value
/// at or above r stands for its residue mod r. A length mismatch is an error.
pub fn msm_bigint<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[<P::ScalarField as PrimeField>::BigInt],
) -> Result<Projective<P>, Error> {
    if points.len() != scalars.len() {
        return Err(Error::LengthMismatch {
            points: points.len(),
            scalars: scalars.len(),
        });
    }
    let fields: Vec<P::ScalarField> = scalars
        .par_iter()
        .map(|b| {
            P::ScalarField::from_bigint(*b)
                .unwrap_or_else(|| P::ScalarField::from_le_bytes_mod_order(&b.to_bytes_le()))
        })
        .collect();
    msm(points, &fields)
}

/// multiexp's MSM as a method of arkworks' projective points, for code written against
/// `VariableBaseMSM`: `G1Projective::multiexp(&bases, &scalars)`.
///
/// ```
/// use ark_bn254::{Fr, G1Affine, G1Projective};
/// use ark_ec::{CurveGroup, PrimeGroup};
/// use ark_ff::PrimeField;
/// use multiexp::MultiExp;
///
/// let g = G1Projective::generator();
/// let bases: Vec<G1Affine> = vec![g.into_affine(), (g + g).into_affine()];
/// let scalars = vec![Fr::from(3u64), Fr::from(5u64)];
/// let sum = G1Projective::multiexp(&bases, &scalars)?;
/// assert_eq!(sum, g * Fr::from(13u64));
/// let bigints: Vec<_> = scalars.iter().map(|s| s.into_bigint()).collect();
/// assert_eq!(G1Projective::multiexp_bigint(&bases, &bigints)?, sum);
/// assert_eq!(G1Projective::multiexp_unchecked(&bases, &scalars[..1]), g * Fr::from(3u64));
/// # Ok::<(), multiexp::Error>(())
/// ```
pub trait MultiExp: Sized {
    /// The bases' type (affine points).
    type Base;
    /// The scalar field.
    type Scalar: PrimeField;

    /// Σ scalars\[i\]·bases\[i\] ([`msm`]); a length mismatch is an error.
    fn multiexp(bases: &[Self::Base], scalars: &[Self::Scalar]) -> Result<Self, Error>;

    /// The same with scalars as big integers ([`msm_bigint`]).
    fn multiexp_bigint(
        bases: &[Self::Base],
        scalars: &[<Self::Scalar as PrimeField>::BigInt],
    ) -> Result<Self, Error>;

    /// The first min(bases, scalars) pairs ([`msm_unchecked`]).
    fn multiexp_unchecked(bases: &[Self::Base], scalars: &[Self::Scalar]) -> Self;
}

impl<P: SWCurveConfig> MultiExp for Projective<P> {
    type Base = Affine<P>;
    type Scalar = P::ScalarField;

    fn multiexp(bases: &[Affine<P>], scalars: &[P::ScalarField]) -> Result<Self, Error> {
        msm(bases, scalars)
    }

    fn multiexp_bigint(
        bases: &[Affine<P>],
        scalars: &[<P::ScalarField as PrimeField>::BigInt],
    ) -> Result<Self, Error> {
        msm_bigint(bases, scalars)
    }

    fn multiexp_unchecked(bases: &[Affine<P>], scalars: &[P::ScalarField]) -> Self {
        msm_unchecked(bases, scalars)
    }
}

/// The body of `SWCurveConfig::msm` for the configs this crate defines (`curves::bls24_315`,
/// `bls24_317`, `bw6_633`, `stark_curve`): arkworks' `VariableBaseMSM::msm` on their points
/// runs multiexp, with arkworks' error (the shorter length) on a mismatch.
pub(crate) fn sw_msm<P: SWCurveConfig>(
    bases: &[Affine<P>],
    scalars: &[P::ScalarField],
) -> Result<Projective<P>, usize> {
    if bases.len() != scalars.len() {
        return Err(bases.len().min(scalars.len()));
    }
    Ok(msm_unchecked(bases, scalars))
}
