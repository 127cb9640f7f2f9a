//! Running an MSM by scalar classes (`plan::classes` decides): the classification pass, the
//! plain sum of the ±1 class, and the size-class MSMs.
//!
//! The pass keeps one class code per scalar (its class, and whether r − s is the shorter
//! form): zero and ±1 are told by a comparison of the Montgomery form, the others leave it
//! once to be measured, and the pass keeps their integer in the shorter form, from which the
//! size class takes its digits (in place, or gathered with its points, the point negated
//! where r − s was the shorter form). The integers live in a zeroed allocation that only
//! size classes write, so the classes that need no digits (zero, ±1) cost the pass about one
//! byte each. Uniform-looking scalars skip the pass: the one-MSM digit pass counts their
//! classes on the way (`exec::digits_counting`).

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, PrimeField, Zero};

use crate::bucket::batch_affine::{AffineBackend, Exceptional, Staged};
use crate::bucket::{convert_records, ArkworksAffine, RecordAffine};
use crate::exec::{
    digits_coded, digits_of_bigints, even_bounds, execute, on_workers, split_ranges,
};
use crate::glv::Glv;
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

/// The class code of one scalar, its integer in the shorter form (s, or r − s where the code
/// says [`NEGATED`]) written to `int` (limb for limb) for a size class; zero and ±1 write
/// nothing. `minus_one` is −1 (the caller's, made once: negated here, −1 would be rebuilt
/// for every scalar).
#[inline(always)]
pub(crate) fn classify_into<F: PrimeField>(s: &F, minus_one: &F, int: &mut [u64]) -> u8 {
    if s.is_zero() {
        return ZERO as u8;
    }
    if *s == F::ONE {
        return ONE as u8;
    }
    // −1, without leaving the Montgomery form: a comparison, as for +1.
    if s == minus_one {
        return ONE as u8 | NEGATED;
    }
    let big = s.into_bigint();
    let code = classify_big::<F>(&big);
    if code & NEGATED != 0 {
        let mut neg = F::MODULUS;
        neg.sub_with_borrow(&big);
        int.copy_from_slice(neg.as_ref());
    } else {
        int.copy_from_slice(big.as_ref());
    }
    code
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

/// The statistics of one range of scalars with their codes: a count per code value in four
/// interleaved tables, which a run of equal codes (all zero, all ±1) would otherwise chain
/// through one counter, an increment a store-to-load latency (40% of an all-zero MSM at
/// 2^16, `perf`).
fn stats_of(codes: &[u8]) -> ScalarStats {
    let mut tables = [[0u64; 256]; 4];
    let mut quads = codes.chunks_exact(4);
    for q in &mut quads {
        for (table, &code) in tables.iter_mut().zip(q) {
            table[code as usize] += 1;
        }
    }
    for &code in quads.remainder() {
        tables[0][code as usize] += 1;
    }
    let mut stats = ScalarStats::default();
    for code in 0..=u8::MAX {
        let count: u64 = tables.iter().map(|t| t[code as usize]).sum();
        if count > 0 {
            stats.count_many(code, count as usize);
        }
    }
    stats
}

/// The classes of `scalars`, no integers kept ([`ScalarStats::of`] runs it in parallel).
pub(crate) fn stats_of_scalars<F: PrimeField>(scalars: &[F]) -> ScalarStats {
    let mut stats = ScalarStats::default();
    let (minus_one, mut int) = (-F::ONE, F::BigInt::default());
    for s in scalars {
        stats.count(classify_into(s, &minus_one, int.as_mut()));
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

/// Every scalar classified: its code, and for a size class its integer in the shorter form
/// (so no scalar leaves the Montgomery form twice), by worker range.
pub(crate) struct Classified {
    codes: Vec<u8>,
    /// `limbs` u64 per scalar, zero but for the size classes' (zeroed by the allocator: the
    /// pages of a range of zeros and ±1 are never touched).
    ints: Vec<u64>,
    limbs: usize,
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

/// The bytes [`classify`] holds for n scalars of `F` (at most: the integers' pages are
/// touched only where size classes are).
pub(crate) fn classified_bytes<F: PrimeField>(n: usize) -> u64 {
    n as u64 * (1 + std::mem::size_of::<F::BigInt>() as u64)
}

/// The limbs of `F`'s integers.
fn limbs_of<F: PrimeField>() -> usize {
    F::BigInt::default().as_ref().len()
}

/// The classification pass on `workers` workers.
pub(crate) fn classify<F: PrimeField>(scalars: &[F], workers: usize) -> Result<Classified, Error> {
    let n = scalars.len();
    // A range of fewer than CLASSIFY_MIN scalars costs less than waking a worker for it.
    let workers = workers.min(n.div_ceil(CLASSIFY_MIN)).max(1);
    let bounds = even_bounds(n, workers);
    let limbs = limbs_of::<F>();
    let mut codes = vec![0u8; n];
    let mut ints = vec![0u64; n * limbs];
    let int_bounds: Vec<usize> = bounds.iter().map(|&b| b * limbs).collect();
    let slices = split_ranges(&mut codes, &bounds)
        .into_iter()
        .zip(split_ranges(&mut ints, &int_bounds))
        .collect::<Vec<_>>();
    let per_range = on_workers(slices, |w, (codes, ints)| {
        let scalars = &scalars[bounds[w]..bounds[w + 1]];
        let mine = scalars
            .iter()
            .zip(codes.iter_mut())
            .zip(ints.chunks_exact_mut(limbs));
        let minus_one = -F::ONE;
        for ((s, code), int) in mine {
            *code = classify_into(s, &minus_one, int);
        }
        stats_of(codes)
    })?;
    let stats = total(&per_range);
    Ok(Classified {
        codes,
        ints,
        limbs,
        bounds,
        per_range,
        stats,
    })
}

/// The fewest scalars per worker of the classification pass.
const CLASSIFY_MIN: usize = 8192;

/// Runs a class plan: the ±1 plain sum, then each size-class MSM.
pub(crate) fn execute_classes<P: SWCurveConfig>(
    points: &[Affine<P>],
    classified: &Classified,
    plan: &ClassPlan,
    engine: Option<Engine>,
) -> Result<Projective<P>, Error> {
    let mut total = Projective::<P>::zero();
    if plan.ones() > 0 {
        let engine = engine.filter(|_| plan.ones_ifma());
        total += plain_sum(points, classified, plan.ones_workers(), engine)?;
    }
    let glv = if plan.groups().iter().any(|g| g.glv) {
        Some(crate::glv::of::<P>().ok_or(Error::NoGlv {
            curve: crate::spec_of::<P>().name,
        })?)
    } else {
        None
    };
    for group in plan.groups() {
        let glv = glv.as_deref().filter(|_| group.glv);
        total += run_group(points, classified, group, glv)?;
    }
    Ok(total)
}

/// One size-class MSM: in place, over all points, with the digits of the group's scalars
/// (r − s ones negated) and zero digits elsewhere; or gathered, over copies of its points,
/// negated where r − s is the shorter form, and the integers of s or r − s; under `glv`, a
/// full-size scalar k gathers two entries, (±P, |k1|) and (±φ(P), |k2|).
fn run_group<P: SWCurveConfig>(
    points: &[Affine<P>],
    classified: &Classified,
    group: &ClassGroup,
    glv: Option<&Glv<P>>,
) -> Result<Projective<P>, Error> {
    let plan = &group.plan;
    if !group.gathered {
        let holds = |code: u8| group.holds(class(code));
        let digits = digits_coded(
            &classified.codes,
            &classified.ints,
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
                .map(|c| s.counts[c] * if c == FULL && glv.is_some() { 2 } else { 1 })
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
    let limbs = classified.limbs;
    on_workers(slices, |w, (pts, bigs)| {
        let mut k = 0;
        let range = bounds[w]..bounds[w + 1];
        let ints = &classified.ints[range.start * limbs..range.end * limbs];
        let mine = classified.codes[range.clone()]
            .iter()
            .zip(&points[range])
            .zip(ints.chunks_exact(limbs));
        for ((&code, p), int) in mine {
            let c = class(code);
            if !group.holds(c) {
                continue;
            }
            match glv.filter(|_| c == FULL) {
                Some(glv) => {
                    // Full-size scalars are never negated: k is s itself.
                    let mut s = <P::ScalarField as PrimeField>::BigInt::default();
                    s.as_mut().copy_from_slice(int);
                    let ((n1, k1), (n2, k2)) = glv.split(&s);
                    let phi = glv.endomorphism(p);
                    pts[k] = if n1 { -*p } else { *p };
                    bigs[k] = k1;
                    pts[k + 1] = if n2 { -phi } else { phi };
                    bigs[k + 1] = k2;
                    k += 2;
                }
                None => {
                    pts[k] = if code & NEGATED != 0 { -*p } else { *p };
                    bigs[k].as_mut().copy_from_slice(int);
                    k += 1;
                }
            }
        }
    })?;
    let digits = digits_of_bigints(&bigs, plan.windowing(), plan.workers())?;
    Ok(execute(plan, &pts, &digits, false)?.0)
}

/// Σ ±P over the ±1 class on `workers` workers, each streaming its share of the codes into
/// [`Accumulators`]: on IFMA records where `engine` runs `P`, else in arkworks coordinates.
fn plain_sum<P: SWCurveConfig>(
    points: &[Affine<P>],
    classified: &Classified,
    workers: usize,
    engine: Option<Engine>,
) -> Result<Projective<P>, Error> {
    // Even shares of the codes, whatever the ranges of the classification pass (which runs
    // on one worker below a few thousand scalars, where the sum still takes two).
    let n = classified.codes.len();
    let bounds = even_bounds(n, workers.clamp(1, n.max(1)));
    let jobs: Vec<(usize, usize)> = bounds.windows(2).map(|s| (s[0], s[1])).collect();
    let sums = on_workers(jobs, |_, (a, b)| {
        let codes = &classified.codes[a..b];
        // Where −1 is the more common sign, the sum is −Σ (−s)·P: the +1 points are the
        // ones negated, so an input of all −1 costs exactly what one of all +1 does.
        let (plus, minus) = codes.iter().fold((0usize, 0usize), |(plus, minus), &code| {
            (
                plus + (code == ONE as u8) as usize,
                minus + (code == ONE as u8 | NEGATED) as usize,
            )
        });
        let flip = minus > plus;
        let ones = codes
            .iter()
            .enumerate()
            .filter(|&(_, &code)| class(code) == ONE)
            .map(|(i, &code)| (i, (code & NEGATED != 0) != flip));
        let sum = sum_selected(&points[a..b], ones, engine);
        if flip {
            -sum
        } else {
            sum
        }
    })?;
    Ok(sums.into_iter().sum())
}

/// The sum of `points`.
#[cfg(test)]
pub(crate) fn sum_points<P: SWCurveConfig>(
    points: &[Affine<P>],
    engine: Option<Engine>,
) -> Projective<P> {
    sum_selected(points, (0..points.len()).map(|i| (i, false)), engine)
}

/// Σ ±points[i] over `selected` ((i, negate), in order): streamed into [`Accumulators`] on
/// IFMA records where `engine` runs `P`'s base field, else on arkworks coordinates. Points at
/// infinity are skipped.
pub(crate) fn sum_selected<P: SWCurveConfig>(
    points: &[Affine<P>],
    selected: impl Iterator<Item = (usize, bool)>,
    engine: Option<Engine>,
) -> Projective<P> {
    let mut selected = selected.filter(|&(i, _)| !points[i].is_zero());
    macro_rules! on_records {
        ($engine:expr, $l:literal) => {
            if let Some(mut backend) = RecordAffine::<P, $l>::new($engine) {
                // Each batch's points are negated, gathered and converted into a buffer the
                // size of the accumulators, which stays in cache.
                let mut acc = Accumulators::new(&backend);
                let mut chunk: Vec<Affine<P>> = Vec::with_capacity(STREAM_WIDTH);
                let mut records = vec![0u64; 2 * $l * STREAM_WIDTH];
                let mut batch: Vec<Staged> = Vec::with_capacity(STREAM_WIDTH);
                loop {
                    chunk.clear();
                    chunk.extend(selected.by_ref().take(STREAM_WIDTH).map(|(i, neg)| {
                        if neg {
                            -points[i]
                        } else {
                            points[i]
                        }
                    }));
                    if chunk.is_empty() {
                        break;
                    }
                    convert_records($engine, &chunk, $l, &mut records);
                    batch.clear();
                    batch.extend((0..chunk.len()).map(|k| Staged {
                        dst: 0,
                        src: k as u32,
                        negate: false,
                    }));
                    acc.push(&mut backend, &records[..], &mut batch, |s| {
                        chunk[s.src as usize]
                    });
                }
                return acc.finish(&mut backend);
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
    // Arkworks coordinates read the points where they lie: a batch is its indices.
    let mut backend = ArkworksAffine::<P>::default();
    let mut acc = Accumulators::new(&backend);
    let mut batch: Vec<Staged> = Vec::with_capacity(STREAM_WIDTH);
    loop {
        batch.clear();
        batch.extend(
            selected
                .by_ref()
                .take(STREAM_WIDTH)
                .map(|(i, negate)| Staged {
                    dst: 0,
                    src: i as u32,
                    negate,
                }),
        );
        if batch.is_empty() {
            break;
        }
        acc.push(&mut backend, points, &mut batch, |s| {
            let p = points[s.src as usize];
            if s.negate {
                -p
            } else {
                p
            }
        });
    }
    acc.finish(&mut backend)
}

/// Accumulators of the streamed plain sum: a batch of as many additions shares one inversion,
/// and accumulators and batch stay in L2 (2 × 512 points of at most 192 bytes).
const STREAM_WIDTH: usize = 512;

/// Below this many points a level of the final pairwise sum is finished projectively: a level
/// of h additions shares one inversion, worth some twenty additions.
const PAIRWISE_MIN: usize = 64;

/// The running sum of a stream of points, as [`STREAM_WIDTH`] affine accumulators: the first
/// points fill them, each later batch adds point k into accumulator k (one inversion a batch);
/// an addition with equal x (a doubling, or P + (−P)) sets its point aside into a projective
/// sum. The accumulators are added up pairwise at the end.
struct Accumulators<P: SWCurveConfig, B: AffineBackend<P>> {
    acc: B::Array,
    filled: usize,
    aside: Projective<P>,
    exceptional: Vec<Exceptional>,
}

impl<P: SWCurveConfig, B: AffineBackend<P>> Accumulators<P, B> {
    fn new(backend: &B) -> Self {
        let mut acc = B::Array::default();
        backend.reserve(&mut acc, STREAM_WIDTH);
        Accumulators {
            acc,
            filled: 0,
            aside: Projective::zero(),
            exceptional: Vec::new(),
        }
    }

    /// Adds ±input[s.src] for each staged s (at most [`STREAM_WIDTH`]; their `dst` is
    /// overwritten); `point` gives the arkworks point a staged entry adds, for the set-aside.
    fn push(
        &mut self,
        backend: &mut B,
        input: B::Input<'_>,
        batch: &mut [Staged],
        point: impl Fn(&Staged) -> Affine<P>,
    ) {
        debug_assert!(batch.len() <= STREAM_WIDTH);
        let load = (STREAM_WIDTH - self.filled).min(batch.len());
        for s in &batch[..load] {
            backend.load(&mut self.acc, self.filled, input, s.src as usize, s.negate);
            self.filled += 1;
        }
        let rest = &mut batch[load..];
        if rest.is_empty() {
            return;
        }
        for (k, s) in rest.iter_mut().enumerate() {
            s.dst = k as u32;
        }
        backend.add_input(&mut self.acc, input, rest, &mut self.exceptional);
        for e in &self.exceptional {
            self.aside += point(&rest[e.index]);
        }
    }

    /// The sum: the accumulators added pairwise, level by level (the second of each pair
    /// copied out and added into the first, one inversion a level), the last few and the
    /// set-aside projectively.
    fn finish(mut self, backend: &mut B) -> Projective<P> {
        let affine = |(x, y): (P::BaseField, P::BaseField)| Affine::<P>::new_unchecked(x, y);
        let mut live: Vec<u32> = (0..self.filled as u32).collect();
        let mut next: Vec<u32> = Vec::with_capacity(live.len() / 2 + 1);
        let mut seconds = B::Array::default();
        let mut staged: Vec<Staged> = Vec::with_capacity(live.len() / 2);
        while live.len() >= PAIRWISE_MIN {
            let half = live.len() / 2;
            backend.reserve(&mut seconds, half);
            for k in 0..half {
                backend.copy(&mut seconds, k, &self.acc, live[2 * k + 1] as usize);
            }
            staged.clear();
            staged.extend((0..half).map(|k| Staged {
                dst: live[2 * k],
                src: k as u32,
                negate: false,
            }));
            backend.add_array(&mut self.acc, &seconds, &staged, &mut self.exceptional);
            let mut skip = self.exceptional.iter().map(|e| e.index).peekable();
            next.clear();
            for k in 0..half {
                if skip.peek() == Some(&k) {
                    skip.next();
                    self.aside += affine(backend.get(&self.acc, live[2 * k] as usize));
                    self.aside += affine(backend.get(&seconds, k));
                } else {
                    next.push(live[2 * k]);
                }
            }
            if live.len() % 2 == 1 {
                next.push(live[live.len() - 1]);
            }
            std::mem::swap(&mut live, &mut next);
        }
        live.iter().fold(self.aside, |acc, &k| {
            acc + affine(backend.get(&self.acc, k as usize))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::CurveGroup;
    use ark_std::UniformRand;

    /// Inputs that take every turn of the streamed sum: below and across the projective
    /// threshold and the accumulator width, odd lengths, several batches, and additions with
    /// equal x in the stream (P + P, P + (−P) into an accumulator) and in the final pairwise
    /// levels (equal sums), points at infinity among them.
    fn cases<P: SWCurveConfig>() -> Vec<Vec<Affine<P>>> {
        let mut rng = ark_std::test_rng();
        let random = |n: usize, rng: &mut _| -> Vec<Affine<P>> {
            (0..n).map(|_| Affine::<P>::rand(rng)).collect()
        };
        let (a, b) = (Affine::<P>::rand(&mut rng), Affine::<P>::rand(&mut rng));
        let w = STREAM_WIDTH;
        let mut out: Vec<Vec<Affine<P>>> = [0, 1, 2, 63, 64, 65, 127, w - 1, w, w + 1, 3 * w + 7]
            .iter()
            .map(|&n| random(n, &mut rng))
            .collect();
        out.push(vec![a; 300]);
        out.push(vec![a; 2 * w + 5]);
        out.push(
            (0..2 * w + 1)
                .map(|i| if i % 2 == 0 { a } else { -a })
                .collect(),
        );
        out.push((0..256).map(|i| if i % 2 == 0 { a } else { b }).collect());
        let mut mixed = random(4 * w + 1, &mut rng);
        for i in (0..mixed.len()).step_by(7) {
            mixed[i] = a;
        }
        for i in (3..mixed.len()).step_by(11) {
            mixed[i] = -a;
        }
        for i in (5..mixed.len()).step_by(13) {
            mixed[i] = Affine::<P>::identity();
        }
        out.push(mixed);
        out
    }

    fn engines() -> [Option<Engine>; 3] {
        [
            None,
            Some(Engine::Emulated(crate::ifma::Emulated)),
            crate::ifma::Ifma::Auto.engine(),
        ]
    }

    fn check<P: SWCurveConfig>() {
        for points in cases::<P>() {
            let naive = points
                .iter()
                .fold(Projective::<P>::zero(), |acc, p| acc + p);
            for engine in engines() {
                let sum = sum_points(&points, engine);
                assert_eq!(
                    sum.into_affine(),
                    naive.into_affine(),
                    "n={} engine={engine:?}",
                    points.len()
                );
            }
            // A selection with signs: every third point left out, every other one negated.
            let selected = || {
                (0..points.len())
                    .filter(|i| i % 3 != 1)
                    .map(|i| (i, i % 2 == 1))
            };
            let naive = selected().fold(Projective::<P>::zero(), |acc, (i, neg)| {
                if neg {
                    acc - points[i]
                } else {
                    acc + points[i]
                }
            });
            for engine in engines() {
                let sum = sum_selected(&points, selected(), engine);
                assert_eq!(
                    sum.into_affine(),
                    naive.into_affine(),
                    "selected n={} engine={engine:?}",
                    points.len()
                );
            }
        }
    }

    /// The ±1 class summed by [`plain_sum`] with either sign in the majority, or alone,
    /// among zeros and size-class scalars it must skip, on one to three workers.
    fn check_plain<P: SWCurveConfig>() {
        let n = 700;
        let points = crate::sample::points::<P>(n, 9);
        let one = P::ScalarField::from(1u64);
        type Sign = fn(usize) -> i8;
        let inputs: [(&str, Sign); 4] = [
            ("all -1", |_| -1),
            ("mostly -1", |i| if i % 5 == 0 { 1 } else { -1 }),
            ("mostly +1", |i| if i % 5 == 0 { -1 } else { 1 }),
            ("-1, +1, 0, 7", |i| [-1, 1, 0, 7][i % 4]),
        ];
        for (name, sign) in inputs {
            let scalars: Vec<P::ScalarField> = (0..n)
                .map(|i| P::ScalarField::from(sign(i) as i64))
                .collect();
            let naive = (0..n)
                .filter(|&i| scalars[i] == one || scalars[i] == -one)
                .fold(Projective::<P>::zero(), |acc, i| {
                    if scalars[i] == one {
                        acc + points[i]
                    } else {
                        acc - points[i]
                    }
                });
            for workers in 1..=3 {
                let classified = classify(&scalars, workers).unwrap();
                for engine in engines() {
                    let sum = plain_sum(&points, &classified, workers, engine).unwrap();
                    assert_eq!(sum, naive, "{name} on {workers}, engine={engine:?}");
                }
            }
        }
    }

    /// The interleaved tables count what one counter per scalar counts: runs of one code,
    /// every code mixed, lengths that are not multiples of four.
    #[test]
    fn code_statistics_equal_a_count_per_scalar() {
        let codes: Vec<u8> = (0..1003u32)
            .map(|i| {
                let class = if i < 300 {
                    0
                } else {
                    (i * 7 % CLASSES as u32) as u8
                };
                class | if i % 3 == 0 && class > 0 { NEGATED } else { 0 }
            })
            .collect();
        for len in [0, 1, 3, 4, 5, 299, 1003] {
            let mut expected = ScalarStats::default();
            for &code in &codes[..len] {
                expected.count(code);
            }
            let got = stats_of(&codes[..len]);
            assert_eq!(got.counts, expected.counts, "{len}");
            assert_eq!(got.negated, expected.negated, "{len}");
            assert_eq!(got.n(), len);
        }
    }

    #[test]
    fn plain_sums_of_either_majority_sign_equal_the_naive_sum() {
        check_plain::<ark_bn254::g1::Config>();
        check_plain::<ark_bls12_381::g1::Config>();
    }

    #[test]
    fn streamed_sums_equal_the_naive_sum_on_every_backend() {
        check::<ark_bn254::g1::Config>();
        check::<ark_bls12_381::g1::Config>();
        check::<crate::curves::bls24_315::g1::Config>();
        check::<ark_bls12_381::g2::Config>();
    }
}
