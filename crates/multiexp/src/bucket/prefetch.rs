//! A software prefetch hint: the batch-affine processors read their buckets in a random
//! order, and a bucket set beyond the L2 cache (2^15 buckets of 64 bytes at c = 16 on BN254)
//! stalls every read on the L3: before the hint, 32% of the scalar batch kernel's samples sat
//! on the load of the bucket's x (`perf`, BN254 2^20, c = 16). The forward pass of a batch
//! hints the bucket of an addition a few entries ahead (the IFMA kernel: two 8-lane steps
//! ahead), so its lines arrive while the current entry is multiplied.
//!
//! Measured on AMD EPYC Zen 4 (1 MiB L2), n = 2^20, same run, with against without: portable
//! batch-affine 0.72–0.75× at c = 16 and 0.92× at c = 14 (BN254, BLS12-381); IFMA 0.80–0.90×
//! at c = 16. With it, c = 16 is the fastest portable window at 2^20 on both curves.

/// How many staged additions ahead the forward pass hints: its iteration is about 40 cycles
/// (one subtraction and one multiplication), so 8 covers an L3 hit with room to spare.
pub(crate) const AHEAD: usize = 8;

/// Hints the cache lines of `value` into L1. A hint: no effect on results, a no-op on
/// targets without one.
#[inline(always)]
pub(crate) fn prefetch<T>(value: &T) {
    prefetch_bytes(value as *const T as *const u8, std::mem::size_of::<T>());
}

/// Hints the lines of `values` into L1 (an IFMA record: 2L limbs).
#[inline(always)]
pub(crate) fn prefetch_slice<T>(values: &[T]) {
    prefetch_bytes(values.as_ptr() as *const u8, std::mem::size_of_val(values));
}

#[inline(always)]
fn prefetch_bytes(first: *const u8, size: usize) {
    // Every line the value touches: a 64-byte bucket is only 8-aligned, so it may straddle
    // two (the size is a constant where it matters, the loop unrolls).
    let mut offset = 0;
    while offset < size {
        line(first.wrapping_add(offset));
        offset += 64;
    }
    if size > 0 {
        line(first.wrapping_add(size - 1));
    }
}

#[inline(always)]
fn line(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and has no architectural effect; SSE is baseline on
    // x86-64.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p as *const i8)
    };
    #[cfg(target_arch = "aarch64")]
    // SAFETY: `prfm` is a hint: it never faults and changes no architectural state.
    unsafe {
        std::arch::asm!("prfm pldl1keep, [{0}]", in(reg) p, options(nostack, readonly, preserves_flags))
    };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    let _ = p;
}
