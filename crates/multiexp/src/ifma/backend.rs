//! Lane backends: the 8 × u64 vector operations the IFMA algorithms are written in.
//!
//! [`LaneBackend`] is implemented twice. [`Avx512Ifma`] (x86-64) maps every operation to one
//! AVX-512 F or IFMA instruction; the value is a token that only [`Avx512Ifma::detect`] creates,
//! after checking the CPU, so holding one is the proof that its intrinsics may run.
//! [`Emulated`] (every target) is plain Rust with exactly the same semantics, lane by lane:
//! `vpmadd52luq` is a + the low 52 bits of b[51:0]·c[51:0], `vpmadd52huq` a + its bits
//! 103..52, adds and subtractions wrap at 64 bits, shifts by 52 are logical or arithmetic as
//! named, and a masked scatter writes its lanes in ascending order. Every algorithm generic over
//! the backend therefore gives bit-for-bit the same results on both.
//!
//! Cost: one instruction per operation on [`Avx512Ifma`] once inlined into a function compiled
//! with the features (see [`LaneBackend::run`]); on [`Emulated`] a few scalar instructions per
//! lane (a 64 × 64 → 128-bit product for `madd52hi`): a backend for tests on CPUs without IFMA,
//! never picked by the planner (see `mod.rs` for what it costs a chunk task).

/// Eight 64-bit lanes and the operations on them that the IFMA algorithms use.
///
/// Masks are `u8`, bit k for lane k. Every method is `#[inline(always)]` in both
/// implementations, and so must be every generic function built on them: the whole kernel then
/// inlines into the entry of [`LaneBackend::run`], where the AVX-512 instructions are enabled.
pub(crate) trait LaneBackend: Copy + Send + Sync + core::fmt::Debug + 'static {
    /// One vector of eight u64 lanes.
    type V: Copy + core::fmt::Debug;

    /// Runs `f` with this backend where its instructions are enabled: for [`Avx512Ifma`] inside
    /// a function compiled with `avx512f,avx512ifma`, so that `f`, if it inlines, runs on the
    /// intrinsics inline. One call per kernel (a batch, eight points), not per operation.
    fn run<R>(self, f: impl FnOnce(Self) -> R) -> R;

    /// Every lane x.
    fn splat(self, x: u64) -> Self::V;
    /// Every lane 0.
    fn zero(self) -> Self::V;
    /// a + low 52 bits of b[51:0]·c[51:0] (`vpmadd52luq`).
    fn madd52lo(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// a + bits 103..52 of b[51:0]·c[51:0] (`vpmadd52huq`).
    fn madd52hi(self, a: Self::V, b: Self::V, c: Self::V) -> Self::V;
    /// a + b, wrapping.
    fn add(self, a: Self::V, b: Self::V) -> Self::V;
    /// a - b, wrapping.
    fn sub(self, a: Self::V, b: Self::V) -> Self::V;
    /// a & b.
    fn and(self, a: Self::V, b: Self::V) -> Self::V;
    /// a | b.
    fn or(self, a: Self::V, b: Self::V) -> Self::V;
    /// a >> 52, logical.
    fn shr52(self, a: Self::V) -> Self::V;
    /// a >> 52, arithmetic (as i64).
    fn sar52(self, a: Self::V) -> Self::V;
    /// The lanes where a = b.
    fn eq(self, a: Self::V, b: Self::V) -> u8;
    /// The lanes where a ≠ b.
    fn ne(self, a: Self::V, b: Self::V) -> u8;
    /// Lanes of b where `mask` is set, of a elsewhere (`vpblendmq`).
    fn blend(self, mask: u8, a: Self::V, b: Self::V) -> Self::V;
    /// Lane k of the result is lane k + N of (lo : hi), the 16 lanes of lo then hi (`valignq`
    /// by N, N in 1..8).
    fn align<const N: i32>(self, hi: Self::V, lo: Self::V) -> Self::V;
    /// The eight lanes of `src`.
    fn load(self, src: &[u64; 8]) -> Self::V;
    /// Writes the eight lanes into `dst`.
    fn store(self, a: Self::V, dst: &mut [u64; 8]);
    /// Lane k is `base[index[k] + offset]`.
    ///
    /// # Safety
    /// `index[k] + offset < base.len()` for every lane k.
    unsafe fn gather(self, base: &[u64], index: Self::V, offset: usize) -> Self::V;
    /// `base[index[k] + offset] = a[k]` for the lanes k in `mask`, in ascending k.
    ///
    /// # Safety
    /// `index[k] + offset < base.len()` for every lane k in `mask`.
    unsafe fn scatter(self, base: &mut [u64], index: Self::V, offset: usize, mask: u8, a: Self::V);
}

/// The portable backend: the semantics of the AVX-512 instructions, lane by lane.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Emulated;

const MASK52: u64 = (1u64 << 52) - 1;

#[inline(always)]
fn lanes(f: impl Fn(usize) -> u64) -> [u64; 8] {
    core::array::from_fn(f)
}

#[inline(always)]
fn mask_of(f: impl Fn(usize) -> bool) -> u8 {
    (0..8).fold(0u8, |m, k| m | ((f(k) as u8) << k))
}

impl LaneBackend for Emulated {
    type V = [u64; 8];

    #[inline(always)]
    fn run<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
    #[inline(always)]
    fn splat(self, x: u64) -> [u64; 8] {
        [x; 8]
    }
    #[inline(always)]
    fn zero(self) -> [u64; 8] {
        [0; 8]
    }
    #[inline(always)]
    fn madd52lo(self, a: [u64; 8], b: [u64; 8], c: [u64; 8]) -> [u64; 8] {
        // The low 52 bits of the product are those of its wrapping 64-bit product.
        lanes(|k| a[k].wrapping_add(((b[k] & MASK52).wrapping_mul(c[k] & MASK52)) & MASK52))
    }
    #[inline(always)]
    fn madd52hi(self, a: [u64; 8], b: [u64; 8], c: [u64; 8]) -> [u64; 8] {
        lanes(|k| {
            let product = (b[k] & MASK52) as u128 * (c[k] & MASK52) as u128;
            a[k].wrapping_add((product >> 52) as u64)
        })
    }
    #[inline(always)]
    fn add(self, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|k| a[k].wrapping_add(b[k]))
    }
    #[inline(always)]
    fn sub(self, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|k| a[k].wrapping_sub(b[k]))
    }
    #[inline(always)]
    fn and(self, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|k| a[k] & b[k])
    }
    #[inline(always)]
    fn or(self, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|k| a[k] | b[k])
    }
    #[inline(always)]
    fn shr52(self, a: [u64; 8]) -> [u64; 8] {
        lanes(|k| a[k] >> 52)
    }
    #[inline(always)]
    fn sar52(self, a: [u64; 8]) -> [u64; 8] {
        lanes(|k| ((a[k] as i64) >> 52) as u64)
    }
    #[inline(always)]
    fn eq(self, a: [u64; 8], b: [u64; 8]) -> u8 {
        mask_of(|k| a[k] == b[k])
    }
    #[inline(always)]
    fn ne(self, a: [u64; 8], b: [u64; 8]) -> u8 {
        mask_of(|k| a[k] != b[k])
    }
    #[inline(always)]
    fn blend(self, mask: u8, a: [u64; 8], b: [u64; 8]) -> [u64; 8] {
        lanes(|k| if mask >> k & 1 == 1 { b[k] } else { a[k] })
    }
    #[inline(always)]
    fn align<const N: i32>(self, hi: [u64; 8], lo: [u64; 8]) -> [u64; 8] {
        let n = (N & 7) as usize;
        lanes(|k| if k + n < 8 { lo[k + n] } else { hi[k + n - 8] })
    }
    #[inline(always)]
    fn load(self, src: &[u64; 8]) -> [u64; 8] {
        *src
    }
    #[inline(always)]
    fn store(self, a: [u64; 8], dst: &mut [u64; 8]) {
        *dst = a;
    }
    #[inline(always)]
    unsafe fn gather(self, base: &[u64], index: [u64; 8], offset: usize) -> [u64; 8] {
        lanes(|k| base[index[k] as usize + offset])
    }
    #[inline(always)]
    unsafe fn scatter(
        self,
        base: &mut [u64],
        index: [u64; 8],
        offset: usize,
        mask: u8,
        a: [u64; 8],
    ) {
        for k in 0..8 {
            if mask >> k & 1 == 1 {
                base[index[k] as usize + offset] = a[k];
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use avx512::Avx512Ifma;

#[cfg(target_arch = "x86_64")]
mod avx512 {
    use core::arch::x86_64::*;

    use super::LaneBackend;

    /// The AVX-512 IFMA backend. A token: its only constructor, [`Avx512Ifma::detect`], checks
    /// at run time that the CPU has `avx512f` and `avx512ifma`, so every method may run the
    /// intrinsics.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    pub struct Avx512Ifma {
        _private: (),
    }

    impl Avx512Ifma {
        /// The token, if this CPU has AVX-512 F and IFMA (checked once per process).
        pub fn detect() -> Option<Self> {
            use std::sync::OnceLock;
            static HAS: OnceLock<bool> = OnceLock::new();
            let has = *HAS.get_or_init(|| {
                std::is_x86_feature_detected!("avx512f")
                    && std::is_x86_feature_detected!("avx512ifma")
            });
            has.then_some(Avx512Ifma { _private: () })
        }
    }

    /// Runs `f` inside a function compiled with the features, so that it inlines there.
    ///
    /// # Safety
    /// The CPU must have AVX-512 F and IFMA.
    #[target_feature(enable = "avx512f,avx512ifma")]
    unsafe fn with_features<R>(token: Avx512Ifma, f: impl FnOnce(Avx512Ifma) -> R) -> R {
        f(token)
    }

    // Every `unsafe` block below calls AVX-512 F or IFMA intrinsics. SAFETY (all of them):
    // `self` is an `Avx512Ifma`, which only `detect` creates, after checking that the CPU has
    // both features; memory operands are noted where they occur.
    impl LaneBackend for Avx512Ifma {
        type V = __m512i;

        #[inline(always)]
        fn run<R>(self, f: impl FnOnce(Self) -> R) -> R {
            // SAFETY: the token proves the features.
            unsafe { with_features(self, f) }
        }
        #[inline(always)]
        fn splat(self, x: u64) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_set1_epi64(x as i64) }
        }
        #[inline(always)]
        fn zero(self) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_setzero_si512() }
        }
        #[inline(always)]
        fn madd52lo(self, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_madd52lo_epu64(a, b, c) }
        }
        #[inline(always)]
        fn madd52hi(self, a: __m512i, b: __m512i, c: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_madd52hi_epu64(a, b, c) }
        }
        #[inline(always)]
        fn add(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_add_epi64(a, b) }
        }
        #[inline(always)]
        fn sub(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_sub_epi64(a, b) }
        }
        #[inline(always)]
        fn and(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_and_si512(a, b) }
        }
        #[inline(always)]
        fn or(self, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_or_si512(a, b) }
        }
        #[inline(always)]
        fn shr52(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_srli_epi64::<52>(a) }
        }
        #[inline(always)]
        fn sar52(self, a: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_srai_epi64::<52>(a) }
        }
        #[inline(always)]
        fn eq(self, a: __m512i, b: __m512i) -> u8 {
            // SAFETY: see the impl.
            unsafe { _mm512_cmpeq_epi64_mask(a, b) }
        }
        #[inline(always)]
        fn ne(self, a: __m512i, b: __m512i) -> u8 {
            // SAFETY: see the impl.
            unsafe { _mm512_cmpneq_epi64_mask(a, b) }
        }
        #[inline(always)]
        fn blend(self, mask: u8, a: __m512i, b: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_mask_blend_epi64(mask, a, b) }
        }
        #[inline(always)]
        fn align<const N: i32>(self, hi: __m512i, lo: __m512i) -> __m512i {
            // SAFETY: see the impl.
            unsafe { _mm512_alignr_epi64::<N>(hi, lo) }
        }
        #[inline(always)]
        fn load(self, src: &[u64; 8]) -> __m512i {
            // SAFETY: see the impl; `src` is exactly one 64-byte unaligned load.
            unsafe { _mm512_loadu_si512(src.as_ptr() as *const _) }
        }
        #[inline(always)]
        fn store(self, a: __m512i, dst: &mut [u64; 8]) {
            // SAFETY: see the impl; `dst` is exactly one 64-byte unaligned store.
            unsafe { _mm512_storeu_si512(dst.as_mut_ptr() as *mut _, a) }
        }
        #[inline(always)]
        unsafe fn gather(self, base: &[u64], index: __m512i, offset: usize) -> __m512i {
            // SAFETY: see the impl; the caller keeps every lane's element inside `base`
            // (`offset` ≤ `base.len()` follows, so the offset pointer is in bounds too).
            unsafe { _mm512_i64gather_epi64::<8>(index, base.as_ptr().add(offset) as *const _) }
        }
        #[inline(always)]
        unsafe fn scatter(
            self,
            base: &mut [u64],
            index: __m512i,
            offset: usize,
            mask: u8,
            a: __m512i,
        ) {
            // SAFETY: see the impl; the caller keeps every written lane inside `base`. The
            // pointer is formed with wrapping arithmetic: with an empty mask nothing is
            // written and `offset` need not be in bounds.
            unsafe {
                _mm512_mask_i64scatter_epi64::<8>(
                    base.as_mut_ptr().wrapping_add(offset) as *mut _,
                    mask,
                    index,
                    a,
                )
            }
        }
    }
}
