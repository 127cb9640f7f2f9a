//! Point encodings, byte for byte, and the canonical-encoding rules of each.
//!
//! A coordinate over `Fp^d` is its d base-prime-field coefficients (c0 first, arkworks'
//! `to_base_prime_field_elements` order), each as the canonical integer in [0, p).
//!
//! - **ZCash** (BLS12-381, BLS12-377; the IETF pairing-friendly-curves draft and the EIP-4844
//!   trusted setup): every coefficient big-endian in ⌈bits/8⌉ bytes, the highest coefficient
//!   first; the top three bits of the first byte are flags: bit 7 compression, bit 6 infinity,
//!   bit 5 sign (y is the lexicographically larger of ±y, only when compressed). Compressed: x;
//!   uncompressed: x then y. Infinity is the flags over all-zero bits.
//! - **arkworks** (`CanonicalSerialize`): every coefficient little-endian in ⌈bits/8⌉ bytes,
//!   c0 first; the last coefficient of the flagged coordinate takes ⌈(bits+2)/8⌉ bytes, and
//!   bits 7 and 6 of its last byte are flags: bit 7 "y is the larger of ±y", bit 6 infinity.
//!   Compressed: x, flagged; uncompressed: x, then y flagged. Infinity is zero coordinates
//!   with bit 6 alone. (arkworks' own BLS12-381 serializer writes the ZCash format.)
//!
//! Canonical means the bytes the writer here produces and nothing else: coefficients below
//! p, the unused bits zero, the flags exactly as above (arkworks readers accept some
//! others: a set sign bit on an uncompressed point, nonzero bits under an infinity flag).

use core::marker::PhantomData;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::{AffineRepr, CurveConfig};
use ark_ff::{BigInteger, Field, PrimeField, Zero};

use super::error::{FlagProblem, InputErrorKind};

type Prime<P> = <<P as CurveConfig>::BaseField as Field>::BasePrimeField;

/// The largest extension degree of a coordinate field in the catalogue (Fp4 of BLS24 G2).
const MAX_DEGREE: usize = 4;

/// A byte encoding of points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PointEncoding {
    /// ZCash/IETF: big-endian, flags in the top three bits of the first byte.
    Zcash,
    /// arkworks' `CanonicalSerialize`: little-endian, flags in the top two bits of the last
    /// byte.
    Arkworks,
}

fn is_config<P: 'static, Q: 'static>() -> bool {
    core::any::TypeId::of::<P>() == core::any::TypeId::of::<Q>()
}

/// Whether `P` is BLS12-381 G1 or G2.
fn is_bls12_381<P: SWCurveConfig>() -> bool {
    #[cfg(feature = "bls12-381")]
    if is_config::<P, ark_bls12_381::g1::Config>() || is_config::<P, ark_bls12_381::g2::Config>() {
        return true;
    }
    false
}

/// Whether `P` is a BLS12 curve's G1 or G2 (381 or 377).
fn is_bls12<P: SWCurveConfig>() -> bool {
    #[cfg(feature = "bls12-377")]
    if is_config::<P, ark_bls12_377::g1::Config>() || is_config::<P, ark_bls12_377::g2::Config>() {
        return true;
    }
    is_bls12_381::<P>()
}

impl PointEncoding {
    /// The curve's standard encoding, used by hex inputs and printed results: ZCash for
    /// BLS12-381 and BLS12-377, arkworks' for every other curve.
    pub fn standard<P: SWCurveConfig>() -> Self {
        if is_bls12::<P>() {
            PointEncoding::Zcash
        } else {
            PointEncoding::Arkworks
        }
    }

    /// The encoding arkworks' `CanonicalSerialize` writes for `P`: ZCash for BLS12-381 (whose
    /// arkworks crate overrides it), arkworks' own for the others.
    pub fn binary<P: SWCurveConfig>() -> Self {
        if is_bls12_381::<P>() {
            PointEncoding::Zcash
        } else {
            PointEncoding::Arkworks
        }
    }
}

/// Byte sizes of one curve/group's coordinates in one encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    /// Coefficients per coordinate.
    degree: usize,
    /// Bytes per plain coefficient.
    coeff: usize,
    /// Bytes of the flagged (last) coefficient.
    flagged: usize,
}

impl Layout {
    fn of<P: SWCurveConfig>(encoding: PointEncoding) -> Self {
        let bits = Prime::<P>::MODULUS_BIT_SIZE as usize;
        let degree = <P::BaseField as Field>::extension_degree() as usize;
        let coeff = bits.div_ceil(8);
        let flagged = match encoding {
            PointEncoding::Zcash => coeff,
            PointEncoding::Arkworks => (bits + 2).div_ceil(8),
        };
        Layout {
            degree,
            coeff,
            flagged,
        }
    }

    /// Bytes of one coordinate, flagged or plain.
    fn coordinate(&self, flagged: bool) -> usize {
        (self.degree - 1) * self.coeff + if flagged { self.flagged } else { self.coeff }
    }
}

/// `word` with `mask` applied to its byte `byte` (0 = least significant) if `byte` < 8.
fn mask_byte(word: u64, byte: usize, mask: u8) -> u64 {
    if byte < 8 {
        word & !((!mask as u64) << (8 * byte))
    } else {
        word
    }
}

/// The canonical integer of little-endian `bytes` if it is below the modulus of `F`; byte
/// index `masked` has `mask` applied first. Reads whole 64-bit words.
fn canonical_le<F: PrimeField>(bytes: &[u8], masked: usize, mask: u8) -> Option<F::BigInt> {
    let mut big = F::BigInt::default();
    let limbs = big.as_mut();
    for (i, chunk) in bytes.chunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        let word = mask_byte(u64::from_le_bytes(word), masked.wrapping_sub(8 * i), mask);
        match limbs.get_mut(i) {
            Some(limb) => *limb = word,
            None if word != 0 => return None,
            None => {}
        }
    }
    (big < F::MODULUS).then_some(big)
}

/// As [`canonical_le`] for big-endian bytes.
fn canonical_be<F: PrimeField>(bytes: &[u8], masked: usize, mask: u8) -> Option<F::BigInt> {
    let mut big = F::BigInt::default();
    let limbs = big.as_mut();
    // Byte k of `bytes` is byte (len - 1 - k) of the integer.
    let masked = match masked < bytes.len() {
        true => bytes.len() - 1 - masked,
        false => usize::MAX,
    };
    for (i, chunk) in bytes.rchunks(8).enumerate() {
        let mut word = [0u8; 8];
        word[8 - chunk.len()..].copy_from_slice(chunk);
        let word = mask_byte(u64::from_be_bytes(word), masked.wrapping_sub(8 * i), mask);
        match limbs.get_mut(i) {
            Some(limb) => *limb = word,
            None if word != 0 => return None,
            None => {}
        }
    }
    (big < F::MODULUS).then_some(big)
}

fn write_le(big: &impl BigInteger, out: &mut [u8]) {
    let limbs = big.as_ref();
    for (k, o) in out.iter_mut().enumerate() {
        *o = limbs.get(k / 8).map_or(0, |l| (l >> (8 * (k % 8))) as u8);
    }
}

fn write_be(big: &impl BigInteger, out: &mut [u8]) {
    let len = out.len();
    for (k, o) in out.iter_mut().enumerate() {
        let from_end = len - 1 - k;
        *o = big
            .as_ref()
            .get(from_end / 8)
            .map_or(0, |l| (l >> (8 * (from_end % 8))) as u8);
    }
}

/// Whether a coordinate given by its canonical coefficients is the larger of ±y in arkworks'
/// (and ZCash's) lexicographic order: its highest nonzero coefficient is above (p-1)/2.
pub(crate) fn is_larger<F: PrimeField>(coefficients: &[F::BigInt]) -> bool {
    coefficients
        .iter()
        .rev()
        .find(|c| !c.is_zero())
        .is_some_and(|c| *c > F::MODULUS_MINUS_ONE_DIV_TWO)
}

/// The canonical integer of a base prime field element of `P`.
pub(crate) type Int<P> = <Prime<P> as PrimeField>::BigInt;

/// A decoded coordinate.
struct Coordinate<P: SWCurveConfig> {
    value: P::BaseField,
    /// The canonical integer of its first coefficient (all of it over a prime field).
    first: Int<P>,
    /// Whether it is the larger of ±value.
    larger: bool,
}

/// A decoded point before the curve checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decoded<P: SWCurveConfig> {
    /// The point at infinity.
    Infinity,
    /// x and which square root y is.
    Compressed {
        /// The x coordinate.
        x: P::BaseField,
        /// The canonical integer of x's first coefficient (all of x over a prime field).
        x_int: <Prime<P> as PrimeField>::BigInt,
        /// y is the larger of ±y.
        larger: bool,
    },
    /// Both coordinates, not yet checked to be on the curve.
    Uncompressed(Affine<P>),
    /// Both coordinates over a prime field as canonical integers, not yet converted (see
    /// [`Codec::deferring_fields`]) nor checked to be on the curve.
    Integers([Int<P>; 2]),
}

/// Reads and writes the points of `P` in one encoding, compressed or not.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Codec<P: SWCurveConfig> {
    encoding: PointEncoding,
    compressed: bool,
    /// Uncompressed points over a prime field decode to [`Decoded::Integers`].
    defer_fields: bool,
    layout: Layout,
    _curve: PhantomData<P>,
}

impl<P: SWCurveConfig> Codec<P> {
    pub(super) fn new(encoding: PointEncoding, compressed: bool) -> Self {
        Codec {
            encoding,
            compressed,
            defer_fields: false,
            layout: Layout::of::<P>(encoding),
            _curve: PhantomData,
        }
    }

    /// This codec, decoding uncompressed points over a prime field to canonical integers
    /// (for a caller that converts and checks them in bulk).
    pub(super) fn deferring_fields(self) -> Self {
        Codec {
            defer_fields: !self.compressed && self.layout.degree == 1,
            ..self
        }
    }

    /// Bytes per point.
    pub(super) fn size(&self) -> usize {
        let l = &self.layout;
        match (self.encoding, self.compressed) {
            (_, true) => l.coordinate(true),
            (PointEncoding::Zcash, false) => 2 * l.coordinate(false),
            (PointEncoding::Arkworks, false) => l.coordinate(false) + l.coordinate(true),
        }
    }

    /// The canonical integer of a coordinate over a prime field and whether it is the larger
    /// of ±value, from its bytes, with `mask` applied to byte `masked`.
    fn prime_coordinate(
        &self,
        bytes: &[u8],
        flagged: bool,
        masked: usize,
        mask: u8,
        name: &'static str,
    ) -> Result<(Int<P>, bool), InputErrorKind> {
        let len = if flagged {
            self.layout.flagged
        } else {
            self.layout.coeff
        };
        let chunk = &bytes[..len];
        let int = match self.encoding {
            PointEncoding::Zcash => canonical_be::<Prime<P>>(chunk, masked, mask),
            PointEncoding::Arkworks => canonical_le::<Prime<P>>(chunk, masked, mask),
        }
        .ok_or(InputErrorKind::NonCanonicalField { coordinate: name })?;
        Ok((int, int > Prime::<P>::MODULUS_MINUS_ONE_DIV_TWO))
    }

    /// A coordinate from its bytes (coefficient order per the encoding), with `mask` applied
    /// to byte `masked`.
    fn coordinate(
        &self,
        bytes: &[u8],
        flagged: bool,
        masked: usize,
        mask: u8,
        name: &'static str,
    ) -> Result<Coordinate<P>, InputErrorKind> {
        let l = &self.layout;
        let bad = || InputErrorKind::NonCanonicalField { coordinate: name };
        if l.degree == 1 {
            let (int, larger) = self.prime_coordinate(bytes, flagged, masked, mask, name)?;
            let c = Prime::<P>::from_bigint(int).ok_or_else(bad)?;
            return Ok(Coordinate {
                value: P::BaseField::from_base_prime_field(c),
                first: int,
                larger,
            });
        }
        let read = |offset: usize, len: usize| {
            let chunk = &bytes[offset..offset + len];
            let masked_here = masked.wrapping_sub(offset);
            match self.encoding {
                PointEncoding::Zcash => canonical_be::<Prime<P>>(chunk, masked_here, mask),
                PointEncoding::Arkworks => canonical_le::<Prime<P>>(chunk, masked_here, mask),
            }
            .ok_or_else(bad)
        };
        let mut ints = [<Prime<P> as PrimeField>::BigInt::default(); MAX_DEGREE];
        let mut coeffs = [Prime::<P>::zero(); MAX_DEGREE];
        let mut offset = 0;
        for i in 0..l.degree {
            // ZCash writes the highest coefficient first.
            let (index, len) = match self.encoding {
                PointEncoding::Zcash => (l.degree - 1 - i, l.coeff),
                PointEncoding::Arkworks if flagged && i + 1 == l.degree => (i, l.flagged),
                PointEncoding::Arkworks => (i, l.coeff),
            };
            ints[index] = read(offset, len)?;
            coeffs[index] = Prime::<P>::from_bigint(ints[index]).ok_or_else(bad)?;
            offset += len;
        }
        let value = P::BaseField::from_base_prime_field_elems(coeffs[..l.degree].iter().copied())
            .ok_or_else(bad)?;
        Ok(Coordinate {
            value,
            first: ints[0],
            larger: is_larger::<Prime<P>>(&ints[..l.degree]),
        })
    }

    /// Decodes one point of exactly [`Codec::size`] bytes, checking every canonical-encoding
    /// rule that needs no curve arithmetic.
    pub(super) fn decode(&self, bytes: &[u8]) -> Result<Decoded<P>, InputErrorKind> {
        debug_assert_eq!(bytes.len(), self.size());
        let flags = |problem| InputErrorKind::InvalidFlags { problem };
        let x_len = self.layout.coordinate(self.compressed);
        match self.encoding {
            PointEncoding::Zcash => {
                let b0 = bytes[0];
                let (compression, infinity, sign) =
                    (b0 & 0x80 != 0, b0 & 0x40 != 0, b0 & 0x20 != 0);
                if self.compressed && !compression {
                    return Err(flags(FlagProblem::CompressionBitClear));
                }
                if !self.compressed && compression {
                    return Err(flags(FlagProblem::CompressionBitSet));
                }
                if infinity {
                    if sign {
                        return Err(flags(FlagProblem::SignWithInfinity));
                    }
                    if b0 & 0x1f != 0 || bytes[1..].iter().any(|&b| b != 0) {
                        return Err(InputErrorKind::NonCanonicalInfinity);
                    }
                    return Ok(Decoded::Infinity);
                }
                if !self.compressed && sign {
                    return Err(flags(FlagProblem::SignOnUncompressed));
                }
                if self.defer_fields {
                    let (x, _) = self.prime_coordinate(&bytes[..x_len], false, 0, 0x1f, "x")?;
                    let y_bytes = &bytes[x_len..];
                    let (y, _) = self.prime_coordinate(y_bytes, false, usize::MAX, 0xff, "y")?;
                    return Ok(Decoded::Integers([x, y]));
                }
                let x = self.coordinate(&bytes[..x_len], false, 0, 0x1f, "x")?;
                if self.compressed {
                    let (x_int, x) = (x.first, x.value);
                    return Ok(Decoded::Compressed {
                        x,
                        x_int,
                        larger: sign,
                    });
                }
                let y = self.coordinate(&bytes[x_len..], false, usize::MAX, 0xff, "y")?;
                Ok(Decoded::Uncompressed(Affine::new_unchecked(
                    x.value, y.value,
                )))
            }
            PointEncoding::Arkworks => {
                let last = bytes.len() - 1;
                let (sign, infinity) = (bytes[last] & 0x80 != 0, bytes[last] & 0x40 != 0);
                if infinity {
                    if sign {
                        return Err(flags(FlagProblem::SignWithInfinity));
                    }
                    if bytes[last] & 0x3f != 0 || bytes[..last].iter().any(|&b| b != 0) {
                        return Err(InputErrorKind::NonCanonicalInfinity);
                    }
                    return Ok(Decoded::Infinity);
                }
                if self.compressed {
                    let x = self.coordinate(bytes, true, last, 0x3f, "x")?;
                    let (x_int, x) = (x.first, x.value);
                    return Ok(Decoded::Compressed {
                        x,
                        x_int,
                        larger: sign,
                    });
                }
                let y_bytes = &bytes[x_len..];
                if self.defer_fields {
                    let (x, _) =
                        self.prime_coordinate(&bytes[..x_len], false, usize::MAX, 0xff, "x")?;
                    let masked = y_bytes.len() - 1;
                    let (y, larger) = self.prime_coordinate(y_bytes, true, masked, 0x3f, "y")?;
                    if larger != sign {
                        return Err(flags(FlagProblem::SignMismatch));
                    }
                    return Ok(Decoded::Integers([x, y]));
                }
                let x = self.coordinate(&bytes[..x_len], false, usize::MAX, 0xff, "x")?;
                let y = self.coordinate(y_bytes, true, y_bytes.len() - 1, 0x3f, "y")?;
                if y.larger != sign {
                    return Err(flags(FlagProblem::SignMismatch));
                }
                Ok(Decoded::Uncompressed(Affine::new_unchecked(
                    x.value, y.value,
                )))
            }
        }
    }

    /// Writes a coordinate's coefficients in this encoding's order into `out` (exactly the
    /// coordinate's size).
    fn put_coordinate(&self, value: &P::BaseField, flagged: bool, out: &mut [u8]) {
        let l = &self.layout;
        let coeffs: Vec<Prime<P>> = value.to_base_prime_field_elements().collect();
        let mut offset = 0;
        for i in 0..l.degree {
            let (index, len) = match self.encoding {
                PointEncoding::Zcash => (l.degree - 1 - i, l.coeff),
                PointEncoding::Arkworks if flagged && i + 1 == l.degree => (i, l.flagged),
                PointEncoding::Arkworks => (i, l.coeff),
            };
            let big = coeffs[index].into_bigint();
            let chunk = &mut out[offset..offset + len];
            match self.encoding {
                PointEncoding::Zcash => write_be(&big, chunk),
                PointEncoding::Arkworks => write_le(&big, chunk),
            }
            offset += len;
        }
    }

    /// Appends the canonical encoding of `point` to `out`.
    pub(super) fn encode(&self, point: &Affine<P>, out: &mut Vec<u8>) {
        let start = out.len();
        out.resize(start + self.size(), 0);
        let bytes = &mut out[start..];
        let x_len = self.layout.coordinate(self.compressed);
        let Some((x, y)) = point.xy() else {
            match self.encoding {
                PointEncoding::Zcash => {
                    bytes[0] = if self.compressed { 0xc0 } else { 0x40 };
                }
                PointEncoding::Arkworks => {
                    let last = bytes.len() - 1;
                    bytes[last] = 0x40;
                }
            }
            return;
        };
        let larger = y > -y;
        match self.encoding {
            PointEncoding::Zcash => {
                self.put_coordinate(&x, false, &mut bytes[..x_len]);
                if self.compressed {
                    bytes[0] |= 0x80 | if larger { 0x20 } else { 0 };
                } else {
                    self.put_coordinate(&y, false, &mut bytes[x_len..]);
                }
            }
            PointEncoding::Arkworks => {
                self.put_coordinate(&x, self.compressed, &mut bytes[..x_len]);
                if !self.compressed {
                    self.put_coordinate(&y, true, &mut bytes[x_len..]);
                }
                if larger {
                    let last = bytes.len() - 1;
                    bytes[last] |= 0x80;
                }
            }
        }
    }
}
