//! Fuzz harness bodies, shared by the cargo-fuzz targets (`fuzz_targets/`) and the stable
//! regression test that replays the committed corpus
//! (`crates/multiexp/tests/suite/fuzz_regressions.rs`).
//!
//! Input layout: byte 0 picks the curve/group (index into the catalogue, mod 18), byte 1 the
//! options (bit 0: no subgroup check; bit 1: little-endian hex scalars; bit 2: reduce
//! scalars; bits 3-4: binary point mode auto/compressed/uncompressed), the rest is the file.
//!
//! Properties, beyond "no panic, `Ok` or a typed `InputError`":
//! - the IFMA kernels and arkworks arithmetic give the same answer (`Ok` values and errors);
//! - canonical only: whatever is accepted is re-encoded to exactly the input's elements (for
//!   hex: its element lines, lower-cased, without `0x`; for binary: the bytes);
//! - the error location is inside the input;
//! - accepted binary points are accepted by arkworks' own `CanonicalDeserialize` with
//!   validation, to the same points.

#![allow(dead_code)]

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_serialize::{CanonicalDeserialize, Compress, Validate};
use multiexp::curves::{CurveSpec, CurveVisitor};
use multiexp::input::{
    self, Endianness, InputError, Location, PointFormat, PointOptions, ScalarFormat, ScalarOptions,
};
use multiexp::Ifma;

/// The options and file of one fuzz input.
struct Case<'a> {
    curve: &'static str,
    flags: u8,
    file: &'a [u8],
}

impl<'a> Case<'a> {
    fn of(data: &'a [u8]) -> Option<Self> {
        let (&curve, rest) = data.split_first()?;
        let (&flags, file) = rest.split_first()?;
        let names = multiexp::curves::NAMES;
        Some(Case {
            curve: names[curve as usize % names.len()],
            flags,
            file,
        })
    }

    /// With `vector_kernels`, the IFMA kernels natively where the CPU has them, else on
    /// their emulation (so the comparison with arkworks arithmetic runs on every CPU).
    fn point_options(&self, vector_kernels: bool) -> PointOptions {
        let ifma = match vector_kernels {
            true if multiexp::unstable::ifma_available() => Ifma::Auto,
            true => Ifma::Emulated,
            false => Ifma::Off,
        };
        PointOptions {
            subgroup_check: self.flags & 1 == 0,
            ifma,
        }
    }

    fn scalar_options(&self) -> ScalarOptions {
        ScalarOptions {
            endianness: if self.flags & 2 != 0 {
                Endianness::Little
            } else {
                Endianness::Big
            },
            reduce: self.flags & 4 != 0,
        }
    }

    fn binary_mode(&self) -> PointFormat {
        match (self.flags >> 3) & 3 {
            1 => PointFormat::BinaryCompressed,
            2 => PointFormat::BinaryUncompressed,
            _ => PointFormat::Binary,
        }
    }
}

/// The element lines of a hex input as the writers write them.
fn normalised_hex(file: &[u8]) -> String {
    let mut out = String::new();
    for line in file.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let body = line.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\x0b' | '\x0c'));
        if body.is_empty() || body.starts_with('#') {
            continue;
        }
        let body = body
            .strip_prefix("0x")
            .or_else(|| body.strip_prefix("0X"))
            .unwrap_or(body);
        out.push_str(&body.to_ascii_lowercase());
        out.push('\n');
    }
    out
}

fn check_location(error: &InputError, file: &[u8]) {
    match error.location {
        Location::Line(line) => {
            let lines = file.iter().filter(|&&b| b == b'\n').count() + 1;
            assert!(line >= 1 && line <= lines, "{error}");
        }
        Location::Byte(offset) => assert!(offset <= file.len() as u64, "{error}"),
        Location::Whole => {}
    }
}

struct PointsHex<'a>(&'a Case<'a>);

impl CurveVisitor for PointsHex<'_> {
    type Output = ();
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) {
        let case = self.0;
        let fast = input::points_from_hex::<P>("fuzz", case.file, &case.point_options(true));
        let plain = input::points_from_hex::<P>("fuzz", case.file, &case.point_options(false));
        assert_eq!(fast, plain, "IFMA and arkworks arithmetic disagree");
        match fast {
            Ok(points) => assert_eq!(input::points_to_hex(&points), normalised_hex(case.file)),
            Err(e) => check_location(&e, case.file),
        }
    }
}

struct PointsBinary<'a>(&'a Case<'a>);

impl CurveVisitor for PointsBinary<'_> {
    type Output = ();
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) {
        let case = self.0;
        let mode = case.binary_mode();
        let fast = input::points_from::<P>("fuzz", case.file, mode, &case.point_options(true));
        let plain = input::points_from::<P>("fuzz", case.file, mode, &case.point_options(false));
        assert_eq!(fast, plain, "IFMA and arkworks arithmetic disagree");
        match fast {
            Ok(points) => {
                let compressed = input::points_to_binary(&points, true);
                let compress = if compressed == case.file {
                    Compress::Yes
                } else {
                    assert_eq!(input::points_to_binary(&points, false), case.file);
                    Compress::No
                };
                let validate = if case.flags & 1 == 0 {
                    Validate::Yes
                } else {
                    Validate::No
                };
                let ark = Vec::<Affine<P>>::deserialize_with_mode(case.file, compress, validate);
                assert_eq!(ark.ok(), Some(points), "arkworks reads it differently");
            }
            Err(e) => check_location(&e, case.file),
        }
    }
}

struct Scalars<'a>(&'a Case<'a>, ScalarFormat);

impl CurveVisitor for Scalars<'_> {
    type Output = ();
    fn visit<P: SWCurveConfig>(self, _: &CurveSpec) {
        let (case, format) = (self.0, self.1);
        let options = case.scalar_options();
        match input::scalars_from::<P::ScalarField>("fuzz", case.file, format, &options) {
            Ok(scalars) if !options.reduce => match format {
                ScalarFormat::Hex => assert_eq!(
                    input::scalars_to_hex(&scalars, options.endianness),
                    normalised_hex(case.file)
                ),
                ScalarFormat::Binary => {
                    assert_eq!(input::scalars_to_binary(&scalars), case.file)
                }
            },
            Ok(_) => {}
            Err(e) => check_location(&e, case.file),
        }
    }
}

fn visit<V: CurveVisitor<Output = ()>>(case: &Case<'_>, visitor: V) {
    multiexp::curves::visit(case.curve, visitor).expect("a catalogue name");
}

/// Hex points.
pub fn points_hex(data: &[u8]) {
    if let Some(case) = Case::of(data) {
        visit(&case, PointsHex(&case));
    }
}

/// Binary points.
pub fn points_binary(data: &[u8]) {
    if let Some(case) = Case::of(data) {
        visit(&case, PointsBinary(&case));
    }
}

/// Hex scalars.
pub fn scalars_hex(data: &[u8]) {
    if let Some(case) = Case::of(data) {
        visit(&case, Scalars(&case, ScalarFormat::Hex));
    }
}

/// Binary scalars.
pub fn scalars_binary(data: &[u8]) {
    if let Some(case) = Case::of(data) {
        visit(&case, Scalars(&case, ScalarFormat::Binary));
    }
}

/// A fuzz target's body.
pub type Target = fn(&[u8]);

/// Every target by name, for the regression test.
pub const TARGETS: &[(&str, Target)] = &[
    ("points_hex", points_hex),
    ("points_binary", points_binary),
    ("scalars_hex", scalars_hex),
    ("scalars_binary", scalars_binary),
];
