//! Hex-lines inputs: one element per line, an optional `0x`, blank lines and `#` comment
//! lines ignored, leading and trailing whitespace (spaces, tabs, a `\r` before the `\n`)
//! ignored; a UTF-8 byte-order mark at the start (as some editors write) is skipped.
//!
//! Splitting is one sequential pass over the bytes (about a gigabyte a second); decoding a
//! line's digits happens later, in parallel, element by element.

use super::error::{InputErrorKind, Location};

/// One element line: where it is and its digits.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HexLine<'a> {
    /// Line number, counted from 1.
    pub line: usize,
    /// Column of the first digit, counted from 1.
    pub column: usize,
    /// The digits, after whitespace and any `0x` are stripped.
    pub digits: &'a [u8],
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c')
}

/// The UTF-8 byte-order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The element lines of a hex input, in order.
pub(crate) fn element_lines(text: &[u8]) -> Vec<HexLine<'_>> {
    element_lines_from(text, 1, true)
}

/// The element lines of a run of whole lines of a hex input whose first is line
/// `first_line`; `at_start`: the run starts the input (where a byte-order mark may be).
pub(crate) fn element_lines_from(
    text: &[u8],
    first_line: usize,
    at_start: bool,
) -> Vec<HexLine<'_>> {
    let mut out = Vec::new();
    let bom = if at_start && text.starts_with(BOM) {
        BOM.len()
    } else {
        0
    };
    for (i, raw) in text[bom..].split(|&b| b == b'\n').enumerate() {
        // Columns count the mark's bytes on line 1, as an editor's byte column would.
        let shift = if i == 0 { bom } else { 0 };
        let start = raw.iter().position(|&b| !is_space(b)).unwrap_or(raw.len());
        let end = raw
            .iter()
            .rposition(|&b| !is_space(b))
            .map_or(start, |e| e + 1);
        let mut body = &raw[start..end];
        if body.is_empty() || body[0] == b'#' {
            continue;
        }
        let mut column = shift + start + 1;
        if body.len() >= 2 && body[0] == b'0' && (body[1] == b'x' || body[1] == b'X') {
            body = &body[2..];
            column += 2;
        }
        out.push(HexLine {
            line: first_line + i,
            column,
            digits: body,
        });
    }
    out
}

const INVALID: u8 = 0xff;

const fn digit_table() -> [u8; 256] {
    let mut t = [INVALID; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
}

static DIGITS: [u8; 256] = digit_table();

impl HexLine<'_> {
    /// Where this line is.
    pub(super) fn location(&self) -> Location {
        Location::Line(self.line)
    }

    /// Decodes the line into exactly `out.len()` bytes.
    pub(super) fn decode_into(&self, out: &mut [u8]) -> Result<(), InputErrorKind> {
        let digits = self.digits;
        if digits.len() % 2 == 1 {
            return Err(InputErrorKind::OddHexDigits {
                digits: digits.len(),
            });
        }
        if digits.len() != 2 * out.len() {
            return Err(InputErrorKind::WrongLength {
                expected: out.len(),
                found: digits.len() / 2,
            });
        }
        for (k, (o, pair)) in out.iter_mut().zip(digits.chunks_exact(2)).enumerate() {
            let (hi, lo) = (DIGITS[pair[0] as usize], DIGITS[pair[1] as usize]);
            if hi == INVALID || lo == INVALID {
                let bad = if hi == INVALID { 0 } else { 1 };
                return Err(InputErrorKind::InvalidHexDigit {
                    column: self.column + 2 * k + bad,
                    found: pair[bad],
                });
            }
            *o = (hi << 4) | lo;
        }
        Ok(())
    }
}

/// Lower-case hex of `bytes`, appended to `out`.
pub(crate) fn push_hex(bytes: &[u8], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(2 * bytes.len());
    for &b in bytes {
        out.push(HEX[(b >> 4) as usize] as char);
        out.push(HEX[(b & 15) as usize] as char);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blank_comment_and_prefixed_lines_are_handled() {
        let text = b"# header\n\n  0xABcd \r\n\t#x\nff\n";
        let lines = element_lines(text);
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].line, lines[0].column), (3, 5));
        assert_eq!((lines[1].line, lines[1].column), (5, 1));
        let mut out = [0u8; 2];
        lines[0].decode_into(&mut out).unwrap();
        assert_eq!(out, [0xab, 0xcd]);
    }

    #[test]
    fn bad_digit_reports_its_column() {
        let lines = element_lines(b"0x12g4");
        let mut out = [0u8; 2];
        assert_eq!(
            lines[0].decode_into(&mut out),
            Err(InputErrorKind::InvalidHexDigit {
                column: 5,
                found: b'g'
            })
        );
    }
}
