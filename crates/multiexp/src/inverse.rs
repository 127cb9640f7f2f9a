//! Variable-time modular inversion by Bernstein–Yang "safegcd" divsteps (eprint 2019/266),
//! in the variable-time form with batches of 62 divsteps used by libsecp256k1.
//!
//! Batch-affine additions share one inversion per batch; at small batch sizes (small n, few
//! buckets, lane reductions) that inversion is the largest single cost, and arkworks' binary
//! extended Euclid (tens of thousands of cycles for a 381-bit prime) dominates it. Divsteps
//! work on the low 64 bits of f and g only, and apply each batch of 62 as one 2×2 matrix to
//! the full-width numbers, so a b-bit inversion costs about (b / 62 + a few) passes of O(b/62)
//! word multiplications: a few thousand cycles.
//!
//! Numbers are held in signed radix 2^62: N limbs, the low N-1 in [0, 2^62), the top one signed.
//! Invariants (from the paper and libsecp256k1's proof): f, g stay below the modulus M in
//! magnitude; d, e stay in (-2M, M); after the loop g = 0, f = ±1 and d·sign(f) ≡ x⁻¹ (mod M).
//! Variable time: the number of steps depends on x, so use it on public values only (the
//! MSM is variable-time anyway).

use ark_ff::{Field, PrimeField};

const M62: i64 = (u64::MAX >> 2) as i64;

/// Constants of one odd modulus in signed radix 2^62 with N limbs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Modulus<const N: usize> {
    m: [i64; N],
    /// M⁻¹ mod 2^62.
    inv62: u64,
}

/// The matrix of 62 divsteps, scaled by 2^62.
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

/// Little-endian u64 limbs to N limbs of 62 bits (the value must fit 62·N bits).
fn to_radix62<const N: usize>(x: &[u64]) -> [i64; N] {
    let mut out = [0i64; N];
    for (i, o) in out.iter_mut().enumerate() {
        let bit = 62 * i;
        let (w, off) = (bit / 64, bit % 64);
        let mut v = x.get(w).copied().unwrap_or(0) >> off;
        if off > 2 {
            v |= x.get(w + 1).copied().unwrap_or(0) << (64 - off);
        }
        *o = (v & M62 as u64) as i64;
    }
    out
}

/// N normalised non-negative limbs of 62 bits to little-endian u64 limbs.
fn from_radix62<const N: usize>(x: &[i64; N], out: &mut [u64]) {
    out.iter_mut().for_each(|o| *o = 0);
    for (i, &limb) in x.iter().enumerate() {
        let limb = limb as u64;
        let bit = 62 * i;
        let (w, off) = (bit / 64, bit % 64);
        if w < out.len() {
            out[w] |= limb << off;
        }
        if off > 2 && w + 1 < out.len() {
            out[w + 1] |= limb >> (64 - off);
        }
    }
}

/// Carries so that the low N-1 limbs are in [0, 2^62); the top limb keeps the sign.
fn normalise<const N: usize>(x: &mut [i64; N]) {
    let mut carry = 0i64;
    for limb in x.iter_mut().take(N - 1) {
        let v = *limb + carry;
        *limb = v & M62;
        carry = v >> 62;
    }
    x[N - 1] += carry;
}

fn add_assign<const N: usize>(x: &mut [i64; N], y: &[i64; N], sign: i64) {
    for (a, &b) in x.iter_mut().zip(y) {
        *a += sign * b;
    }
    normalise(x);
}

impl<const N: usize> Modulus<N> {
    /// The constants for an odd modulus given as little-endian u64 limbs, or `None` if it is
    /// even or too wide for N limbs (it must leave the top limb 8 bits of headroom).
    pub(crate) fn new(modulus: &[u64]) -> Option<Self> {
        let bits = modulus
            .iter()
            .rposition(|&l| l != 0)
            .map(|i| 64 * i as u32 + 64 - modulus[i].leading_zeros())
            .unwrap_or(0);
        if modulus.first().is_none_or(|&l| l & 1 == 0) || bits + 8 > 62 * N as u32 {
            return None;
        }
        let m = to_radix62::<N>(modulus);
        // M⁻¹ mod 2^64 by Newton's iteration (each step doubles the correct bits).
        let m0 = modulus[0];
        let mut inv = m0;
        for _ in 0..5 {
            inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
        }
        Some(Modulus {
            m,
            inv62: inv & (u64::MAX >> 2),
        })
    }

    /// x⁻¹ mod M for a canonical x < M (little-endian u64 limbs, written back into `x`);
    /// zero stays zero.
    pub(crate) fn invert(&self, x: &mut [u64]) {
        let mut g = to_radix62::<N>(x);
        if g.iter().all(|&l| l == 0) {
            return;
        }
        let mut f = self.m;
        let mut d = [0i64; N];
        let mut e = [0i64; N];
        e[0] = 1;
        let mut eta = -1i64;
        let mut len = N;
        loop {
            let (next, t) = divsteps_62(eta, f[0] as u64, g[0] as u64);
            eta = next;
            self.update_de(&mut d, &mut e, t);
            update_fg(len, &mut f, &mut g, t);
            if g[0] == 0 && g[1..len].iter().all(|&l| l == 0) {
                break;
            }
            // Drop the top limb once both f and g fit one limb less.
            let (fnl, gnl) = (f[len - 1], g[len - 1]);
            if len > 1 && (fnl ^ (fnl >> 63)) == 0 && (gnl ^ (gnl >> 63)) == 0 {
                f[len - 2] |= fnl << 62;
                g[len - 2] |= gnl << 62;
                len -= 1;
            }
        }
        // f = ±1: the inverse is d·f, brought from (-2M, 2M) into [0, M).
        if f[len - 1] < 0 {
            d.iter_mut().for_each(|l| *l = -*l);
        }
        normalise(&mut d);
        while d[N - 1] < 0 {
            add_assign(&mut d, &self.m, 1);
        }
        let mut t = d;
        add_assign(&mut t, &self.m, -1);
        while t[N - 1] >= 0 {
            d = t;
            add_assign(&mut t, &self.m, -1);
        }
        from_radix62(&d, x);
    }

    /// [d, e] = (t·[d, e] + M·[md, me]) / 2^62, with md, me chosen so the division is exact
    /// and d, e stay in (-2M, M).
    #[inline(always)]
    fn update_de(&self, d: &mut [i64; N], e: &mut [i64; N], t: Trans) {
        let Trans { u, v, q, r } = t;
        let (sd, se) = (d[N - 1] >> 63, e[N - 1] >> 63);
        let mut md = (u & sd) + (v & se);
        let mut me = (q & sd) + (r & se);
        let mut cd = u as i128 * d[0] as i128 + v as i128 * e[0] as i128;
        let mut ce = q as i128 * d[0] as i128 + r as i128 * e[0] as i128;
        md -= (self.inv62.wrapping_mul(cd as u64).wrapping_add(md as u64) & M62 as u64) as i64;
        me -= (self.inv62.wrapping_mul(ce as u64).wrapping_add(me as u64) & M62 as u64) as i64;
        cd += self.m[0] as i128 * md as i128;
        ce += self.m[0] as i128 * me as i128;
        debug_assert_eq!(cd as i64 & M62, 0);
        debug_assert_eq!(ce as i64 & M62, 0);
        cd >>= 62;
        ce >>= 62;
        for i in 1..N {
            cd += u as i128 * d[i] as i128 + v as i128 * e[i] as i128;
            cd += self.m[i] as i128 * md as i128;
            ce += q as i128 * d[i] as i128 + r as i128 * e[i] as i128;
            ce += self.m[i] as i128 * me as i128;
            d[i - 1] = cd as i64 & M62;
            e[i - 1] = ce as i64 & M62;
            cd >>= 62;
            ce >>= 62;
        }
        d[N - 1] = cd as i64;
        e[N - 1] = ce as i64;
    }
}

/// [f, g] = t·[f, g] / 2^62 on the low `len` limbs (exact: divsteps cleared 62 low bits).
#[inline(always)]
fn update_fg<const N: usize>(len: usize, f: &mut [i64; N], g: &mut [i64; N], t: Trans) {
    let Trans { u, v, q, r } = t;
    let mut cf = u as i128 * f[0] as i128 + v as i128 * g[0] as i128;
    let mut cg = q as i128 * f[0] as i128 + r as i128 * g[0] as i128;
    debug_assert_eq!(cf as i64 & M62, 0);
    debug_assert_eq!(cg as i64 & M62, 0);
    cf >>= 62;
    cg >>= 62;
    for i in 1..len {
        cf += u as i128 * f[i] as i128 + v as i128 * g[i] as i128;
        cg += q as i128 * f[i] as i128 + r as i128 * g[i] as i128;
        f[i - 1] = cf as i64 & M62;
        g[i - 1] = cg as i64 & M62;
        cf >>= 62;
        cg >>= 62;
    }
    f[len - 1] = cf as i64;
    g[len - 1] = cg as i64;
}

/// 62 divsteps on the low bits of f (odd) and g, with η = -δ; returns the new η and the
/// transition matrix. Runs of zero bits of g are skipped at once, and each other step
/// cancels up to 6 (or 4) low bits of g with one multiple of f.
#[inline(always)]
fn divsteps_62(mut eta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (1u64, 0u64, 0u64, 1u64);
    let (mut f, mut g) = (f0, g0);
    let mut i = 62u32;
    loop {
        // A sentinel bit stops the count at i.
        let zeros = (g | (u64::MAX << i)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        i -= zeros;
        if i == 0 {
            break;
        }
        let w;
        if eta < 0 {
            eta = -eta;
            (f, g) = (g, f.wrapping_neg());
            (u, q) = (q, u.wrapping_neg());
            (v, r) = (r, v.wrapping_neg());
            let limit = (eta + 1).min(i as i64) as u32;
            let m = (u64::MAX >> (64 - limit)) & 63;
            // -g/f mod 2^6, with f⁻¹ ≡ f(2 - f²) mod 2^6.
            w = f
                .wrapping_mul(g)
                .wrapping_mul(f.wrapping_mul(f).wrapping_sub(2))
                & m;
        } else {
            let limit = (eta + 1).min(i as i64) as u32;
            let m = (u64::MAX >> (64 - limit)) & 15;
            // -g/f mod 2^4, with f⁻¹ ≡ f + ((f + 1) & 4)·2 mod 2^4.
            let finv = f.wrapping_add(((f.wrapping_add(1)) & 4) << 1);
            w = finv.wrapping_neg().wrapping_mul(g) & m;
        }
        g = g.wrapping_add(f.wrapping_mul(w));
        q = q.wrapping_add(u.wrapping_mul(w));
        r = r.wrapping_add(v.wrapping_mul(w));
    }
    (
        eta,
        Trans {
            u: u as i64,
            v: v as i64,
            q: q as i64,
            r: r as i64,
        },
    )
}

/// Inverts elements of one prime field `F` by divsteps, through their canonical integers.
#[derive(Clone, Debug)]
pub(crate) struct PrimeInverter<F: PrimeField> {
    kind: Kind,
    _field: core::marker::PhantomData<F>,
}

#[derive(Clone, Debug)]
enum Kind {
    N5(Modulus<5>),
    N6(Modulus<6>),
    N7(Modulus<7>),
    N11(Modulus<11>),
    N13(Modulus<13>),
    /// Too wide for the sizes above: arkworks' own inversion.
    Arkworks,
}

impl<F: PrimeField> Default for PrimeInverter<F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<F: PrimeField> PrimeInverter<F> {
    /// The inverter of `F`, with the smallest limb count its modulus fits.
    pub(crate) fn new() -> Self {
        let m = F::MODULUS;
        let limbs = m.as_ref();
        let kind = None
            .or_else(|| Modulus::<5>::new(limbs).map(Kind::N5))
            .or_else(|| Modulus::<6>::new(limbs).map(Kind::N6))
            .or_else(|| Modulus::<7>::new(limbs).map(Kind::N7))
            .or_else(|| Modulus::<11>::new(limbs).map(Kind::N11))
            .or_else(|| Modulus::<13>::new(limbs).map(Kind::N13))
            .unwrap_or(Kind::Arkworks);
        PrimeInverter {
            kind,
            _field: core::marker::PhantomData,
        }
    }

    /// x⁻¹ for a canonical integer x < p in little-endian u64 limbs, in place (0 ↦ 0).
    pub(crate) fn invert_canonical(&self, x: &mut [u64]) {
        match &self.kind {
            Kind::N5(m) => m.invert(x),
            Kind::N6(m) => m.invert(x),
            Kind::N7(m) => m.invert(x),
            Kind::N11(m) => m.invert(x),
            Kind::N13(m) => m.invert(x),
            Kind::Arkworks => {
                let mut big = F::BigInt::default();
                let len = big.as_ref().len();
                big.as_mut().copy_from_slice(&x[..len]);
                let inv = F::from_bigint(big)
                    .and_then(|a| a.inverse())
                    .unwrap_or_default();
                x[..len].copy_from_slice(inv.into_bigint().as_ref());
            }
        }
    }

    /// x⁻¹ (0 ↦ 0).
    pub(crate) fn invert(&self, x: &F) -> F {
        let mut big = x.into_bigint();
        self.invert_canonical(big.as_mut());
        F::from_bigint(big).unwrap_or_default()
    }
}

/// Inverts elements of a field `K` (a prime field or an extension of one) with divsteps on
/// the base prime field: for an extension of degree d, x⁻¹ = x^(p + p² + … + p^(d-1)) / N(x)
/// where the norm N(x) = x^(1 + p + … + p^(d-1)) lies in the prime field, the powers of p
/// being Frobenius maps.
#[derive(Clone, Debug)]
pub(crate) struct Inverter<K: Field> {
    prime: PrimeInverter<K::BasePrimeField>,
}

impl<K: Field> Default for Inverter<K> {
    fn default() -> Self {
        Inverter {
            prime: PrimeInverter::new(),
        }
    }
}

impl<K: Field> Inverter<K> {
    /// x⁻¹ (0 ↦ 0).
    pub(crate) fn invert(&self, x: &K) -> K {
        let degree = K::extension_degree();
        if degree == 1 {
            let base = x.to_base_prime_field_elements().next().unwrap_or_default();
            return K::from_base_prime_field(self.prime.invert(&base));
        }
        if x.is_zero() {
            return K::zero();
        }
        // conj = x^(p + … + p^(d-1)), norm = x·conj ∈ F_p.
        let mut conj = K::one();
        let mut frob = *x;
        for _ in 1..degree {
            frob.frobenius_map_in_place(1);
            conj *= frob;
        }
        let norm = *x * conj;
        let n = norm
            .to_base_prime_field_elements()
            .next()
            .unwrap_or_default();
        conj.mul_by_base_prime_field(&self.prime.invert(&n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    fn check<K: Field>(samples: usize) {
        let inv = Inverter::<K>::default();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        let mut xs = vec![K::one(), -K::one(), K::one().double(), K::zero()];
        xs.extend((0..samples).map(|_| K::rand(&mut rng)));
        for x in xs {
            assert_eq!(inv.invert(&x), x.inverse().unwrap_or_default(), "{x}");
        }
    }

    fn check_prime<F: PrimeField>(samples: usize) {
        check::<F>(samples);
        // p - 1, p - 2, small powers of two and values with long zero runs.
        let p = PrimeInverter::<F>::new();
        let mut specials = vec![-F::one(), -F::from(2u64)];
        for k in [1u64, 61, 62, 63, 64, 124, 200] {
            specials.push(F::from(2u64).pow([k]));
            specials.push(F::from(2u64).pow([k]) + F::one());
        }
        for x in specials {
            assert_eq!(p.invert(&x), x.inverse().unwrap_or_default(), "{x}");
        }
    }

    #[test]
    fn divsteps_inverse_equals_arkworks_on_every_catalogue_field() {
        check_prime::<ark_bn254::Fq>(200);
        check_prime::<ark_bn254::Fr>(100);
        check_prime::<ark_bls12_381::Fq>(200);
        check_prime::<ark_bls12_381::Fr>(100);
        check_prime::<ark_bls12_377::Fq>(100);
        check_prime::<ark_bw6_761::Fq>(100);
        check_prime::<ark_secp256k1::Fq>(100);
        check_prime::<ark_secp256r1::Fq>(100);
        check_prime::<crate::curves::bls24_315::Fq>(100);
        check_prime::<crate::curves::bls24_317::Fq>(100);
        check_prime::<crate::curves::bw6_633::Fq>(100);
        check_prime::<crate::curves::stark_curve::Fq>(100);
    }

    #[test]
    fn norm_inverse_equals_arkworks_on_extension_fields() {
        check::<ark_bn254::Fq2>(50);
        check::<ark_bls12_381::Fq2>(50);
        check::<crate::curves::bls24_315::Fq4>(30);
        check::<crate::curves::bls24_317::Fq4>(30);
    }

    #[test]
    fn even_or_too_wide_moduli_are_refused() {
        assert!(Modulus::<5>::new(&[4, 1]).is_none());
        assert!(Modulus::<5>::new(&[1, 0, 0, 0, 1 << 60]).is_none());
        assert!(Modulus::<5>::new(&[u64::MAX, u64::MAX, u64::MAX, u64::MAX >> 2]).is_some());
    }
}
