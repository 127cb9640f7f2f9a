//! Field operations the batch-affine kernel needs inline on every field size.
//!
//! arkworks' `Fp::is_zero` compares the element with zero as a limb array, which for six
//! limbs and more becomes a `memcmp` call, and its `sub_assign` is not inlined into a generic
//! caller from another crate; on BLS12-381 G1 the two took 14% of a portable MSM's time
//! (`perf`, 2^16 points). Here both work on the limbs directly, where `F` is exactly its
//! base-prime-field limbs in memory (every arkworks prime and extension field: `Fp` is a
//! `BigInt` of reduced Montgomery limbs, an extension field a tuple of them); any other
//! field type takes arkworks' operations. The same holds for the test of the point at
//! infinity, which arkworks makes by comparing both coordinates with zero.
//!
//! Subtraction and conditional negation are branch-free: whether a − b borrows, and whether a
//! bucket addition takes a point or its negation, is a coin toss on every call, so a branch
//! there is mispredicted half the time. The masks pass through [`opaque`], without which LLVM
//! turns the masked addition of the modulus back into a branch (seen in the BN254 kernel).

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, Field, PrimeField};
use std::any::TypeId;
use std::mem::{align_of, size_of};

/// The most limbs a base prime field may have for the limb operations here (BW6-761's has
/// 12); a larger one takes arkworks' operations.
const MAX_LIMBS: usize = 16;

/// The u64 words of `F` and of one base-prime-field element, where `F` is exactly those
/// limbs (its size is the limbs', so it holds nothing else and no padding).
#[inline(always)]
fn words<F: Field>() -> Option<(usize, usize)> {
    let limbs = size_of::<<F::BasePrimeField as PrimeField>::BigInt>() / 8;
    let n = limbs * F::extension_degree() as usize;
    let exact = size_of::<F>() == 8 * n
        && size_of::<F::BasePrimeField>() == 8 * limbs
        && align_of::<F>() == align_of::<u64>()
        && limbs == <F::BasePrimeField as PrimeField>::BigInt::NUM_LIMBS
        && limbs <= MAX_LIMBS;
    exact.then_some((n, limbs))
}

/// Whether `f` is zero: every limb zero (zero's only reduced Montgomery form).
#[inline(always)]
pub(crate) fn is_zero<F: Field>(f: &F) -> bool {
    match words::<F>() {
        Some((n, _)) => {
            // SAFETY: `F` is exactly `n` initialised u64 words (checked by `words`), aligned
            // as u64.
            let w = unsafe { std::slice::from_raw_parts(f as *const F as *const u64, n) };
            w.iter().fold(0, |acc, &x| acc | x) == 0
        }
        None => f.is_zero(),
    }
}

/// `x`, hidden from the optimiser: it cannot know which values a mask made from it takes,
/// so arithmetic under the mask stays branch-free (an empty assembly block on x86-64 and
/// aarch64, no instruction; `black_box` elsewhere).
#[inline(always)]
fn opaque(x: u64) -> u64 {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let mut x = x;
        // SAFETY: an empty assembly block: it reads and writes one register and nothing else.
        unsafe {
            std::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags));
        }
        x
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        std::hint::black_box(x)
    }
}

/// `a` read word by word into registers and returned as a new value (the identity; no
/// instruction beyond the moves).
///
/// arkworks' assembly product writes its result to memory one 8-byte limb at a time, and
/// its final subtraction of the modulus does the same; LLVM then moves a value from one stack
/// slot to the next (the operand of the next product, a `push`) with 16-byte loads, which
/// cannot be forwarded from two 8-byte stores still in flight: the load waits until the
/// stores retire. `perf annotate` of the BN254 portable kernel at 2^20 put about 7% of its
/// samples on two such loads. Read through [`opaque`], each word is an 8-byte load of an
/// 8-byte store (forwarded), and the value lives in registers until its next use.
#[inline(always)]
fn launder<F: Field>(a: &F) -> F {
    let Some((n, _)) = words::<F>() else {
        return *a;
    };
    let mut out = std::mem::MaybeUninit::<F>::uninit();
    // SAFETY: `F` is exactly `n` initialised u64 words (checked by `words`); every word of
    // `out` is written from `a`'s, so it holds the same valid element.
    unsafe {
        let x = std::slice::from_raw_parts(a as *const F as *const u64, n);
        let o = std::slice::from_raw_parts_mut(out.as_mut_ptr() as *mut u64, n);
        for (o, &x) in o.iter_mut().zip(x) {
            *o = opaque(x);
        }
        out.assume_init()
    }
}

/// Whether this host's products go through [`launder`]: on Intel cores, not elsewhere.
///
/// The word-by-word moves remove a store-forwarding stall that Intel cores pay (Granite
/// Rapids class: the portable path 3-8% faster, `docs/bench/launder-gnr-raw.txt`); on AMD
/// Zen 4 the same moves made the portable MSM 1.15-1.29x slower
/// (`docs/bench/zen4-regression-raw.txt`; not isolated further: they add a store and a
/// reload to every product's dependency chain). On CPUs of other vendors the batch-affine
/// kernel takes [`crate::mont::Product`] instead: our assembly product where the field has
/// one, arkworks' plain product elsewhere (Arm is not measured; there arkworks' product is not
/// the assembly that stores its limbs).
/// `MULTIEXP_LAUNDER=0` or `=1` in the environment overrides, for measuring both on one host.
pub(crate) fn launders() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| match std::env::var("MULTIEXP_LAUNDER").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        _ => intel(),
    })
}

/// Whether the CPU's vendor is Intel (cpuid leaf 0: "GenuineIntel").
fn intel() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let id = std::arch::x86_64::__cpuid(0);
        let vendor = [id.ebx, id.edx, id.ecx];
        vendor == [0x756e_6547, 0x4965_6e69, 0x6c65_746e]
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// a · b (arkworks' product), its operand and result moved word by word where `L` (see
/// [`launders`]).
#[inline(always)]
pub(crate) fn mul<const L: bool, F: Field>(a: &F, b: &F) -> F {
    if !L {
        return *a * b;
    }
    let mut r = launder(a);
    r *= b;
    launder(&r)
}

/// a² (arkworks' squaring), its operand and result moved word by word where `L` (see
/// [`launders`]).
#[inline(always)]
pub(crate) fn square<const L: bool, F: Field>(a: &F) -> F {
    if !L {
        return a.square();
    }
    let mut r = launder(a);
    r.square_in_place();
    launder(&r)
}

/// a − b: per base-prime-field element, the limbs subtracted and the modulus added back
/// where they borrowed (branch-free), so reduced inputs give a reduced result.
#[inline(always)]
pub(crate) fn sub<F: Field>(a: &F, b: &F) -> F {
    let Some((n, limbs)) = words::<F>() else {
        return *a - *b;
    };
    let modulus = <F::BasePrimeField as PrimeField>::MODULUS;
    let m = modulus.as_ref();
    let mut out = *a;
    // SAFETY: `F` is exactly `n` u64 words (checked by `words`); `out` is a copy of a valid
    // element whose words are overwritten with another reduced element's.
    let (x, y, o) = unsafe {
        (
            std::slice::from_raw_parts(a as *const F as *const u64, n),
            std::slice::from_raw_parts(b as *const F as *const u64, n),
            std::slice::from_raw_parts_mut(&mut out as *mut F as *mut u64, n),
        )
    };
    for ((x, y), o) in x
        .chunks_exact(limbs)
        .zip(y.chunks_exact(limbs))
        .zip(o.chunks_exact_mut(limbs))
    {
        let mut borrow = false;
        for i in 0..limbs {
            let (d, b1) = x[i].overflowing_sub(y[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            o[i] = d;
            borrow = b1 | b2;
        }
        let mask = opaque(0u64.wrapping_sub(borrow as u64));
        let mut carry = false;
        for i in 0..limbs {
            let (s, c1) = o[i].overflowing_add(m[i] & mask);
            let (s, c2) = s.overflowing_add(carry as u64);
            o[i] = s;
            carry = c1 | c2;
        }
    }
    out
}

/// a + b: per base-prime-field element, the limbs added and the modulus taken off where
/// the sum reaches it (branch-free), so reduced inputs give a reduced result.
#[inline(always)]
pub(crate) fn add<F: Field>(a: &F, b: &F) -> F {
    let Some((n, limbs)) = words::<F>() else {
        return *a + *b;
    };
    let modulus = <F::BasePrimeField as PrimeField>::MODULUS;
    let m = modulus.as_ref();
    let mut out = *a;
    // SAFETY: as in `sub`.
    let (x, y, o) = unsafe {
        (
            std::slice::from_raw_parts(a as *const F as *const u64, n),
            std::slice::from_raw_parts(b as *const F as *const u64, n),
            std::slice::from_raw_parts_mut(&mut out as *mut F as *mut u64, n),
        )
    };
    for ((x, y), o) in x
        .chunks_exact(limbs)
        .zip(y.chunks_exact(limbs))
        .zip(o.chunks_exact_mut(limbs))
    {
        // s = x + y (with a carry out where the modulus has no spare bit), t = s − m.
        let mut carry = false;
        for i in 0..limbs {
            let (s, c1) = x[i].overflowing_add(y[i]);
            let (s, c2) = s.overflowing_add(carry as u64);
            o[i] = s;
            carry = c1 | c2;
        }
        let mut t = [0u64; MAX_LIMBS];
        let mut borrow = false;
        for i in 0..limbs {
            let (d, b1) = o[i].overflowing_sub(m[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            t[i] = d;
            borrow = b1 | b2;
        }
        // s ≥ m (a carry out, or no borrow): t; else s.
        let mask = opaque(0u64.wrapping_sub((carry | !borrow) as u64));
        for i in 0..limbs {
            o[i] = (t[i] & mask) | (o[i] & !mask);
        }
    }
    out
}

/// −a where `negate`, else a, branch-free: per base-prime-field element, the modulus minus
/// the limbs, taken under a mask that is set where `negate` holds and the element is not
/// zero (zero is its own negation).
#[inline(always)]
pub(crate) fn neg_if<F: Field>(a: &F, negate: bool) -> F {
    let Some((n, limbs)) = words::<F>() else {
        return if negate { -*a } else { *a };
    };
    let modulus = <F::BasePrimeField as PrimeField>::MODULUS;
    let m = modulus.as_ref();
    let mut out = *a;
    // SAFETY: as in `sub`: `F` is exactly `n` u64 words; `out`'s words are overwritten with
    // another reduced element's.
    let (x, o) = unsafe {
        (
            std::slice::from_raw_parts(a as *const F as *const u64, n),
            std::slice::from_raw_parts_mut(&mut out as *mut F as *mut u64, n),
        )
    };
    for (x, o) in x.chunks_exact(limbs).zip(o.chunks_exact_mut(limbs)) {
        let nonzero = x.iter().fold(0, |acc, &w| acc | w) != 0;
        let mask = opaque(0u64.wrapping_sub((negate & nonzero) as u64));
        let mut borrow = false;
        for i in 0..limbs {
            // m − x: no borrow out, as x < m.
            let (d, b1) = m[i].overflowing_sub(x[i]);
            let (d, b2) = d.overflowing_sub(borrow as u64);
            borrow = b1 | b2;
            o[i] = (d & mask) | (x[i] & !mask);
        }
    }
    out
}

/// Whether `p` is the point at infinity, as arkworks' `is_zero` says, with [`is_zero`] on
/// the coordinates where the curve marks infinity as (0, 0) (`ZeroFlag = ()`, most curves);
/// arkworks' own test (a flag) elsewhere.
#[inline(always)]
pub(crate) fn is_infinity<P: SWCurveConfig>(p: &Affine<P>) -> bool {
    if TypeId::of::<P::ZeroFlag>() == TypeId::of::<()>() {
        is_zero(&p.x) & is_zero(&p.y)
    } else {
        p.is_zero()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ark_std::UniformRand;

    fn agrees<F: Field>() {
        assert!(words::<F>().is_some(), "{}", std::any::type_name::<F>());
        let mut rng = ark_std::test_rng();
        let special = [F::zero(), F::one(), -F::one(), F::one() + F::one()];
        let mut values: Vec<F> = special.to_vec();
        values.extend((0..50).map(|_| F::rand(&mut rng)));
        for a in &values {
            assert_eq!(is_zero(a), a.is_zero());
            assert_eq!(neg_if(a, true), -*a);
            assert_eq!(add(a, a), a.double());
            assert_eq!(neg_if(a, false), *a);
            assert_eq!(square::<true, _>(a), a.square());
            assert_eq!(square::<false, _>(a), a.square());
            assert_eq!(launder(a), *a);
            for b in &values {
                assert_eq!(mul::<true, _>(a, b), *a * *b);
                assert_eq!(mul::<false, _>(a, b), *a * *b);
                assert_eq!(sub(a, b), *a - *b);
                assert_eq!(add(a, b), *a + *b);
            }
        }
    }

    fn infinity_agrees<P: SWCurveConfig>() {
        let mut rng = ark_std::test_rng();
        let g = Affine::<P>::rand(&mut rng);
        for p in [Affine::<P>::identity(), g, -g, Affine::<P>::generator()] {
            assert_eq!(is_infinity(&p), p.is_zero());
        }
    }

    #[test]
    fn the_vendor_test_agrees_with_the_kernel() {
        // Linux names an x86 CPU's vendor in /proc/cpuinfo; cpuid must read the same.
        let Ok(info) = std::fs::read_to_string("/proc/cpuinfo") else {
            return;
        };
        if let Some(line) = info.lines().find(|l| l.starts_with("vendor_id")) {
            assert_eq!(intel(), line.contains("GenuineIntel"), "{line}");
        } else {
            assert!(!intel());
        }
    }

    #[test]
    fn infinity_tests_agree_with_arkworks() {
        infinity_agrees::<ark_bn254::g1::Config>();
        infinity_agrees::<ark_bls12_381::g1::Config>();
        infinity_agrees::<ark_bls12_381::g2::Config>();
        infinity_agrees::<crate::curves::bls24_317::g1::Config>();
        infinity_agrees::<ark_secp256r1::Config>();
    }

    #[test]
    fn limb_operations_agree_with_arkworks() {
        agrees::<ark_bn254::Fq>();
        agrees::<ark_bn254::Fq2>();
        agrees::<ark_bls12_381::Fq>();
        agrees::<ark_bls12_381::Fq2>();
        agrees::<ark_bw6_761::Fq>();
        agrees::<ark_secp256k1::Fq>();
        agrees::<crate::curves::bls24_315::Fq4>();
        agrees::<crate::curves::stark_curve::fq::Fq>();
    }
}
