//! Inputs read in blocks (issue #16): a malformed input fails at its first bad element without
//! reading the rest, a binary length prefix that cannot match a known length fails before any
//! element is read, endless inputs (`/dev/zero`) fail after a block, and the streamed readers
//! agree with the in-memory ones across block boundaries, errors and their locations included.

use std::io::Read;

use ark_bn254::g1::Config as Bn254G1;
use ark_bn254::Fr;
use multiexp::input::{
    self, InputErrorKind as Kind, Location, PointFormat, PointOptions, ScalarFormat, ScalarOptions,
};

/// A reader over `head` then `tail` repeated to `total` bytes, counting what was read.
struct Counted<'a> {
    head: &'a [u8],
    tail: &'a [u8],
    total: u64,
    read: u64,
}

impl Read for Counted<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let mut k = 0;
        while k < buf.len() && self.read < self.total {
            let at = self.read as usize;
            buf[k] = if at < self.head.len() {
                self.head[at]
            } else {
                self.tail[(at - self.head.len()) % self.tail.len()]
            };
            k += 1;
            self.read += 1;
        }
        Ok(k)
    }
}

fn point_lines(n: usize) -> String {
    input::points_to_hex(&multiexp::unstable::sample::points::<Bn254G1>(n, 1))
}

#[test]
fn a_malformed_file_fails_at_its_first_bad_line_without_reading_the_rest() {
    let good = point_lines(2);
    let head = format!("{good}not hex\n");
    let line = good.lines().next().unwrap().to_string() + "\n";
    let mut reader = Counted {
        head: head.as_bytes(),
        tail: line.as_bytes(),
        total: 1 << 30,
        read: 0,
    };
    let err = input::points_from_reader::<Bn254G1, _>(
        "big.hex",
        &mut reader,
        None,
        PointFormat::Hex,
        &PointOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err.location, Location::Line(3));
    assert!(
        reader.read <= 4 << 20,
        "read {} bytes of 1 GiB",
        reader.read
    );
}

#[test]
fn a_length_prefix_that_cannot_match_the_length_fails_before_any_element_is_read() {
    let prefix = (1u64 << 60).to_le_bytes();
    let mut reader = Counted {
        head: &prefix,
        tail: &[0],
        total: 1 << 30,
        read: 0,
    };
    let err = input::points_from_reader::<Bn254G1, _>(
        "garbage.bin",
        &mut reader,
        Some(1 << 30),
        PointFormat::Binary,
        &PointOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err.kind, Kind::Truncated { count, .. } if count == 1 << 60),
        "{err}"
    );
    assert_eq!(reader.read, 8);
}

#[test]
fn endless_inputs_fail_after_a_block() {
    let zero = || std::io::repeat(0).take(u64::MAX);
    let options = PointOptions::default();
    let hex = input::points_from_reader::<Bn254G1, _>(
        "/dev/zero",
        zero(),
        None,
        PointFormat::Hex,
        &options,
    )
    .unwrap_err();
    assert_eq!(hex.location, Location::Line(1));
    assert!(matches!(hex.kind, Kind::LineTooLong { .. }), "{hex}");
    for format in [PointFormat::Binary, PointFormat::BinaryCompressed] {
        let err =
            input::points_from_reader::<Bn254G1, _>("/dev/zero", zero(), None, format, &options)
                .unwrap_err();
        let goes_on = Kind::TrailingBytes {
            count: 0,
            expected: 8,
            found: u64::MAX,
        };
        assert_eq!(err.kind, goes_on, "{format:?}");
        assert!(err.to_string().contains("goes on past them"), "{err}");
    }
    let scalars = input::scalars_from_reader::<Fr, _>(
        "/dev/zero",
        zero(),
        None,
        ScalarFormat::Binary,
        &ScalarOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            scalars.kind,
            Kind::TrailingBytes {
                found: u64::MAX,
                ..
            }
        ),
        "{scalars}"
    );
}

#[test]
fn streamed_and_in_memory_readers_agree_across_blocks() {
    // 70,000 BN254 points: 4.5 MB of hex lines, 4.5 MB of uncompressed binary, over one block.
    let n = 70_000;
    let points = multiexp::unstable::sample::points::<Bn254G1>(n, 2);
    let scalars = multiexp::unstable::sample::scalars::<Fr>(n, 2);
    let options = PointOptions::default();
    let hex = input::points_to_hex(&points);
    let streamed = |bytes: &[u8], length, format| {
        input::points_from_reader::<Bn254G1, _>("p", bytes, length, format, &options)
    };
    assert_eq!(
        streamed(hex.as_bytes(), None, PointFormat::Hex).unwrap(),
        points
    );
    let bin = input::points_to_binary(&points, false);
    for length in [None, Some(bin.len() as u64)] {
        for format in [PointFormat::Binary, PointFormat::BinaryUncompressed] {
            assert_eq!(
                streamed(&bin, length, format).unwrap(),
                points,
                "{format:?}"
            );
        }
    }
    let s_hex = input::scalars_to_hex(&scalars, input::Endianness::Big);
    let s_read = input::scalars_from_reader::<Fr, _>(
        "s",
        s_hex.as_bytes(),
        None,
        ScalarFormat::Hex,
        &ScalarOptions::default(),
    );
    assert_eq!(s_read.unwrap(), scalars);
    let s_bin = input::scalars_to_binary(&scalars);
    let s_read = input::scalars_from_reader::<Fr, _>(
        "s",
        &s_bin[..],
        Some(s_bin.len() as u64),
        ScalarFormat::Binary,
        &ScalarOptions::default(),
    );
    assert_eq!(s_read.unwrap(), scalars);

    // A bad line in the second block, a bad record in the second block, a truncated and an
    // over-long stream: the same error as the in-memory reader gives.
    let mut lines: Vec<&str> = hex.lines().collect();
    lines[66_000] = "12";
    let bad_hex = lines.join("\n");
    let mut bad_bin = bin.clone();
    let at = 8 + 66_001 * 64;
    bad_bin[at..at + 64].fill(0);
    let cases: Vec<(Vec<u8>, PointFormat)> = vec![
        (bad_hex.into_bytes(), PointFormat::Hex),
        (bad_bin.clone(), PointFormat::BinaryUncompressed),
        (
            bin[..bin.len() - 10].to_vec(),
            PointFormat::BinaryUncompressed,
        ),
        (
            [&bin[..], &[0u8; 3]].concat(),
            PointFormat::BinaryUncompressed,
        ),
        (bin[..bin.len() - 64].to_vec(), PointFormat::Binary),
    ];
    for (bytes, format) in cases {
        let whole = input::points_from::<Bn254G1>("p", &bytes, format, &options).unwrap_err();
        for length in [None, Some(bytes.len() as u64)] {
            let err = streamed(&bytes, length, format).unwrap_err();
            assert_eq!(err, whole, "{format:?} length {length:?}");
        }
    }
}

#[test]
fn files_that_cannot_be_read_say_so() {
    let missing = std::path::Path::new("/nonexistent/points.hex");
    let err =
        input::points_from_file::<Bn254G1>(missing, PointFormat::Hex, &PointOptions::default())
            .unwrap_err();
    assert!(matches!(err.kind, Kind::Unreadable { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("/nonexistent/points.hex: cannot read:"),
        "{err}"
    );
    let dir = std::env::temp_dir();
    let err = input::scalars_from_file::<Fr>(&dir, ScalarFormat::Hex, &ScalarOptions::default())
        .unwrap_err();
    assert!(err.to_string().contains("is a directory"), "{err}");
}

/// A valid binary file too large for the machine: formerly read until the allocator aborted.
#[test]
fn a_binary_input_larger_than_memory_is_refused_before_it_is_read() {
    let count = 1u64 << 40;
    let prefix = count.to_le_bytes();
    let mut reader = Counted {
        head: &prefix,
        tail: &[0],
        total: u64::MAX,
        read: 0,
    };
    let err = input::points_from_reader::<Bn254G1, _>(
        "huge.bin",
        &mut reader,
        Some(8 + 64 * count),
        PointFormat::BinaryUncompressed,
        &PointOptions::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err.kind, Kind::TooLarge { count: c, .. } if c == count),
        "{err}"
    );
    assert!(err.to_string().contains("bytes available"), "{err}");
    assert_eq!(reader.read, 8);
}
