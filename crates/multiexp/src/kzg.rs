//! EIP-4844 KZG commitments: the trusted setup, blobs, and the commitment of a blob.
//!
//! Contract:
//! - [`TrustedSetup`] holds the 4096 G1 Lagrange points of an EIP-4844 trusted setup in
//!   bit-reversal-permuted order (c-kzg's `g1_values_lagrange_brp`), each decoded from its
//!   ZCash compressed encoding, on the curve and in the prime-order subgroup. It is read from
//!   the text format c-kzg reads ([`TrustedSetup::from_text`]); the mainnet setup is embedded
//!   ([`TrustedSetup::ethereum`]).
//! - [`blob_from_bytes`] takes a blob as its 131072 raw bytes or as hex text, and returns its
//!   4096 field elements, each a 32-byte big-endian integer below r.
//! - [`blob_to_commitment`] is Σ blob\[i\]·points\[i\] over the bit-reversed points, the
//!   commitment c-kzg's `blob_to_kzg_commitment` computes; [`commitment_bytes`] is its 48-byte
//!   ZCash compressed encoding.
//!
//! Every parser returns its result or the error of the first bad line or element, naming the
//! input (the name the caller passes), the line (counted from 1 in the whole file) or byte
//! offset, and what was expected there ([`InputError`]); no input makes it panic. No printing,
//! and no I/O but [`TrustedSetup::from_file`].
//!
//! Cost: reading a setup decompresses and subgroup-checks every point of it (4096 Lagrange,
//! 65 G2 and, in the newer format, 4096 monomial points: one square root and one subgroup test
//! each, in parallel on the caller's rayon pool); the embedded setup is read once per process.
//! A commitment is one MSM of 4096 points, variable-time (blobs are public data).

use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

use ark_bls12_381::{g1, g2, Fr, G1Affine};
use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::CurveGroup;
use ark_ff::{BigInt, PrimeField};

use crate::input::{self, InputError, InputErrorKind, Location, PointEncoding, PointOptions};
use crate::{Config, Error, PrecomputedBases};

/// Field elements in a blob.
pub const FIELD_ELEMENTS_PER_BLOB: usize = 4096;

/// Bytes in a raw blob: 4096 field elements of 32 bytes.
pub const BYTES_PER_BLOB: usize = 131072;

/// Bytes of one field element of a blob (big-endian).
const BYTES_PER_FIELD_ELEMENT: usize = 32;

/// G2 points in a setup (c-kzg's fixed count).
const G2_POINTS: usize = 65;

/// Header lines of a setup file: the two counts.
const HEADER_LINES: usize = 2;

/// Lines of a setup file of the newer format: the counts, the G1 Lagrange points, the G2
/// points and the G1 monomial points. The older format ends after the G2 points.
const SETUP_LINES: usize =
    HEADER_LINES + FIELD_ELEMENTS_PER_BLOB + G2_POINTS + FIELD_ELEMENTS_PER_BLOB;

/// The most bytes [`TrustedSetup::from_file`] reads: a setup of the newer format has about
/// 800 KiB; this leaves room for any whitespace and refuses `/dev/zero`.
const SETUP_FILE_LIMIT: u64 = 64 << 20;

/// The Ethereum mainnet setup, as c-kzg 2.1.8 ships it (`src/trusted_setup.txt`).
const ETHEREUM_SETUP: &[u8] = include_bytes!("../data/trusted_setup.txt");

/// An EIP-4844 trusted setup: the G1 Lagrange points that commitments are taken over, in
/// bit-reversal-permuted order.
#[derive(Clone, PartialEq, Eq)]
pub struct TrustedSetup {
    points: Vec<G1Affine>,
}

impl fmt::Debug for TrustedSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TrustedSetup")
            .field("points", &self.points.len())
            .finish()
    }
}

impl TrustedSetup {
    /// A setup from the text format c-kzg reads, named `name` in errors: line 1 the number of
    /// G1 points (4096), line 2 the number of G2 points (65), then one line per point in hex
    /// of its ZCash compressed encoding: the 4096 G1 Lagrange points, the 65 G2 points and,
    /// in the newer format, the 4096 G1 monomial points. Blank lines may end the file; a line
    /// may have an `0x` and surrounding whitespace. Every point is decoded and checked (on
    /// the curve, in the subgroup), the monomial and G2 points too, though only the Lagrange
    /// points are kept.
    ///
    /// ```
    /// use multiexp::input::{InputErrorKind, Location};
    /// use multiexp::kzg::TrustedSetup;
    ///
    /// let err = TrustedSetup::from_text(b"4096\n64\n", "setup.txt").unwrap_err();
    /// assert_eq!(err.location, Location::Line(2));
    /// assert!(matches!(err.kind, InputErrorKind::WrongCount { expected: 65, .. }));
    /// ```
    pub fn from_text(text: &[u8], name: &str) -> Result<Self, InputError> {
        let lines = Lines::new(text, name);
        if lines.significant == 0 {
            return Err(InputError::new(
                name,
                Location::Whole,
                InputErrorKind::Empty,
            ));
        }
        lines.header(0, "the number of G1 points", FIELD_ELEMENTS_PER_BLOB)?;
        lines.header(1, "the number of G2 points", G2_POINTS)?;
        let lagrange_first = HEADER_LINES;
        let g2_first = lagrange_first + FIELD_ELEMENTS_PER_BLOB;
        let monomial_first = g2_first + G2_POINTS;
        let lagrange = lines.block::<g1::Config>(
            lagrange_first,
            FIELD_ELEMENTS_PER_BLOB,
            "G1 Lagrange points",
        )?;
        lines.block::<g2::Config>(g2_first, G2_POINTS, "G2 points")?;
        if lines.significant > monomial_first {
            lines.block::<g1::Config>(
                monomial_first,
                FIELD_ELEMENTS_PER_BLOB,
                "G1 monomial points",
            )?;
        }
        if lines.significant > SETUP_LINES {
            let kind = InputErrorKind::TrailingLines {
                expected: SETUP_LINES,
            };
            return Err(InputError::new(name, Location::Line(SETUP_LINES + 1), kind));
        }
        Ok(TrustedSetup {
            points: bit_reversal_permutation(&lagrange),
        })
    }

    /// A setup from the file at `path` (named by its display form in errors), as
    /// [`TrustedSetup::from_text`] reads it.
    pub fn from_file(path: &Path) -> Result<Self, InputError> {
        use std::io::Read;
        let name = path.display().to_string();
        let unreadable = |error: String| {
            InputError::new(&name, Location::Whole, InputErrorKind::Unreadable { error })
        };
        let file = std::fs::File::open(path).map_err(|e| unreadable(e.to_string()))?;
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(unreadable("is a directory".to_string()));
        }
        let mut text = Vec::new();
        file.take(SETUP_FILE_LIMIT + 1)
            .read_to_end(&mut text)
            .map_err(|e| unreadable(e.to_string()))?;
        if text.len() as u64 > SETUP_FILE_LIMIT {
            let kind = InputErrorKind::TooLong {
                limit: SETUP_FILE_LIMIT,
            };
            return Err(InputError::new(&name, Location::Whole, kind));
        }
        Self::from_text(&text, &name)
    }

    /// The Ethereum mainnet setup (the KZG ceremony's output, as c-kzg ships it), read once
    /// per process on first use.
    pub fn ethereum() -> &'static TrustedSetup {
        static SETUP: OnceLock<TrustedSetup> = OnceLock::new();
        SETUP.get_or_init(|| {
            TrustedSetup::from_text(ETHEREUM_SETUP, "the embedded trusted_setup.txt")
                .expect("the embedded setup is valid (the test ethereum_setup_is_valid reads it)")
        })
    }

    /// The G1 Lagrange points in bit-reversal-permuted order: point i is the file's point
    /// brp(i), i's 12 bits reversed. A blob's commitment is Σ blob\[i\]·points\[i\].
    pub fn points(&self) -> &[G1Affine] {
        &self.points
    }
}

/// Bytes a hex line may have around its digits, as the hex-lines readers of `input` trim.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// `line` without surrounding whitespace, and the column of its first byte (from 1).
fn trim(line: &[u8]) -> (&[u8], usize) {
    let start = line
        .iter()
        .position(|&b| !is_space(b))
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|&b| !is_space(b))
        .map_or(start, |e| e + 1);
    (&line[start..end], start + 1)
}

/// The lines of a setup file: where each starts and ends (`\n` excluded).
struct Lines<'a> {
    text: &'a [u8],
    name: &'a str,
    spans: Vec<(usize, usize)>,
    /// Lines up to the last non-blank one: those the format must account for.
    significant: usize,
}

impl<'a> Lines<'a> {
    fn new(text: &'a [u8], name: &'a str) -> Self {
        let mut spans = Vec::with_capacity(SETUP_LINES + 1);
        let mut start = 0;
        for (i, &b) in text.iter().enumerate() {
            if b == b'\n' {
                spans.push((start, i));
                start = i + 1;
            }
        }
        spans.push((start, text.len()));
        let significant = spans
            .iter()
            .rposition(|&(s, e)| !trim(&text[s..e]).0.is_empty())
            .map_or(0, |i| i + 1);
        Lines {
            text,
            name,
            spans,
            significant,
        }
    }

    /// Line `index` (from 0), untrimmed.
    fn line(&self, index: usize) -> &'a [u8] {
        let (s, e) = self.spans[index];
        &self.text[s..e]
    }

    fn error(&self, index: usize, kind: InputErrorKind) -> InputError {
        InputError::new(self.name, Location::Line(index + 1), kind)
    }

    /// Checks that line `index` is the count `expected`.
    fn header(&self, index: usize, what: &'static str, expected: usize) -> Result<(), InputError> {
        let line = if index < self.significant {
            trim(self.line(index)).0
        } else {
            &[]
        };
        let count = std::str::from_utf8(line)
            .ok()
            .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|s| s.parse::<usize>().ok());
        if count == Some(expected) {
            return Ok(());
        }
        let found = String::from_utf8_lossy(line).chars().take(40).collect();
        let kind = InputErrorKind::WrongCount {
            what,
            expected,
            found,
        };
        Err(self.error(index, kind))
    }

    /// The `count` points of `P` on the lines from `first` (from 0), each line one point;
    /// the error of the first bad line, numbered in the whole file.
    fn block<P: SWCurveConfig>(
        &self,
        first: usize,
        count: usize,
        what: &'static str,
    ) -> Result<Vec<Affine<P>>, InputError> {
        let size = input::point_size::<P>(PointEncoding::standard::<P>(), true);
        let held = count.min(self.significant.saturating_sub(first));
        // The hex-lines reader skips blank and `#` lines (and a byte-order mark at the start):
        // here each is a missing point, so find the first before reading.
        let unreadable = (first..first + held).find_map(|index| {
            let (body, column) = trim(self.line(index));
            match body.first() {
                None => Some((
                    index,
                    InputErrorKind::WrongLength {
                        expected: size,
                        found: 0,
                    },
                )),
                Some(&b) if !b.is_ascii_hexdigit() => {
                    Some((index, InputErrorKind::InvalidHexDigit { column, found: b }))
                }
                Some(_) => None,
            }
        });
        let readable = unreadable
            .as_ref()
            .map_or(first + held, |(index, _)| *index);
        let mut points = Vec::new();
        if readable > first {
            let (start, _) = self.spans[first];
            let (_, end) = self.spans[readable - 1];
            points = input::points_from_hex::<P>(
                self.name,
                &self.text[start..end],
                &PointOptions::default(),
            )
            .map_err(|mut e| {
                if let Location::Line(line) = e.location {
                    e.location = Location::Line(first + line);
                }
                e
            })?;
        }
        if let Some((index, kind)) = unreadable {
            return Err(self.error(index, kind));
        }
        if held < count {
            let kind = InputErrorKind::MissingLines {
                what,
                expected: count,
                found: held,
            };
            return Err(self.error(first + held, kind));
        }
        Ok(points)
    }
}

/// `items` in bit-reversal-permuted order: item i of the result is item brp(i), i's
/// log2(n) bits reversed. An involution; `items.len()` must be a power of two (or 0).
fn bit_reversal_permutation<T: Copy>(items: &[T]) -> Vec<T> {
    let n = items.len();
    debug_assert!(n == 0 || n.is_power_of_two());
    let bits = n.trailing_zeros();
    if bits == 0 {
        return items.to_vec();
    }
    (0..n)
        .map(|i| items[i.reverse_bits() >> (usize::BITS - bits)])
        .collect()
}

/// The 4096 field elements of a blob, from `bytes` named `name` in errors: exactly 131072
/// raw bytes, or else hex text of 131072 bytes (an optional `0x` first; ASCII whitespace and
/// newlines anywhere ignored). Each element is 32 bytes big-endian and must be below r.
///
/// Errors: a raw element ≥ r at its byte offset, a hex one at the line of its first digit
/// ([`InputErrorKind::BlobElementOutOfRange`] with its index); a bad hex digit at its line
/// and column; an input of another length ([`InputErrorKind::WrongLength`], or
/// [`InputErrorKind::OddHexDigits`]; an input that is not text is taken as a raw blob of the
/// wrong length).
///
/// ```
/// use multiexp::input::{InputErrorKind, Location};
/// use multiexp::kzg::{blob_from_bytes, BYTES_PER_BLOB};
///
/// let mut raw = vec![0u8; BYTES_PER_BLOB];
/// raw[31] = 7;
/// let blob = blob_from_bytes(&raw, "blob.bin")?;
/// assert_eq!(blob[0], ark_bls12_381::Fr::from(7u64));
///
/// // Element 1 set to 2^256 − 1, above r.
/// raw[32..64].fill(0xff);
/// let err = blob_from_bytes(&raw, "blob.bin").unwrap_err();
/// assert_eq!(err.location, Location::Byte(32));
/// assert_eq!(err.kind, InputErrorKind::BlobElementOutOfRange { index: 1 });
/// # Ok::<(), multiexp::input::InputError>(())
/// ```
pub fn blob_from_bytes(bytes: &[u8], name: &str) -> Result<Vec<Fr>, InputError> {
    if bytes.len() == BYTES_PER_BLOB {
        return blob_elements(bytes, name, |i| {
            Location::Byte((i * BYTES_PER_FIELD_ELEMENT) as u64)
        });
    }
    let text = bytes
        .iter()
        .all(|b| b.is_ascii_graphic() || b.is_ascii_whitespace());
    if !text {
        let kind = InputErrorKind::WrongLength {
            expected: BYTES_PER_BLOB,
            found: bytes.len(),
        };
        return Err(InputError::new(name, Location::Whole, kind));
    }
    let hex = decode_blob_hex(bytes, name)?;
    blob_elements(&hex.bytes, name, |i| Location::Line(hex.element_lines[i]))
}

/// A hex blob decoded: its bytes, and the line of each element's first digit.
struct HexBlob {
    bytes: Vec<u8>,
    element_lines: Vec<usize>,
}

/// Decodes hex text of exactly [`BYTES_PER_BLOB`] bytes.
fn decode_blob_hex(text: &[u8], name: &str) -> Result<HexBlob, InputError> {
    let mut bytes = Vec::with_capacity(BYTES_PER_BLOB);
    let mut element_lines = Vec::with_capacity(FIELD_ELEMENTS_PER_BLOB);
    let first = text.iter().position(|b| !b.is_ascii_whitespace());
    let prefix = first.filter(|&f| matches!(text.get(f..f + 2), Some(b"0x" | b"0X")));
    let (mut line, mut line_start) = (1, 0);
    let mut digits = 0usize;
    let mut high = 0u8;
    for (pos, &b) in text.iter().enumerate() {
        if b == b'\n' {
            line += 1;
            line_start = pos + 1;
            continue;
        }
        if b.is_ascii_whitespace() || prefix.is_some_and(|p| pos == p || pos == p + 1) {
            continue;
        }
        let Some(value) = (b as char).to_digit(16) else {
            let kind = InputErrorKind::InvalidHexDigit {
                column: pos - line_start + 1,
                found: b,
            };
            return Err(InputError::new(name, Location::Line(line), kind));
        };
        if digits < 2 * BYTES_PER_BLOB {
            if digits.is_multiple_of(2 * BYTES_PER_FIELD_ELEMENT) {
                element_lines.push(line);
            }
            if digits.is_multiple_of(2) {
                high = value as u8;
            } else {
                bytes.push((high << 4) | value as u8);
            }
        }
        digits += 1;
    }
    if digits == 2 * BYTES_PER_BLOB {
        return Ok(HexBlob {
            bytes,
            element_lines,
        });
    }
    let kind = if digits == 0 {
        InputErrorKind::Empty
    } else if digits % 2 == 1 {
        InputErrorKind::OddHexDigits { digits }
    } else {
        InputErrorKind::WrongLength {
            expected: BYTES_PER_BLOB,
            found: digits / 2,
        }
    };
    Err(InputError::new(name, Location::Whole, kind))
}

/// The field elements of a blob's [`BYTES_PER_BLOB`] bytes; element i's location for errors.
fn blob_elements(
    bytes: &[u8],
    name: &str,
    location: impl Fn(usize) -> Location,
) -> Result<Vec<Fr>, InputError> {
    bytes
        .chunks_exact(BYTES_PER_FIELD_ELEMENT)
        .enumerate()
        .map(|(i, be)| {
            let mut limbs = [0u64; 4];
            for (k, limb) in limbs.iter_mut().enumerate() {
                let end = BYTES_PER_FIELD_ELEMENT - 8 * k;
                *limb = u64::from_be_bytes(be[end - 8..end].try_into().expect("8 bytes"));
            }
            Fr::from_bigint(BigInt(limbs)).ok_or_else(|| {
                let kind = InputErrorKind::BlobElementOutOfRange { index: i };
                InputError::new(name, location(i), kind)
            })
        })
        .collect()
}

/// The KZG commitment of `blob` under `setup`: Σ blob\[i\]·points\[i\] over the setup's
/// bit-reversed Lagrange points, as c-kzg's `blob_to_kzg_commitment` computes it. A blob of
/// other than 4096 elements is [`Error::LengthMismatch`]. Variable-time, as every MSM here.
pub fn blob_to_commitment(
    setup: &TrustedSetup,
    blob: &[Fr],
    config: &Config,
) -> Result<G1Affine, Error> {
    crate::msm_with(setup.points(), blob, config).map(|c| c.into_affine())
}

/// The commitments of several blobs under `setup`, run as one job on the pool
/// ([`crate::msm_many`]): each equals [`blob_to_commitment`] of its blob.
pub fn blobs_to_commitments(
    setup: &TrustedSetup,
    blobs: &[&[Fr]],
    config: &Config,
) -> Result<Vec<G1Affine>, Error> {
    let sums = crate::msm_many_with(setup.points(), blobs, config)?;
    Ok(ark_bls12_381::G1Projective::normalize_batch(&sums))
}

/// The default memory budget of a [`Committer`]'s table: 16 MiB (26.7 times the setup's
/// 4096 points in memory).
pub const DEFAULT_TABLE_BUDGET: u64 = 16 << 20;

/// Commitments under one setup over a table of precomputed multiples of its points
/// ([`PrecomputedBases`]): built once (a few hundred milliseconds), then every commitment
/// costs 0.6–0.73 of [`blob_to_commitment`]'s MSM (`docs/bench/precomputed.md`).
///
/// ```
/// use multiexp::kzg::{self, Committer, TrustedSetup, DEFAULT_TABLE_BUDGET};
/// use multiexp::Config;
///
/// let setup = TrustedSetup::ethereum();
/// let committer = Committer::new(setup, DEFAULT_TABLE_BUDGET, &Config::default())?;
/// let blob = vec![ark_bls12_381::Fr::from(7u64); kzg::FIELD_ELEMENTS_PER_BLOB];
/// let c = committer.commit(&blob, &Config::default())?;
/// assert_eq!(c, kzg::blob_to_commitment(setup, &blob, &Config::default())?);
/// # Ok::<(), multiexp::Error>(())
/// ```
pub struct Committer {
    table: PrecomputedBases<g1::Config>,
}

impl Committer {
    /// A committer for `setup` whose table takes at most `budget` bytes, chosen and built under
    /// `config` (with no table, or a budget too small for one to pay, it runs the plain MSM).
    pub fn new(setup: &TrustedSetup, budget: u64, config: &Config) -> Result<Self, Error> {
        Ok(Committer {
            table: PrecomputedBases::with_config(setup.points(), budget, config)?,
        })
    }

    /// The commitment of `blob` (4096 elements, else [`Error::LengthMismatch`]).
    pub fn commit(&self, blob: &[Fr], config: &Config) -> Result<G1Affine, Error> {
        self.table.msm_with(blob, config).map(|c| c.into_affine())
    }

    /// The commitments of several blobs, run as one job on the pool.
    pub fn commit_many(&self, blobs: &[&[Fr]], config: &Config) -> Result<Vec<G1Affine>, Error> {
        let sums = self.table.msm_many_with(blobs, config)?;
        Ok(ark_bls12_381::G1Projective::normalize_batch(&sums))
    }

    /// The table.
    pub fn table(&self) -> &PrecomputedBases<g1::Config> {
        &self.table
    }

    /// Bytes the table holds.
    pub fn bytes(&self) -> u64 {
        self.table.bytes()
    }

    /// The table's layout in words, e.g. `c=13 m=20 G=1 (stride 13 bits) in records`.
    pub fn describe(&self) -> String {
        match (self.table.layout(), self.table.form()) {
            (Some(l), Some(f)) => format!("{} in {}", l.describe(), f.name()),
            _ => "the setup's points alone (plain MSM)".to_string(),
        }
    }
}

/// The 48 bytes of a commitment: its ZCash compressed encoding, as c-kzg writes it.
pub fn commitment_bytes(commitment: &G1Affine) -> [u8; 48] {
    input::encode_point(commitment, PointEncoding::Zcash, true)
        .try_into()
        .expect("a compressed BLS12-381 G1 point has 48 bytes")
}

/// `0x` and the 96 lower-case hex digits of [`commitment_bytes`].
pub fn commitment_hex(commitment: &G1Affine) -> String {
    format!("0x{}", input::point_to_hex(commitment))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ff::{One, Zero};

    const R_BYTES: [u8; 32] = [
        0x73, 0xed, 0xa7, 0x53, 0x29, 0x9d, 0x7d, 0x48, 0x33, 0x39, 0xd8, 0x08, 0x09, 0xa1, 0xd8,
        0x05, 0x53, 0xbd, 0xa4, 0x02, 0xff, 0xfe, 0x5b, 0xfe, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00,
        0x00, 0x01,
    ];

    fn setup_lines() -> Vec<String> {
        std::str::from_utf8(ETHEREUM_SETUP)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    fn parse(lines: &[String]) -> Result<TrustedSetup, InputError> {
        TrustedSetup::from_text(lines.join("\n").as_bytes(), "setup.txt")
    }

    fn error_at(lines: &[String]) -> (Location, InputErrorKind) {
        let e = parse(lines).unwrap_err();
        assert_eq!(e.input, "setup.txt");
        (e.location, e.kind)
    }

    #[test]
    fn bit_reversal_permutation_of_small_sizes() {
        assert_eq!(bit_reversal_permutation::<u32>(&[]), Vec::<u32>::new());
        assert_eq!(bit_reversal_permutation(&[5]), vec![5]);
        assert_eq!(bit_reversal_permutation(&[0, 1]), vec![0, 1]);
        assert_eq!(bit_reversal_permutation(&[0, 1, 2, 3]), vec![0, 2, 1, 3]);
        assert_eq!(
            bit_reversal_permutation(&[0, 1, 2, 3, 4, 5, 6, 7]),
            vec![0, 4, 2, 6, 1, 5, 3, 7]
        );
        let sixteen: Vec<usize> = (0..16).collect();
        let once = bit_reversal_permutation(&sixteen);
        assert_eq!(once[1], 8);
        assert_eq!(once[3], 12);
        assert_eq!(bit_reversal_permutation(&once), sixteen);
    }

    #[test]
    fn ethereum_setup_is_valid_and_bit_reversed() {
        let setup = TrustedSetup::ethereum();
        assert_eq!(setup.points().len(), FIELD_ELEMENTS_PER_BLOB);
        let lines = setup_lines();
        assert_eq!(lines.len(), SETUP_LINES);
        let file_point = |i: usize| {
            input::points_from_hex::<g1::Config>(
                "line",
                lines[HEADER_LINES + i].as_bytes(),
                &PointOptions::default(),
            )
            .unwrap()[0]
        };
        assert_eq!(setup.points()[0], file_point(0));
        assert_eq!(setup.points()[1], file_point(2048));
        assert_eq!(setup.points()[2], file_point(1024));
        assert_eq!(setup.points()[4095], file_point(4095));
    }

    #[test]
    fn older_format_without_monomial_points_gives_the_same_setup() {
        let lines = setup_lines();
        let old = &lines[..HEADER_LINES + FIELD_ELEMENTS_PER_BLOB + G2_POINTS];
        assert_eq!(&parse(old).unwrap(), TrustedSetup::ethereum());
        // Blank lines, whitespace and CRLF at the end are not lines of the format.
        let mut text = old.join("\r\n");
        text.push_str("\r\n\n  \n");
        let setup = TrustedSetup::from_text(text.as_bytes(), "setup.txt").unwrap();
        assert_eq!(&setup, TrustedSetup::ethereum());
    }

    #[test]
    fn header_counts_are_checked_at_their_lines() {
        let mut lines = setup_lines();
        lines[0] = "4095".into();
        let (location, kind) = error_at(&lines);
        assert_eq!(location, Location::Line(1));
        assert_eq!(
            kind,
            InputErrorKind::WrongCount {
                what: "the number of G1 points",
                expected: 4096,
                found: "4095".into()
            }
        );
        let mut lines = setup_lines();
        lines[1] = "sixty-five".into();
        let (location, kind) = error_at(&lines);
        assert_eq!(location, Location::Line(2));
        assert!(matches!(
            kind,
            InputErrorKind::WrongCount { expected: 65, .. }
        ));

        let e = TrustedSetup::from_text(b"4096\n", "s").unwrap_err();
        assert_eq!(e.location, Location::Line(2));
        assert!(matches!(
            e.kind,
            InputErrorKind::WrongCount { expected: 65, .. }
        ));
        let e = TrustedSetup::from_text(b" \n\n", "s").unwrap_err();
        assert_eq!(
            (e.location, e.kind),
            (Location::Whole, InputErrorKind::Empty)
        );
    }

    #[test]
    fn a_bad_point_is_reported_at_its_line_in_the_whole_file() {
        // The last byte of a compressed x: almost surely no curve point has it.
        let corrupt = |line: &str| {
            let last = if line.ends_with('0') { "1" } else { "0" };
            format!("{}{last}", &line[..line.len() - 1])
        };
        for line in [3, 1000, 4098, 4099, 4163, 4164, 8259] {
            let mut lines = setup_lines();
            lines[line - 1] = corrupt(&lines[line - 1]);
            let (location, kind) = error_at(&lines);
            assert_eq!(location, Location::Line(line), "{kind:?}");
            assert!(
                matches!(
                    kind,
                    InputErrorKind::NotOnCurve
                        | InputErrorKind::NotInSubgroup
                        | InputErrorKind::NonCanonicalField { .. }
                ),
                "line {line}: {kind:?}"
            );
        }
        let mut lines = setup_lines();
        lines[4099] = lines[4099][..90].to_string();
        let (location, kind) = error_at(&lines);
        assert_eq!(location, Location::Line(4100));
        assert_eq!(
            kind,
            InputErrorKind::WrongLength {
                expected: 96,
                found: 45
            }
        );
    }

    #[test]
    fn blank_and_comment_lines_inside_a_block_are_missing_points() {
        let mut lines = setup_lines();
        lines[10] = "  ".into();
        lines[20] = "# a comment".into();
        let (location, kind) = error_at(&lines);
        assert_eq!(location, Location::Line(11));
        assert_eq!(
            kind,
            InputErrorKind::WrongLength {
                expected: 48,
                found: 0
            }
        );
        lines[10] = lines[11].clone();
        let (location, kind) = error_at(&lines);
        assert_eq!(location, Location::Line(21));
        assert_eq!(
            kind,
            InputErrorKind::InvalidHexDigit {
                column: 1,
                found: b'#'
            }
        );
    }

    #[test]
    fn short_and_long_setups_name_the_line_and_the_block() {
        let lines = setup_lines();
        let (location, kind) = error_at(&lines[..1000]);
        assert_eq!(location, Location::Line(1001));
        assert_eq!(
            kind,
            InputErrorKind::MissingLines {
                what: "G1 Lagrange points",
                expected: 4096,
                found: 998
            }
        );
        let (location, kind) = error_at(&lines[..4100]);
        assert_eq!(location, Location::Line(4101));
        assert!(matches!(
            kind,
            InputErrorKind::MissingLines {
                what: "G2 points",
                expected: 65,
                found: 2
            }
        ));
        let (location, kind) = error_at(&lines[..8000]);
        assert_eq!(location, Location::Line(8001));
        assert!(matches!(
            kind,
            InputErrorKind::MissingLines {
                what: "G1 monomial points",
                found: 3837,
                ..
            }
        ));
        let mut long = lines.clone();
        long.push(lines[2].clone());
        let (location, kind) = error_at(&long);
        assert_eq!(location, Location::Line(8260));
        assert_eq!(kind, InputErrorKind::TrailingLines { expected: 8259 });
    }

    fn raw_blob(elements: &[(usize, [u8; 32])]) -> Vec<u8> {
        let mut raw = vec![0u8; BYTES_PER_BLOB];
        for (i, be) in elements {
            raw[32 * i..32 * (i + 1)].copy_from_slice(be);
        }
        raw
    }

    fn hex_of(raw: &[u8]) -> String {
        raw.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn blob_elements_at_or_above_r_are_refused_with_their_index() {
        let mut above = R_BYTES;
        above[31] += 1;
        let mut below = R_BYTES;
        below[31] -= 1;
        let max = [0xff; 32];
        for (index, element) in [(0, R_BYTES), (4095, R_BYTES), (0, above), (4095, max)] {
            let raw = raw_blob(&[(index, element)]);
            let e = blob_from_bytes(&raw, "b.bin").unwrap_err();
            assert_eq!(e.input, "b.bin");
            assert_eq!(e.location, Location::Byte(32 * index as u64));
            assert_eq!(e.kind, InputErrorKind::BlobElementOutOfRange { index });
            // In hex, one element per line after a comment-free first line.
            let hex: String = raw.chunks(32).map(|c| hex_of(c) + "\n").collect();
            let e = blob_from_bytes(hex.as_bytes(), "b.hex").unwrap_err();
            assert_eq!(e.location, Location::Line(index + 1));
            assert_eq!(e.kind, InputErrorKind::BlobElementOutOfRange { index });
        }
        let blob = blob_from_bytes(&raw_blob(&[(0, below), (4095, below)]), "b").unwrap();
        assert_eq!(blob[0], -Fr::one());
        assert_eq!(blob[4095], -Fr::one());
        assert!(blob[1..4095].iter().all(Fr::is_zero));
        // The lowest index is the one reported.
        let raw = raw_blob(&[(7, max), (9, R_BYTES)]);
        let e = blob_from_bytes(&raw, "b").unwrap_err();
        assert_eq!(e.kind, InputErrorKind::BlobElementOutOfRange { index: 7 });
    }

    #[test]
    fn blob_of_the_wrong_length_is_refused() {
        let raw = raw_blob(&[(0, [1; 32])]);
        let e = blob_from_bytes(&raw[..BYTES_PER_BLOB - 1], "b").unwrap_err();
        assert_eq!(e.location, Location::Whole);
        assert_eq!(
            e.kind,
            InputErrorKind::WrongLength {
                expected: BYTES_PER_BLOB,
                found: BYTES_PER_BLOB - 1
            }
        );
        let mut long = raw.clone();
        long.push(0);
        let e = blob_from_bytes(&long, "b").unwrap_err();
        assert_eq!(
            e.kind,
            InputErrorKind::WrongLength {
                expected: BYTES_PER_BLOB,
                found: BYTES_PER_BLOB + 1
            }
        );
        let hex = hex_of(&raw);
        let e = blob_from_bytes(&hex.as_bytes()[..hex.len() - 2], "b").unwrap_err();
        assert_eq!(
            e.kind,
            InputErrorKind::WrongLength {
                expected: BYTES_PER_BLOB,
                found: BYTES_PER_BLOB - 1
            }
        );
        let e = blob_from_bytes(&hex.as_bytes()[..hex.len() - 1], "b").unwrap_err();
        assert_eq!(e.kind, InputErrorKind::OddHexDigits { digits: 262143 });
        let e = blob_from_bytes(format!("{hex}00").as_bytes(), "b").unwrap_err();
        assert_eq!(
            e.kind,
            InputErrorKind::WrongLength {
                expected: BYTES_PER_BLOB,
                found: BYTES_PER_BLOB + 1
            }
        );
        for empty in [&b""[..], b"\n \n", b"0x"] {
            let e = blob_from_bytes(empty, "b").unwrap_err();
            assert_eq!(
                (e.location, e.kind),
                (Location::Whole, InputErrorKind::Empty)
            );
        }
    }

    #[test]
    fn hex_blob_with_prefix_and_newlines_equals_the_raw_blob() {
        let elements: Vec<(usize, [u8; 32])> = (0..FIELD_ELEMENTS_PER_BLOB)
            .step_by(7)
            .map(|i| {
                let mut be = [0u8; 32];
                be[1..]
                    .iter_mut()
                    .enumerate()
                    .for_each(|(k, b)| *b = (i * 31 + k) as u8);
                (i, be)
            })
            .collect();
        let raw = raw_blob(&elements);
        let expected = blob_from_bytes(&raw, "b.bin").unwrap();
        let hex = hex_of(&raw);
        let wrapped: String = hex
            .as_bytes()
            .chunks(100)
            .map(|c| format!("{}\r\n", std::str::from_utf8(c).unwrap()))
            .collect();
        for text in [
            hex.clone(),
            format!("0x{hex}"),
            format!("  0X{}\n", hex.to_uppercase()),
            format!("\n0x{wrapped}\n\n"),
            hex.chars()
                .enumerate()
                .map(|(i, c)| {
                    if i % 64 == 63 {
                        format!("{c} \t")
                    } else {
                        c.to_string()
                    }
                })
                .collect(),
        ] {
            assert_eq!(blob_from_bytes(text.as_bytes(), "b.hex").unwrap(), expected);
        }
        // A bad digit is reported at its line and column.
        let mut bad = format!("0x{wrapped}").into_bytes();
        bad[2 + 102 + 5] = b'g';
        let e = blob_from_bytes(&bad, "b.hex").unwrap_err();
        assert_eq!(e.location, Location::Line(2));
        assert_eq!(
            e.kind,
            InputErrorKind::InvalidHexDigit {
                column: 6,
                found: b'g'
            }
        );
        // A second `0x` is not a prefix.
        let e = blob_from_bytes(format!("0x0x{hex}").as_bytes(), "b.hex").unwrap_err();
        assert_eq!(e.location, Location::Line(1));
        assert_eq!(
            e.kind,
            InputErrorKind::InvalidHexDigit {
                column: 4,
                found: b'x'
            }
        );
    }

    #[test]
    fn commitments_of_unit_blobs_are_the_setup_points() {
        let setup = TrustedSetup::ethereum();
        let config = Config {
            threads: Some(1),
            ..Config::default()
        };
        let zero = vec![Fr::zero(); FIELD_ELEMENTS_PER_BLOB];
        let c = blob_to_commitment(setup, &zero, &config).unwrap();
        let infinity = format!("0xc0{}", "0".repeat(94));
        assert_eq!(commitment_hex(&c), infinity);
        assert_eq!(commitment_bytes(&c)[0], 0xc0);
        for i in [0, 1, 4095] {
            let mut blob = zero.clone();
            blob[i] = Fr::one();
            let c = blob_to_commitment(setup, &blob, &config).unwrap();
            assert_eq!(c, setup.points()[i]);
            let hex = commitment_hex(&c);
            assert_eq!(hex.len(), 98);
            assert_eq!(hex[2..], hex_of(&commitment_bytes(&c)));
        }
        let short = blob_to_commitment(setup, &zero[1..], &config).unwrap_err();
        assert!(matches!(
            short,
            Error::LengthMismatch {
                points: 4096,
                scalars: 4095
            }
        ));
    }
}
