//! Inputs read from a [`Read`] in blocks, each block decoded and checked (in parallel) before
//! the next is read: a bad element stops the read at the block that holds it, and what is
//! held at any time is the valid prefix decoded so far plus one block of bytes.
//!
//! - hex lines: blocks of [`BLOCK_BYTES`] cut after their last newline; the partial line is
//!   carried into the next block. A line that does not fit in a block (no element or comment
//!   line of any format is that long; `/dev/zero` is one) is [`InputErrorKind::LineTooLong`].
//! - binary: the length prefix first. With the input's length known (a regular file), the
//!   layout is chosen from it and a length that cannot match is an error before any element
//!   is read; then records in blocks, and end of input checked. With the length unknown (a
//!   pipe, a device), records are read while the prefix announces more, and bytes past the
//!   last are counted up to [`TRAILING_PROBE`] (more: `found` is `u64::MAX`, "goes on"). A
//!   point input whose compression is not given and whose length is unknown is the one case
//!   read whole first (its layout is known only at its end). Where the length vouches for the
//!   prefix, a count whose elements cannot fit in the memory available is
//!   [`InputErrorKind::TooLarge`] before anything is read.

use std::io::{ErrorKind, Read};

use super::error::{InputError, InputErrorKind, Location};
use super::text::element_lines_from;
use super::validate::Elements;
use super::{
    binary_layout, binary_records, binary_total, short_prefix, BinaryElements, HexElements, PREFIX,
};

/// Bytes read per block: hex lines of up to this length, binary records filling it.
pub(crate) const BLOCK_BYTES: usize = 4 << 20;

/// Bytes past the last element a stream of unknown length is read for, to count them.
pub(crate) const TRAILING_PROBE: usize = 1 << 20;

/// What decodes the elements of one block into values.
pub(crate) trait Decoder {
    /// The decoded value.
    type Item: Send;
    /// Every element of `elements`, or the error of the lowest-index bad one.
    fn decode<E: Elements>(&self, input: &str, elements: &E)
        -> Result<Vec<Self::Item>, InputError>;
}

/// A reader whose I/O errors become input errors.
struct Source<'a, R> {
    input: &'a str,
    reader: R,
    /// Bytes read so far.
    offset: u64,
}

impl<R: Read> Source<'_, R> {
    /// Fills `buf` unless the input ends first; the bytes read.
    fn fill(&mut self, buf: &mut [u8]) -> Result<usize, InputError> {
        let mut got = 0;
        while got < buf.len() {
            match self.reader.read(&mut buf[got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(e) => return Err(unreadable(self.input, &e)),
            }
        }
        self.offset += got as u64;
        Ok(got)
    }

    /// Reads and counts up to `limit` bytes; (bytes, whether the input goes on past them).
    fn skip(&mut self, limit: usize) -> Result<(u64, bool), InputError> {
        let mut buf = vec![0u8; 64 << 10];
        let mut seen = 0usize;
        while seen < limit {
            let want = buf.len().min(limit - seen);
            let got = self.fill(&mut buf[..want])?;
            seen += got;
            if got < want {
                return Ok((seen as u64, false));
            }
        }
        let more = self.fill(&mut [0u8; 1])? == 1;
        Ok((seen as u64, more))
    }
}

/// The error of an input that could not be read.
pub(crate) fn unreadable(input: &str, e: &std::io::Error) -> InputError {
    let kind = InputErrorKind::Unreadable {
        error: e.to_string(),
    };
    InputError::new(input, Location::Whole, kind)
}

/// Every element of a hex-lines input.
pub(crate) fn read_hex<D: Decoder, R: Read>(
    input: &str,
    reader: R,
    decoder: &D,
) -> Result<Vec<D::Item>, InputError> {
    let mut source = Source {
        input,
        reader,
        offset: 0,
    };
    let mut out = Vec::new();
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK_BYTES);
    let (mut first_line, mut at_start) = (1usize, true);
    loop {
        let carried = buf.len();
        buf.resize(BLOCK_BYTES, 0);
        let got = source.fill(&mut buf[carried..])?;
        buf.truncate(carried + got);
        let end = carried + got < BLOCK_BYTES;
        let cut = if end {
            buf.len()
        } else {
            match buf.iter().rposition(|&b| b == b'\n') {
                Some(i) => i + 1,
                None => {
                    let kind = InputErrorKind::LineTooLong { limit: BLOCK_BYTES };
                    return Err(InputError::new(input, Location::Line(first_line), kind));
                }
            }
        };
        let text = &buf[..cut];
        let lines = element_lines_from(text, first_line, at_start);
        if !lines.is_empty() {
            out.extend(decoder.decode(input, &HexElements { lines })?);
        }
        first_line += text.iter().filter(|&&b| b == b'\n').count();
        at_start = false;
        buf.drain(..cut);
        if end {
            break;
        }
    }
    if out.is_empty() {
        return Err(InputError::new(
            input,
            Location::Whole,
            InputErrorKind::Empty,
        ));
    }
    Ok(out)
}

/// Every element of an arkworks binary input whose records are one of `sizes` (ascending)
/// bytes; `length`: the input's length where known; `decoder(size)`: the decoder of records
/// of that size.
pub(crate) fn read_binary<D: Decoder, R: Read>(
    input: &str,
    reader: R,
    length: Option<u64>,
    sizes: &[usize],
    decoder: impl FnOnce(usize) -> D,
) -> Result<Vec<D::Item>, InputError> {
    let mut source = Source {
        input,
        reader,
        offset: 0,
    };
    let mut prefix = [0u8; PREFIX];
    let got = source.fill(&mut prefix)?;
    if got < PREFIX {
        return Err(short_prefix(input, got as u64));
    }
    let count = u64::from_le_bytes(prefix);
    let size = match (length, sizes) {
        (Some(found), _) => binary_layout(input, count, found, sizes)?,
        (None, &[size]) => size,
        (None, _) => return read_binary_whole(input, source, prefix, count, sizes, decoder),
    };
    if length.is_some() {
        // The length vouches for the count: refuse what cannot be held before reading it.
        fits::<D::Item>(input, count)?;
    }
    let decoder = decoder(size);
    let expected = binary_total(count, size);
    let per_block = (BLOCK_BYTES / size).max(1);
    let mut buf = vec![0u8; per_block.min(count.min(usize::MAX as u64) as usize) * size];
    let mut out = Vec::new();
    let mut done = 0u64;
    while done < count {
        let want = (per_block as u64).min(count - done) as usize * size;
        let first = source.offset;
        let got = source.fill(&mut buf[..want])?;
        let whole = got / size;
        if whole > 0 {
            let data = &buf[..whole * size];
            out.extend(decoder.decode(input, &BinaryElements { data, size, first })?);
        }
        done += whole as u64;
        if got < want {
            let kind = InputErrorKind::Truncated {
                count,
                expected: expected.min(u64::MAX as u128) as u64,
                found: source.offset,
            };
            let location = Location::Byte(first + (whole * size) as u64);
            return Err(InputError::new(input, location, kind));
        }
    }
    let expected = expected as u64; // all of it was read
    let (extra, more) = source.skip(TRAILING_PROBE)?;
    if extra > 0 {
        let found = if more { u64::MAX } else { expected + extra };
        let kind = InputErrorKind::TrailingBytes {
            count,
            expected,
            found,
        };
        return Err(InputError::new(input, Location::Byte(expected), kind));
    }
    if count == 0 {
        return Err(InputError::new(
            input,
            Location::Whole,
            InputErrorKind::Empty,
        ));
    }
    Ok(out)
}

/// An error if `count` decoded elements of `T` exceed the memory available (no check below
/// 64 MiB, nor where the figure is unknown).
fn fits<T>(input: &str, count: u64) -> Result<(), InputError> {
    let needed = count.saturating_mul(std::mem::size_of::<T>() as u64);
    if needed < 64 << 20 {
        return Ok(());
    }
    match crate::exec::available_memory() {
        Some(available) if needed > available => {
            let kind = InputErrorKind::TooLarge {
                count,
                needed,
                available,
            };
            Err(InputError::new(input, Location::Whole, kind))
        }
        _ => Ok(()),
    }
}

/// A binary input of unknown length and layout: read up to the largest layout's length (and
/// the probe past it), then decoded as bytes.
fn read_binary_whole<D: Decoder, R: Read>(
    input: &str,
    mut source: Source<'_, R>,
    prefix: [u8; PREFIX],
    count: u64,
    sizes: &[usize],
    decoder: impl FnOnce(usize) -> D,
) -> Result<Vec<D::Item>, InputError> {
    let largest = binary_total(count, sizes[sizes.len() - 1]);
    let limit = largest.saturating_add(TRAILING_PROBE as u128) - PREFIX as u128;
    let mut bytes = prefix.to_vec();
    // Grown as the bytes arrive, never by what the prefix announces.
    let mut reader = (&mut source.reader).take(limit.min(u64::MAX as u128) as u64);
    if let Err(e) = reader.read_to_end(&mut bytes) {
        return Err(unreadable(input, &e));
    }
    if bytes.len() as u128 == limit + PREFIX as u128 && source.fill(&mut [0u8; 1])? == 1 {
        let expected = largest.min(u64::MAX as u128) as u64;
        let kind = InputErrorKind::TrailingBytes {
            count,
            expected,
            found: u64::MAX,
        };
        return Err(InputError::new(input, Location::Byte(expected), kind));
    }
    let records = binary_records(input, &bytes, sizes)?;
    decoder(records.size).decode(input, &records)
}
