use ark_ff::PrimeField;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

use super::*;

/// Every lane operation on a few inputs, as the vectors it returns (masks in lane 0).
fn lane_ops<B: LaneBackend>(b: B, x: &[[u64; 8]; 3], base: &[u64]) -> Vec<[u64; 8]> {
    b.run(|b| {
        let [p, q, r] = x.map(|v| b.load(&v));
        let mask = |m: u8| [m as u64, 0, 0, 0, 0, 0, 0, 0];
        let v = |a| {
            let mut out = [0u64; 8];
            b.store(a, &mut out);
            out
        };
        let index = b.and(q, b.splat(63));
        // SAFETY: every index is below 64 and `base` has 64 + 8 elements.
        let gathered = unsafe { b.gather(base, index, 8) };
        let mut scattered = base.to_vec();
        // SAFETY: as above.
        unsafe { b.scatter(&mut scattered, index, 3, x[2][0] as u8, r) };
        let mut out = vec![
            v(b.splat(x[0][1])),
            v(b.zero()),
            v(b.madd52lo(p, q, r)),
            v(b.madd52hi(p, q, r)),
            v(b.add(p, q)),
            v(b.sub(p, q)),
            v(b.and(p, q)),
            v(b.or(p, q)),
            v(b.shr52(p)),
            v(b.sar52(p)),
            mask(b.eq(p, b.blend(0b1010_0110, p, q))),
            mask(b.ne(p, b.blend(0b1010_0110, p, q))),
            v(b.blend(x[2][1] as u8, p, q)),
            v(b.align::<1>(p, q)),
            v(b.align::<2>(p, q)),
            v(b.align::<4>(p, q)),
            v(b.align::<6>(p, q)),
            v(b.align::<7>(p, q)),
            v(gathered),
        ];
        out.extend(
            scattered
                .chunks(8)
                .map(|c| <[u64; 8]>::try_from(c).unwrap()),
        );
        out
    })
}

fn random_lanes(rng: &mut ChaCha20Rng) -> [[u64; 8]; 3] {
    core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()))
}

#[test]
fn emulated_lanes_follow_the_instruction_semantics() {
    let e = Emulated;
    let all = |x: u64| [x; 8];
    // madd52: only the low 52 bits of b and c count; the accumulator wraps at 64 bits.
    let top = 0xfff0_0000_0000_0000;
    let m52 = (1u64 << 52) - 1;
    let lo = e.madd52lo(all(u64::MAX), all(top | 3), all(top | 5));
    assert_eq!(lo, all(14));
    let hi = e.madd52hi(all(1), all(m52), all(m52));
    assert_eq!(hi, all(1 + (m52 - 1)));
    assert_eq!(e.madd52lo(all(0), all(m52), all(m52)), all(1));
    // Shifts: logical and arithmetic.
    assert_eq!(e.shr52(all(1 << 63)), all(1 << 11));
    assert_eq!(e.sar52(all(1 << 63)), all(u64::MAX << 11));
    // valignq: lane k of (lo : hi) shifted down by N.
    let a: [u64; 8] = core::array::from_fn(|k| 10 + k as u64);
    let b: [u64; 8] = core::array::from_fn(|k| k as u64);
    assert_eq!(e.align::<1>(a, b), [1, 2, 3, 4, 5, 6, 7, 10]);
    assert_eq!(e.align::<6>(a, b), [6, 7, 10, 11, 12, 13, 14, 15]);
    assert_eq!(e.blend(0b0000_0101, b, a), [10, 1, 12, 3, 4, 5, 6, 7]);
    assert_eq!(e.eq(a, e.blend(0b1000_0001, a, b)), 0b0111_1110);
    // A masked scatter writes its lanes in ascending order: the last equal index wins.
    let mut base = [0u64; 4];
    // SAFETY: every index is below 4.
    unsafe { e.scatter(&mut base, [1, 1, 2, 0, 0, 0, 0, 0], 0, 0b0000_0111, a) };
    assert_eq!(base, [0, 11, 12, 0]);
}

/// Field operations on eight lanes of `F` in L limbs, through `backend`: the raw limbs of
/// every result.
fn field_ops<F: PrimeField, B: LaneBackend, const L: usize>(
    backend: B,
    f: &Field52<L>,
    a: &[[u64; L]; 8],
    b: &[[u64; L]; 8],
) -> Vec<[[u64; L]; 8]> {
    backend.run(|backend| {
        let lanes = f.broadcast(backend);
        let (va, vb) = (lanes.assemble(a), lanes.assemble(b));
        let one = lanes.splat(&f.encode(&F::ONE));
        let inverse = lanes.invert_lanes(&va, &one, |x| f.inverse_scalar::<F>(x));
        let mask = |m: u8| core::array::from_fn(|k| [((m >> k) & 1) as u64; L]);
        vec![
            lanes.extract(&lanes.mul(&va, &vb)),
            lanes.extract(&lanes.add(&va, &vb)),
            lanes.extract(&lanes.sub(&va, &vb)),
            lanes.extract(&lanes.sub(&vb, &va)),
            lanes.extract(&lanes.square(&va)),
            lanes.extract(&lanes.neg_where(&va, 0b0101_0101)),
            lanes.extract(&lanes.select(0b0011_0110, &va, &vb)),
            lanes.extract(&lanes.shift_up::<2>(&va, &vb)),
            lanes.extract(&lanes.shift_down::<4>(&va, &vb)),
            lanes.extract(&inverse),
            mask(lanes.zero_lanes(&lanes.sub(&va, &vb))),
            lanes.extract(&lanes.reload(&lanes.spill(&va))),
        ]
    })
}

/// Inputs of [`field_ops`]: random elements, then 0, 1, -1, 2 and pairs of equal lanes.
fn field_inputs<F: PrimeField>() -> Vec<F> {
    let mut rng = ChaCha20Rng::seed_from_u64(52);
    let mut xs: Vec<F> = (0..64).map(|_| F::rand(&mut rng)).collect();
    xs.extend([F::zero(), F::one(), -F::one(), F::from(2u64)]);
    xs.extend_from_within(..4);
    xs.resize(96, F::one());
    xs
}

fn lane_arithmetic_matches_arkworks<F: PrimeField, B: LaneBackend, const L: usize>(backend: B) {
    let f = Field52::<L>::of::<F>().expect("limb count");
    let xs = field_inputs::<F>();
    for x in &xs {
        assert_eq!(f.decode::<F>(&f.encode(x)), *x);
    }
    for w in xs.chunks(16) {
        let (a, b) = w.split_at(8);
        // invert_lanes needs non-zero lanes.
        let a: Vec<F> = a
            .iter()
            .map(|x| if x.is_zero() { F::one() } else { *x })
            .collect();
        let enc = |v: &[F]| -> [[u64; L]; 8] { core::array::from_fn(|k| f.encode(&v[k])) };
        let got = field_ops::<F, B, L>(backend, &f, &enc(&a), &enc(b));
        let dec = |v: &[u64; L]| f.decode::<F>(v);
        for k in 0..8 {
            let (x, y) = (a[k], b[k]);
            assert_eq!(dec(&got[0][k]), x * y, "mul");
            assert_eq!(dec(&got[1][k]), x + y, "add");
            assert_eq!(dec(&got[2][k]), x - y, "sub");
            assert_eq!(dec(&got[3][k]), y - x, "sub");
            assert_eq!(dec(&got[4][k]), x.square(), "square");
            assert_eq!(dec(&got[5][k]), if k % 2 == 0 { -x } else { x }, "neg");
            let selected = if 0b0011_0110 >> k & 1 == 1 { x } else { y };
            assert_eq!(dec(&got[6][k]), selected, "select");
            let up = if k < 2 { b[k + 6] } else { a[k - 2] };
            assert_eq!(dec(&got[7][k]), up, "shift up");
            let down = if k + 4 < 8 { a[k + 4] } else { b[k - 4] };
            assert_eq!(dec(&got[8][k]), down, "shift down");
            assert_eq!(dec(&got[9][k]), x.inverse().unwrap(), "invert_lanes");
            assert_eq!(got[10][k][0] == 1, x == y, "zero_lanes");
            assert_eq!(dec(&got[11][k]), x, "spill, reload");
        }
        for x in &a {
            let inv = f.inverse_scalar::<F>(&f.encode(x));
            assert_eq!(f.decode::<F>(&inv), x.inverse().unwrap_or_default());
        }
    }
}

fn every_field<B: LaneBackend>(backend: B) {
    lane_arithmetic_matches_arkworks::<ark_bn254::Fq, B, 5>(backend);
    lane_arithmetic_matches_arkworks::<ark_secp256k1::Fq, B, 5>(backend);
    lane_arithmetic_matches_arkworks::<ark_secp256r1::Fq, B, 5>(backend);
    lane_arithmetic_matches_arkworks::<ark_bls12_381::Fq, B, 8>(backend);
    lane_arithmetic_matches_arkworks::<ark_bls12_377::Fq, B, 8>(backend);
    lane_arithmetic_matches_arkworks::<crate::curves::bls24_315::Fq, B, 7>(backend);
}

#[test]
fn emulated_lane_arithmetic_matches_arkworks() {
    every_field(Emulated);
}

/// The constants of `Field52::of`, computed as powers of 2 in the field, equal 1 doubled
/// modulo p in radix 2^52 (the definition): R² after 2·52·L doublings, R²/2^(64·N) after
/// 2·52·L − 64·N; and R³ is R²·R²/R.
fn constants_are_powers_of_two<F: PrimeField, const L: usize>() {
    let field = Field52::<L>::of::<F>().expect("an eligible field");
    let p = field.p;
    let mut v = [0u64; L];
    v[0] = 1;
    let n64 = F::MODULUS.as_ref().len();
    let mut from_montgomery64 = v;
    for i in 0..104 * L {
        if i == 104 * L - 64 * n64 {
            from_montgomery64 = v;
        }
        let mut carry = 0;
        for limb in v.iter_mut() {
            let t = (*limb << 1) | carry;
            carry = t >> 52;
            *limb = t & ((1 << 52) - 1);
        }
        let big = (0..L)
            .rev()
            .find(|&k| v[k] != p[k])
            .is_none_or(|k| v[k] > p[k]);
        if big {
            let mut borrow = 0i64;
            for k in 0..L {
                let d = v[k] as i64 - p[k] as i64 + borrow;
                borrow = d >> 52;
                v[k] = (d as u64) & ((1 << 52) - 1);
            }
        }
    }
    assert_eq!(field.r2, v, "R²");
    assert_eq!(field.from_montgomery64, from_montgomery64, "R²/2^(64N)");
    assert_eq!(field.r3, field.mul_scalar(&v, &v), "R³");
}

#[test]
fn field_constants_are_powers_of_two_reduced_modulo_p() {
    constants_are_powers_of_two::<ark_bn254::Fq, 5>();
    constants_are_powers_of_two::<ark_secp256k1::Fq, 5>();
    constants_are_powers_of_two::<ark_secp256r1::Fq, 5>();
    constants_are_powers_of_two::<ark_bls12_381::Fq, 8>();
    constants_are_powers_of_two::<ark_bls12_377::Fq, 8>();
    constants_are_powers_of_two::<crate::curves::bls24_315::Fq, 7>();
}

#[test]
fn the_eligibility_rule_takes_prime_fields_of_5_7_or_8_limbs() {
    assert_eq!(limbs_of::<ark_bn254::Fq>(), Some(5));
    assert_eq!(limbs_of::<ark_bls12_381::Fq>(), Some(8));
    assert_eq!(limbs_of::<crate::curves::bls24_315::Fq>(), Some(7));
    assert_eq!(limbs_of::<ark_bn254::Fq2>(), None, "an extension field");
    assert_eq!(limbs_of::<ark_bw6_761::Fq>(), None, "15 limbs");
    assert_eq!(eligible_limbs(1, 254), Some(5));
    assert_eq!(eligible_limbs(1, 260), None, "6 limbs");
    assert_eq!(Ifma::Off.engine(), None);
    assert_eq!(Ifma::Emulated.engine(), Some(Engine::Emulated(Emulated)));
    assert!(!Ifma::Emulated.native() && !Ifma::Off.native());
    assert_eq!(Ifma::Auto.native(), available() && !disabled_by_env());
}

#[test]
#[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
fn native_lane_ops_equal_the_emulation_bit_for_bit() {
    let native = native_engine();
    let mut rng = ChaCha20Rng::seed_from_u64(8);
    let base: Vec<u64> = (0..72).map(|_| rng.next_u64()).collect();
    for round in 0..2000 {
        let mut x = random_lanes(&mut rng);
        if round % 4 == 0 {
            // Lanes equal in part, for the compares.
            let head = x[0];
            x[1][..4].copy_from_slice(&head[..4]);
        }
        let got = on_engine!(native, |b| lane_ops(b, &x, &base));
        assert_eq!(got, lane_ops(Emulated, &x, &base), "{x:?}");
    }
}

fn field_ops_agree<F: PrimeField, const L: usize>(native: Engine) {
    let f = Field52::<L>::of::<F>().expect("limb count");
    let xs = field_inputs::<F>();
    for w in xs.chunks(16) {
        let (a, b) = w.split_at(8);
        let a: Vec<F> = a
            .iter()
            .map(|x| if x.is_zero() { F::one() } else { *x })
            .collect();
        let enc = |v: &[F]| -> [[u64; L]; 8] { core::array::from_fn(|k| f.encode(&v[k])) };
        let (a, b) = (enc(&a), enc(b));
        let got = on_engine!(native, |backend| field_ops::<F, _, L>(backend, &f, &a, &b));
        assert_eq!(got, field_ops::<F, _, L>(Emulated, &f, &a, &b));
    }
}

#[test]
#[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
fn native_lane_arithmetic_matches_arkworks_and_the_emulation() {
    let native = native_engine();
    on_engine!(native, |b| every_field(b));
    field_ops_agree::<ark_bn254::Fq, 5>(native);
    field_ops_agree::<ark_bls12_381::Fq, 8>(native);
    field_ops_agree::<crate::curves::bls24_315::Fq, 7>(native);
}
