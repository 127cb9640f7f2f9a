//! Running an MSM by scalar classes (`plan::classes` decides): the classification pass, the
//! plain sum of the ±1 class, and the size-class MSMs.
//!
//! The pass keeps one class code per scalar (its class, and whether r − s is the shorter
//! form): zero and ±1 are told by a comparison of the Montgomery form, the others leave it
//! once to be measured. A size class leaves it again where its digits are taken (gathered
//! with its points, the point negated where r − s was the shorter form), so the classes that
//! need no digits (zero, ±1) cost the pass one byte each. Uniform-looking scalars skip the
//! pass: the one-MSM digit pass counts their classes on the way (`exec::digits_counting`).

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, PrimeField, Zero};

use crate::bucket::batch_affine::{AffineBackend, Staged};
use crate::bucket::{convert_records, ArkworksAffine, RecordAffine};
use crate::exec::{digits_coded, digits_of_bigints, even_bounds, execute, on_workers};
use crate::ifma::Engine;
use crate::plan::classes::{
    class_of_bits, ClassGroup, ClassPlan, ScalarStats, CLASSES, FULL, ONE, ZERO,
};
use crate::Error;

/// The code bit of a scalar normalised to r − s.
pub(crate) const NEGATED: u8 = 0x80;

/// The class of a code.
#[inline(always)]
fn class(code: u8) -> usize {
    (code & !NEGATED) as usize
}

/// The class code of one scalar.
#[inline(always)]
pub(crate) fn classify_one<F: PrimeField>(s: &F) -> u8 {
    if s.is_zero() {
        return ZERO as u8;
    }
    if *s == F::ONE {
        return ONE as u8;
    }
    // −1, without leaving the Montgomery form.
    if (*s + F::ONE).is_zero() {
        return ONE as u8 | NEGATED;
    }
    classify_big::<F>(&s.into_bigint())
}

/// The class code of a scalar's integer (below r).
#[inline(always)]
pub(crate) fn classify_big<F: PrimeField>(big: &F::BigInt) -> u8 {
    let bits = big.num_bits();
    if bits <= 128 {
        return class_of_bits(bits) as u8;
    }
    let mut neg = F::MODULUS;
    neg.sub_with_borrow(big);
    match class_of_bits(neg.num_bits()) {
        FULL => FULL as u8,
        c => c as u8 | NEGATED,
    }
}

/// Whether `SAMPLE` scalars spread evenly over the input are all full-size: the guess that
/// sends uniform scalars straight to the one-MSM digit pass (which counts the classes all the
/// same, so a wrong guess costs that pass, never a wrong plan).
pub(crate) fn sample_is_full<F: PrimeField>(scalars: &[F]) -> bool {
    let n = scalars.len();
    n >= 2 * SAMPLE
        && (0..SAMPLE).all(|i| {
            let s = &scalars[i * n / SAMPLE + (n / SAMPLE) / 2];
            !s.is_zero() && classify_big::<F>(&s.into_bigint()) == FULL as u8
        })
}

/// Scalars the guess of [`sample_is_full`] looks at.
const SAMPLE: usize = 256;

/// The statistics of one range of scalars with their codes.
fn stats_of(codes: &[u8]) -> ScalarStats {
    let mut stats = ScalarStats::default();
    for &code in codes {
        stats.count(code);
    }
    stats
}

/// The classes of `scalars`, no integers kept ([`ScalarStats::of`] runs it in parallel).
pub(crate) fn stats_of_scalars<F: PrimeField>(scalars: &[F]) -> ScalarStats {
    let mut stats = ScalarStats::default();
    for s in scalars {
        stats.count(classify_one(s));
    }
    stats
}

fn total(per: &[ScalarStats]) -> ScalarStats {
    let mut all = ScalarStats::default();
    for s in per {
        all.add(s);
    }
    all
}

/// Every scalar classified: its code, by worker range.
pub(crate) struct Classified {
    codes: Vec<u8>,
    bounds: Vec<usize>,
    per_range: Vec<ScalarStats>,
    stats: ScalarStats,
}

impl Classified {
    /// The statistics of all the scalars.
    pub(crate) fn stats(&self) -> &ScalarStats {
        &self.stats
    }
}

/// The bytes [`classify`] holds for n scalars.
pub(crate) fn classified_bytes(n: usize) -> u64 {
    n as u64
}

/// The classification pass on `workers` workers.
pub(crate) fn classify<F: PrimeField>(scalars: &[F], workers: usize) -> Result<Classified, Error> {
    let n = scalars.len();
    // A range of fewer than CLASSIFY_MIN scalars costs less than waking a worker for it.
    let workers = workers.min(n.div_ceil(CLASSIFY_MIN)).max(1);
    let bounds = even_bounds(n, workers);
    let mut codes = vec![0u8; n];
    let slices = split_ranges(&mut codes, &bounds);
    let per_range = on_workers(slices, |w, codes| {
        let scalars = &scalars[bounds[w]..bounds[w + 1]];
        for (s, code) in scalars.iter().zip(codes.iter_mut()) {
            *code = classify_one(s);
        }
        stats_of(codes)
    })?;
    let stats = total(&per_range);
    Ok(Classified {
        codes,
        bounds,
        per_range,
        stats,
    })
}

/// The fewest scalars per worker of the classification pass.
const CLASSIFY_MIN: usize = 8192;

/// `v` cut at `bounds` (consecutive, from 0 to v.len()).
fn split_ranges<'a, T>(v: &'a mut [T], bounds: &[usize]) -> Vec<&'a mut [T]> {
    let mut out = Vec::with_capacity(bounds.len().saturating_sub(1));
    let mut rest = v;
    for w in bounds.windows(2) {
        let (head, tail) = rest.split_at_mut(w[1] - w[0]);
        out.push(head);
        rest = tail;
    }
    out
}

/// Runs a class plan: the ±1 plain sum, then each size-class MSM.
pub(crate) fn execute_classes<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    classified: &Classified,
    plan: &ClassPlan,
    engine: Option<Engine>,
) -> Result<Projective<P>, Error> {
    let mut total = Projective::<P>::zero();
    if plan.ones() > 0 {
        let engine = engine.filter(|_| plan.ones_ifma());
        total += plain_sum(points, classified, plan.ones_workers(), engine)?;
    }
    for group in plan.groups() {
        total += run_group(points, scalars, classified, group)?;
    }
    Ok(total)
}

/// One size-class MSM: in place, over all points, with the digits of the group's scalars
/// (r − s ones negated) and zero digits elsewhere; or gathered, over copies of its points,
/// negated where r − s is the shorter form, and the integers of s or r − s.
fn run_group<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    classified: &Classified,
    group: &ClassGroup,
) -> Result<Projective<P>, Error> {
    let plan = &group.plan;
    if !group.gathered {
        let holds = |code: u8| group.holds(class(code));
        let digits = digits_coded(
            scalars,
            &classified.codes,
            holds,
            plan.windowing(),
            plan.workers(),
        )?;
        return Ok(execute(plan, points, &digits, false)?.0);
    }
    let counts: Vec<usize> = classified
        .per_range
        .iter()
        .map(|s| {
            (2..CLASSES)
                .filter(|&c| group.holds(c))
                .map(|c| s.counts[c])
                .sum()
        })
        .collect();
    let mut out_bounds = vec![0usize];
    for c in &counts {
        out_bounds.push(out_bounds.last().copied().unwrap_or(0) + c);
    }
    let m = out_bounds.last().copied().unwrap_or(0);
    let mut pts = vec![Affine::<P>::identity(); m];
    let mut bigs = vec![<P::ScalarField as PrimeField>::BigInt::default(); m];
    let slices = split_ranges(&mut pts, &out_bounds)
        .into_iter()
        .zip(split_ranges(&mut bigs, &out_bounds))
        .collect::<Vec<_>>();
    let bounds = &classified.bounds;
    on_workers(slices, |w, (pts, bigs)| {
        let mut k = 0;
        let range = bounds[w]..bounds[w + 1];
        let mine = classified.codes[range.clone()]
            .iter()
            .zip(&points[range.clone()])
            .zip(&scalars[range]);
        for ((&code, p), s) in mine {
            if group.holds(class(code)) {
                (pts[k], bigs[k]) = if code & NEGATED != 0 {
                    (-*p, (-*s).into_bigint())
                } else {
                    (*p, s.into_bigint())
                };
                k += 1;
            }
        }
    })?;
    let digits = digits_of_bigints(&bigs, plan.windowing(), plan.workers())?;
    Ok(execute(plan, &pts, &digits, false)?.0)
}

/// Σ ±P over the ±1 class on `workers` workers, each summing its share by pairwise
/// batch-affine additions: on IFMA records where `engine` runs `P`, else in arkworks
/// coordinates.
fn plain_sum<P: SWCurveConfig>(
    points: &[Affine<P>],
    classified: &Classified,
    workers: usize,
    engine: Option<Engine>,
) -> Result<Projective<P>, Error> {
    // Even shares of the codes, whatever the ranges of the classification pass (which runs
    // on one worker below a few thousand scalars, where the sum still takes two).
    let n = classified.codes.len();
    let ones = classified.stats.counts[ONE];
    let bounds = even_bounds(n, workers.clamp(1, n.max(1)));
    let jobs: Vec<(usize, usize)> = bounds.windows(2).map(|s| (s[0], s[1])).collect();
    let sums = on_workers(jobs, |_, (a, b)| {
        let mut mine: Vec<Affine<P>> = Vec::with_capacity((ones * (b - a)).div_ceil(n.max(1)));
        for (&code, p) in classified.codes[a..b].iter().zip(&points[a..b]) {
            if class(code) == ONE && !p.is_zero() {
                mine.push(if code & NEGATED != 0 { -*p } else { *p });
            }
        }
        sum_points(&mine, engine)
    })?;
    Ok(sums.into_iter().sum())
}

/// The sum of `points` (none at infinity): [`pairwise_sum`] on IFMA records where `engine`
/// runs `P`'s base field, else on arkworks coordinates.
pub(crate) fn sum_points<P: SWCurveConfig>(
    points: &[Affine<P>],
    engine: Option<Engine>,
) -> Projective<P> {
    macro_rules! on_records {
        ($engine:expr, $l:literal) => {
            if let Some(mut backend) = RecordAffine::<P, $l>::new($engine) {
                let mut records = vec![0u64; 2 * $l * points.len()];
                convert_records($engine, points, $l, &mut records);
                return pairwise_sum(&mut backend, &records[..], points);
            }
        };
    }
    if let (Some(engine), Some(limbs)) = (engine, crate::ifma::limbs_of::<P::BaseField>()) {
        match limbs {
            5 => on_records!(engine, 5),
            7 => on_records!(engine, 7),
            8 => on_records!(engine, 8),
            _ => {}
        }
    }
    pairwise_sum(&mut ArkworksAffine::<P>::default(), points, points)
}

/// Below this many points a level of the pairwise sum is finished projectively: a level of
/// h additions shares one inversion, worth some twenty additions.
const PAIRWISE_MIN: usize = 64;

/// Additions per batch (one inversion each) in a level of the pairwise sum.
const PAIRWISE_BATCH: usize = 1024;

/// Σ points by levels of pairwise affine additions on `backend`, whose `input` holds the
/// same points as `points` (none at infinity): level 0 adds input point 2k + 1 into a copy
/// of point 2k, each later level the second half of the pairs it has left into the first,
/// in batches of [`PAIRWISE_BATCH`] sharing one inversion. A pair with equal x (a doubling,
/// or P + (−P)) is set aside into a projective sum.
pub(crate) fn pairwise_sum<P: SWCurveConfig, B: AffineBackend<P>>(
    backend: &mut B,
    input: B::Input<'_>,
    points: &[Affine<P>],
) -> Projective<P> {
    let n = points.len();
    if n < PAIRWISE_MIN {
        return points.iter().fold(Projective::zero(), |acc, p| acc + p);
    }
    let affine = |(x, y): (P::BaseField, P::BaseField)| Affine::<P>::new_unchecked(x, y);
    let mut aside = Projective::<P>::zero();
    let mut exceptional = Vec::new();
    let mut staged: Vec<Staged> = Vec::with_capacity(PAIRWISE_BATCH);
    // Level 0: sums[k] = points[2k] + points[2k + 1], an odd last point carried.
    let half = n / 2;
    let mut sums = B::Array::default();
    backend.reserve(&mut sums, half + 1);
    for k in 0..half {
        backend.load(&mut sums, k, input, 2 * k, false);
    }
    let mut live: Vec<u32> = Vec::with_capacity(half + 1);
    for first in (0..half).step_by(PAIRWISE_BATCH) {
        let last = (first + PAIRWISE_BATCH).min(half);
        staged.clear();
        staged.extend((first..last).map(|k| Staged {
            dst: k as u32,
            src: (2 * k + 1) as u32,
            negate: false,
        }));
        backend.add_input(&mut sums, input, &staged, &mut exceptional);
        let mut skip = exceptional.iter().map(|e| first + e.index).peekable();
        for k in first..last {
            if skip.peek() == Some(&k) {
                skip.next();
                aside += points[2 * k];
                aside += points[2 * k + 1];
            } else {
                live.push(k as u32);
            }
        }
    }
    if n % 2 == 1 {
        backend.load(&mut sums, half, input, n - 1, false);
        live.push(half as u32);
    }
    // Later levels: the second of each pair copied out, added into the first.
    let mut seconds = B::Array::default();
    let mut next: Vec<u32> = Vec::with_capacity(live.len() / 2 + 1);
    while live.len() >= PAIRWISE_MIN {
        let half = live.len() / 2;
        backend.reserve(&mut seconds, half);
        for k in 0..half {
            backend.copy(&mut seconds, k, &sums, live[2 * k + 1] as usize);
        }
        next.clear();
        for first in (0..half).step_by(PAIRWISE_BATCH) {
            let last = (first + PAIRWISE_BATCH).min(half);
            staged.clear();
            staged.extend((first..last).map(|k| Staged {
                dst: live[2 * k],
                src: k as u32,
                negate: false,
            }));
            backend.add_array(&mut sums, &seconds, &staged, &mut exceptional);
            let mut skip = exceptional.iter().map(|e| first + e.index).peekable();
            for k in first..last {
                if skip.peek() == Some(&k) {
                    skip.next();
                    aside += affine(backend.get(&sums, live[2 * k] as usize));
                    aside += affine(backend.get(&seconds, k));
                } else {
                    next.push(live[2 * k]);
                }
            }
        }
        if live.len() % 2 == 1 {
            next.push(live[live.len() - 1]);
        }
        std::mem::swap(&mut live, &mut next);
    }
    live.iter().fold(aside, |acc, &k| {
        acc + affine(backend.get(&sums, k as usize))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::CurveGroup;
    use ark_std::UniformRand;

    /// Inputs that take every turn of the pairwise sum: below and across the projective
    /// threshold, odd lengths, more than one batch per level, and pairs with equal x at
    /// level 0 (P + P, P + (−P)) and at later levels (equal sums).
    fn cases<P: SWCurveConfig>() -> Vec<Vec<Affine<P>>> {
        let mut rng = ark_std::test_rng();
        let random = |n: usize, rng: &mut _| -> Vec<Affine<P>> {
            (0..n).map(|_| Affine::<P>::rand(rng)).collect()
        };
        let (a, b) = (Affine::<P>::rand(&mut rng), Affine::<P>::rand(&mut rng));
        let mut out: Vec<Vec<Affine<P>>> = [0, 1, 2, 63, 64, 65, 127, 2 * PAIRWISE_BATCH + 3]
            .iter()
            .map(|&n| random(n, &mut rng))
            .collect();
        out.push(vec![a; 300]);
        out.push((0..301).map(|i| if i % 2 == 0 { a } else { -a }).collect());
        out.push((0..256).map(|i| if i % 2 == 0 { a } else { b }).collect());
        let mut mixed = random(4 * PAIRWISE_BATCH + 1, &mut rng);
        for i in (0..mixed.len()).step_by(7) {
            mixed[i] = a;
        }
        for i in (3..mixed.len()).step_by(11) {
            mixed[i] = -a;
        }
        out.push(mixed);
        out
    }

    fn check<P: SWCurveConfig>() {
        let engines = [
            None,
            Some(Engine::Emulated(crate::ifma::Emulated)),
            crate::ifma::Ifma::Auto.engine(),
        ];
        for points in cases::<P>() {
            let naive = points
                .iter()
                .fold(Projective::<P>::zero(), |acc, p| acc + p);
            for engine in engines {
                let sum = sum_points(&points, engine);
                assert_eq!(
                    sum.into_affine(),
                    naive.into_affine(),
                    "n={} engine={engine:?}",
                    points.len()
                );
            }
        }
    }

    #[test]
    fn pairwise_sums_equal_the_naive_sum_on_every_backend() {
        check::<ark_bn254::g1::Config>();
        check::<ark_bls12_381::g1::Config>();
        check::<crate::curves::bls24_315::g1::Config>();
        check::<ark_bls12_381::g2::Config>();
    }
}
