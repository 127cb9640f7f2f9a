//! Write → read round trips of `multiexp::input` for every curve/group and every format, and
//! byte-for-byte agreement of the binary format with arkworks' `CanonicalSerialize`
//! (property tests, fixed seed).

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ff::{BigInteger, PrimeField};
use ark_serialize::{CanonicalDeserialize, CanonicalSerialize, Compress, Validate};
use multiexp::input::{
    self, Endianness, PointEncoding, PointFormat, PointOptions, ScalarFormat, ScalarOptions,
};
use multiexp::Ifma;
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// Random subgroup points with the point at infinity and negations mixed in where `specials`
/// has bits set.
fn points_with_specials<P: SWCurveConfig>(n: usize, seed: u64, specials: u32) -> Vec<Affine<P>> {
    let mut points = multiexp::unstable::sample::points::<P>(n, seed);
    for (i, p) in points.iter_mut().enumerate() {
        match (specials >> (2 * (i % 16))) & 3 {
            1 => *p = Affine::identity(),
            2 => *p = -*p,
            _ => {}
        }
    }
    points
}

fn point_round_trips<P: SWCurveConfig>(n: usize, seed: u64, specials: u32) {
    let points = points_with_specials::<P>(n, seed, specials);
    let checks = [
        PointOptions::default(),
        PointOptions {
            ifma: Ifma::Off,
            ..PointOptions::default()
        },
        PointOptions {
            ifma: Ifma::Emulated,
            ..PointOptions::default()
        },
        PointOptions {
            subgroup_check: false,
            ..PointOptions::default()
        },
    ];
    let hex = input::points_to_hex(&points);
    assert_eq!(hex.lines().count(), n);
    for options in &checks {
        let back = input::points_from_hex::<P>("points.hex", hex.as_bytes(), options);
        assert_eq!(back.as_ref(), Ok(&points), "hex, {options:?}");
    }
    // The hex encoding is arkworks' compressed one except on the BLS12 curves.
    if PointEncoding::standard::<P>() == PointEncoding::binary::<P>() {
        for (line, p) in hex.lines().zip(&points) {
            let mut ark = Vec::new();
            p.serialize_compressed(&mut ark).unwrap();
            let ark_hex: String = ark.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(line, ark_hex);
        }
    }
    for compressed in [true, false] {
        let bytes = input::points_to_binary(&points, compressed);
        let mode = if compressed {
            Compress::Yes
        } else {
            Compress::No
        };
        let mut ark = Vec::new();
        points.serialize_with_mode(&mut ark, mode).unwrap();
        assert_eq!(
            bytes, ark,
            "binary = CanonicalSerialize, compressed {compressed}"
        );
        let ark_back =
            Vec::<Affine<P>>::deserialize_with_mode(bytes.as_slice(), mode, Validate::Yes);
        assert_eq!(ark_back.ok().as_ref(), Some(&points), "arkworks reads ours");
        let explicit = if compressed {
            PointFormat::BinaryCompressed
        } else {
            PointFormat::BinaryUncompressed
        };
        for format in [PointFormat::Binary, explicit] {
            for options in &checks {
                let back = input::points_from::<P>("points.bin", &bytes, format, options);
                assert_eq!(back.as_ref(), Ok(&points), "{format:?}, {options:?}");
            }
        }
    }
    // Every point also round-trips through every encoding one at a time, and as raw records
    // (no length prefix) with the width given or inferred.
    for encoding in [PointEncoding::Zcash, PointEncoding::Arkworks] {
        if encoding == PointEncoding::Zcash && PointEncoding::standard::<P>() != encoding {
            continue;
        }
        for compressed in [true, false] {
            let mut records = Vec::new();
            for p in &points {
                let bytes = input::encode_point(p, encoding, compressed);
                assert_eq!(bytes.len(), input::point_size::<P>(encoding, compressed));
                records.extend(bytes);
            }
            let options = PointOptions::default();
            let back = input::points_from_records::<P>(
                "r",
                &records,
                encoding,
                Some(compressed),
                &options,
            );
            assert_eq!(
                back.as_ref(),
                Ok(&points),
                "records {encoding:?} {compressed}"
            );
            match input::points_from_records::<P>("r", &records, encoding, None, &options) {
                Ok(inferred) => assert_eq!(inferred, points, "inferred {encoding:?}"),
                Err(e) => assert_eq!(
                    e.kind,
                    input::InputErrorKind::AmbiguousWidth {
                        compressed: input::point_size::<P>(encoding, true),
                        uncompressed: input::point_size::<P>(encoding, false),
                    },
                    "only an arkworks input both widths divide is ambiguous"
                ),
            }
        }
    }
}

fn record_errors<P: SWCurveConfig>() {
    use input::{InputErrorKind, Location};
    let points = multiexp::unstable::sample::points::<P>(5, 3);
    let encoding = PointEncoding::standard::<P>();
    let options = PointOptions::default();
    assert_eq!(
        input::points_from_records::<P>("r", &[], encoding, None, &options),
        Ok(vec![])
    );
    let mut records = Vec::new();
    for p in &points {
        records.extend(input::encode_point(p, encoding, false));
    }
    let size = input::point_size::<P>(encoding, false);
    // A record cut short: where it starts, and how many bytes are left over.
    let cut = &records[..records.len() - 1];
    let e = input::points_from_records::<P>("r", cut, encoding, Some(false), &options).unwrap_err();
    assert_eq!(e.location, Location::Byte((4 * size) as u64));
    assert_eq!(
        e.kind,
        InputErrorKind::WrongLength {
            expected: size,
            found: size - 1
        }
    );
    // A coordinate changed in record 3: off the curve, at its offset.
    let mut broken = records.clone();
    broken[3 * size + size / 2] ^= 1;
    let e =
        input::points_from_records::<P>("r", &broken, encoding, Some(false), &options).unwrap_err();
    assert_eq!(e.location, Location::Byte((3 * size) as u64));
    assert!(
        matches!(
            e.kind,
            InputErrorKind::NotOnCurve | InputErrorKind::NonCanonicalField { .. }
        ),
        "{e}"
    );
    // Scalar records: out of range at its offset, and a short record.
    let r_minus_1 = -<P::ScalarField as ark_ff::Field>::ONE;
    let scalars = vec![P::ScalarField::from(3u64), r_minus_1];
    let size = input::scalar_size::<P::ScalarField>();
    let mut le = Vec::new();
    for s in &scalars {
        le.extend_from_slice(&s.into_bigint().to_bytes_le()[..size]);
    }
    let opts = ScalarOptions::default();
    let back = input::scalars_from_records::<P::ScalarField>("s", &le, Endianness::Little, &opts);
    assert_eq!(back, Ok(scalars.clone()));
    let mut be = Vec::new();
    for s in &scalars {
        let mut b = s.into_bigint().to_bytes_le()[..size].to_vec();
        b.reverse();
        be.extend(b);
    }
    let back = input::scalars_from_records::<P::ScalarField>("s", &be, Endianness::Big, &opts);
    assert_eq!(back, Ok(scalars));
    let mut too_big = le.clone();
    too_big[size..].iter_mut().for_each(|b| *b = 0xff);
    let e = input::scalars_from_records::<P::ScalarField>("s", &too_big, Endianness::Little, &opts)
        .unwrap_err();
    assert_eq!(
        (e.location, e.kind),
        (
            Location::Byte(size as u64),
            InputErrorKind::ScalarOutOfRange
        )
    );
    let e = input::scalars_from_records::<P::ScalarField>("s", &le[1..], Endianness::Little, &opts)
        .unwrap_err();
    assert!(matches!(e.kind, InputErrorKind::WrongLength { .. }));
}

#[test]
fn raw_records_report_offsets_on_every_curve() {
    struct Run;
    impl multiexp::curves::CurveVisitor for Run {
        type Output = ();
        fn visit<P: SWCurveConfig>(self, _: &multiexp::curves::CurveSpec) {
            record_errors::<P>();
        }
    }
    for name in multiexp::curves::NAMES {
        multiexp::curves::visit(name, Run).unwrap();
    }
}

fn scalar_round_trips<F: PrimeField>(n: usize, seed: u64) {
    let scalars = multiexp::unstable::sample::scalars::<F>(n, seed);
    for endianness in [Endianness::Big, Endianness::Little] {
        let text = input::scalars_to_hex(&scalars, endianness);
        let options = ScalarOptions {
            endianness,
            ..ScalarOptions::default()
        };
        let back = input::scalars_from_hex::<F>("scalars.hex", text.as_bytes(), &options);
        assert_eq!(back.as_ref(), Ok(&scalars), "{endianness:?}");
    }
    let bytes = input::scalars_to_binary(&scalars);
    let mut ark = Vec::new();
    scalars.serialize_compressed(&mut ark).unwrap();
    assert_eq!(bytes, ark, "binary scalars = CanonicalSerialize");
    let back = input::scalars_from::<F>(
        "scalars.bin",
        &bytes,
        ScalarFormat::Binary,
        &ScalarOptions::default(),
    );
    assert_eq!(back.as_ref(), Ok(&scalars));
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 6,
        rng_seed: RngSeed::Fixed(0x0069_6e70_7574),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

macro_rules! round_trip_tests {
    ($($name:ident, $label:literal => $config:ty;)*) => {
        /// The catalogue names the tests below cover.
        const COVERED: &[&str] = &[$($label),*];

        proptest! {
            #![proptest_config(config())]
            $(
                #[test]
                fn $name(n in 1usize..20, seed in any::<u64>(), specials in any::<u32>()) {
                    point_round_trips::<$config>(n, seed, specials);
                    scalar_round_trips::<<$config as ark_ec::CurveConfig>::ScalarField>(n, seed);
                }
            )*
        }
    };
}

round_trip_tests! {
    bn254_g1_round_trips, "bn254-g1" => ark_bn254::g1::Config;
    bn254_g2_round_trips, "bn254-g2" => ark_bn254::g2::Config;
    bls12_381_g1_round_trips, "bls12-381-g1" => ark_bls12_381::g1::Config;
    bls12_381_g2_round_trips, "bls12-381-g2" => ark_bls12_381::g2::Config;
    bls12_377_g1_round_trips, "bls12-377-g1" => ark_bls12_377::g1::Config;
    bls12_377_g2_round_trips, "bls12-377-g2" => ark_bls12_377::g2::Config;
    bw6_761_g1_round_trips, "bw6-761-g1" => ark_bw6_761::g1::Config;
    bw6_761_g2_round_trips, "bw6-761-g2" => ark_bw6_761::g2::Config;
    grumpkin_g1_round_trips, "grumpkin-g1" => ark_grumpkin::GrumpkinConfig;
    secp256k1_g1_round_trips, "secp256k1-g1" => ark_secp256k1::Config;
    secp256r1_g1_round_trips, "secp256r1-g1" => ark_secp256r1::Config;
    bls24_315_g1_round_trips, "bls24-315-g1" => multiexp::curves::bls24_315::g1::Config;
    bls24_315_g2_round_trips, "bls24-315-g2" => multiexp::curves::bls24_315::g2::Config;
    bls24_317_g1_round_trips, "bls24-317-g1" => multiexp::curves::bls24_317::g1::Config;
    bls24_317_g2_round_trips, "bls24-317-g2" => multiexp::curves::bls24_317::g2::Config;
    bw6_633_g1_round_trips, "bw6-633-g1" => multiexp::curves::bw6_633::g1::Config;
    bw6_633_g2_round_trips, "bw6-633-g2" => multiexp::curves::bw6_633::g2::Config;
    stark_curve_g1_round_trips, "stark-curve-g1" => multiexp::curves::stark_curve::g1::Config;
}

#[test]
fn every_catalogue_entry_has_a_round_trip_test() {
    let mut covered = COVERED.to_vec();
    let mut names = multiexp::curves::NAMES.to_vec();
    covered.sort_unstable();
    names.sort_unstable();
    assert_eq!(covered, names);
}

/// More points than one block and one vector group, so block boundaries and lane padding are
/// crossed, on the curves with IFMA kernels.
#[test]
fn long_inputs_round_trip_across_blocks() {
    fn check<P: SWCurveConfig>() {
        point_round_trips::<P>(1000, 7, 0x1234_5678);
    }
    check::<ark_bls12_381::g1::Config>();
    check::<ark_bls12_377::g1::Config>();
    check::<ark_bn254::g1::Config>();
    check::<ark_secp256r1::Config>();
}
