//! Bucket arrays that start on a cache line.
//!
//! The allocator returns a large `Vec` 16 bytes past a page, so 64-byte buckets (BN254 affine
//! points) each straddle two lines and 96-byte ones (BLS12-381) touch three half the time: a
//! random bucket read then misses twice. [`LineVec`] places element 0 on a 64-byte boundary,
//! so a 64-byte bucket is one line and a 96-byte one two (at offsets 0 and 32 mod 64).
//! Measured on AMD Zen 4 (2 threads, n = 2^20, c = 16, same run, against a 16-byte offset):
//! IFMA batch-affine 0.82–0.88× on BN254 and BLS12-381, the portable one within noise.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

/// One cache line of storage.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Line([u8; 64]);

/// A growable array of `T` whose element 0 starts on a 64-byte line.
pub(crate) struct LineVec<T: Copy> {
    lines: Vec<Line>,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Copy> Default for LineVec<T> {
    fn default() -> Self {
        LineVec {
            lines: Vec::new(),
            len: 0,
            _t: PhantomData,
        }
    }
}

impl<T: Copy> LineVec<T> {
    const FITS: () = assert!(std::mem::align_of::<T>() <= 64 && std::mem::size_of::<T>() > 0);

    /// Grows to `len` elements, the new ones `value` (never shrinks).
    pub(crate) fn grow(&mut self, len: usize, value: T) {
        let () = Self::FITS;
        if len <= self.len {
            return;
        }
        let bytes = len * std::mem::size_of::<T>();
        let mut lines = vec![Line([0; 64]); bytes.div_ceil(64)];
        let base = lines.as_mut_ptr() as *mut T;
        // SAFETY: `lines` holds at least `len` elements of T from `base`, which is 64-aligned
        // (T's alignment is at most 64, asserted). The old elements are copied as T (never as
        // bytes: T may have padding), the new ones written before anything reads them.
        unsafe {
            std::ptr::copy_nonoverlapping(self.lines.as_ptr() as *const T, base, self.len);
            for i in self.len..len {
                base.add(i).write(value);
            }
        }
        self.lines = lines;
        self.len = len;
    }

    /// A copy of `values`.
    #[cfg(test)]
    pub(crate) fn from_slice(values: &[T]) -> Self {
        let mut v = LineVec::default();
        if let Some(&first) = values.first() {
            v.grow(values.len(), first);
            v.copy_from_slice(values);
        }
        v
    }
}

impl<T: Copy> Deref for LineVec<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: elements 0..len are initialized and aligned (see `grow`); with len = 0 the
        // pointer is the empty Vec's dangling one, 64-aligned and never read.
        unsafe { std::slice::from_raw_parts(self.lines.as_ptr() as *const T, self.len) }
    }
}

impl<T: Copy> DerefMut for LineVec<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `self` is borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.lines.as_mut_ptr() as *mut T, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_start_on_a_line_and_survive_growth() {
        let mut v = LineVec::<[u64; 12]>::default();
        assert!(v.is_empty());
        v.grow(3, [7; 12]);
        v[1] = [1; 12];
        v.grow(1000, [9; 12]);
        v.grow(10, [0; 12]);
        assert_eq!(v.len(), 1000);
        assert_eq!(
            (v[0], v[1], v[2], v[999]),
            ([7; 12], [1; 12], [7; 12], [9; 12])
        );
        assert_eq!(v.as_ptr() as usize % 64, 0);
        let w = LineVec::from_slice(&v[..5]);
        assert_eq!(&w[..], &v[..5]);
        assert!(LineVec::<u64>::from_slice(&[]).is_empty());
    }
}
