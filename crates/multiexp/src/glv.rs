//! GLV: an endomorphism halves the scalars.
//!
//! On a curve y² = x³ + b over a field with a primitive cube root of unity β, the map
//! φ(x, y) = (βx, y) is a group endomorphism, and on the prime-order subgroup it acts as
//! multiplication by a cube root of unity λ of the scalar field: φ(P) = λ·P. Any k < r splits
//! as k ≡ k1 + k2·λ (mod r) with |k1|, |k2| about √r, so k·P = k1·P + k2·φ(P): an MSM of n
//! full-size scalars becomes one of 2n scalars of half the bits, which halves the bucket
//! reductions and lets a larger window pay (the planner prices both and takes GLV only where
//! it wins).
//!
//! Nothing here is per curve: β, λ and the short lattice basis are derived at first use from
//! the curve's own constants (the moduli, a = 0, its generator) and checked (φ(G) = λ·G, and
//! decompositions of boundary scalars), so every curve/group with a = 0, q ≡ 1 and r ≡ 1
//! (mod 3) and a scalar field of at most four limbs gets it: BN254, BLS12-381/377, BLS24,
//! grumpkin, secp256k1 (G1 and G2 alike: β lies in the base prime field).
//!
//! The split (Gallant–Lambert–Vanstone, 2001): extended Euclid on (r, λ) gives two short
//! vectors (a1, b1), (a2, b2) with aᵢ + bᵢ·λ ≡ 0; for k, cᵢ = round(βᵢ) of the rational
//! solution (k, 0) = β1·v1 + β2·v2, and (k1, k2) = (k, 0) − c1·v1 − c2·v2. The roundings
//! run on fixed-size integers: cᵢ = ⌊(k·gᵢ + 2^(S−1)) / 2^S⌋ with gᵢ ≈ ±bⱼ·2^S / det,
//! precomputed; k1 and k2 are then evaluated modulo 2^320 in two's complement, where their
//! small size makes the wrapped result exact.

use std::any::{Any, TypeId};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, Field, PrimeField, Zero};
use num_bigint::{BigInt, BigUint, Sign};

/// Limbs of the scalars GLV runs on (scalar fields of at most 256 bits).
const LIMBS: usize = 4;
/// The fewest scalars per worker of [`Glv::split_all`].
const SPLIT_MIN: usize = 4096;
/// Limbs of the two's-complement arithmetic of k1, k2.
const WIDE: usize = LIMBS + 1;
/// The rounding shift S, in bits.
const SHIFT: usize = 64 * (LIMBS + 1);

/// A signed integer of at most [`LIMBS`] limbs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Signed {
    negative: bool,
    limbs: [u64; LIMBS],
}

impl Signed {
    fn of(v: &BigInt) -> Option<Self> {
        let digits = v.magnitude().to_u64_digits();
        if digits.len() > LIMBS {
            return None;
        }
        let mut limbs = [0u64; LIMBS];
        limbs[..digits.len()].copy_from_slice(&digits);
        Some(Signed {
            negative: v.sign() == Sign::Minus,
            limbs,
        })
    }
}

/// GLV for curve/group `P`: the endomorphism's β, its eigenvalue λ, and the constants of the
/// scalar split.
#[derive(Clone, Debug)]
pub(crate) struct Glv<P: SWCurveConfig> {
    beta: P::BaseField,
    /// The short basis (a1, b1), (a2, b2).
    a: [Signed; 2],
    b: [Signed; 2],
    /// The rounding constants g1 ≈ b2·2^S/det and g2 ≈ −b1·2^S/det.
    g: [Signed; 2],
    /// The largest |k1| and |k2| can be.
    max: [u64; LIMBS],
    /// Its bit length.
    bits: u32,
}

/// One half of a split scalar: |kᵢ| as the scalar field's integer, and its sign.
pub(crate) type Half<F> = (bool, <F as PrimeField>::BigInt);

impl<P: SWCurveConfig> Glv<P> {
    /// The bit bound of the halves.
    pub(crate) fn bits(&self) -> u32 {
        self.bits
    }

    /// The largest magnitude of a half (little-endian limbs): the windows are cut for it.
    pub(crate) fn max(&self) -> [u64; LIMBS] {
        self.max
    }

    /// φ(p) = (βx, y) = λ·p.
    #[inline(always)]
    pub(crate) fn endomorphism(&self, p: &Affine<P>) -> Affine<P> {
        if p.is_zero() {
            return *p;
        }
        Affine::new_unchecked(p.x * self.beta, p.y)
    }

    /// The 2n points [P_0 … P_(n−1), φ(P_0) … φ(P_(n−1))] that the halves of n scalars
    /// run over ([`split_all`](Self::split_all) gives them in the same order).
    pub(crate) fn images(&self, points: &[Affine<P>]) -> Vec<Affine<P>> {
        let mut out = Vec::with_capacity(2 * points.len());
        out.extend_from_slice(points);
        out.extend(points.iter().map(|p| self.endomorphism(p)));
        out
    }

    /// The halves of `scalars` on `workers` workers, in the order of
    /// [`images`](Self::images): the k1 of every scalar, then every k2, each as (negative,
    /// |kᵢ|).
    pub(crate) fn split_all(
        &self,
        scalars: &[P::ScalarField],
        workers: usize,
    ) -> Result<Vec<Half<P::ScalarField>>, crate::Error> {
        let n = scalars.len();
        let mut out = vec![Half::<P::ScalarField>::default(); 2 * n];
        let (first, second) = out.split_at_mut(n);
        let bounds = crate::exec::even_bounds(n, workers.clamp(1, n.div_ceil(SPLIT_MIN).max(1)));
        let parts: Vec<_> = bounds
            .iter()
            .copied()
            .zip(crate::exec::split_ranges(first, &bounds))
            .zip(crate::exec::split_ranges(second, &bounds))
            .map(|((start, k1s), k2s)| (start, k1s, k2s))
            .collect();
        crate::exec::on_workers(parts, |_, (start, k1s, k2s)| {
            let mine = scalars[start..start + k1s.len()].iter();
            for ((s, k1), k2) in mine.zip(k1s.iter_mut()).zip(k2s.iter_mut()) {
                (*k1, *k2) = self.split(&s.into_bigint());
            }
        })?;
        Ok(out)
    }

    /// k1, k2 with k ≡ k1 + k2·λ (mod r), |k1|, |k2| ≤ max, for an integer k < r.
    #[inline]
    pub(crate) fn split(
        &self,
        k: &<P::ScalarField as PrimeField>::BigInt,
    ) -> (Half<P::ScalarField>, Half<P::ScalarField>) {
        let mut kl = [0u64; LIMBS];
        kl.copy_from_slice(k.as_ref());
        let c1 = round_shift(&kl, &self.g[0]);
        let c2 = round_shift(&kl, &self.g[1]);
        // k1 = k − c1·a1 − c2·a2, k2 = −c1·b1 − c2·b2, modulo 2^(64·WIDE).
        let mut k1 = [0u64; WIDE];
        k1[..LIMBS].copy_from_slice(&kl);
        let mut k2 = [0u64; WIDE];
        for (c, (a, b)) in [c1, c2].iter().zip(self.a.iter().zip(&self.b)) {
            sub_product(&mut k1, c, a);
            sub_product(&mut k2, c, b);
        }
        (half::<P::ScalarField>(k1), half::<P::ScalarField>(k2))
    }
}

/// c = round(k·g / 2^S), signed as g (k ≥ 0).
#[inline(always)]
fn round_shift(k: &[u64; LIMBS], g: &Signed) -> Signed {
    let mut wide = [0u64; 2 * LIMBS];
    for (i, &ki) in k.iter().enumerate() {
        let mut carry = 0u128;
        for (j, &gj) in g.limbs.iter().enumerate() {
            let t = wide[i + j] as u128 + ki as u128 * gj as u128 + carry;
            wide[i + j] = t as u64;
            carry = t >> 64;
        }
        wide[i + LIMBS] = carry as u64;
    }
    // + 2^(S−1), then the limbs above S.
    let (lo, mut carry) = wide[SHIFT / 64 - 1].overflowing_add(1 << 63);
    wide[SHIFT / 64 - 1] = lo;
    for w in wide.iter_mut().skip(SHIFT / 64) {
        let (v, c) = w.overflowing_add(carry as u64);
        *w = v;
        carry = c;
    }
    let mut limbs = [0u64; LIMBS];
    let high = &wide[SHIFT / 64..];
    limbs[..high.len()].copy_from_slice(high);
    Signed {
        negative: g.negative,
        limbs,
    }
}

/// acc −= c·a modulo 2^(64·WIDE), c and a signed.
#[inline(always)]
fn sub_product(acc: &mut [u64; WIDE], c: &Signed, a: &Signed) {
    let mut prod = [0u64; WIDE];
    for (i, &ci) in c.limbs.iter().enumerate() {
        if ci == 0 {
            continue;
        }
        let mut carry = 0u128;
        for (j, &aj) in a.limbs.iter().enumerate() {
            if i + j >= WIDE {
                break;
            }
            let t = prod[i + j] as u128 + ci as u128 * aj as u128 + carry;
            prod[i + j] = t as u64;
            carry = t >> 64;
        }
        if i + LIMBS < WIDE {
            prod[i + LIMBS] = prod[i + LIMBS].wrapping_add(carry as u64);
        }
    }
    // The product's sign is c's times a's: subtract a positive one, add a negative one.
    let subtract = c.negative == a.negative;
    let mut carry = false;
    for (x, &p) in acc.iter_mut().zip(&prod) {
        if subtract {
            let (v, b1) = x.overflowing_sub(p);
            let (v, b2) = v.overflowing_sub(carry as u64);
            *x = v;
            carry = b1 | b2;
        } else {
            let (v, c1) = x.overflowing_add(p);
            let (v, c2) = v.overflowing_add(carry as u64);
            *x = v;
            carry = c1 | c2;
        }
    }
}

/// A two's-complement value as (negative, magnitude).
#[inline(always)]
fn half<F: PrimeField>(mut v: [u64; WIDE]) -> Half<F> {
    let negative = v[WIDE - 1] >> 63 == 1;
    if negative {
        let mut carry = true;
        for x in v.iter_mut() {
            let (s, c) = (!*x).overflowing_add(carry as u64);
            *x = s;
            carry = c;
        }
    }
    let mut big = F::BigInt::default();
    big.as_mut().copy_from_slice(&v[..LIMBS]);
    (negative, big)
}

fn to_biguint(limbs: &[u64]) -> BigUint {
    let mut bytes = Vec::with_capacity(8 * limbs.len());
    for l in limbs {
        bytes.extend_from_slice(&l.to_le_bytes());
    }
    BigUint::from_bytes_le(&bytes)
}

/// A cube root of unity other than 1 in the prime field of `modulus` (≡ 1 mod 3).
fn cube_root_of_unity<F: PrimeField>() -> Option<F> {
    let m = to_biguint(F::MODULUS.as_ref());
    if &m % 3u32 != BigUint::from(1u32) {
        return None;
    }
    let e = (&m - 1u32) / 3u32;
    let e = e.to_u64_digits();
    (2u64..64).map(F::from).find_map(|g| {
        let w = g.pow(&e);
        (w != F::ONE).then_some(w)
    })
}

/// The short basis of {(a, b) : a + b·λ ≡ 0 mod r}, by extended Euclid on (r, λ).
fn short_basis(r: &BigInt, lambda: &BigInt) -> [(BigInt, BigInt); 2] {
    // Remainders r_i = s_i·r + t_i·λ; (r_i, −t_i) lies in the lattice.
    let root = r.sqrt();
    let (mut r0, mut r1) = (r.clone(), lambda.clone());
    let (mut t0, mut t1) = (BigInt::zero(), BigInt::from(1));
    while r1 >= root {
        let q = &r0 / &r1;
        let r2 = &r0 - &q * &r1;
        let t2 = &t0 - &q * &t1;
        (r0, r1, t0, t1) = (r1, r2, t1, t2);
    }
    // r0 is the last remainder ≥ √r, r1 the first below it.
    let v1 = (r1.clone(), -t1.clone());
    let q = &r0 / &r1;
    let (r2, t2) = (&r0 - &q * &r1, &t0 - &q * &t1);
    let norm = |a: &BigInt, b: &BigInt| a * a + b * b;
    let v2 = if norm(&r0, &t0) <= norm(&r2, &t2) {
        (r0, -t0)
    } else {
        (r2, -t2)
    };
    [v1, v2]
}

impl<P: SWCurveConfig> Glv<P> {
    /// β, λ and the split for `P`, where it has them (see the module's conditions), each
    /// checked.
    fn derive() -> Option<Self> {
        type Base<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;
        if !P::COEFF_A.is_zero() || <P::ScalarField as PrimeField>::BigInt::NUM_LIMBS > LIMBS {
            return None;
        }
        let beta0 = cube_root_of_unity::<Base<P>>()?;
        let mu = cube_root_of_unity::<P::ScalarField>()?;
        let g = P::GENERATOR;
        if g.is_zero() {
            return None;
        }
        let (beta, lambda) = [beta0, beta0 * beta0]
            .into_iter()
            .flat_map(|b| [(b, mu), (b, mu * mu)])
            .map(|(b, l)| (P::BaseField::from_base_prime_field(b), l))
            .find(|(b, l)| {
                let phi = Affine::<P>::new_unchecked(g.x * b, g.y);
                g.into_group() * l == phi.into_group()
            })?;
        let r = BigInt::from(to_biguint(P::ScalarField::MODULUS.as_ref()));
        let l = BigInt::from(to_biguint(lambda.into_bigint().as_ref()));
        let [(a1, b1), (a2, b2)] = short_basis(&r, &l);
        let det = &a1 * &b2 - &a2 * &b1;
        if det.is_zero() {
            return None;
        }
        let scale = BigInt::from(1) << SHIFT;
        // round(num / det) = ⌊(2·num + det) / (2·det)⌋, for any signs.
        let round = |num: BigInt| -> BigInt {
            let mut n: BigInt = num * 2 + &det;
            let mut d: BigInt = &det * 2;
            if d.sign() == Sign::Minus {
                (n, d) = (-n, -d);
            }
            let q = &n / &d;
            if n.sign() == Sign::Minus && &q * &d != n {
                q - 1
            } else {
                q
            }
        };
        let g1 = round(&b2 * &scale);
        let g2 = round(-&b1 * &scale);
        // k1 = (β1 − c1)·a1 + (β2 − c2)·a2 and k2 = (β1 − c1)·b1 + (β2 − c2)·b2, where
        // |βᵢ − cᵢ| ≤ 1/2 + 2^−60 (the rounding of k·gᵢ/2^S, k < 2^256, S = 320, gᵢ itself
        // rounded): |kᵢ| ≤ bound·(1/2 + 2^−60) for the larger of the two basis sums.
        let bound = (a1.magnitude() + a2.magnitude()).max(b1.magnitude() + b2.magnitude());
        let max_big: BigUint = (&bound >> 1u32) + (&bound >> 60u32) + 1u32;
        let bits = max_big.bits() as u32;
        if bits > 64 * LIMBS as u32 - 2 {
            return None;
        }
        let mut max = [0u64; LIMBS];
        for (m, d) in max.iter_mut().zip(max_big.to_u64_digits()) {
            *m = d;
        }
        let glv = Glv {
            beta,
            a: [Signed::of(&a1)?, Signed::of(&a2)?],
            b: [Signed::of(&b1)?, Signed::of(&b2)?],
            g: [Signed::of(&g1)?, Signed::of(&g2)?],
            max,
            bits,
        };
        glv.checks(lambda).then_some(glv)
    }

    /// The split of boundary and sample scalars: k1 + k2·λ = k and both within the bound.
    fn checks(&self, lambda: P::ScalarField) -> bool {
        let r = P::ScalarField::MODULUS;
        let minus = |d: u64| {
            let mut v = r;
            v.sub_with_borrow(&<P::ScalarField as PrimeField>::BigInt::from(d));
            v
        };
        let mut half = r;
        half.div2();
        let mut samples = vec![
            <P::ScalarField as PrimeField>::BigInt::from(0u64),
            <P::ScalarField as PrimeField>::BigInt::from(1u64),
            minus(1),
            minus(2),
            half,
            lambda.into_bigint(),
            (-lambda).into_bigint(),
        ];
        let mut x = P::ScalarField::from(0x9e37_79b9_7f4a_7c15u64);
        for _ in 0..64 {
            x = x * x + P::ScalarField::from(7u64);
            samples.push(x.into_bigint());
        }
        samples.iter().all(|k| {
            let ((n1, k1), (n2, k2)) = self.split(k);
            let field = |neg: bool, v: &<P::ScalarField as PrimeField>::BigInt| {
                let f = P::ScalarField::from_bigint(*v).unwrap_or_default();
                if neg {
                    -f
                } else {
                    f
                }
            };
            within(&k1, &self.max)
                && within(&k2, &self.max)
                && field(n1, &k1) + field(n2, &k2) * lambda
                    == P::ScalarField::from_bigint(*k).unwrap_or_default()
        })
    }
}

/// Whether `v` ≤ `max` (both little-endian).
fn within<B: BigInteger>(v: &B, max: &[u64; LIMBS]) -> bool {
    let v = v.as_ref();
    if v[LIMBS.min(v.len())..].iter().any(|&l| l != 0) {
        return false;
    }
    for i in (0..LIMBS).rev() {
        let x = v.get(i).copied().unwrap_or(0);
        if x != max[i] {
            return x < max[i];
        }
    }
    true
}

/// The GLV of `P`, derived once per curve/group; `None` where it has none.
pub(crate) fn of<P: SWCurveConfig>() -> Option<Arc<Glv<P>>> {
    type Entry = Option<Arc<dyn Any + Send + Sync>>;
    static CACHE: Mutex<Option<HashMap<TypeId, Entry>>> = Mutex::new(None);
    let key = TypeId::of::<P>();
    let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
    let map = cache.get_or_insert_with(HashMap::new);
    let entry = map
        .entry(key)
        .or_insert_with(|| Glv::<P>::derive().map(|g| Arc::new(g) as Arc<dyn Any + Send + Sync>));
    entry.clone().and_then(|a| a.downcast::<Glv<P>>().ok())
}

/// The bit bound of `P`'s GLV halves, where it has GLV.
pub(crate) fn bits_of<P: SWCurveConfig>() -> Option<u32> {
    of::<P>().map(|g| g.bits())
}

/// The largest magnitude of `P`'s GLV halves (little-endian limbs), where it has GLV.
pub(crate) fn max_of<P: SWCurveConfig>() -> Option<[u64; LIMBS]> {
    of::<P>().map(|g| g.max())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_ec::short_weierstrass::Projective;
    use ark_ec::CurveGroup;
    use ark_std::UniformRand;

    fn splits_and_maps<P: SWCurveConfig>(max_bits: u32) {
        let glv = of::<P>().expect("GLV");
        assert!(glv.bits() <= max_bits, "{} bits", glv.bits());
        let mut rng = ark_std::test_rng();
        let signed = |n: bool, v| {
            let f = P::ScalarField::from_bigint(v).unwrap();
            if n {
                -f
            } else {
                f
            }
        };
        // The generator, then random points: k·P = k1·P + k2·φ(P).
        let mut points = vec![P::GENERATOR];
        points.extend((0..40).map(|_| Projective::<P>::rand(&mut rng).into_affine()));
        for p in points {
            let k = P::ScalarField::rand(&mut rng);
            let ((n1, k1), (n2, k2)) = glv.split(&k.into_bigint());
            assert!(within(&k1, &glv.max()) && within(&k2, &glv.max()));
            assert!(k1.num_bits() <= glv.bits() && k2.num_bits() <= glv.bits());
            let phi = glv.endomorphism(&p);
            assert!(phi.is_on_curve());
            assert_eq!(p * signed(n1, k1) + phi * signed(n2, k2), p * k);
        }
        assert!(glv.endomorphism(&Affine::<P>::identity()).is_zero());
    }

    #[test]
    fn derived_glv_splits_on_every_curve_that_has_it() {
        splits_and_maps::<ark_bn254::g1::Config>(128);
        splits_and_maps::<ark_bn254::g2::Config>(128);
        splits_and_maps::<ark_bls12_381::g1::Config>(128);
        splits_and_maps::<ark_bls12_381::g2::Config>(128);
        splits_and_maps::<ark_bls12_377::g1::Config>(128);
        splits_and_maps::<ark_bls12_377::g2::Config>(128);
        splits_and_maps::<crate::curves::bls24_315::g1::Config>(128);
        splits_and_maps::<crate::curves::bls24_315::g2::Config>(128);
        splits_and_maps::<crate::curves::bls24_317::g1::Config>(128);
        splits_and_maps::<ark_grumpkin::GrumpkinConfig>(129);
        splits_and_maps::<ark_secp256k1::Config>(130);
    }

    /// The halves' bound (about half the basis sums: at most 127 bits) cuts 8 windows of 16
    /// bits on BN254 and BLS12-381, where the basis sums' 128 bits would cut 9, and at every
    /// window the bound itself and its neighbours decompose in range and recompose.
    #[test]
    fn the_halves_bound_spares_a_window() {
        use crate::digits::{decompose_bigints_into, recompose, Digit, Windowing};
        fn check<P: SWCurveConfig>(chunks_at_16: usize) {
            let glv = of::<P>().expect("GLV");
            let max = glv.max();
            assert_eq!(Windowing::for_max(&max, 16).chunks, chunks_at_16);
            assert!(glv.bits() <= 127, "{} bits", glv.bits());
            let big = |limbs: [u64; LIMBS]| {
                let mut b = <P::ScalarField as PrimeField>::BigInt::default();
                b.as_mut().copy_from_slice(&limbs);
                b
            };
            let mut below = max;
            below[0] = below[0].wrapping_sub(1);
            let mut top_only = [0u64; LIMBS];
            let top_bit = glv.bits() - 1;
            top_only[(top_bit / 64) as usize] = 1 << (top_bit % 64);
            for c in 1..=16 {
                let w = Windowing::for_max(&max, c);
                for v in [max, below, top_only] {
                    let mut store = vec![vec![0; 1]; w.chunks];
                    let mut out: Vec<&mut [Digit]> =
                        store.iter_mut().map(|v| v.as_mut_slice()).collect();
                    decompose_bigints_into(&[big(v)], w, &mut out);
                    let digits: Vec<Digit> = store.iter().map(|d| d[0]).collect();
                    let top = *digits.last().expect("a chunk");
                    assert!(top >= 0 && top as u32 <= w.top_max, "c = {c}");
                    assert_eq!(
                        recompose::<P::ScalarField>(&digits, c),
                        P::ScalarField::from_bigint(big(v)).expect("below r"),
                        "c = {c}"
                    );
                }
            }
        }
        check::<ark_bn254::g1::Config>(8);
        check::<ark_bls12_381::g1::Config>(8);
        check::<ark_bls12_381::g2::Config>(8);
    }

    #[test]
    fn curves_without_the_endomorphism_have_no_glv() {
        // a ≠ 0.
        assert!(of::<ark_secp256r1::Config>().is_none());
        // A scalar field of six limbs.
        assert!(of::<ark_bw6_761::g1::Config>().is_none());
        assert!(of::<crate::curves::bw6_633::g1::Config>().is_none());
        // a ≠ 0 (the STARK curve's a = 1).
        assert!(of::<crate::curves::stark_curve::g1::Config>().is_none());
    }
}
