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
use ark_ff::{BigInteger, Field, PrimeField, Zero};

use crate::exec::{digits_of_bigints, digits_signed, even_bounds, execute, on_workers};
use crate::inverse::Inverter;
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
    let bounds = even_bounds(n, workers.clamp(1, n.max(1)));
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
) -> Result<Projective<P>, Error> {
    let mut total = Projective::<P>::zero();
    if plan.ones() > 0 {
        total += plain_sum(points, classified, plan.ones_workers())?;
    }
    for group in plan.groups() {
        total += run_group(points, scalars, classified, group)?;
    }
    Ok(total)
}

/// One size-class MSM: over all points where the group holds every scalar with one sign
/// (Σ s·P, or −Σ (r − s)·P), else over its gathered points, negated where r − s is the
/// shorter form, and the integers of s or r − s.
fn run_group<P: SWCurveConfig>(
    points: &[Affine<P>],
    scalars: &[P::ScalarField],
    classified: &Classified,
    group: &ClassGroup,
) -> Result<Projective<P>, Error> {
    let plan = &group.plan;
    if !group.gathered {
        let negated = classified.codes.first().is_some_and(|&c| c & NEGATED != 0);
        let digits = digits_signed(scalars, negated, plan.windowing(), plan.workers())?;
        let sum = execute(plan, points, &digits, false)?.0;
        return Ok(if negated { -sum } else { sum });
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
/// batch-affine additions.
fn plain_sum<P: SWCurveConfig>(
    points: &[Affine<P>],
    classified: &Classified,
    workers: usize,
) -> Result<Projective<P>, Error> {
    // The ±1 scalars of each pass range, regrouped into `workers` shares of whole ranges
    // where there are fewer workers than ranges.
    let ranges = classified.per_range.len();
    let shares = even_bounds(ranges, workers.clamp(1, ranges.max(1)));
    let jobs: Vec<(usize, usize)> = shares
        .windows(2)
        .map(|s| (classified.bounds[s[0]], classified.bounds[s[1]]))
        .collect();
    let sums = on_workers(jobs, |_, (a, b)| {
        let mut mine: Vec<Affine<P>> = Vec::new();
        for (&code, p) in classified.codes[a..b].iter().zip(&points[a..b]) {
            if class(code) == ONE && !p.is_zero() {
                mine.push(if code & NEGATED != 0 { -*p } else { *p });
            }
        }
        affine_sum(&mut mine)
    })?;
    Ok(sums.into_iter().sum())
}

/// Below this many points a level of the pairwise sum is finished projectively.
const PAIRWISE_MIN: usize = 16;

/// The sum of `points` (none at infinity) by levels of pairwise affine additions, each
/// level's slopes sharing one inversion (Montgomery's trick); a pair with equal x (a doubling
/// or P + (−P)) is set aside into a projective sum. `points` is used as scratch.
pub(crate) fn affine_sum<P: SWCurveConfig>(points: &mut Vec<Affine<P>>) -> Projective<P> {
    let inverter = Inverter::<P::BaseField>::default();
    let mut aside = Projective::<P>::zero();
    let mut dens: Vec<P::BaseField> = Vec::with_capacity(points.len() / 2);
    while points.len() >= PAIRWISE_MIN {
        let half = points.len() / 2;
        dens.clear();
        // Prefix products of the denominators x_b − x_a (1 for the pairs set aside).
        let mut acc = P::BaseField::ONE;
        for i in 0..half {
            let (a, b) = (points[2 * i], points[2 * i + 1]);
            let d = b.x - a.x;
            dens.push(acc);
            if !d.is_zero() {
                acc *= d;
            }
        }
        let mut inv = inverter.invert(&acc);
        // Backwards: each pair's inverse from the running one; its sum replaces the pair's
        // first point, a pair set aside leaves the identity there.
        for i in (0..half).rev() {
            let (a, b) = (points[2 * i], points[2 * i + 1]);
            let d = b.x - a.x;
            if d.is_zero() {
                aside += a;
                aside += b;
                points[2 * i] = Affine::identity();
                continue;
            }
            let d_inv = inv * dens[i];
            inv *= d;
            let lambda = (b.y - a.y) * d_inv;
            let x = lambda.square() - a.x - b.x;
            let y = lambda * (a.x - x) - a.y;
            points[2 * i] = Affine::new_unchecked(x, y);
        }
        // Forwards: the sums (never the identity: their x differ) to the front, then an odd
        // last point.
        let mut kept = 0;
        for i in 0..half {
            if !points[2 * i].is_zero() {
                points[kept] = points[2 * i];
                kept += 1;
            }
        }
        if points.len() % 2 == 1 {
            points[kept] = points[points.len() - 1];
            kept += 1;
        }
        points.truncate(kept);
    }
    points.iter().fold(aside, |acc, p| acc + p)
}
