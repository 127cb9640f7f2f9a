#![doc = include_str!("../../../README.md")]
#![deny(missing_docs)]

pub mod bucket;
pub mod curves;
pub mod digits;
mod error;
pub mod exec;
pub mod ifma;
pub mod input;
pub mod inverse;
pub mod plan;
pub mod reduce;
pub mod sample;
pub mod xyzz;

use std::any::TypeId;
use std::sync::Arc;

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ff::Zero;

pub use bucket::Processor;
pub use curves::{CurveSpec, Group};
pub use error::Error;
pub use exec::Trace;
pub use ifma::Ifma;
pub use plan::{Plan, PlanOptions, PlanReport, Planner, Profile, SplitKind, SplitPolicy};

/// How to run an MSM. The default chooses everything: all available cores, the planner's
/// window, processor and split.
#[derive(Clone, Debug, Default)]
pub struct Config {
    /// Worker threads; the effective count is min(threads, available cores). `None`: all cores.
    pub threads: Option<usize>,
    /// Run exactly `threads` workers even beyond the available cores (tests, experiments).
    pub oversubscribe: bool,
    /// Force the window size c (1..=16).
    pub window: Option<u32>,
    /// Whether the planner may split chunks.
    pub split: SplitPolicy,
    /// Force the chunk processor.
    pub processor: Option<Processor>,
    /// Force the batch size of the batch-affine processors (experiments).
    pub batch: Option<usize>,
    /// The split margin (fraction); `None`: [`plan::DEFAULT_MARGIN`].
    pub margin: Option<f64>,
    /// The cost profile; `None`: the built-in one (measured on the reference machine).
    pub profile: Option<Arc<Profile>>,
    /// Where the IFMA processor runs (default [`Ifma::Auto`]: natively where the CPU has
    /// AVX-512 IFMA). The planner picks it by itself only where it runs natively; a forced
    /// [`Processor::BatchAffineIfma`] with [`Ifma::Emulated`] runs on the emulation (tests).
    pub ifma: Ifma,
}

impl Config {
    /// Effective parallelism P = min(threads, available cores) (or exactly `threads` when
    /// oversubscribing).
    pub fn workers(&self) -> Result<usize, Error> {
        let cores = exec::available_cores();
        match self.threads {
            Some(0) => Err(Error::InvalidThreads),
            Some(t) if self.oversubscribe => Ok(t),
            Some(t) => Ok(t.min(cores)),
            None => Ok(cores),
        }
    }

    /// The planner options this config asks for.
    pub fn plan_options(&self) -> PlanOptions {
        PlanOptions {
            window: self.window,
            split: self.split,
            margin: self.margin.unwrap_or(plan::DEFAULT_MARGIN),
            processor: self.processor,
            batch: self.batch,
            ifma: false,
        }
    }
}

/// The catalogue spec of `P`, or a spec named `custom` for a curve outside the catalogue.
pub fn spec_of<P: SWCurveConfig>() -> CurveSpec {
    curves::specs()
        .into_iter()
        .find(|s| curves::type_id_of(s.name) == Some(TypeId::of::<P>()))
        .unwrap_or_else(|| CurveSpec::of::<P>("custom", "custom", Group::G1))
}

/// Plans an MSM of `n` points on curve `P` under `config`.
pub fn plan_for<P: SWCurveConfig>(n: usize, config: &Config) -> Result<PlanReport, Error> {
    let spec = spec_of::<P>();
    let workers = config.workers()?;
    let profile = match &config.profile {
        Some(p) => p.as_ref(),
        None => Profile::builtin(),
    };
    let mut options = config.plan_options();
    options.ifma = config.ifma.native() && ifma::limbs_of::<P::BaseField>().is_some();
    if let Some(p) = options.processor {
        if !p.supports_with::<P>(config.ifma) {
            return Err(Error::UnsupportedProcessor {
                processor: p.name(),
                curve: spec.name,
            });
        }
    }
    let planner = Planner::new(&spec, profile.weights(&spec), options)?;
    Ok(planner.plan(n, workers))
}

/// Runs a given plan: digits on the plan's workers, then the pool executor.
pub fn execute_plan<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    plan: &Plan,
    trace: bool,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    execute_plan_on(points, scalars, plan, trace, Ifma::Auto)
}

/// [`execute_plan`] with its IFMA tasks run as `ifma` asks.
fn execute_plan_on<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    plan: &Plan,
    trace: bool,
    ifma: Ifma,
) -> Result<(Projective<P>, Option<Trace>), Error> {
    check_lengths(points, scalars)?;
    if points.is_empty() {
        return Ok((Projective::<P>::zero(), trace.then(Trace::default)));
    }
    let digits = exec::digits(scalars, plan.windowing, plan.workers)?;
    exec::execute(plan, points, &digits, trace, ifma)
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

/// Σ scalars[i]·points[i] with every choice made by the planner, on all available cores.
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

/// Σ scalars[i]·points[i] under `config` (threads, forced window, split policy, profile).
pub fn msm_with<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    config: &Config,
) -> Result<Projective<P>, Error> {
    check_lengths(points, scalars)?;
    let report = plan_for::<P>(points.len(), config)?;
    execute_plan_on(points, scalars, &report.chosen, false, config.ifma).map(|(r, _)| r)
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
