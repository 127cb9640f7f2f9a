//! One prime field in radix 2^52, scalar: the constants the vector arithmetic broadcasts, and
//! the conversions between arkworks elements and 52-bit limbs.
//!
//! An element of a prime field with p < 2^(52L-1) is held as L limbs of 52 bits in the
//! Montgomery domain of R = 2^(52L): x ↦ x·R mod p, fully reduced to [0, p). Conversions go
//! through the canonical integer. Cost: a scalar Montgomery product is L² 128-bit products
//! (used once per batch and at conversions, never per addition).

use ark_ff::PrimeField;

pub(crate) const MASK: u64 = (1u64 << 52) - 1;

/// The number of 52-bit limbs used for a prime of `bits` bits: the smallest L with
/// p < 2^(52L - 1), so that 2p fits.
pub(crate) fn limbs_for(bits: u32) -> usize {
    (bits as usize + 1).div_ceil(52)
}

/// Constants of one prime field in radix 2^52.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Field52<const L: usize> {
    /// p in 52-bit limbs.
    pub p: [u64; L],
    /// -p⁻¹ mod 2^52.
    pub pinv: u64,
    /// R² mod p, R = 2^(52L): converts a canonical integer into the Montgomery domain.
    pub r2: [u64; L],
    /// R³ mod p: turns the plain inverse (aR)⁻¹ of a raw value into the Montgomery form a⁻¹R.
    pub r3: [u64; L],
    /// R²/2^(64·N) mod p, N the limbs of the arkworks representation: turns arkworks'
    /// Montgomery form a·2^(64·N) into this one, a·R, in one product.
    pub from_montgomery64: [u64; L],
    /// Number of 64-bit limbs of the arkworks representation.
    limbs64: usize,
}

/// Little-endian 64-bit limbs to 52-bit limbs (the value must fit 52·L bits).
pub(crate) fn to_radix52<const L: usize>(x: &[u64]) -> [u64; L] {
    let mut out = [0u64; L];
    for (i, o) in out.iter_mut().enumerate() {
        let bit = 52 * i;
        let (w, off) = (bit / 64, bit % 64);
        let mut v = x.get(w).copied().unwrap_or(0) >> off;
        if off > 12 {
            v |= x.get(w + 1).copied().unwrap_or(0) << (64 - off);
        }
        *o = v & MASK;
    }
    out
}

/// 52-bit limbs to little-endian 64-bit limbs.
pub(crate) fn from_radix52<const L: usize>(x: &[u64; L], out: &mut [u64]) {
    out.iter_mut().for_each(|o| *o = 0);
    for (i, &limb) in x.iter().enumerate() {
        let bit = 52 * i;
        let (w, off) = (bit / 64, bit % 64);
        if w < out.len() {
            out[w] |= limb << off;
        }
        if off > 12 && w + 1 < out.len() {
            out[w + 1] |= limb >> (64 - off);
        }
    }
}

fn geq<const L: usize>(a: &[u64; L], b: &[u64; L]) -> bool {
    for i in (0..L).rev() {
        if a[i] != b[i] {
            return a[i] > b[i];
        }
    }
    true
}

fn sub_in_place<const L: usize>(a: &mut [u64; L], b: &[u64; L]) {
    let mut borrow = 0i64;
    for i in 0..L {
        let d = a[i] as i64 - b[i] as i64 + borrow;
        borrow = d >> 52;
        a[i] = (d as u64) & MASK;
    }
}

impl<const L: usize> Field52<L> {
    /// The constants for the field `F`, or `None` if its modulus needs more than L limbs.
    pub(crate) fn of<F: PrimeField>() -> Option<Self> {
        let bits = F::MODULUS_BIT_SIZE;
        if limbs_for(bits) != L {
            return None;
        }
        let modulus = F::MODULUS;
        let m64 = modulus.as_ref();
        let p = to_radix52::<L>(m64);
        // p0⁻¹ mod 2^64 by Newton's iteration, then negate mod 2^52.
        let mut inv = 1u64;
        for _ in 0..6 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(inv)));
        }
        let pinv = inv.wrapping_neg() & MASK;
        // R² = 2^(2·52·L) mod p and R²/2^(64·N) = 2^(2·52·L − 64·N) mod p (N = the arkworks
        // limbs: 64·N < bits + 64 ≤ 2·52·L for any modulus of 64 bits or more), as powers of
        // 2 in F itself, canonical: a dozen products, where doubling 1 that many times cost
        // microseconds, paid by every conversion call (one per 512 points of a plain sum).
        let two_to =
            |e: usize| to_radix52::<L>(F::from(2u64).pow([e as u64]).into_bigint().as_ref());
        let r2 = two_to(104 * L);
        let from_montgomery64 = two_to(104 * L - 64 * m64.len());
        let mut field = Field52 {
            p,
            pinv,
            r2,
            r3: [0; L],
            from_montgomery64,
            limbs64: m64.len(),
        };
        field.r3 = field.mul_scalar(&r2, &r2);
        Some(field)
    }

    /// Montgomery product a·b/R mod p of one pair (scalar, 128-bit arithmetic).
    pub(crate) fn mul_scalar(&self, a: &[u64; L], b: &[u64; L]) -> [u64; L] {
        let mut t = [0u64; L];
        let mut top = 0u64;
        for &ai in a.iter() {
            let mut carry = 0u128;
            for j in 0..L {
                let s = t[j] as u128 + ai as u128 * b[j] as u128 + carry;
                t[j] = (s as u64) & MASK;
                carry = s >> 52;
            }
            let s = top as u128 + carry;
            let (t_l, t_l1) = ((s as u64) & MASK, (s >> 52) as u64);
            let m = t[0].wrapping_mul(self.pinv) & MASK;
            let mut carry = (t[0] as u128 + m as u128 * self.p[0] as u128) >> 52;
            for j in 1..L {
                let s = t[j] as u128 + m as u128 * self.p[j] as u128 + carry;
                t[j - 1] = (s as u64) & MASK;
                carry = s >> 52;
            }
            let s = t_l as u128 + carry;
            t[L - 1] = (s as u64) & MASK;
            top = t_l1 + (s >> 52) as u64;
        }
        debug_assert_eq!(top, 0);
        if geq(&t, &self.p) {
            sub_in_place(&mut t, &self.p);
        }
        t
    }

    /// An arkworks element into the Montgomery domain (scalar).
    pub(crate) fn encode<F: PrimeField>(&self, x: &F) -> [u64; L] {
        let canonical = to_radix52::<L>(x.into_bigint().as_ref());
        self.mul_scalar(&canonical, &self.r2)
    }

    /// Back to an arkworks element (scalar).
    pub(crate) fn decode<F: PrimeField>(&self, x: &[u64; L]) -> F {
        let mut one = [0u64; L];
        one[0] = 1;
        let canonical = self.mul_scalar(x, &one);
        let mut big = F::BigInt::default();
        from_radix52(&canonical, big.as_mut());
        debug_assert_eq!(self.limbs64, big.as_ref().len());
        F::from_bigint(big).unwrap_or_default()
    }

    /// The inverse in the Montgomery domain (scalar, through arkworks): for x = a·R returns
    /// a⁻¹·R; zero maps to zero.
    #[cfg(test)]
    pub(crate) fn inverse_scalar<F: PrimeField>(&self, x: &[u64; L]) -> [u64; L] {
        let a: F = self.decode(x);
        match a.inverse() {
            Some(inv) => self.encode(&inv),
            None => [0; L],
        }
    }

    /// The number of 64-bit limbs of the arkworks representation.
    pub(crate) fn limbs64(&self) -> usize {
        self.limbs64
    }
}
