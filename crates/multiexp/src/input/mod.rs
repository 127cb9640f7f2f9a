//! Checked constructors of MSM inputs from bytes: points and scalars in hex lines or arkworks
//! binary, every element validated, and the writers of the same formats.
//!
//! Contract: a `*_from_*` function returns every element of its input, or the error of the
//! lowest-index bad element, naming the input (the name the caller passes, a file name), the
//! line or byte offset, and what was expected ([`InputError`]); no input makes it panic, and
//! what it allocates is proportional to the input's length (a binary length prefix is checked
//! against the length before anything is allocated). Writing and reading back is the
//! identity, and the writers produce the only encoding the readers accept for each element.
//! The `*_from_reader` and `*_from_file` functions read in blocks of 4 MiB, each decoded and
//! checked before the next is read: a bad element ends the read at its block (a 1 GiB file
//! bad on line 1 costs one block), a line of over 4 MiB (a binary file read as hex,
//! `/dev/zero`) is an error, and a binary length prefix that does not match a file's length
//! is an error before any element is read. What they hold is the valid prefix plus a block.
//! The `*_from_hex`/`*_from_binary` functions take bytes already in memory. No printing.
//!
//! Formats:
//! - **hex lines** ([`points_from_hex`], [`scalars_from_hex`]): one element per line, an
//!   optional `0x`, blank lines and lines starting with `#` ignored. Points in the curve's
//!   standard compressed encoding ([`PointEncoding::standard`]): ZCash's for BLS12-381 and
//!   BLS12-377 (48 bytes for G1, as in the EIP-4844 trusted setup), arkworks' for the others.
//!   Scalars as big-endian integers of ⌈bits(r)/8⌉ bytes (32 for BLS12-381: the EIP-4844
//!   blob field-element layout), or little-endian on request.
//! - **arkworks binary** ([`points_from_binary`], [`scalars_from_binary`]): the bytes of
//!   `CanonicalSerialize` on `Vec<Affine>` / `Vec<Fr>`: a u64 little-endian count, then the
//!   elements, compressed or uncompressed ([`PointEncoding::binary`]); which one is read from
//!   the length when not given.
//!
//! Validation ([`PointOptions`]): canonical encodings only (coordinates below p, unused bits
//! zero, flags exactly as written, infinity as its one encoding); every point on the curve;
//! every point in the prime-order subgroup unless `subgroup_check` is off — which is unsafe
//! for untrusted input: an MSM over points outside the subgroup gives results an attacker can
//! steer. Scalars must be below r unless [`ScalarOptions::reduce`] asks for reduction mod r.
//!
//! Cost: one square root (about log p multiplications) per compressed point and one subgroup
//! test per point (see `subgroup.rs`); both run in parallel on the caller's rayon pool, eight
//! points per vector operation on CPUs with AVX-512 IFMA (`kernels.rs`; [`PointOptions::ifma`]).

mod encoding;
mod error;
mod kernels;
mod stream;
mod subgroup;
mod text;
mod validate;

use std::io::Read;
use std::path::Path;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ff::PrimeField;
use rayon::prelude::*;

pub use encoding::PointEncoding;
pub use error::{FlagProblem, InputError, InputErrorKind, Location};

use encoding::Codec;
use text::{element_lines, HexLine};
use validate::{decode_points, Checker, Elements};

use crate::ifma::Ifma;

/// How points are checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointOptions {
    /// Check that every point is in the prime-order subgroup (default). Turning it off is for
    /// trusted inputs only.
    pub subgroup_check: bool,
    /// Where the IFMA kernels (square roots, the BLS12 G1 subgroup test) run, for the curves
    /// they apply to: [`Ifma::Auto`] (default) on AVX-512 IFMA where the CPU has it;
    /// [`Ifma::Off`] on arkworks arithmetic only (for comparisons); [`Ifma::Emulated`] on the
    /// portable emulation (tests: the same answers, much slower).
    pub ifma: Ifma,
}

impl Default for PointOptions {
    fn default() -> Self {
        PointOptions {
            subgroup_check: true,
            ifma: Ifma::Auto,
        }
    }
}

/// Byte order of hex scalars.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Endianness {
    /// Most significant byte first (default; EIP-4844 blobs).
    #[default]
    Big,
    /// Least significant byte first.
    Little,
}

/// How scalars are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScalarOptions {
    /// Byte order of hex scalars (binary scalars are always little-endian, as arkworks writes
    /// them).
    pub endianness: Endianness,
    /// Reduce scalars ≥ r mod r instead of rejecting them.
    pub reduce: bool,
}

/// The format of a point input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PointFormat {
    /// Hex lines of the standard compressed encoding.
    #[default]
    Hex,
    /// arkworks binary, compressed or uncompressed as its length says.
    Binary,
    /// arkworks binary, compressed.
    BinaryCompressed,
    /// arkworks binary, uncompressed.
    BinaryUncompressed,
}

/// The format of a scalar input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ScalarFormat {
    /// Hex lines.
    #[default]
    Hex,
    /// arkworks binary.
    Binary,
}

/// Bytes of one point of `P` in an encoding.
pub fn point_size<P: SWCurveConfig>(encoding: PointEncoding, compressed: bool) -> usize {
    Codec::<P>::new(encoding, compressed).size()
}

/// Bytes of one scalar of field `F`: ⌈bits(r)/8⌉.
pub fn scalar_size<F: PrimeField>() -> usize {
    (F::MODULUS_BIT_SIZE as usize).div_ceil(8)
}

struct HexElements<'a> {
    lines: Vec<HexLine<'a>>,
}

impl Elements for HexElements<'_> {
    fn count(&self) -> usize {
        self.lines.len()
    }
    fn location(&self, index: usize) -> Location {
        self.lines[index].location()
    }
    fn bytes<'a>(&'a self, index: usize, buf: &'a mut [u8]) -> Result<&'a [u8], InputErrorKind> {
        self.lines[index].decode_into(buf)?;
        Ok(buf)
    }
}

/// Records of a binary input: `data` holds whole records of `size` bytes, the first at byte
/// `first` of the input.
struct BinaryElements<'a> {
    data: &'a [u8],
    size: usize,
    first: u64,
}

/// Bytes of the length prefix.
const PREFIX: usize = 8;

impl Elements for BinaryElements<'_> {
    fn count(&self) -> usize {
        self.data.len() / self.size
    }
    fn location(&self, index: usize) -> Location {
        Location::Byte(self.first + (index * self.size) as u64)
    }
    fn bytes<'a>(&'a self, index: usize, _: &'a mut [u8]) -> Result<&'a [u8], InputErrorKind> {
        Ok(&self.data[index * self.size..(index + 1) * self.size])
    }
}

/// The element size, among `sizes` (ascending), that makes a binary input's length match its
/// length prefix, and the records.
fn binary_records<'a>(
    input: &str,
    bytes: &'a [u8],
    sizes: &[usize],
) -> Result<BinaryElements<'a>, InputError> {
    let found = bytes.len() as u64;
    let Some(prefix) = bytes.get(..PREFIX) else {
        return Err(short_prefix(input, found));
    };
    let count = u64::from_le_bytes(prefix.try_into().expect("8 bytes"));
    let size = binary_layout(input, count, found, sizes)?;
    let data = &bytes[PREFIX..];
    let first = PREFIX as u64;
    Ok(BinaryElements { data, size, first })
}

/// The error of a binary input of `found` < 8 bytes.
fn short_prefix(input: &str, found: u64) -> InputError {
    let (count, expected) = (0, PREFIX as u64);
    let kind = InputErrorKind::Truncated {
        count,
        expected,
        found,
    };
    InputError::new(input, Location::Byte(0), kind)
}

/// Bytes a binary input of `count` elements of `size` bytes has, as u128 (no overflow).
fn binary_total(count: u64, size: usize) -> u128 {
    PREFIX as u128 + count as u128 * size as u128
}

/// The element size, among `sizes` (ascending), of a binary input of `found` bytes whose
/// length prefix announces `count` elements: the size that makes the length match, else the
/// error saying how it does not.
fn binary_layout(
    input: &str,
    count: u64,
    found: u64,
    sizes: &[usize],
) -> Result<usize, InputError> {
    let error = |location, kind| Err(InputError::new(input, location, kind));
    let total = |size: usize| binary_total(count, size);
    if let Some(&size) = sizes.iter().find(|&&s| total(s) == found as u128) {
        if count == 0 {
            return error(Location::Whole, InputErrorKind::Empty);
        }
        return Ok(size);
    }
    let clamp = |v: u128| v.min(u64::MAX as u128) as u64;
    let body = found - PREFIX as u64;
    // The layout the input most likely has: of those it holds a whole number of elements
    // of, the one whose element count is nearest the prefix's; else the smallest layout it
    // is too short for (its first incomplete record), else the largest.
    let whole = sizes
        .iter()
        .copied()
        .filter(|&s| body.is_multiple_of(s as u64))
        .min_by_key(|&s| (body / s as u64).abs_diff(count));
    let size = whole
        .or_else(|| sizes.iter().copied().find(|&s| (found as u128) < total(s)))
        .unwrap_or(sizes[sizes.len() - 1]);
    let expected = clamp(total(size));
    if (found as u128) < total(size) {
        let held = body / size as u64;
        let location = Location::Byte(PREFIX as u64 + held * size as u64);
        let kind = InputErrorKind::Truncated {
            count,
            expected,
            found,
        };
        error(location, kind)
    } else {
        let kind = InputErrorKind::TrailingBytes {
            count,
            expected,
            found,
        };
        error(Location::Byte(expected), kind)
    }
}

/// Points from hex lines of the curve's standard compressed encoding
/// ([`PointEncoding::standard`]), every point checked per `options`.
///
/// ```
/// use ark_bls12_381::g1::Config;
/// use multiexp::input::{points_from_hex, InputErrorKind, Location, PointOptions};
///
/// // The BLS12-381 G1 generator and the point at infinity, as in the EIP-4844 setup.
/// let text = "# two points\n\
///     0x97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb\n\
///     c00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000\n";
/// let points = points_from_hex::<Config>("setup.txt", text.as_bytes(), &PointOptions::default())?;
/// assert_eq!(points.len(), 2);
///
/// let err = points_from_hex::<Config>("bad.txt", b"\n\n97f1", &PointOptions::default())
///     .unwrap_err();
/// assert_eq!(err.location, Location::Line(3));
/// assert_eq!(err.kind, InputErrorKind::WrongLength { expected: 48, found: 2 });
/// assert_eq!(err.to_string(), "bad.txt:3: expected 48 bytes (96 hex digits), found 2 bytes");
/// # Ok::<(), multiexp::input::InputError>(())
/// ```
pub fn points_from_hex<P: SWCurveConfig>(
    input: &str,
    text: &[u8],
    options: &PointOptions,
) -> Result<Vec<Affine<P>>, InputError> {
    let codec = Codec::<P>::new(PointEncoding::standard::<P>(), true);
    let elements = HexElements {
        lines: element_lines(text),
    };
    let checker = Checker::new(options.subgroup_check, options.ifma);
    decode_points(input, &elements, &codec, &checker)
}

/// Points from arkworks binary (`CanonicalSerialize` of `Vec<Affine<P>>`), compressed,
/// uncompressed, or either as the length says (`compressed: None`).
pub fn points_from_binary<P: SWCurveConfig>(
    input: &str,
    bytes: &[u8],
    compressed: Option<bool>,
    options: &PointOptions,
) -> Result<Vec<Affine<P>>, InputError> {
    let encoding = PointEncoding::binary::<P>();
    let compressed_codec = Codec::<P>::new(encoding, true);
    let uncompressed_codec = Codec::<P>::new(encoding, false);
    let sizes = match compressed {
        Some(true) => vec![compressed_codec.size()],
        Some(false) => vec![uncompressed_codec.size()],
        None => vec![compressed_codec.size(), uncompressed_codec.size()],
    };
    let records = binary_records(input, bytes, &sizes)?;
    let codec = if records.size == compressed_codec.size() {
        compressed_codec
    } else {
        uncompressed_codec
    };
    let checker = Checker::new(options.subgroup_check, options.ifma);
    let codec = checker.codec(codec);
    decode_points(input, &records, &codec, &checker)
}

/// Points in `format` from `reader`, read in blocks (see the module's text); `length`: the
/// input's length in bytes where known (a file's), which lets a binary input's layout and
/// length be checked before its elements are read.
pub fn points_from_reader<P: SWCurveConfig, R: Read>(
    input: &str,
    reader: R,
    length: Option<u64>,
    format: PointFormat,
    options: &PointOptions,
) -> Result<Vec<Affine<P>>, InputError> {
    let checker = Checker::new(options.subgroup_check, options.ifma);
    if format == PointFormat::Hex {
        let codec = Codec::<P>::new(PointEncoding::standard::<P>(), true);
        let decoder = PointDecoder {
            codec,
            checker: &checker,
        };
        return stream::read_hex(input, reader, &decoder);
    }
    let encoding = PointEncoding::binary::<P>();
    let compressed = Codec::<P>::new(encoding, true);
    let uncompressed = Codec::<P>::new(encoding, false);
    let (small, large) = (compressed.size(), uncompressed.size());
    let sizes = match format {
        PointFormat::BinaryCompressed => vec![small],
        PointFormat::BinaryUncompressed => vec![large],
        _ => vec![small, large],
    };
    let decoder = |size: usize| {
        let codec = if size == small {
            compressed
        } else {
            uncompressed
        };
        PointDecoder {
            codec: checker.codec(codec),
            checker: &checker,
        }
    };
    stream::read_binary(input, reader, length, &sizes, decoder)
}

/// Points in `format` from the file at `path` (named by its display form in errors), read in
/// blocks as [`points_from_reader`] does.
pub fn points_from_file<P: SWCurveConfig>(
    path: &Path,
    format: PointFormat,
    options: &PointOptions,
) -> Result<Vec<Affine<P>>, InputError> {
    let (name, file, length) = open(path)?;
    points_from_reader(&name, file, length, format, options)
}

/// Scalars in `format` from `reader`, read in blocks as [`points_from_reader`] does.
pub fn scalars_from_reader<F: PrimeField, R: Read>(
    input: &str,
    reader: R,
    length: Option<u64>,
    format: ScalarFormat,
    options: &ScalarOptions,
) -> Result<Vec<F>, InputError> {
    let size = scalar_size::<F>();
    let decoder = ScalarDecoder::<F> {
        size,
        little_endian: format == ScalarFormat::Binary || options.endianness == Endianness::Little,
        reduce: options.reduce,
        field: std::marker::PhantomData,
    };
    match format {
        ScalarFormat::Hex => stream::read_hex(input, reader, &decoder),
        ScalarFormat::Binary => stream::read_binary(input, reader, length, &[size], |_| decoder),
    }
}

/// Scalars in `format` from the file at `path`, read in blocks as [`points_from_reader`]
/// does.
pub fn scalars_from_file<F: PrimeField>(
    path: &Path,
    format: ScalarFormat,
    options: &ScalarOptions,
) -> Result<Vec<F>, InputError> {
    let (name, file, length) = open(path)?;
    scalars_from_reader(&name, file, length, format, options)
}

/// A file opened for reading: its name, the file, and its length if it is a regular file.
fn open(path: &Path) -> Result<(String, std::fs::File, Option<u64>), InputError> {
    let name = path.display().to_string();
    let unreadable = |e: std::io::Error| stream::unreadable(&name, &e);
    let file = std::fs::File::open(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if meta.is_dir() {
        let kind = InputErrorKind::Unreadable {
            error: "is a directory".to_string(),
        };
        return Err(InputError::new(&name, Location::Whole, kind));
    }
    let length = meta.is_file().then_some(meta.len());
    Ok((name, file, length))
}

struct PointDecoder<'a, P: SWCurveConfig> {
    codec: Codec<P>,
    checker: &'a Checker<P>,
}

impl<P: SWCurveConfig> stream::Decoder for PointDecoder<'_, P> {
    type Item = Affine<P>;
    fn decode<E: Elements>(&self, input: &str, elements: &E) -> Result<Vec<Affine<P>>, InputError> {
        decode_points(input, elements, &self.codec, self.checker)
    }
}

struct ScalarDecoder<F> {
    size: usize,
    little_endian: bool,
    reduce: bool,
    field: std::marker::PhantomData<F>,
}

impl<F: PrimeField> stream::Decoder for ScalarDecoder<F> {
    type Item = F;
    fn decode<E: Elements>(&self, input: &str, elements: &E) -> Result<Vec<F>, InputError> {
        decode_scalars(input, elements, self.size, self.little_endian, self.reduce)
    }
}

/// Points in `format`.
pub fn points_from<P: SWCurveConfig>(
    input: &str,
    bytes: &[u8],
    format: PointFormat,
    options: &PointOptions,
) -> Result<Vec<Affine<P>>, InputError> {
    match format {
        PointFormat::Hex => points_from_hex(input, bytes, options),
        PointFormat::Binary => points_from_binary(input, bytes, None, options),
        PointFormat::BinaryCompressed => points_from_binary(input, bytes, Some(true), options),
        PointFormat::BinaryUncompressed => points_from_binary(input, bytes, Some(false), options),
    }
}

/// The scalar of little-endian `bytes` (any length): the integer must be below r, else
/// [`InputErrorKind::ScalarOutOfRange`] unless `reduce` asks for reduction mod r.
///
/// ```
/// use ark_bn254::Fr;
/// use multiexp::input::{scalar_from_le, InputErrorKind};
///
/// assert_eq!(scalar_from_le::<Fr>(&[5, 0, 0], false), Ok(Fr::from(5u64)));
/// assert_eq!(scalar_from_le::<Fr>(&[0xff; 64], false), Err(InputErrorKind::ScalarOutOfRange));
/// assert!(scalar_from_le::<Fr>(&[0xff; 64], true).is_ok());
/// ```
pub fn scalar_from_le<F: PrimeField>(bytes: &[u8], reduce: bool) -> Result<F, InputErrorKind> {
    let mut big = F::BigInt::default();
    let limbs = big.as_mut();
    let mut fits = true;
    for (k, &b) in bytes.iter().enumerate() {
        match limbs.get_mut(k / 8) {
            Some(limb) => *limb |= (b as u64) << (8 * (k % 8)),
            None => fits &= b == 0,
        }
    }
    match F::from_bigint(big).filter(|_| fits) {
        Some(s) => Ok(s),
        None if reduce => Ok(F::from_le_bytes_mod_order(bytes)),
        None => Err(InputErrorKind::ScalarOutOfRange),
    }
}

fn decode_scalars<F: PrimeField, E: Elements>(
    input: &str,
    elements: &E,
    size: usize,
    little_endian: bool,
    reduce: bool,
) -> Result<Vec<F>, InputError> {
    let n = elements.count();
    if n == 0 {
        return Err(InputError::new(
            input,
            Location::Whole,
            InputErrorKind::Empty,
        ));
    }
    let mut scalars = vec![F::zero(); n];
    let failure = scalars
        .par_chunks_mut(validate::BLOCK)
        .enumerate()
        .filter_map(|(b, out)| {
            let start = b * validate::BLOCK;
            let mut buf = vec![0u8; size];
            for (k, slot) in out.iter_mut().enumerate() {
                let i = start + k;
                let decoded = elements.bytes(i, &mut buf).and_then(|bytes| {
                    if little_endian {
                        scalar_from_le(bytes, reduce)
                    } else {
                        let mut le = bytes.to_vec();
                        le.reverse();
                        scalar_from_le(&le, reduce)
                    }
                });
                match decoded {
                    Ok(s) => *slot = s,
                    Err(kind) => return Some((i, kind)),
                }
            }
            None
        })
        .min_by_key(|(i, _)| *i);
    match failure {
        Some((i, kind)) => Err(InputError::new(input, elements.location(i), kind)),
        None => Ok(scalars),
    }
}

/// Scalars from hex lines of [`scalar_size`] bytes each, big-endian unless asked otherwise.
///
/// ```
/// use ark_bls12_381::Fr;
/// use multiexp::input::{scalars_from_hex, InputErrorKind, Location, ScalarOptions};
///
/// let one = format!("{}01\n", "00".repeat(31));
/// let scalars = scalars_from_hex::<Fr>("s.hex", one.as_bytes(), &ScalarOptions::default())?;
/// assert_eq!(scalars, vec![Fr::from(1u64)]);
///
/// // r itself is out of range unless reduction is asked for.
/// let r = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
/// let err = scalars_from_hex::<Fr>("s.hex", r.as_bytes(), &ScalarOptions::default()).unwrap_err();
/// assert_eq!((err.location, err.kind), (Location::Line(1), InputErrorKind::ScalarOutOfRange));
/// let reduce = ScalarOptions { reduce: true, ..ScalarOptions::default() };
/// assert_eq!(scalars_from_hex::<Fr>("s.hex", r.as_bytes(), &reduce)?, vec![Fr::from(0u64)]);
/// # Ok::<(), multiexp::input::InputError>(())
/// ```
pub fn scalars_from_hex<F: PrimeField>(
    input: &str,
    text: &[u8],
    options: &ScalarOptions,
) -> Result<Vec<F>, InputError> {
    let elements = HexElements {
        lines: element_lines(text),
    };
    let little = options.endianness == Endianness::Little;
    decode_scalars(input, &elements, scalar_size::<F>(), little, options.reduce)
}

/// Scalars from arkworks binary (`CanonicalSerialize` of `Vec<F>`: little-endian).
pub fn scalars_from_binary<F: PrimeField>(
    input: &str,
    bytes: &[u8],
    options: &ScalarOptions,
) -> Result<Vec<F>, InputError> {
    let records = binary_records(input, bytes, &[scalar_size::<F>()])?;
    decode_scalars(input, &records, records.size, true, options.reduce)
}

/// Scalars in `format`.
pub fn scalars_from<F: PrimeField>(
    input: &str,
    bytes: &[u8],
    format: ScalarFormat,
    options: &ScalarOptions,
) -> Result<Vec<F>, InputError> {
    match format {
        ScalarFormat::Hex => scalars_from_hex(input, bytes, options),
        ScalarFormat::Binary => scalars_from_binary(input, bytes, options),
    }
}

/// Points from raw records: `bytes` is `n` encodings of `encoding` back to back, all
/// compressed or all uncompressed, with no length prefix (a numpy `uint8` array of shape
/// (n, width), a column of a database, a file of records). `compressed: None` infers the
/// width from the length where only one width divides it and, where both do, from the ZCash
/// compression bit of the first record; an arkworks-encoded input whose length both widths
/// divide needs `compressed` given. Errors name the byte offset of the bad record (its index
/// is the offset divided by the width). An empty input gives no points.
///
/// ```
/// use ark_bls12_381::g1::Config;
/// use ark_ec::{AffineRepr, CurveGroup};
/// use multiexp::input::{points_from_records, points_to_binary, InputErrorKind, Location,
///     PointEncoding, PointOptions};
///
/// let g = ark_bls12_381::G1Affine::generator();
/// let two = (g + g).into_affine();
/// // Uncompressed ZCash records (96 bytes each) without arkworks' length prefix.
/// let bytes = points_to_binary(&[g, two], false)[8..].to_vec();
/// let options = PointOptions::default();
/// let points = points_from_records::<Config>("p", &bytes, PointEncoding::Zcash, None, &options)?;
/// assert_eq!(points, vec![g, two]);
/// let err = points_from_records::<Config>("p", &bytes[..100], PointEncoding::Zcash, Some(false), &options)
///     .unwrap_err();
/// assert_eq!(err.kind, InputErrorKind::WrongLength { expected: 96, found: 100 % 96 });
/// # Ok::<(), multiexp::input::InputError>(())
/// ```
pub fn points_from_records<P: SWCurveConfig>(
    input: &str,
    bytes: &[u8],
    encoding: PointEncoding,
    compressed: Option<bool>,
    options: &PointOptions,
) -> Result<Vec<Affine<P>>, InputError> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let small = Codec::<P>::new(encoding, true);
    let large = Codec::<P>::new(encoding, false);
    let len = bytes.len();
    let compressed = match compressed {
        Some(c) => c,
        None => match (
            len.is_multiple_of(small.size()),
            len.is_multiple_of(large.size()),
        ) {
            (true, false) => true,
            (false, true) => false,
            (true, true) if encoding == PointEncoding::Zcash => bytes[0] & 0x80 != 0,
            (true, true) => {
                let kind = InputErrorKind::AmbiguousWidth {
                    compressed: small.size(),
                    uncompressed: large.size(),
                };
                return Err(InputError::new(input, Location::Whole, kind));
            }
            (false, false) => {
                let kind = InputErrorKind::WrongLength {
                    expected: small.size(),
                    found: len % small.size(),
                };
                let at = (len - len % small.size()) as u64;
                return Err(InputError::new(input, Location::Byte(at), kind));
            }
        },
    };
    let codec = if compressed { small } else { large };
    let size = codec.size();
    if !len.is_multiple_of(size) {
        let kind = InputErrorKind::WrongLength {
            expected: size,
            found: len % size,
        };
        return Err(InputError::new(
            input,
            Location::Byte((len - len % size) as u64),
            kind,
        ));
    }
    let records = BinaryElements {
        data: bytes,
        size,
        first: 0,
    };
    let checker = Checker::new(options.subgroup_check, options.ifma);
    let codec = checker.codec(codec);
    decode_points(input, &records, &codec, &checker)
}

/// Scalars from raw records of [`scalar_size`] bytes each, back to back with no length
/// prefix, in `endianness` (a numpy `uint8` array of shape (n, size)); each below r unless
/// `options.reduce`. Errors name the byte offset of the bad record. An empty input gives no
/// scalars.
pub fn scalars_from_records<F: PrimeField>(
    input: &str,
    bytes: &[u8],
    endianness: Endianness,
    options: &ScalarOptions,
) -> Result<Vec<F>, InputError> {
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    let size = scalar_size::<F>();
    if !bytes.len().is_multiple_of(size) {
        let kind = InputErrorKind::WrongLength {
            expected: size,
            found: bytes.len() % size,
        };
        let at = (bytes.len() - bytes.len() % size) as u64;
        return Err(InputError::new(input, Location::Byte(at), kind));
    }
    let records = BinaryElements {
        data: bytes,
        size,
        first: 0,
    };
    let little = endianness == Endianness::Little;
    decode_scalars(input, &records, size, little, options.reduce)
}

/// Checks that a scalar input (`scalars_input`) has as many elements as the point input.
pub fn check_counts(
    points_input: &str,
    points: usize,
    scalars_input: &str,
    scalars: usize,
) -> Result<(), InputError> {
    if points == scalars {
        return Ok(());
    }
    let kind = InputErrorKind::CountMismatch {
        points_input: points_input.to_string(),
        points,
        scalars,
    };
    Err(InputError::new(scalars_input, Location::Whole, kind))
}

/// The bytes of one point in an encoding.
pub fn encode_point<P: SWCurveConfig>(
    point: &Affine<P>,
    encoding: PointEncoding,
    compressed: bool,
) -> Vec<u8> {
    let mut out = Vec::new();
    Codec::<P>::new(encoding, compressed).encode(point, &mut out);
    out
}

/// Lower-case hex of the standard compressed encoding of `point`.
pub fn point_to_hex<P: SWCurveConfig>(point: &Affine<P>) -> String {
    let mut out = String::new();
    text::push_hex(
        &encode_point(point, PointEncoding::standard::<P>(), true),
        &mut out,
    );
    out
}

/// Hex lines of the standard compressed encoding, one point per line.
pub fn points_to_hex<P: SWCurveConfig>(points: &[Affine<P>]) -> String {
    let codec = Codec::<P>::new(PointEncoding::standard::<P>(), true);
    let lines: Vec<String> = points
        .par_chunks(validate::BLOCK)
        .map(|chunk| {
            let (mut bytes, mut text) = (Vec::new(), String::new());
            for p in chunk {
                bytes.clear();
                codec.encode(p, &mut bytes);
                text::push_hex(&bytes, &mut text);
                text.push('\n');
            }
            text
        })
        .collect();
    lines.concat()
}

/// arkworks binary of `points` (the bytes of `CanonicalSerialize` on the `Vec`).
pub fn points_to_binary<P: SWCurveConfig>(points: &[Affine<P>], compressed: bool) -> Vec<u8> {
    let codec = Codec::<P>::new(PointEncoding::binary::<P>(), compressed);
    let mut out = Vec::with_capacity(PREFIX + points.len() * codec.size());
    out.extend_from_slice(&(points.len() as u64).to_le_bytes());
    for p in points {
        codec.encode(p, &mut out);
    }
    out
}

fn scalar_le<F: PrimeField>(s: &F) -> Vec<u8> {
    let big = s.into_bigint();
    let limbs = big.as_ref();
    (0..scalar_size::<F>())
        .map(|k| (limbs[k / 8] >> (8 * (k % 8))) as u8)
        .collect()
}

/// Hex lines of scalars, one per line.
pub fn scalars_to_hex<F: PrimeField>(scalars: &[F], endianness: Endianness) -> String {
    let mut out = String::with_capacity(scalars.len() * (2 * scalar_size::<F>() + 1));
    for s in scalars {
        let mut bytes = scalar_le(s);
        if endianness == Endianness::Big {
            bytes.reverse();
        }
        text::push_hex(&bytes, &mut out);
        out.push('\n');
    }
    out
}

/// arkworks binary of `scalars`.
pub fn scalars_to_binary<F: PrimeField>(scalars: &[F]) -> Vec<u8> {
    let mut out = Vec::with_capacity(PREFIX + scalars.len() * scalar_size::<F>());
    out.extend_from_slice(&(scalars.len() as u64).to_le_bytes());
    for s in scalars {
        out.extend_from_slice(&scalar_le(s));
    }
    out
}
