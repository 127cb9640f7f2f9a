//! The malformed-input matrix: every kind of bad input, each with the exact error kind and
//! location (line, byte offset, or the input as a whole) it must produce.

use ark_bls12_381::g1::Config as Bls381G1;
use ark_bn254::g1::Config as Bn254G1;
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{Field, PrimeField};
use multiexp::input::{
    self, FlagProblem, InputError, InputErrorKind as Kind, Location, PointEncoding, PointOptions,
    ScalarOptions,
};
use multiexp::Ifma;

/// Where the IFMA kernels run: natively where the CPU has them, not at all, emulated.
const IFMA_MODES: [Ifma; 3] = [Ifma::Auto, Ifma::Off, Ifma::Emulated];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Valid hex lines of `P`'s points.
fn good_lines<P: SWCurveConfig>(n: usize) -> Vec<String> {
    let points = multiexp::unstable::sample::points::<P>(n, 3);
    input::points_to_hex(&points)
        .lines()
        .map(str::to_string)
        .collect()
}

fn hex_points<P: SWCurveConfig>(lines: &[String], options: &PointOptions) -> InputError {
    let text = lines.join("\n");
    input::points_from_hex::<P>("points.hex", text.as_bytes(), options)
        .expect_err("the input is malformed")
}

fn assert_error(err: &InputError, location: Location, kind: Kind) {
    assert_eq!((err.location, &err.kind), (location, &kind), "{err}");
}

/// Replaces line `k` (0-based) of valid lines with `bad`; the error must be at line k + 1.
fn with_bad_line<P: SWCurveConfig>(k: usize, bad: String) -> InputError {
    let mut lines = good_lines::<P>(5);
    lines[k] = bad;
    hex_points::<P>(&lines, &PointOptions::default())
}

fn modulus_be<F: PrimeField>(bytes: usize) -> Vec<u8> {
    let mut le: Vec<u8> = F::MODULUS
        .as_ref()
        .iter()
        .flat_map(|l| l.to_le_bytes())
        .collect();
    le.resize(bytes, 0);
    le.reverse();
    le
}

/// An x of BLS12-381 with no curve point: x³ + 4 is not a square.
fn x_off_curve() -> ark_bls12_381::Fq {
    (1u64..)
        .map(ark_bls12_381::Fq::from)
        .find(|x| {
            (x.square() * x + ark_bls12_381::Fq::from(4u64))
                .sqrt()
                .is_none()
        })
        .unwrap()
}

/// A BLS12-381 G1 curve point outside G1: (0, 2) has order 3.
fn order_three_point() -> Affine<Bls381G1> {
    let p = Affine::<Bls381G1>::new_unchecked(ark_bls12_381::Fq::from(0u64), 2u64.into());
    assert!(p.is_on_curve() && !p.is_in_correct_subgroup_assuming_on_curve());
    p
}

/// A BLS12-381 G1 curve point outside G1 of large order.
fn random_outside_point() -> Affine<Bls381G1> {
    (5u64..)
        .filter_map(|x| Affine::<Bls381G1>::get_point_from_x_unchecked(x.into(), true))
        .find(|p| !p.is_in_correct_subgroup_assuming_on_curve())
        .unwrap()
}

fn zcash_hex(p: &Affine<Bls381G1>) -> String {
    hex(&input::encode_point(p, PointEncoding::Zcash, true))
}

#[test]
fn empty_inputs_are_rejected_as_a_whole() {
    for text in ["", "\n\n", "# only a comment\n  \n\t\n"] {
        let err = input::points_from_hex::<Bls381G1>(
            "points.hex",
            text.as_bytes(),
            &PointOptions::default(),
        )
        .unwrap_err();
        assert_error(&err, Location::Whole, Kind::Empty);
        let err = input::scalars_from_hex::<ark_bls12_381::Fr>(
            "s.hex",
            text.as_bytes(),
            &ScalarOptions::default(),
        )
        .unwrap_err();
        assert_error(&err, Location::Whole, Kind::Empty);
    }
    let err = input::points_from_binary::<Bls381G1>(
        "p.bin",
        &0u64.to_le_bytes(),
        None,
        &PointOptions::default(),
    )
    .unwrap_err();
    assert_error(&err, Location::Whole, Kind::Empty);
    assert_eq!(
        err.to_string(),
        "p.bin: no elements (empty, or only blank lines and comments)"
    );
}

#[test]
fn odd_hex_reports_the_line_and_digit_count() {
    let good = &good_lines::<Bls381G1>(1)[0];
    let err = with_bad_line::<Bls381G1>(1, good[..95].to_string());
    assert_error(&err, Location::Line(2), Kind::OddHexDigits { digits: 95 });
    assert_eq!(
        err.to_string(),
        "points.hex:2: odd number of hex digits (95)"
    );
}

#[test]
fn wrong_line_length_reports_expected_and_found_bytes() {
    let good = &good_lines::<Bls381G1>(1)[0];
    let err = with_bad_line::<Bls381G1>(2, format!("0x{}", &good[..94]));
    assert_error(
        &err,
        Location::Line(3),
        Kind::WrongLength {
            expected: 48,
            found: 47,
        },
    );
    let err = with_bad_line::<Bls381G1>(0, format!("{good}00"));
    assert_error(
        &err,
        Location::Line(1),
        Kind::WrongLength {
            expected: 48,
            found: 49,
        },
    );
    // An uncompressed point on a hex line is the wrong length too.
    let p = multiexp::unstable::sample::points::<Bls381G1>(1, 1)[0];
    let err = with_bad_line::<Bls381G1>(
        4,
        hex(&input::encode_point(&p, PointEncoding::Zcash, false)),
    );
    assert_error(
        &err,
        Location::Line(5),
        Kind::WrongLength {
            expected: 48,
            found: 96,
        },
    );
}

#[test]
fn invalid_hex_digit_reports_its_column() {
    let good = &good_lines::<Bls381G1>(1)[0];
    let mut bad = good.clone();
    bad.replace_range(10..11, "g");
    let err = with_bad_line::<Bls381G1>(3, format!("  0x{bad}"));
    assert_error(
        &err,
        Location::Line(4),
        Kind::InvalidHexDigit {
            column: 15,
            found: b'g',
        },
    );
    assert_eq!(
        err.to_string(),
        "points.hex:4: column 15: 'g' is not a hex digit"
    );
}

#[test]
fn zcash_flag_bits_are_checked() {
    let good = &good_lines::<Bls381G1>(1)[0];
    let mut bytes = unhex(good);
    bytes[0] &= 0x7f;
    let err = with_bad_line::<Bls381G1>(1, hex(&bytes));
    let problem = FlagProblem::CompressionBitClear;
    assert_error(&err, Location::Line(2), Kind::InvalidFlags { problem });

    let mut infinity = vec![0u8; 48];
    infinity[0] = 0xe0;
    let err = with_bad_line::<Bls381G1>(2, hex(&infinity));
    let problem = FlagProblem::SignWithInfinity;
    assert_error(&err, Location::Line(3), Kind::InvalidFlags { problem });
}

#[test]
fn infinity_with_coordinate_bits_is_not_canonical() {
    let mut infinity = vec![0u8; 48];
    infinity[0] = 0xc0;
    infinity[47] = 1;
    let err = with_bad_line::<Bls381G1>(0, hex(&infinity));
    assert_error(&err, Location::Line(1), Kind::NonCanonicalInfinity);
    infinity[47] = 0;
    infinity[0] = 0xc1;
    let err = with_bad_line::<Bls381G1>(0, hex(&infinity));
    assert_error(&err, Location::Line(1), Kind::NonCanonicalInfinity);
    // The canonical infinity is accepted.
    infinity[0] = 0xc0;
    let text = hex(&infinity);
    let points = input::points_from_hex::<Bls381G1>("p", text.as_bytes(), &PointOptions::default());
    assert_eq!(points, Ok(vec![Affine::identity()]));
}

#[test]
fn coordinates_at_or_above_p_are_not_canonical() {
    let mut x = modulus_be::<ark_bls12_381::Fq>(48);
    x[0] |= 0x80;
    let err = with_bad_line::<Bls381G1>(1, hex(&x));
    assert_error(
        &err,
        Location::Line(2),
        Kind::NonCanonicalField { coordinate: "x" },
    );
    let mut top = vec![0xffu8; 48];
    top[0] = 0x9f;
    let err = with_bad_line::<Bls381G1>(1, hex(&top));
    assert_error(
        &err,
        Location::Line(2),
        Kind::NonCanonicalField { coordinate: "x" },
    );
}

#[test]
fn x_without_a_curve_point_is_not_on_the_curve() {
    for ifma in IFMA_MODES {
        let options = PointOptions {
            ifma,
            ..PointOptions::default()
        };
        let x = x_off_curve();
        let big = x.into_bigint();
        let mut bytes: Vec<u8> = big
            .as_ref()
            .iter()
            .rev()
            .flat_map(|l| l.to_be_bytes())
            .collect();
        bytes[0] |= 0x80;
        let mut lines = good_lines::<Bls381G1>(20);
        lines[13] = hex(&bytes);
        let err = hex_points::<Bls381G1>(&lines, &options);
        assert_error(&err, Location::Line(14), Kind::NotOnCurve);
    }
}

#[test]
fn points_outside_the_subgroup_are_rejected_unless_unchecked() {
    for outside in [order_three_point(), random_outside_point()] {
        for ifma in IFMA_MODES {
            let mut lines = good_lines::<Bls381G1>(20);
            lines[9] = zcash_hex(&outside);
            let options = PointOptions {
                ifma,
                ..PointOptions::default()
            };
            let err = hex_points::<Bls381G1>(&lines, &options);
            assert_error(&err, Location::Line(10), Kind::NotInSubgroup);
            let unchecked = PointOptions {
                subgroup_check: false,
                ifma,
            };
            let text = lines.join("\n");
            let points =
                input::points_from_hex::<Bls381G1>("p", text.as_bytes(), &unchecked).unwrap();
            assert_eq!(points[9], outside);
        }
    }
}

#[test]
fn the_first_bad_element_is_reported_whatever_stage_finds_it() {
    // Line 4 fails the subgroup test (last stage), line 6 fails hex decoding (first stage).
    let mut lines = good_lines::<Bls381G1>(8);
    lines[3] = zcash_hex(&random_outside_point());
    lines[5] = "zz".into();
    let err = hex_points::<Bls381G1>(&lines, &PointOptions::default());
    assert_error(&err, Location::Line(4), Kind::NotInSubgroup);
    // Across blocks of the parallel pass: elements 300 and 700 are bad.
    let mut lines = good_lines::<Bls381G1>(1000);
    lines[700] = "00".into();
    lines[300] = zcash_hex(&order_three_point());
    let err = hex_points::<Bls381G1>(&lines, &PointOptions::default());
    assert_error(&err, Location::Line(301), Kind::NotInSubgroup);
    // Comments and blank lines count as lines.
    let mut lines = good_lines::<Bls381G1>(3);
    lines.insert(0, "# setup".into());
    lines.insert(2, String::new());
    lines[4] = "0x".into();
    let err = hex_points::<Bls381G1>(&lines, &PointOptions::default());
    assert_error(
        &err,
        Location::Line(5),
        Kind::WrongLength {
            expected: 48,
            found: 0,
        },
    );
}

#[test]
fn arkworks_flag_bits_and_infinity_are_checked() {
    let good = &good_lines::<Bn254G1>(1)[0];
    let mut bytes = unhex(good);
    bytes[31] |= 0xc0;
    let err = with_bad_line::<Bn254G1>(1, hex(&bytes));
    let problem = FlagProblem::SignWithInfinity;
    assert_error(&err, Location::Line(2), Kind::InvalidFlags { problem });
    let mut infinity = vec![0u8; 32];
    infinity[31] = 0x40;
    infinity[0] = 1;
    let err = with_bad_line::<Bn254G1>(2, hex(&infinity));
    assert_error(&err, Location::Line(3), Kind::NonCanonicalInfinity);
    // x = p.
    let mut p: Vec<u8> = modulus_be::<ark_bn254::Fq>(32);
    p.reverse();
    let err = with_bad_line::<Bn254G1>(3, hex(&p));
    assert_error(
        &err,
        Location::Line(4),
        Kind::NonCanonicalField { coordinate: "x" },
    );
}

#[test]
fn unused_bits_of_an_extra_flag_byte_must_be_zero() {
    // secp256k1 coordinates fill 32 bytes, so arkworks adds a 33rd byte for the flags.
    type K1 = ark_secp256k1::Config;
    let good = &good_lines::<K1>(1)[0];
    assert_eq!(good.len(), 66);
    let mut bytes = unhex(good);
    bytes[32] |= 0x01;
    let err = with_bad_line::<K1>(0, hex(&bytes));
    assert_error(
        &err,
        Location::Line(1),
        Kind::NonCanonicalField { coordinate: "x" },
    );
}

fn uncompressed_file(points: &[Affine<Bls381G1>]) -> Vec<u8> {
    input::points_to_binary(points, false)
}

fn binary_points(bytes: &[u8], compressed: Option<bool>) -> InputError {
    input::points_from_binary::<Bls381G1>("points.bin", bytes, compressed, &PointOptions::default())
        .expect_err("the input is malformed")
}

#[test]
fn binary_length_errors_name_the_byte_offset() {
    let points = multiexp::unstable::sample::points::<Bls381G1>(3, 1);
    let file = uncompressed_file(&points);
    assert_eq!(file.len(), 8 + 3 * 96);
    let err = binary_points(&file[..5], None);
    assert_error(
        &err,
        Location::Byte(0),
        Kind::Truncated {
            count: 0,
            expected: 8,
            found: 5,
        },
    );
    let err = binary_points(&file[..8 + 2 * 96 + 50], Some(false));
    let (expected, found) = (8 + 3 * 96, 8 + 2 * 96 + 50);
    assert_error(
        &err,
        Location::Byte(8 + 2 * 96),
        Kind::Truncated {
            count: 3,
            expected,
            found,
        },
    );
    assert_eq!(
        err.to_string(),
        "points.bin: byte 200: truncated: the length prefix announces 3 elements (296 bytes), \
         the input has 250 bytes"
    );
    let mut long = file.clone();
    long.extend_from_slice(&[0, 0, 0]);
    let err = binary_points(&long, None);
    let (expected, found) = (296, 299);
    assert_error(
        &err,
        Location::Byte(296),
        Kind::TrailingBytes {
            count: 3,
            expected,
            found,
        },
    );
    // A length prefix far beyond the input is an error, not an allocation.
    let mut huge = file.clone();
    huge[..8].copy_from_slice(&(1u64 << 62).to_le_bytes());
    let err = binary_points(&huge, Some(true));
    assert!(matches!(err.kind, Kind::Truncated { .. }), "{err}");
    // Auto-detection: a compressed file's length, read as compressed.
    let compressed = input::points_to_binary(&points, true);
    let back =
        input::points_from_binary::<Bls381G1>("p", &compressed, None, &PointOptions::default());
    assert_eq!(back, Ok(points.clone()));
    // Forced uncompressed on a compressed file is a length error.
    let err = binary_points(&compressed, Some(false));
    assert!(matches!(err.kind, Kind::Truncated { .. }), "{err}");
}

#[test]
fn binary_point_flags_and_curve_are_checked_at_the_record_offset() {
    let points = multiexp::unstable::sample::points::<Bls381G1>(3, 1);
    let mut file = uncompressed_file(&points);
    file[8 + 96] |= 0x80;
    let err = binary_points(&file, None);
    let problem = FlagProblem::CompressionBitSet;
    assert_error(&err, Location::Byte(8 + 96), Kind::InvalidFlags { problem });

    let mut file = uncompressed_file(&points);
    file[8 + 2 * 96] |= 0x20;
    let err = binary_points(&file, None);
    let problem = FlagProblem::SignOnUncompressed;
    assert_error(
        &err,
        Location::Byte(8 + 2 * 96),
        Kind::InvalidFlags { problem },
    );

    let mut file = uncompressed_file(&points);
    file[8 + 96 + 95] ^= 1;
    let err = binary_points(&file, None);
    assert_error(&err, Location::Byte(8 + 96), Kind::NotOnCurve);

    let mut file = uncompressed_file(&points);
    file[8 + 48..8 + 96].copy_from_slice(&modulus_be::<ark_bls12_381::Fq>(48));
    let err = binary_points(&file, None);
    assert_error(
        &err,
        Location::Byte(8),
        Kind::NonCanonicalField { coordinate: "y" },
    );

    let mut file = uncompressed_file(&[points[0], order_three_point()]);
    let err = binary_points(&file, None);
    assert_error(&err, Location::Byte(8 + 96), Kind::NotInSubgroup);
    file[8 + 96] |= 0x40;
    let err = binary_points(&file, None);
    assert_error(&err, Location::Byte(8 + 96), Kind::NonCanonicalInfinity);
}

#[test]
fn zero_coordinates_without_the_infinity_flag_are_not_on_the_curve() {
    // arkworks holds the identity as (0, 0); as coordinates it is no curve point.
    fn check<P: SWCurveConfig>(encoding: PointEncoding) {
        let size = input::point_size::<P>(encoding, false);
        let mut file = 1u64.to_le_bytes().to_vec();
        file.resize(8 + size, 0);
        for ifma in IFMA_MODES {
            let options = PointOptions {
                ifma,
                ..PointOptions::default()
            };
            let err =
                input::points_from_binary::<P>("p.bin", &file, Some(false), &options).unwrap_err();
            assert_error(&err, Location::Byte(8), Kind::NotOnCurve);
        }
    }
    check::<ark_grumpkin::GrumpkinConfig>(PointEncoding::Arkworks);
    check::<Bn254G1>(PointEncoding::Arkworks);
    check::<Bls381G1>(PointEncoding::Zcash);
    check::<ark_bn254::g2::Config>(PointEncoding::Arkworks);
}

#[test]
fn arkworks_uncompressed_sign_bit_must_match_y() {
    let points = multiexp::unstable::sample::points::<Bn254G1>(2, 1);
    let mut file = input::points_to_binary(&points, false);
    assert_eq!(file.len(), 8 + 2 * 64);
    file[8 + 64 + 63] ^= 0x80;
    let err = input::points_from_binary::<Bn254G1>("p.bin", &file, None, &PointOptions::default())
        .unwrap_err();
    let problem = FlagProblem::SignMismatch;
    assert_error(&err, Location::Byte(8 + 64), Kind::InvalidFlags { problem });
}

#[test]
fn scalars_at_or_above_r_are_rejected_or_reduced() {
    type Fr = ark_bls12_381::Fr;
    let r = hex(&modulus_be::<Fr>(32));
    let text = format!("{}\n{}\n", "00".repeat(32), r);
    let err = input::scalars_from_hex::<Fr>("s.hex", text.as_bytes(), &ScalarOptions::default())
        .unwrap_err();
    assert_error(&err, Location::Line(2), Kind::ScalarOutOfRange);
    let reduce = ScalarOptions {
        reduce: true,
        ..ScalarOptions::default()
    };
    let all_ones = "ff".repeat(32);
    let reduced = input::scalars_from_hex::<Fr>("s.hex", all_ones.as_bytes(), &reduce).unwrap();
    assert_eq!(reduced, vec![Fr::from_be_bytes_mod_order(&[0xff; 32])]);
    let err =
        input::scalars_from_hex::<Fr>("s.hex", b"00ff", &ScalarOptions::default()).unwrap_err();
    assert_error(
        &err,
        Location::Line(1),
        Kind::WrongLength {
            expected: 32,
            found: 2,
        },
    );

    let mut file = input::scalars_to_binary(&[Fr::from(1u64), Fr::from(2u64)]);
    file[8 + 32..].copy_from_slice(&[0xff; 32]);
    let err =
        input::scalars_from_binary::<Fr>("s.bin", &file, &ScalarOptions::default()).unwrap_err();
    assert_error(&err, Location::Byte(40), Kind::ScalarOutOfRange);
    let err = input::scalars_from_binary::<Fr>("s.bin", &file[..60], &ScalarOptions::default())
        .unwrap_err();
    assert_error(
        &err,
        Location::Byte(40),
        Kind::Truncated {
            count: 2,
            expected: 72,
            found: 60,
        },
    );
}

#[test]
fn count_mismatch_names_both_inputs() {
    let err = input::check_counts("points.hex", 4096, "scalars.hex", 4095).unwrap_err();
    let kind = Kind::CountMismatch {
        points_input: "points.hex".into(),
        points: 4096,
        scalars: 4095,
    };
    assert_error(&err, Location::Whole, kind);
    assert_eq!(err.input, "scalars.hex");
    assert_eq!(
        err.to_string(),
        "scalars.hex: 4095 scalars, but points.hex holds 4096 points"
    );
    assert!(input::check_counts("p", 3, "s", 3).is_ok());
}

#[test]
fn standard_encoding_matches_the_eip4844_generator_line() {
    // The BLS12-381 G1 generator as the trusted setup and the IETF draft write it.
    let g = "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
    let generator = Affine::<Bls381G1>::generator();
    assert_eq!(input::point_to_hex(&generator), g);
    assert_eq!(&input::point_to_hex(&-generator)[..2], "b7");
    assert_eq!(
        input::point_to_hex(&Affine::<Bls381G1>::identity()),
        format!("c0{}", "00".repeat(47))
    );
}

/// Formerly a length prefix of 2^60 (or 8 bytes of garbage) said "announces
/// 18446744073709551615 bytes": the byte count saturated and the prefix was not shown.
#[test]
fn a_huge_or_garbage_length_prefix_says_what_it_announces() {
    let points = multiexp::unstable::sample::points::<Bls381G1>(3, 1);
    let mut file = uncompressed_file(&points);
    file[..8].copy_from_slice(&(1u64 << 60).to_le_bytes());
    let err = binary_points(&file, None);
    let message = err.to_string();
    assert!(
        message.contains("announces 1152921504606846976 elements (2^64 bytes or more)"),
        "{message}"
    );
    assert!(!message.contains("18446744073709551615"), "{message}");
    file[..8].copy_from_slice(b"garbage!");
    let count = u64::from_le_bytes(*b"garbage!");
    let message = binary_points(&file, None).to_string();
    assert!(
        message.contains(&format!("announces {count} elements")),
        "{message}"
    );
}

/// Formerly a prefix of 7 over 8 compressed points said "truncated … 456 bytes": the fault
/// is one element too many, trailing bytes.
#[test]
fn a_prefix_one_short_of_its_points_reports_trailing_bytes() {
    let points = multiexp::unstable::sample::points::<Bls381G1>(8, 1);
    let mut file = input::points_to_binary(&points, true);
    file[..8].copy_from_slice(&7u64.to_le_bytes());
    let err = binary_points(&file, None);
    let (expected, found) = (8 + 7 * 48, 8 + 8 * 48);
    assert_error(
        &err,
        Location::Byte(expected),
        Kind::TrailingBytes {
            count: 7,
            expected,
            found,
        },
    );
    assert!(
        err.to_string().contains("(48 after the last element)"),
        "{err}"
    );
    // The same on an uncompressed file.
    let mut file = uncompressed_file(&points);
    file[..8].copy_from_slice(&7u64.to_le_bytes());
    let err = binary_points(&file, None);
    assert!(
        matches!(err.kind, Kind::TrailingBytes { count: 7, .. }),
        "{err}"
    );
}

/// Formerly a hex file saved with a UTF-8 byte-order mark failed with "odd number of hex
/// digits" on line 1; the mark is now skipped.
#[test]
fn a_utf8_byte_order_mark_is_skipped() {
    let points = multiexp::unstable::sample::points::<Bls381G1>(3, 1);
    let text = input::points_to_hex(&points);
    let mut with_bom = b"\xEF\xBB\xBF".to_vec();
    with_bom.extend_from_slice(text.as_bytes());
    let back = input::points_from_hex::<Bls381G1>("p.hex", &with_bom, &PointOptions::default());
    assert_eq!(back, Ok(points));
}
