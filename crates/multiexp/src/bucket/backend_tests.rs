//! The batch-affine layer on every backend: the arkworks one, IFMA records on the emulation
//! (any CPU), and IFMA records natively where the CPU has AVX-512 IFMA, which must also give
//! bit for bit the emulation's records.

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::{AffineRepr, CurveGroup};
use ark_ff::Field;

use super::batch_affine::{AffineBackend, Exceptional, Staged};
use super::lines::LineVec;
use super::segments::SegmentSum;
use super::*;
use crate::ifma::Emulated;
use crate::reduce::running_sum;

fn emulated() -> Engine {
    Engine::Emulated(Emulated)
}

/// Multiples 1..=7 of the generator.
fn multiples<P: SWCurveConfig>() -> Vec<Affine<P>> {
    let g = P::GENERATOR;
    (1..=7u64)
        .map(|k| (g.into_group() * P::ScalarField::from(k)).into_affine())
        .collect()
}

/// Buckets full of exceptional cases for `pattern`: repeats (doublings in the segments),
/// negations (cancellations) and empties.
fn bucket_values<P: SWCurveConfig>(n: usize, pattern: u64) -> Vec<Option<Affine<P>>> {
    let pts = multiples::<P>();
    let g = P::GENERATOR;
    (0..n)
        .map(|b| {
            let h = (b as u64 * 2654435761 + pattern * 97) % 11;
            match pattern {
                0 => Some(pts[(h % 7) as usize]),
                1 => Some(g),
                2 if h < 4 => None,
                2 => Some(if b % 2 == 0 { pts[1] } else { -pts[1] }),
                _ if h.is_multiple_of(3) => None,
                _ => Some(if h.is_multiple_of(2) {
                    pts[(h % 5) as usize]
                } else {
                    -pts[0]
                }),
            }
        })
        .collect()
}

/// The segment reduction of `F` equals the XYZZ running sum on exceptional buckets, for
/// every bucket count from 1 to a few hundred.
fn segments_equal_the_running_sum<P: SWCurveConfig, F: AffineBackend<P>>(mut field: F) {
    let mut segments = SegmentSum::<P, F>::default();
    let mut array = F::Array::default();
    for n in (1..40).chain([63, 64, 65, 200, 511]) {
        for pattern in 0..4u64 {
            let values = bucket_values::<P>(n, pattern);
            field.reserve(&mut array, n);
            let mut filled = vec![false; n];
            let mut xyzz = vec![Xyzz::<P>::ZERO; n];
            for (b, v) in values.iter().enumerate() {
                if let Some(p) = v {
                    field.set(&mut array, b, &p.x, &p.y);
                    filled[b] = true;
                    xyzz[b] = Xyzz::from_affine(p);
                }
            }
            let got = segments
                .reduce(&mut field, &array, &filled)
                .into_projective();
            let expected = running_sum(&xyzz).into_projective();
            assert_eq!(got, expected, "n={n} pattern={pattern}");
        }
    }
}

#[test]
fn segment_reduction_equals_the_running_sum_on_exceptional_buckets() {
    fn check<P: SWCurveConfig>() {
        segments_equal_the_running_sum::<P, _>(ArkworksAffine::<P>::default());
    }
    check::<ark_bn254::g1::Config>();
    check::<ark_secp256r1::Config>();
    check::<ark_bls12_381::g2::Config>();
    segments_equal_the_running_sum::<ark_bn254::g1::Config, _>(
        RecordAffine::<_, 5>::new(emulated()).unwrap(),
    );
    segments_equal_the_running_sum::<ark_bls12_381::g1::Config, _>(
        RecordAffine::<_, 8>::new(emulated()).unwrap(),
    );
    segments_equal_the_running_sum::<crate::curves::bls24_315::g1::Config, _>(
        RecordAffine::<_, 7>::new(emulated()).unwrap(),
    );
}

/// Random points with the point at infinity, repeats and negations mixed in.
fn awkward_points<P: SWCurveConfig>(n: usize) -> Vec<Affine<P>> {
    let mut points = crate::sample::points::<P>(n, 17);
    for i in 0..n {
        match i % 13 {
            3 => points[i] = Affine::identity(),
            5 => points[i] = points[i - 1],
            7 => points[i] = -points[i - 2],
            _ => {}
        }
    }
    points
}

fn records_of<P: SWCurveConfig>(engine: Engine, points: &[Affine<P>]) -> Vec<u64> {
    let limbs = crate::ifma::limbs_of::<P::BaseField>().unwrap();
    let mut out = vec![0u64; 2 * limbs * points.len()];
    convert_records(engine, points, limbs, &mut out);
    out
}

/// Records decode to their points (the point at infinity flagged), for a count that is no
/// multiple of 8.
fn records_decode_to_their_points<P: SWCurveConfig, const L: usize>(engine: Engine) {
    let points = awkward_points::<P>(77);
    let records = records_of(engine, &points);
    let field = RecordAffine::<P, L>::new(engine).unwrap();
    let array = LineVec::from_slice(&records);
    // Made from arkworks' Montgomery limbs where readable: bit for bit the records of the
    // canonical integers.
    let f52 = crate::ifma::Field52::<L>::of::<<P::BaseField as Field>::BasePrimeField>().unwrap();
    let prime = |v: P::BaseField| v.to_base_prime_field_elements().next().unwrap();
    for (i, p) in points.iter().enumerate() {
        assert_eq!(field.is_infinity(&records, i), p.is_zero(), "point {i}");
        if !p.is_zero() {
            assert_eq!(field.get(&array, i), (p.x, p.y), "point {i}");
            let record = &records[2 * L * i..2 * L * (i + 1)];
            assert_eq!(record[..L], f52.encode(&prime(p.x)), "point {i}: x");
            assert_eq!(record[L..], f52.encode(&prime(p.y)), "point {i}: y");
        }
    }
}

/// Bucket coordinates after a batch (None where the backend left the addition out) and the
/// exceptional list.
type BatchOutcome<P> = (
    Vec<
        Option<(
            <P as ark_ec::CurveConfig>::BaseField,
            <P as ark_ec::CurveConfig>::BaseField,
        )>,
    >,
    Vec<Exceptional>,
);

/// A batch of additions `dst[e.dst] += ±src[e.src]` through `F`, the last two a doubling and
/// a cancellation: the buckets after the batch (None where left out) and the exceptional list.
fn batch_add<P: SWCurveConfig, F: AffineBackend<P>>(
    field: &mut F,
    points: &[Affine<P>],
    input: F::Input<'_>,
) -> BatchOutcome<P> {
    let n = 37;
    let mut buckets = F::Array::default();
    field.reserve(&mut buckets, n);
    let finite: Vec<usize> = (0..points.len())
        .filter(|&i| !points[i].is_zero())
        .collect();
    let mut staged = Vec::new();
    for b in 0..n {
        let p = points[finite[(5 * b) % finite.len()]];
        field.set(&mut buckets, b, &p.x, &p.y);
        let src = if b + 2 < n {
            finite[(b * 7 + 3) % finite.len()]
        } else {
            // The bucket's own point, added (a doubling) and subtracted (a cancellation).
            field.set(&mut buckets, b, &points[1].x, &points[1].y);
            1
        };
        staged.push(Staged {
            dst: b as u32,
            src: src as u32,
            negate: b % 3 == 1 || b + 1 == n,
        });
    }
    let mut exceptional = Vec::new();
    field.add_input(&mut buckets, input, &staged, &mut exceptional);
    let skipped: Vec<usize> = exceptional
        .iter()
        .map(|x| staged[x.index].dst as usize)
        .collect();
    let out = (0..n)
        .map(|b| (!skipped.contains(&b)).then(|| field.get(&buckets, b)))
        .collect();
    (out, exceptional)
}

fn batch_additions_match_arkworks<P: SWCurveConfig, const L: usize>(engine: Engine) {
    let points = awkward_points::<P>(50);
    assert!(!points[1].is_zero());
    let records = records_of(engine, &points);
    let expected = batch_add(&mut ArkworksAffine::<P>::default(), &points, &points);
    let mut field = RecordAffine::<P, L>::new(engine).unwrap();
    let got = batch_add(&mut field, &points, &records);
    assert_eq!(got, expected);
    let last: Vec<Exceptional> = got.1.iter().rev().take(2).rev().copied().collect();
    let (doubling, cancellation) = (
        Exceptional {
            index: 35,
            doubling: true,
        },
        Exceptional {
            index: 36,
            doubling: false,
        },
    );
    assert_eq!(last, [doubling, cancellation]);
}

fn every_record_curve(engine: Engine) {
    records_decode_to_their_points::<ark_bn254::g1::Config, 5>(engine);
    records_decode_to_their_points::<ark_secp256k1::Config, 5>(engine);
    records_decode_to_their_points::<ark_bls12_381::g1::Config, 8>(engine);
    records_decode_to_their_points::<crate::curves::bls24_317::g1::Config, 7>(engine);
    batch_additions_match_arkworks::<ark_bn254::g1::Config, 5>(engine);
    batch_additions_match_arkworks::<ark_secp256r1::Config, 5>(engine);
    batch_additions_match_arkworks::<ark_bls12_377::g1::Config, 8>(engine);
    batch_additions_match_arkworks::<crate::curves::bls24_315::g1::Config, 7>(engine);
}

#[test]
fn emulated_records_and_batch_additions_match_arkworks() {
    every_record_curve(emulated());
}

/// The arkworks kernel against plain affine additions: batches of 1 to 9 entries, with a
/// doubling or a cancellation at each position (first, last, between) or none, on a
/// prime-field and an extension-field curve: the exceptional entry leaves Montgomery's
/// trick and every other entry is still settled with the right inverse.
fn kernel_settles_every_position_of_a_batch<P: SWCurveConfig>(launder: bool) {
    let pts = crate::sample::points::<P>(40, 5);
    for len in 1..=9usize {
        for special in 0..=len {
            for cancel in [false, true] {
                let mut field = ArkworksAffine::<P>::default();
                let mut buckets = <ArkworksAffine<P> as AffineBackend<P>>::Array::default();
                field.reserve(&mut buckets, len);
                let mut staged = Vec::new();
                let mut expected = Vec::new();
                for b in 0..len {
                    field.set(&mut buckets, b, &pts[b].x, &pts[b].y);
                    // The bucket's own point (P + P, or P - P), or another one.
                    let (src, negate) = if b == special {
                        (b, cancel)
                    } else {
                        (20 + b, b % 2 == 1)
                    };
                    staged.push(Staged {
                        dst: b as u32,
                        src: src as u32,
                        negate,
                    });
                    let p = if negate { -pts[src] } else { pts[src] };
                    expected.push((pts[b] + p).into_affine());
                }
                let mut exceptional = Vec::new();
                let src = |i: usize| (pts[i].x, pts[i].y);
                field.add_by(launder, &mut buckets, src, &staged, &mut exceptional);
                let want: Vec<Exceptional> = (special < len)
                    .then_some(Exceptional {
                        index: special,
                        doubling: !cancel,
                    })
                    .into_iter()
                    .collect();
                assert_eq!(exceptional, want, "len {len}, special {special}");
                for b in (0..len).filter(|&b| b != special) {
                    let got = field.get(&buckets, b);
                    assert_eq!(
                        got,
                        (expected[b].x, expected[b].y),
                        "len {len}, special {special}, bucket {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn the_arkworks_kernel_settles_every_position_of_a_batch() {
    // Both product paths (field::launders), whichever this host takes.
    for launder in [false, true] {
        kernel_settles_every_position_of_a_batch::<ark_bn254::g1::Config>(launder);
        kernel_settles_every_position_of_a_batch::<ark_bls12_381::g2::Config>(launder);
    }
}

/// One task through the scheduler of `engine` (arkworks coordinates for `None`) against XYZZ
/// buckets, whole and in three ranges. The first 600 points come in pairs into fresh buckets:
/// P and P (a doubling), P and -P (a cancellation), P and the point at infinity, P and Q; the
/// next 600 crowd into 8 buckets (conflicts, the queue, its overflow). Each case runs with
/// and without lanes.
fn scheduler_matches_xyzz<P: SWCurveConfig>(engine: Option<Engine>) {
    let q = crate::sample::points::<P>(900, 23);
    let mut points = Vec::new();
    let mut digits = Vec::new();
    for j in 0..300 {
        let second = match j % 4 {
            0 => q[j],
            1 => -q[j],
            2 => Affine::identity(),
            _ => q[300 + j],
        };
        points.extend([q[j], second]);
        let d = (j % 511) as Digit + 1;
        digits.extend([d, d]);
    }
    for i in 0..600 {
        points.push(q[300 + i % 600]);
        digits.push(if i % 3 == 0 {
            -((i % 8) as Digit + 1)
        } else {
            (i % 8) as Digit + 1
        });
    }
    let limbs = crate::ifma::limbs_of::<P::BaseField>().unwrap_or(0);
    let records = engine.map(|e| records_of(e, &points));
    // With lanes, the pairs above fall into two lanes of one bucket and meet in the fold
    // (512 buckets), or crowd into few buckets of many lanes (digits folded into 64 or 16).
    let cases = [
        (512, 16, 1),
        (512, 1024, 1),
        (512, 1024, 2),
        (512, 64, 4),
        (64, 512, 8),
        (16, 64, 16),
    ];
    for (buckets, batch, lanes) in cases {
        let digits: Vec<Digit> = digits
            .iter()
            .map(|&d| {
                let b = (d.unsigned_abs() - 1) % buckets as u32 + 1;
                if d < 0 {
                    -(b as Digit)
                } else {
                    b as Digit
                }
            })
            .collect();
        let mut xyzz = vec![Xyzz::<P>::ZERO; buckets];
        accumulate_xyzz(&mut xyzz, &mut Vec::new(), &points, &digits);
        let expected = running_sum(&xyzz).into_projective();
        let mut set = BucketSet::<P>::with_engine(engine);
        let processor = match engine {
            Some(_) => Processor::BatchAffineIfma,
            None => Processor::BatchAffine,
        };
        let shape = TaskShape {
            processor,
            buckets,
            window: 10,
            batch: Some(batch),
            lanes,
        };
        let slice = |lo: usize, hi: usize| {
            records.as_ref().map(|data| RecordSlice {
                limbs,
                data: &data[2 * limbs * lo..2 * limbs * hi],
            })
        };
        let got = set.process(shape, &points, slice(0, 1200), &digits);
        assert_eq!(
            got.into_projective(),
            expected,
            "batch {batch} lanes {lanes}, {engine:?}"
        );
        set.begin(shape);
        for (lo, hi) in [(0, 101), (101, 102), (102, 1200)] {
            set.accumulate(&points[lo..hi], slice(lo, hi), &digits[lo..hi]);
        }
        assert_eq!(set.finish().into_projective(), expected, "in ranges");
    }
}

#[test]
fn the_scheduler_settles_every_exceptional_case_on_every_backend() {
    scheduler_matches_xyzz::<ark_bn254::g1::Config>(None);
    scheduler_matches_xyzz::<ark_bls12_381::g2::Config>(None);
    scheduler_matches_xyzz::<ark_bn254::g1::Config>(Some(emulated()));
    scheduler_matches_xyzz::<ark_bls12_381::g1::Config>(Some(emulated()));
}

/// The lane fold meets equal and opposite lane sums at every level, not only the last: eight
/// lanes of bucket 1 hold P Q R S P Q R S (four doublings at the first level), those of
/// bucket 2 hold P Q R S −P Q R −S (two cancellations and two doublings, then a move).
fn lanes_fold_at_every_level<P: SWCurveConfig>(engine: Option<Engine>) {
    let q = crate::sample::points::<P>(4, 31);
    let (p, qq, r, s) = (q[0], q[1], q[2], q[3]);
    let points = vec![p, qq, r, s, p, qq, r, s, p, qq, r, s, -p, qq, r, -s];
    let digits: Vec<Digit> = (0..16).map(|i| if i < 8 { 1 } else { 2 }).collect();
    let mut xyzz = vec![Xyzz::<P>::ZERO; 2];
    accumulate_xyzz(&mut xyzz, &mut Vec::new(), &points, &digits);
    let expected = running_sum(&xyzz).into_projective();
    let limbs = crate::ifma::limbs_of::<P::BaseField>().unwrap_or(0);
    let records = engine.map(|e| records_of(e, &points));
    let slice = records.as_ref().map(|data| RecordSlice { limbs, data });
    let processor = match engine {
        Some(_) => Processor::BatchAffineIfma,
        None => Processor::BatchAffine,
    };
    let shape = TaskShape {
        processor,
        buckets: 2,
        window: 2,
        batch: Some(4),
        lanes: 8,
    };
    let mut set = BucketSet::<P>::with_engine(engine);
    let got = set.process(shape, &points, slice, &digits);
    assert_eq!(got.into_projective(), expected, "{engine:?}");
}

#[test]
fn the_lane_fold_settles_doublings_and_cancellations_at_every_level() {
    lanes_fold_at_every_level::<ark_bn254::g1::Config>(None);
    lanes_fold_at_every_level::<ark_bls12_381::g2::Config>(None);
    lanes_fold_at_every_level::<ark_bn254::g1::Config>(Some(emulated()));
    lanes_fold_at_every_level::<ark_bls12_381::g1::Config>(Some(emulated()));
}

mod native {
    use super::*;
    use crate::ifma::native_engine as native;

    /// The native records and batch additions equal the emulation's, limb for limb.
    fn native_equals_emulated<P: SWCurveConfig, const L: usize>() {
        let points = awkward_points::<P>(203);
        let records = records_of(native(), &points);
        assert_eq!(records, records_of(emulated(), &points), "records");
        let finite: Vec<u32> = (0..203)
            .filter(|&i| !points[i as usize].is_zero())
            .collect();
        let run = |engine| {
            let mut field = RecordAffine::<P, L>::new(engine).unwrap();
            let mut buckets = LineVec::default();
            field.reserve(&mut buckets, 64);
            for b in 0..64 {
                let src = finite[(b * 3) % finite.len()] as usize;
                field.load(&mut buckets, b, &records, src, b % 2 == 0);
            }
            let staged: Vec<Staged> = (0..64u32)
                .map(|b| Staged {
                    dst: b,
                    src: finite[(b as usize * 7 + 1) % finite.len()],
                    negate: b % 5 == 0,
                })
                .collect();
            let mut exceptional = Vec::new();
            field.add_input(&mut buckets, &records, &staged, &mut exceptional);
            let mut segments = SegmentSum::<P, _>::default();
            let filled = vec![true; 64];
            let sum = segments.reduce(&mut field, &buckets, &filled);
            (buckets.to_vec(), exceptional, sum.into_projective())
        };
        assert_eq!(
            run(native()),
            run(emulated()),
            "batch additions and reduction"
        );
    }

    #[test]
    #[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
    fn native_records_equal_the_emulation_bit_for_bit() {
        native_equals_emulated::<ark_bn254::g1::Config, 5>();
        native_equals_emulated::<ark_bls12_381::g1::Config, 8>();
        native_equals_emulated::<crate::curves::bls24_315::g1::Config, 7>();
    }

    #[test]
    #[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
    fn native_records_and_batch_additions_match_arkworks() {
        every_record_curve(native());
        scheduler_matches_xyzz::<ark_bn254::g1::Config>(Some(native()));
        scheduler_matches_xyzz::<ark_bls12_381::g1::Config>(Some(native()));
    }
}
