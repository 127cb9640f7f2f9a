//! The batch-affine kernel's field product off Intel: our own Montgomery product in
//! assembly ([`asm`]) where the field qualifies, arkworks' everywhere else.
//!
//! A field qualifies when it is exactly one base-prime-field element of 4 or 6 limbs
//! (BN254, grumpkin, the STARK curve, BLS12-381 and BLS12-377 base fields) whose modulus
//! leaves the top bit of its top limb clear (the product's running value then fits its
//! words and ends below 2p), on x86-64 with ADX and BMI2 compiled in. Montgomery form is
//! arkworks' (R = 2^(64·limbs)), and the result is fully reduced, so the product returns
//! the limbs arkworks' product would, bit for bit (tested against it).
//!
//! On AMD Zen 4 the product takes about 0.9× the time of arkworks' assembly product in a
//! throughput loop (BN254 16.7 against 18.1 ns, BLS12-381 33.5 against 35.9), and the
//! portable MSM 0.83-0.91× of 4231a3e's time in one interleaved run, BLS12-381 2^16 1.01×
//! there (section 3 of `docs/bench/mont-asm-zen4-raw.txt`).
//! Intel hosts keep arkworks' product behind [`crate::field::launders`]: not measured there.

use ark_ff::{BigInteger, Field, PrimeField};
use std::marker::PhantomData;

#[cfg(all(
    target_arch = "x86_64",
    target_feature = "adx",
    target_feature = "bmi2"
))]
mod asm;

/// The limbs of `F` where our product runs it (see the module docs), else 0.
#[inline(always)]
fn limbs<F: Field>() -> usize {
    if !cfg!(all(
        target_arch = "x86_64",
        target_feature = "adx",
        target_feature = "bmi2"
    )) {
        return 0;
    }
    let limbs = <F::BasePrimeField as PrimeField>::BigInt::NUM_LIMBS;
    let exact = F::extension_degree() == 1
        && std::mem::size_of::<F>() == 8 * limbs
        && std::mem::align_of::<F>() == std::mem::align_of::<u64>()
        && std::mem::size_of::<F::BasePrimeField>() == 8 * limbs;
    let modulus = <F::BasePrimeField as PrimeField>::MODULUS;
    let spare = modulus.as_ref()[limbs - 1] >> 63 == 0;
    if exact && spare && (limbs == 4 || limbs == 6) {
        limbs
    } else {
        0
    }
}

/// A field's product, with the modulus and −p⁻¹ mod 2^64 laid out for the assembly: made
/// once per batch, outside the kernel's loops.
pub(crate) struct Product<F: Field> {
    /// p's limbs, then −p⁻¹ mod 2^64 (only the first limbs + 1 words are used).
    pk: [u64; 7],
    _field: PhantomData<F>,
}

impl<F: Field> Product<F> {
    #[inline(always)]
    pub(crate) fn new() -> Self {
        let mut pk = [0u64; 7];
        let n = limbs::<F>();
        if n != 0 {
            let modulus = <F::BasePrimeField as PrimeField>::MODULUS;
            let p = modulus.as_ref();
            pk[..n].copy_from_slice(&p[..n]);
            // p⁻¹ mod 2^64 by Newton's iteration (each step doubles the correct low bits;
            // p is odd, so p·p ≡ 1 mod 8 starts with 3 of them).
            let mut inv = p[0];
            for _ in 0..5 {
                inv = inv.wrapping_mul(2u64.wrapping_sub(p[0].wrapping_mul(inv)));
            }
            pk[n] = inv.wrapping_neg();
        }
        Product {
            pk,
            _field: PhantomData,
        }
    }

    /// a·b: our product where `F` qualifies, arkworks' otherwise.
    #[inline(always)]
    pub(crate) fn mul(&self, a: &F, b: &F) -> F {
        #[cfg(all(
            target_arch = "x86_64",
            target_feature = "adx",
            target_feature = "bmi2"
        ))]
        {
            macro_rules! on {
                ($n:literal, $f:ident) => {{
                    // SAFETY: `limbs` checked that `F` is exactly $n u64 limbs of reduced
                    // Montgomery form, aligned as u64; the product writes $n reduced limbs of
                    // the same form, a valid `F`.
                    unsafe {
                        let x = &*(a as *const F as *const [u64; $n]);
                        let y = &*(b as *const F as *const [u64; $n]);
                        let pk = &*(self.pk.as_ptr() as *const [u64; $n + 1]);
                        let r = asm::$f(x, y, pk);
                        return std::mem::transmute_copy::<[u64; $n], F>(&r);
                    }
                }};
            }
            match limbs::<F>() {
                4 => on!(4, mont_mul4),
                6 => on!(6, mont_mul6),
                _ => {}
            }
        }
        *a * b
    }

    /// a²: our product of a with itself where `F` qualifies (on Zen 4 cheaper than
    /// arkworks' assembly squaring, which takes fewer word products but compares and
    /// branches: 16.1 against 18.0 ns on BN254, 33.5 against 36.5 on BLS12-381), arkworks'
    /// squaring otherwise.
    #[inline(always)]
    pub(crate) fn square(&self, a: &F) -> F {
        if limbs::<F>() != 0 {
            self.mul(a, a)
        } else {
            a.square()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_std::UniformRand;

    fn agrees<F: Field + UniformRand>(expect_limbs: usize) {
        assert_eq!(limbs::<F>(), expect_limbs);
        let product = Product::<F>::new();
        let mut rng = ark_std::test_rng();
        let minus_one = -F::ONE;
        let edges = [
            F::ZERO,
            F::ONE,
            minus_one,
            minus_one.double(),
            F::from(2u64),
        ];
        for a in edges {
            for b in edges {
                assert_eq!(product.mul(&a, &b), a * b);
            }
        }
        for _ in 0..20_000 {
            let (a, b) = (F::rand(&mut rng), F::rand(&mut rng));
            assert_eq!(product.mul(&a, &b), a * b);
            assert_eq!(product.mul(&a, &a), a.square());
            assert_eq!(product.square(&a), a.square());
        }
    }

    #[test]
    fn agrees_with_arkworks_on_every_field_it_runs() {
        let asm = cfg!(all(
            target_arch = "x86_64",
            target_feature = "adx",
            target_feature = "bmi2"
        ));
        let on = |n: usize| if asm { n } else { 0 };
        let _ = on;
        #[cfg(feature = "bn254")]
        {
            agrees::<ark_bn254::Fq>(on(4));
            agrees::<ark_bn254::Fr>(on(4));
            // An extension field takes arkworks'.
            agrees::<ark_bn254::Fq2>(0);
        }
        #[cfg(feature = "bls12-381")]
        agrees::<ark_bls12_381::Fq>(on(6));
        #[cfg(feature = "bls12-377")]
        agrees::<ark_bls12_377::Fq>(on(6));
        #[cfg(feature = "stark-curve")]
        agrees::<crate::curves::stark_curve::Fq>(on(4));
        // A full top limb (secp256k1) and a larger field (BW6-761) take arkworks'.
        #[cfg(feature = "secp256k1")]
        agrees::<ark_secp256k1::Fq>(0);
        #[cfg(feature = "bw6-761")]
        agrees::<ark_bw6_761::Fq>(0);
    }
}
