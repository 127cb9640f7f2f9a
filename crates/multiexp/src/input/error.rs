//! Typed errors of the input parsers: which input (the name the caller gave it), where in it
//! (a line, a byte offset, or the input as a whole), and what was expected there.

use core::fmt;

/// Where in an input an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// A line of a text input, counted from 1.
    Line(usize),
    /// A byte offset into a binary input, counted from 0.
    Byte(u64),
    /// The input as a whole (it is empty, or its element count is wrong).
    Whole,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Line(line) => write!(f, ":{line}"),
            Location::Byte(offset) => write!(f, ": byte {offset}"),
            Location::Whole => Ok(()),
        }
    }
}

/// Which rule of a point's flag bits an encoding breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlagProblem {
    /// A compressed encoding without the compression bit (ZCash format).
    CompressionBitClear,
    /// An uncompressed encoding with the compression bit set (ZCash format).
    CompressionBitSet,
    /// The sign bit set on the point at infinity.
    SignWithInfinity,
    /// The sign bit set on an uncompressed point (ZCash format).
    SignOnUncompressed,
    /// The sign bit of an uncompressed point does not match its y (arkworks format).
    SignMismatch,
    /// The sign bit asks for the larger square root of a point whose y is zero, which has one.
    SignOnZeroY,
}

impl fmt::Display for FlagProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FlagProblem::CompressionBitClear => "the compression bit is clear",
            FlagProblem::CompressionBitSet => "the compression bit is set",
            FlagProblem::SignWithInfinity => "the sign bit is set on the point at infinity",
            FlagProblem::SignOnUncompressed => "the sign bit is set on an uncompressed point",
            FlagProblem::SignMismatch => "the sign bit does not match y",
            FlagProblem::SignOnZeroY => "the sign bit is set but y is zero",
        })
    }
}

/// What is wrong at an error's location.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum InputErrorKind {
    /// The input holds no elements (it is empty, or only blank lines and comments).
    Empty,
    /// A hex line with an odd number of digits.
    OddHexDigits {
        /// Hex digits on the line (after any `0x`).
        digits: usize,
    },
    /// A byte that is not a hex digit.
    InvalidHexDigit {
        /// Column on the line, counted from 1.
        column: usize,
        /// The byte found there.
        found: u8,
    },
    /// An element of the wrong size: a hex line of the wrong length.
    WrongLength {
        /// Bytes one element takes.
        expected: usize,
        /// Bytes found.
        found: usize,
    },
    /// A binary input that ends before the last element its length prefix announces (or
    /// before the end of the 8-byte prefix itself: `count` 0, `expected` 8).
    Truncated {
        /// The element count the length prefix announces.
        count: u64,
        /// Bytes the input must have (`u64::MAX` where that is 2^64 or more).
        expected: u64,
        /// Bytes it has.
        found: u64,
    },
    /// A binary input with bytes after the last element its length prefix announces.
    TrailingBytes {
        /// The element count the length prefix announces.
        count: u64,
        /// Bytes the input must have.
        expected: u64,
        /// Bytes it has; `u64::MAX` for a stream read no further than 1 MiB past the last
        /// element, which went on.
        found: u64,
    },
    /// A hex line too long to be an element or a comment of any format (no newline in a
    /// block of `limit` bytes), as in a binary file read as hex or `/dev/zero`.
    LineTooLong {
        /// The longest line read, in bytes.
        limit: usize,
    },
    /// A binary input whose length prefix (matching its length) announces more elements than
    /// fit in the memory available.
    TooLarge {
        /// The element count the length prefix announces.
        count: u64,
        /// Bytes the decoded elements take.
        needed: u64,
        /// Bytes the system has available.
        available: u64,
    },
    /// The input could not be read (an I/O error: no such file, a directory, permission).
    Unreadable {
        /// The system's message.
        error: String,
    },
    /// A coordinate that is not a canonical field element (its integer is ≥ p).
    NonCanonicalField {
        /// `x` or `y`.
        coordinate: &'static str,
    },
    /// Flag bits no canonical encoding has.
    InvalidFlags {
        /// The rule broken.
        problem: FlagProblem,
    },
    /// The point at infinity with nonzero coordinate bits.
    NonCanonicalInfinity,
    /// Not a point of the curve (for a compressed point: no curve point has this x).
    NotOnCurve,
    /// A curve point outside the prime-order subgroup.
    NotInSubgroup,
    /// A scalar ≥ the group order r (accepted, reduced mod r, only when asked for).
    ScalarOutOfRange,
    /// Raw records whose length both the compressed and the uncompressed width divide, in an
    /// encoding without a compression bit: the caller must say which they are.
    AmbiguousWidth {
        /// Bytes of a compressed point.
        compressed: usize,
        /// Bytes of an uncompressed point.
        uncompressed: usize,
    },
    /// The scalar input has a different number of elements from the point input.
    CountMismatch {
        /// The name of the point input.
        points_input: String,
        /// Points it holds.
        points: usize,
        /// Scalars this input holds.
        scalars: usize,
    },
    /// A header line of a text format with fixed counts (the EIP-4844 trusted setup) that
    /// does not state the count the format has there.
    WrongCount {
        /// What the line counts, e.g. "the number of G1 points".
        what: &'static str,
        /// The count the format has.
        expected: usize,
        /// The line as found (whitespace trimmed, at most 40 characters).
        found: String,
    },
    /// A text input that ends inside a block of lines whose length its format fixes.
    MissingLines {
        /// What the block holds, e.g. "G1 Lagrange points".
        what: &'static str,
        /// Lines the block has.
        expected: usize,
        /// Lines the input has of it.
        found: usize,
    },
    /// A text input with more lines than its format has (blank lines at its end aside).
    TrailingLines {
        /// Lines the format has.
        expected: usize,
    },
    /// A field element of an EIP-4844 blob that is ≥ the group order r: not canonical.
    BlobElementOutOfRange {
        /// The element's index in the blob, counted from 0.
        index: usize,
    },
    /// An input larger than any valid one of its format (read no further than `limit`).
    TooLong {
        /// The most bytes a valid input of the format is read to.
        limit: u64,
    },
}

impl fmt::Display for InputErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputErrorKind::Empty => {
                write!(f, "no elements (empty, or only blank lines and comments)")
            }
            InputErrorKind::OddHexDigits { digits } => {
                write!(f, "odd number of hex digits ({digits})")
            }
            InputErrorKind::InvalidHexDigit { column, found } => {
                write!(
                    f,
                    "column {column}: {:?} is not a hex digit",
                    *found as char
                )
            }
            InputErrorKind::WrongLength { expected, found } => write!(
                f,
                "expected {expected} bytes ({} hex digits), found {found} bytes",
                2 * expected
            ),
            InputErrorKind::Truncated {
                expected, found, ..
            } if *expected == 8 && *found < 8 => write!(
                f,
                "truncated: {found} bytes, shorter than the 8-byte length prefix"
            ),
            InputErrorKind::Truncated {
                count,
                expected,
                found,
            } => write!(
                f,
                "truncated: the length prefix announces {count} elements ({}), the input has \
                 {found} bytes",
                announced_bytes(*expected)
            ),
            InputErrorKind::TrailingBytes {
                count,
                expected,
                found: u64::MAX,
            } => write!(
                f,
                "trailing bytes: the length prefix announces {count} elements ({expected} bytes), \
                 the input goes on past them (over 1 MiB more was read)"
            ),
            InputErrorKind::TrailingBytes {
                count,
                expected,
                found,
            } => write!(
                f,
                "trailing bytes: the length prefix announces {count} elements ({expected} bytes), \
                 the input has {found} bytes ({} after the last element)",
                found.saturating_sub(*expected)
            ),
            InputErrorKind::LineTooLong { limit } => write!(
                f,
                "a line longer than {limit} bytes, too long for an element or a comment (is \
                 the file binary? then give its format)"
            ),
            InputErrorKind::TooLarge {
                count,
                needed,
                available,
            } => write!(
                f,
                "the length prefix announces {count} elements, {needed} bytes in memory, more \
                 than the {available} bytes available"
            ),
            InputErrorKind::Unreadable { error } => write!(f, "cannot read: {error}"),
            InputErrorKind::NonCanonicalField { coordinate } => write!(
                f,
                "the {coordinate} coordinate is not a canonical field element (≥ p)"
            ),
            InputErrorKind::InvalidFlags { problem } => write!(f, "invalid flag bits: {problem}"),
            InputErrorKind::NonCanonicalInfinity => {
                write!(f, "the point at infinity has nonzero coordinate bits")
            }
            InputErrorKind::NotOnCurve => write!(f, "not a point of the curve"),
            InputErrorKind::NotInSubgroup => {
                write!(f, "a curve point outside the prime-order subgroup")
            }
            InputErrorKind::ScalarOutOfRange => write!(
                f,
                "scalar ≥ the group order r (reduce it mod r only if that is what you mean)"
            ),
            InputErrorKind::AmbiguousWidth {
                compressed,
                uncompressed,
            } => write!(
                f,
                "records of {compressed} (compressed) and of {uncompressed} bytes \
                 (uncompressed) both fit this length: say which they are"
            ),
            InputErrorKind::CountMismatch {
                points_input,
                points,
                scalars,
            } => write!(
                f,
                "{scalars} scalars, but {points_input} holds {points} points"
            ),
            InputErrorKind::WrongCount {
                what,
                expected,
                found,
            } => write!(f, "expected {expected} ({what}), found {found:?}"),
            InputErrorKind::MissingLines {
                what,
                expected,
                found,
            } => write!(
                f,
                "the input ends after {found} of the {expected} lines of {what}"
            ),
            InputErrorKind::TrailingLines { expected } => write!(
                f,
                "a line past the end of the format ({expected} lines, then only blank lines)"
            ),
            InputErrorKind::BlobElementOutOfRange { index } => write!(
                f,
                "blob element {index} (counted from 0) is ≥ the group order r: not a canonical \
                 field element"
            ),
            InputErrorKind::TooLong { limit } => write!(
                f,
                "longer than {limit} bytes, more than any valid input of this format"
            ),
        }
    }
}

/// An input that cannot be used: its name, where, and what is wrong there.
#[derive(Clone, Debug, PartialEq, Eq, Hash, thiserror::Error)]
#[error("{input}{location}: {kind}")]
pub struct InputError {
    /// The name the caller gave the input (a file name).
    pub input: String,
    /// Where in the input.
    pub location: Location,
    /// What is wrong.
    pub kind: InputErrorKind,
}

impl InputError {
    /// An error in `input` at `location`.
    pub fn new(input: &str, location: Location, kind: InputErrorKind) -> Self {
        InputError {
            input: input.to_string(),
            location,
            kind,
        }
    }
}

/// `n bytes`, or `2^64 bytes or more` for the saturated count.
fn announced_bytes(expected: u64) -> String {
    if expected == u64::MAX {
        "2^64 bytes or more".to_string()
    } else {
        format!("{expected} bytes")
    }
}
