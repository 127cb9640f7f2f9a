//! The point pipeline: decode → on the curve (a square root per compressed point) → in the
//! subgroup, in blocks of [`BLOCK`] points run in parallel on the caller's rayon pool.
//!
//! Within a block the three stages run one after the other, each over the block's points in
//! index order and each only up to the first error found so far, so the error reported is
//! always the one of the lowest index in the whole input. Blocks past a known error are
//! skipped. Square roots and subgroup tests use the IFMA kernels of `kernels.rs` eight points
//! at a time where they apply and the caller's [`Ifma`] gives them an engine, and arkworks
//! arithmetic everywhere else.

use std::sync::atomic::{AtomicUsize, Ordering};

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{Field, PrimeField, Zero};
use rayon::prelude::*;

use super::encoding::{Codec, Decoded, Int};
use super::error::{FlagProblem, InputError, InputErrorKind, Location};
use super::kernels::{CurveKernel, EndoKernel};
use super::subgroup::SubgroupCheck;
use crate::ifma::Ifma;

/// Points per parallel task.
pub(crate) const BLOCK: usize = 256;

/// A sequence of encoded elements: lines of a hex input or records of a binary one.
pub(crate) trait Elements: Sync {
    /// Number of elements.
    fn count(&self) -> usize;
    /// Where element `index` is.
    fn location(&self, index: usize) -> Location;
    /// The bytes of element `index`, decoded into `buf` (of the element size) if need be.
    fn bytes<'a>(&'a self, index: usize, buf: &'a mut [u8]) -> Result<&'a [u8], InputErrorKind>;
}

/// The curve kernel for the limb count of the curve at hand.
#[derive(Clone, Debug)]
enum CurveKernels {
    L5(CurveKernel<5>),
    L7(CurveKernel<7>),
    L8(CurveKernel<8>),
}

/// The subgroup kernel (BLS12 G1: 8 limbs).
#[derive(Clone, Debug)]
enum EndoKernels {
    L8(EndoKernel<8>),
}

/// Everything one input's points are checked with.
pub(crate) struct Checker<P: SWCurveConfig> {
    subgroup: Option<SubgroupCheck<P>>,
    curve: Option<CurveKernels>,
    endo: Option<EndoKernels>,
}

impl<P: SWCurveConfig> Checker<P> {
    /// The checks for `P`; `subgroup` false skips the subgroup test; the IFMA kernels run as
    /// `ifma` asks ([`Ifma::Off`]: arkworks arithmetic only).
    pub(super) fn new(subgroup: bool, ifma: Ifma) -> Self {
        let subgroup = subgroup.then(SubgroupCheck::<P>::new);
        let engine = ifma.engine();
        let curve = engine.and_then(|e| match crate::ifma::limbs_of::<P::BaseField>()? {
            5 => CurveKernel::new::<P>(e).map(CurveKernels::L5),
            7 => CurveKernel::new::<P>(e).map(CurveKernels::L7),
            8 => CurveKernel::new::<P>(e).map(CurveKernels::L8),
            _ => None,
        });
        let endo = match (&subgroup, engine) {
            (Some(SubgroupCheck::Endo(t)), Some(e)) => EndoKernel::new(t, e).map(EndoKernels::L8),
            _ => None,
        };
        Checker {
            subgroup,
            curve,
            endo,
        }
    }

    /// Decodes and checks the block of points starting at element `start` into `out`; the
    /// first error (its index within the block) if any.
    pub(super) fn block<E: Elements>(
        &self,
        elements: &E,
        codec: &Codec<P>,
        start: usize,
        out: &mut [Affine<P>],
    ) -> Option<(usize, InputErrorKind)> {
        let mut buf = vec![0u8; codec.size()];
        let mut compressed = Vec::new();
        let mut integers = Vec::new();
        let mut limit = out.len();
        let mut error = None;
        for (k, slot) in out.iter_mut().enumerate() {
            let decoded = elements
                .bytes(start + k, &mut buf)
                .and_then(|bytes| codec.decode(bytes));
            match decoded {
                Err(kind) => {
                    (limit, error) = (k, Some((k, kind)));
                    break;
                }
                Ok(Decoded::Infinity) => *slot = Affine::identity(),
                Ok(Decoded::Compressed { x, x_int, larger }) => compressed.push(Compressed {
                    k,
                    x,
                    x_int,
                    larger,
                }),
                // arkworks represents the identity as (0, 0) and calls it on the curve; as
                // coordinates (0, 0) is no curve point (b ≠ 0), and infinity has its flag.
                Ok(Decoded::Uncompressed(p)) if !p.is_zero() && p.is_on_curve() => *slot = p,
                Ok(Decoded::Uncompressed(_)) => {
                    (limit, error) = (k, Some((k, InputErrorKind::NotOnCurve)));
                    break;
                }
                Ok(Decoded::Integers(ints)) => integers.push((k, ints)),
            }
        }
        // Stage 2 only sees elements before a stage-1 error, so its errors come first.
        let stage2 = self
            .decompress(&compressed, out)
            .or_else(|| self.convert(&integers, out));
        if let Some((k, kind)) = stage2 {
            (limit, error) = (k, Some((k, kind)));
        }
        if let Some(k) = self.first_outside_subgroup(&out[..limit]) {
            return Some((k, InputErrorKind::NotInSubgroup));
        }
        error
    }

    /// Whether `codec` should leave uncompressed coordinates as integers for [`Self::convert`]
    /// (where the IFMA kernel converts and checks them faster than arkworks).
    pub(super) fn codec(&self, codec: Codec<P>) -> Codec<P> {
        if self.curve.is_some() && known_montgomery::<P::BaseField>() {
            return codec.deferring_fields();
        }
        codec
    }

    /// Fills the uncompressed points given as canonical integers in (in index order),
    /// checking the curve equation; the first failure.
    fn convert(
        &self,
        items: &[(usize, [Int<P>; 2])],
        out: &mut [Affine<P>],
    ) -> Option<(usize, InputErrorKind)> {
        match &self.curve {
            Some(CurveKernels::L5(c)) => return convert_by_kernel(c, items, out),
            Some(CurveKernels::L7(c)) => return convert_by_kernel(c, items, out),
            Some(CurveKernels::L8(c)) => return convert_by_kernel(c, items, out),
            None => {}
        }
        for &(k, [x, y]) in items {
            let x = Prime::<P>::from_bigint(x).map(P::BaseField::from_base_prime_field);
            let y = Prime::<P>::from_bigint(y).map(P::BaseField::from_base_prime_field);
            match x.zip(y).map(|(x, y)| Affine::new_unchecked(x, y)) {
                Some(p) if !p.is_zero() && p.is_on_curve() => out[k] = p,
                _ => return Some((k, InputErrorKind::NotOnCurve)),
            }
        }
        None
    }

    /// Fills the compressed points in (in index order); the first failure.
    fn decompress(
        &self,
        items: &[Compressed<P>],
        out: &mut [Affine<P>],
    ) -> Option<(usize, InputErrorKind)> {
        match &self.curve {
            Some(CurveKernels::L5(c)) if c.has_sqrt() => {
                return decompress_by_kernel(c, items, out)
            }
            Some(CurveKernels::L7(c)) if c.has_sqrt() => {
                return decompress_by_kernel(c, items, out)
            }
            Some(CurveKernels::L8(c)) if c.has_sqrt() => {
                return decompress_by_kernel(c, items, out)
            }
            _ => {}
        }
        for &Compressed { k, x, larger, .. } in items {
            let mut rhs = P::add_b(x.square() * x);
            if !P::COEFF_A.is_zero() {
                rhs += P::mul_by_a(x);
            }
            let Some(mut y) = rhs.sqrt() else {
                return Some((k, InputErrorKind::NotOnCurve));
            };
            if (y > -y) != larger {
                if y.is_zero() {
                    let problem = FlagProblem::SignOnZeroY;
                    return Some((k, InputErrorKind::InvalidFlags { problem }));
                }
                y = -y;
            }
            out[k] = Affine::new_unchecked(x, y);
        }
        None
    }

    /// The index of the first point of `points` outside the subgroup.
    fn first_outside_subgroup(&self, points: &[Affine<P>]) -> Option<usize> {
        let check = self.subgroup.as_ref()?;
        if let (Some(EndoKernels::L8(k)), SubgroupCheck::Endo(test)) = (&self.endo, check) {
            return first_outside_by_kernel(k, test, points);
        }
        points.iter().position(|p| !check.contains(p))
    }
}

/// A compressed point waiting for its square root.
#[derive(Clone, Copy, Debug)]
struct Compressed<P: SWCurveConfig> {
    /// Index in the block.
    k: usize,
    x: P::BaseField,
    /// The canonical integer of x (over a prime field).
    x_int: Int<P>,
    /// y is the larger root.
    larger: bool,
}

type Prime<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;

/// The element of `F` whose arkworks Montgomery representation is `limbs` (little-endian
/// 64-bit limbs of x·2^(64N) mod p), for the prime fields of the catalogue with IFMA kernels;
/// `None` for other types. Safe: a `TypeId` match, then `Fp::new_unchecked` on the concrete
/// type.
fn from_montgomery<F: Field>(limbs: &[u64]) -> Option<F> {
    use core::any::Any;
    macro_rules! known {
        ($($f:literal: $t:ty, $n:literal;)*) => {
            $(
                #[cfg(feature = $f)]
                if core::any::TypeId::of::<F>() == core::any::TypeId::of::<$t>() {
                    let mut big = [0u64; $n];
                    big.copy_from_slice(limbs.get(..$n)?);
                    let value = <$t>::new_unchecked(ark_ff::BigInt(big));
                    return (&value as &dyn Any).downcast_ref::<F>().copied();
                }
            )*
        };
    }
    known! {
        "bn254": ark_bn254::Fq, 4;
        "bls12-381": ark_bls12_381::Fq, 6;
        "bls12-377": ark_bls12_377::Fq, 6;
        "secp256k1": ark_secp256k1::Fq, 4;
        "secp256r1": ark_secp256r1::Fq, 4;
        "grumpkin": ark_grumpkin::Fq, 4;
        "bls24-315": crate::curves::bls24_315::Fq, 5;
        "bls24-317": crate::curves::bls24_317::Fq, 5;
        "stark-curve": crate::curves::stark_curve::Fq, 4;
    }
    None
}

/// Whether [`from_montgomery`] knows `F`.
fn known_montgomery<F: Field>() -> bool {
    from_montgomery::<F>(&[0u64; 8]).is_some()
}

fn convert_by_kernel<P: SWCurveConfig, const L: usize>(
    kernel: &CurveKernel<L>,
    items: &[(usize, [Int<P>; 2])],
    out: &mut [Affine<P>],
) -> Option<(usize, InputErrorKind)> {
    use crate::ifma::{from_radix52, to_radix52};
    let limbs64 = Prime::<P>::MODULUS.as_ref().len();
    let field = |limbs: &[u64; L]| {
        let mut big = [0u64; 16];
        from_radix52(limbs, &mut big[..limbs64]);
        from_montgomery::<P::BaseField>(&big[..limbs64])
    };
    for group in items.chunks(8) {
        let int = |lane: usize, c: usize| {
            let (_, ints) = group.get(lane).unwrap_or(&group[0]);
            to_radix52::<L>(ints[c].as_ref())
        };
        let xs = core::array::from_fn(|lane| int(lane, 0));
        let ys = core::array::from_fn(|lane| int(lane, 1));
        let (x, y, on_curve) = kernel.uncompressed8(&xs, &ys);
        for (lane, &(k, _)) in group.iter().enumerate() {
            if on_curve & (1 << lane) == 0 {
                return Some((k, InputErrorKind::NotOnCurve));
            }
            match field(&x[lane]).zip(field(&y[lane])) {
                Some((x, y)) => out[k] = Affine::new_unchecked(x, y),
                None => return Some((k, InputErrorKind::NotOnCurve)),
            }
        }
    }
    None
}

fn decompress_by_kernel<P: SWCurveConfig, const L: usize>(
    kernel: &CurveKernel<L>,
    items: &[Compressed<P>],
    out: &mut [Affine<P>],
) -> Option<(usize, InputErrorKind)> {
    use super::kernels::{from_radix52, is_larger52, negate52};
    use crate::ifma::to_radix52;
    for group in items.chunks(8) {
        let xs: [[u64; L]; 8] = core::array::from_fn(|lane| {
            to_radix52::<L>(group.get(lane).unwrap_or(&group[0]).x_int.as_ref())
        });
        let (ys, ok) = kernel.sqrt8(&xs)?;
        for (lane, &Compressed { k, x, larger, .. }) in group.iter().enumerate() {
            if ok & (1 << lane) == 0 {
                return Some((k, InputErrorKind::NotOnCurve));
            }
            let mut y = ys[lane];
            let zero = y.iter().all(|&l| l == 0);
            if !zero && is_larger52(&y, kernel.modulus()) != larger {
                y = negate52(&y, kernel.modulus());
            } else if zero && larger {
                let problem = FlagProblem::SignOnZeroY;
                return Some((k, InputErrorKind::InvalidFlags { problem }));
            }
            let y = from_radix52::<Prime<P>, L>(&y)
                .and_then(|y| P::BaseField::from_base_prime_field_elems([y]));
            match y {
                Some(y) => out[k] = Affine::new_unchecked(x, y),
                None => return Some((k, InputErrorKind::NotOnCurve)),
            }
        }
    }
    None
}

fn first_outside_by_kernel<P: SWCurveConfig, const L: usize>(
    kernel: &EndoKernel<L>,
    test: &super::subgroup::EndoTest<P>,
    points: &[Affine<P>],
) -> Option<usize> {
    use super::kernels::radix52_of;
    type Prime<P> = <<P as ark_ec::CurveConfig>::BaseField as Field>::BasePrimeField;
    let prime = |x: &P::BaseField| x.to_base_prime_field_elements().next().unwrap_or_default();
    let finite: Vec<usize> = (0..points.len())
        .filter(|&i| !points[i].is_zero())
        .collect();
    for group in finite.chunks(8) {
        let lane_point = |lane: usize| &points[*group.get(lane).unwrap_or(&group[0])];
        let xs =
            core::array::from_fn(|lane| radix52_of::<Prime<P>, L>(&prime(&lane_point(lane).x)));
        let ys =
            core::array::from_fn(|lane| radix52_of::<Prime<P>, L>(&prime(&lane_point(lane).y)));
        let (pass, exceptional) = kernel.test8(&xs, &ys);
        for (lane, &i) in group.iter().enumerate() {
            let ok = if exceptional & (1 << lane) != 0 {
                test.holds(&points[i])
            } else {
                pass & (1 << lane) != 0
            };
            if !ok {
                return Some(i);
            }
        }
    }
    None
}

/// Decodes and checks every element, in parallel; the error of the lowest index if any.
pub(crate) fn decode_points<P: SWCurveConfig, E: Elements>(
    input: &str,
    elements: &E,
    codec: &Codec<P>,
    checker: &Checker<P>,
) -> Result<Vec<Affine<P>>, InputError> {
    let n = elements.count();
    if n == 0 {
        return Err(InputError::new(
            input,
            Location::Whole,
            InputErrorKind::Empty,
        ));
    }
    // Filled in parallel: first touch of the pages is a large part of a fast parse.
    let mut points = Vec::with_capacity(n);
    points.par_extend(rayon::iter::repeat_n(Affine::<P>::identity(), n));
    let first_bad = AtomicUsize::new(usize::MAX);
    let failure = points
        .par_chunks_mut(BLOCK)
        .enumerate()
        .filter_map(|(b, out)| {
            let start = b * BLOCK;
            if start > first_bad.load(Ordering::Relaxed) {
                return None;
            }
            let found = checker
                .block(elements, codec, start, out)
                .map(|(k, kind)| (start + k, kind));
            if let Some((i, _)) = &found {
                first_bad.fetch_min(*i, Ordering::Relaxed);
            }
            found
        })
        .min_by_key(|(i, _)| *i);
    match failure {
        Some((i, kind)) => Err(InputError::new(input, elements.location(i), kind)),
        None => Ok(points),
    }
}
