//! Scalar classes (zero, ±1, ≤ 8 … 128 bits, full): every class boundary, mixes of all
//! classes, classes of 0, 1 and 2 scalars and classes below any batch size, on every
//! curve/group of the MSM matrix, against the naive sum and arkworks; the planner's choice
//! for the distributions provers have.

use crate::common;

use ark_ec::short_weierstrass::{Affine, SWCurveConfig};
use ark_ec::AffineRepr;
use ark_ff::{BigInteger, One, PrimeField, Zero};
use common::{arkworks, naive, processors, with_processor};
use multiexp::unstable::sample::{points, scalars_of, Distribution};
use multiexp::{
    msm_with, plan_for_scalars, ClassPolicy, Config, GlvPolicy, Ifma, ScalarStats, SplitPolicy,
};

/// 2^k in the scalar field.
fn pow2<F: PrimeField>(k: u64) -> F {
    F::from(2u64).pow([k])
}

/// Every class boundary: 0, 1, 2, 2^k − 1, 2^k, 2^k + 1 and their negatives for k = 8, 16,
/// 32, 64, 128 (so r − 2^k and its neighbours), (r ± 1)/2, r − 1, r − 2, and a few uniform.
fn boundaries<F: PrimeField>() -> Vec<F> {
    let mut v = vec![
        F::zero(),
        F::one(),
        F::from(2u64),
        -F::one(),
        -F::from(2u64),
    ];
    for k in [
        7u64, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129,
    ] {
        let p = pow2::<F>(k);
        for s in [p - F::one(), p, p + F::one()] {
            v.push(s);
            v.push(-s);
        }
    }
    // (r − 1)/2 and (r + 1)/2, the two halves of r: full-size both ways.
    let mut r_minus_1_over_2 = F::MODULUS;
    r_minus_1_over_2.sub_with_borrow(&F::BigInt::from(1u64));
    r_minus_1_over_2.div2();
    let low = F::from_bigint(r_minus_1_over_2).expect("below r");
    v.push(low);
    v.push(low + F::one());
    v.extend(scalars_of::<F>(6, 9, Distribution::Uniform));
    v
}

fn cfg(threads: usize, classes: ClassPolicy) -> Config {
    Config {
        threads: Some(threads),
        oversubscribe: true,
        classes,
        ..Config::default()
    }
}

/// Points for `n` scalars with the hard cases: repeats, P and −P, the point at infinity.
fn hard_points<P: SWCurveConfig>(n: usize, seed: u64) -> Vec<Affine<P>> {
    let mut pts = points::<P>(n, seed);
    if n >= 8 {
        pts[1] = pts[0];
        pts[3] = -pts[2];
        pts[5] = Affine::<P>::zero();
        pts[7] = pts[0];
    }
    pts
}

fn check<P: SWCurveConfig>(pts: &[Affine<P>], scs: &[P::ScalarField], what: &str) {
    let want = naive(pts, scs);
    assert_eq!(arkworks(pts, scs), want, "{what}: arkworks vs naive");
    for policy in [ClassPolicy::Auto, ClassPolicy::Always, ClassPolicy::Off] {
        for threads in [1, 2, 3] {
            let got = msm_with(pts, scs, &cfg(threads, policy)).expect("msm");
            assert_eq!(got, want, "{what}: {policy:?}, {threads} threads");
        }
    }
}

/// Every boundary alone, all together, and each repeated so its class holds 1, 2 or many.
pub fn class_boundaries_match_naive_and_arkworks<P: SWCurveConfig>() {
    let b = boundaries::<P::ScalarField>();
    let pts = hard_points::<P>(b.len(), 3);
    check(&pts, &b, "all boundaries");
    for (i, &s) in b.iter().enumerate() {
        check(&pts[i..i + 1], &[s], &format!("boundary {i} alone"));
        check(&pts[..2], &[s, s], &format!("boundary {i} twice"));
        let mut mixed = scalars_of::<P::ScalarField>(5, i as u64, Distribution::Uniform);
        mixed[2] = s;
        check(&pts[..5], &mixed, &format!("boundary {i} among uniform"));
    }
}

/// Every class in one input, in sizes from 0 to beyond a batch, under every processor, window
/// and split the matrix runs.
pub fn mixed_classes_match_naive<P: SWCurveConfig>() {
    let n = 700;
    let pts = hard_points::<P>(n, 5);
    let dists = [
        Distribution::Zero,
        Distribution::One,
        Distribution::MinusOne,
        Distribution::U8,
        Distribution::U16,
        Distribution::U32,
        Distribution::U64,
        Distribution::NegSmall,
        Distribution::Uniform,
    ];
    // Class sizes 0, 1, 2 and beyond a batch in one input, then every class populated.
    for sizes in [
        [0usize, 1, 2, 3, 200, 1, 2, 0, 150],
        [20, 20, 20, 20, 20, 20, 20, 20, 100],
    ] {
        let mut scs = Vec::new();
        for (i, (&d, &k)) in dists.iter().zip(&sizes).enumerate() {
            scs.extend(scalars_of::<P::ScalarField>(k, 40 + i as u64, d));
        }
        // Interleave the classes: a stride permutation (7919 is prime, above any length).
        let m = scs.len();
        let scs: Vec<P::ScalarField> = (0..m).map(|i| scs[i * 7919 % m]).collect();
        check_mix(&pts[..m], &scs);
    }
}

fn check_mix<P: SWCurveConfig>(pts: &[Affine<P>], scs: &[P::ScalarField]) {
    let n = scs.len();
    let want = naive(pts, scs);
    assert_eq!(arkworks(pts, scs), want);
    let stats = ScalarStats::of(scs);
    assert_eq!(stats.n(), n);
    for threads in [1, 2, 4] {
        for window in [None, Some(1), Some(5), Some(16)] {
            let mut c = cfg(threads, ClassPolicy::Always);
            c.window = window;
            assert_eq!(
                msm_with(pts, scs, &c).unwrap(),
                want,
                "{threads} threads, {window:?}"
            );
        }
        for split in [SplitPolicy::Never, SplitPolicy::Parts(3)] {
            let mut c = cfg(threads, ClassPolicy::Always);
            c.split = split;
            assert_eq!(
                msm_with(pts, scs, &c).unwrap(),
                want,
                "{threads} threads, {split:?}"
            );
        }
        for arm in processors::<P>() {
            let c = with_processor(cfg(threads, ClassPolicy::Always), arm);
            assert_eq!(
                msm_with(pts, scs, &c).unwrap(),
                want,
                "{threads} threads, {arm:?}"
            );
        }
    }
}

/// ±1 only: the plain sum with repeats, P + (−P), infinity and odd counts at every length.
pub fn plain_sums_match_naive<P: SWCurveConfig>() {
    let pts = hard_points::<P>(80, 11);
    let signs = scalars_of::<P::ScalarField>(80, 12, Distribution::Bool);
    let scs: Vec<P::ScalarField> = signs
        .iter()
        .map(|s| {
            if s.is_zero() {
                -P::ScalarField::one()
            } else {
                *s
            }
        })
        .collect();
    for len in (0..=40).chain([63, 64, 65, 80]) {
        let want = naive(&pts[..len], &scs[..len]);
        for threads in [1, 2, 3] {
            let got = msm_with(&pts[..len], &scs[..len], &cfg(threads, ClassPolicy::Always));
            assert_eq!(got.unwrap(), want, "len {len}, {threads} threads");
        }
    }
    // Enough ±1 scalars for two and three workers, each taking code ranges in turn, zeros
    // between them and a repeated point among them.
    let n = 1500;
    let mut many = points::<P>(n, 13);
    many[700] = many[100];
    let pm: Vec<P::ScalarField> = (0..n)
        .map(|i| match i % 3 {
            0 => P::ScalarField::zero(),
            1 => P::ScalarField::one(),
            _ => -P::ScalarField::one(),
        })
        .collect();
    let want = arkworks(&many, &pm);
    for threads in [2, 3] {
        let got = msm_with(&many, &pm, &cfg(threads, ClassPolicy::Always)).unwrap();
        assert_eq!(got, want, "{n} points, {threads} threads");
    }
    // One point many times: every pair a doubling.
    let same = vec![pts[0]; 37];
    let ones = vec![P::ScalarField::one(); 37];
    let got = msm_with(&same, &ones, &cfg(2, ClassPolicy::Always)).unwrap();
    assert_eq!(got, pts[0].into_group() * P::ScalarField::from(37u64));
}

/// A primitive cube root of unity of the scalar field (λ or λ², whichever GLV uses), where r ≡ 1
/// mod 3.
fn cube_root_of_unity<F: PrimeField>() -> Option<F> {
    let mut e = F::MODULUS;
    e.sub_with_borrow(&F::BigInt::from(1u64));
    // (r − 1)/3, limb by limb.
    let mut q = F::BigInt::default();
    let mut rem = 0u128;
    for (i, &l) in e.as_ref().iter().enumerate().rev() {
        let cur = (rem << 64) | l as u128;
        q.as_mut()[i] = (cur / 3) as u64;
        rem = cur % 3;
    }
    if rem != 0 {
        return None;
    }
    (2u64..40).map(F::from).find_map(|g| {
        let w = g.pow(q.as_ref());
        (w != F::one()).then_some(w)
    })
}

/// GLV forced and priced, against naive and arkworks: every class boundary and the scalars
/// around the endomorphism's eigenvalue and the halves' bound (λ, λ², λ ± 1, 2^127 … 2^129,
/// r − 2^128) among uniform ones, alone, twice, with the hard points (repeats, P and −P,
/// infinity), the full-size class merged with smaller ones, at every thread count, window,
/// split and processor of the matrix. Curves without the endomorphism run the same inputs
/// (GLV forced is then a no-op).
pub fn glv_matches_naive_and_arkworks<P: SWCurveConfig>() {
    type F<P> = <P as ark_ec::CurveConfig>::ScalarField;
    let mut special = boundaries::<F<P>>();
    if let Some(mu) = cube_root_of_unity::<F<P>>() {
        special.extend([mu, mu * mu, mu + F::<P>::one(), mu - F::<P>::one(), -mu]);
    }
    for k in [127u64, 128, 129] {
        special.push(pow2::<F<P>>(k));
        special.push(-pow2::<F<P>>(k) - pow2::<F<P>>(k - 1));
    }
    let glv = |threads: usize| Config {
        glv: GlvPolicy::Always,
        ..cfg(threads, ClassPolicy::Auto)
    };
    let check_glv = |pts: &[Affine<P>], scs: &[F<P>], what: &str| {
        let want = naive(pts, scs);
        assert_eq!(arkworks(pts, scs), want, "{what}: arkworks vs naive");
        for threads in [1, 2, 3] {
            assert_eq!(
                msm_with(pts, scs, &glv(threads)).unwrap(),
                want,
                "{what}: {threads}"
            );
        }
    };
    let pts = hard_points::<P>(special.len().max(8), 31);
    check_glv(&pts[..special.len()], &special, "all special");
    for (i, &s) in special.iter().enumerate() {
        check_glv(&pts[i..i + 1], &[s], &format!("special {i} alone"));
        check_glv(&pts[..2], &[s, s], &format!("special {i} twice"));
    }
    check_glv(&[], &[], "empty");
    // Uniform, then uniform with every class beside it, under the matrix's settings.
    let n = 600;
    let pts = hard_points::<P>(n, 32);
    let mut mixed = scalars_of::<F<P>>(n, 33, Distribution::Uniform);
    for (i, s) in mixed.iter_mut().enumerate().skip(1).step_by(3) {
        *s = scalars_of::<F<P>>(1, i as u64, Distribution::ALL[i % Distribution::ALL.len()])[0];
    }
    for scs in [scalars_of::<F<P>>(n, 34, Distribution::Uniform), mixed] {
        let want = naive(&pts, &scs);
        for threads in [1, 2, 4] {
            for window in [None, Some(1), Some(6), Some(16)] {
                let c = Config {
                    window,
                    ..glv(threads)
                };
                assert_eq!(
                    msm_with(&pts, &scs, &c).unwrap(),
                    want,
                    "{threads}, {window:?}"
                );
            }
            for split in [SplitPolicy::Never, SplitPolicy::Parts(3)] {
                let c = Config {
                    split,
                    ..glv(threads)
                };
                assert_eq!(
                    msm_with(&pts, &scs, &c).unwrap(),
                    want,
                    "{threads}, {split:?}"
                );
            }
            for arm in processors::<P>() {
                let c = with_processor(glv(threads), arm);
                assert_eq!(
                    msm_with(&pts, &scs, &c).unwrap(),
                    want,
                    "{threads}, {arm:?}"
                );
            }
        }
        let plan = plan_for_scalars::<P>(&scs, &glv(2)).unwrap();
        let has_glv = multiexp::unstable::glv_bits::<P>().is_some();
        assert_eq!(
            plan.groups().iter().any(|g| g.glv),
            has_glv,
            "{}",
            plan.describe()
        );
    }
}

macro_rules! class_tests {
    ($($name:ident => $config:ty;)*) => {$(
        mod $name {
            type C = $config;
            #[test]
            fn class_boundaries_match_naive_and_arkworks() {
                super::class_boundaries_match_naive_and_arkworks::<C>();
            }
            #[test]
            fn mixed_classes_match_naive() {
                super::mixed_classes_match_naive::<C>();
            }
            #[test]
            fn plain_sums_match_naive() {
                super::plain_sums_match_naive::<C>();
            }
            #[test]
            fn glv_matches_naive_and_arkworks() {
                super::glv_matches_naive_and_arkworks::<C>();
            }
        }
    )*};
}

for_each_group!(class_tests);

/// GLV halves get windows cut for their bound (8 of 16 bits on BN254 and BLS12-381), and the
/// planner offers GLV only while the halves fit the workers' cache shares: at 2^18 on 2
/// workers they do not in 16 MiB shares, at 2^12 they do; forced, the cache does not matter.
fn glv_windows_follow_the_halves_bound_and_the_cache() {
    use multiexp::unstable::PlanOptions;
    fn check<P: SWCurveConfig>(name: &str) {
        let spec = multiexp::curves::spec(name).unwrap();
        let options = |cache: Option<u64>, always: bool| PlanOptions {
            window: Some(16),
            glv_bits: multiexp::unstable::glv_bits::<P>(),
            glv_max: multiexp::unstable::glv_max::<P>(),
            glv_cache: cache,
            glv_always: always,
            ..PlanOptions::default()
        };
        let forced = common::planner(&spec, options(None, true));
        let plan = forced.plan_classes(&ScalarStats::uniform(1 << 12), 2);
        let g = &plan.groups()[0];
        assert!(g.glv, "{}", plan.describe());
        assert_eq!(g.plan.chunks(), 8, "{}", plan.describe());
        // The bit count alone cuts as many or more (9 where it is 127).
        let bits = forced.for_bits(g.bits).plan(1 << 13, 2);
        assert!(bits.chunks() >= g.plan.chunks());
        let share = 16u64 << 20;
        let cached = common::planner(&spec, options(Some(share), false));
        assert!(cached.glv_fits(2 << 12, 2));
        assert!(!cached.glv_fits(2 << 18, 2));
        assert!(cached.glv_fits(2 << 18, 2 * 8));
        let large = cached.plan_classes(&ScalarStats::uniform(1 << 18), 2);
        assert!(!large.uses_classes(), "{}", large.describe());
        let forced = common::planner(&spec, options(Some(share), true));
        let large = forced.plan_classes(&ScalarStats::uniform(1 << 18), 2);
        assert!(large.groups().iter().any(|g| g.glv), "{}", large.describe());
        // msm_many prices its shared job of halves with the same planner, on the same terms.
        let halves = cached.glv_planner(2 << 12, 2).expect("offered at 2^12");
        assert_eq!(halves.plan(2 << 12, 2).chunks(), 8);
        assert!(cached.glv_planner(2 << 18, 2).is_none());
        assert!(forced.glv_planner(2 << 18, 2).is_some());
    }
    check::<ark_bn254::g1::Config>("bn254-g1");
    check::<ark_bls12_381::g1::Config>("bls12-381-g1");
}

/// Every benchmark distribution at a size where the planner decides by itself, for the two
/// curves of the targets: the default run agrees with arkworks, and runs by classes exactly
/// where the scalars are not all full-size.
fn distributions_agree_with_arkworks<P: SWCurveConfig>() {
    let n = 1 << 12;
    let pts = points::<P>(n, 21);
    for dist in Distribution::ALL {
        let scs = scalars_of::<P::ScalarField>(n, 22, dist);
        let want = arkworks(&pts, &scs);
        let c = cfg(2, ClassPolicy::Auto);
        assert_eq!(msm_with(&pts, &scs, &c).unwrap(), want, "{dist}");
        let plan = plan_for_scalars::<P>(&scs, &c).unwrap();
        if dist == Distribution::Uniform {
            // One MSM, or all of them split by GLV where the model prices that lower.
            let glv = plan.groups().len() == 1 && plan.groups()[0].glv;
            assert!(!plan.uses_classes() || glv, "{dist}: {}", plan.reason());
        } else {
            assert!(plan.uses_classes(), "{dist}: {}", plan.reason());
        }
        if dist == Distribution::Zero {
            assert!(want.is_zero() && plan.groups().is_empty() && plan.ones() == 0);
        }
    }
}

#[test]
fn bn254_distributions_agree_with_arkworks() {
    distributions_agree_with_arkworks::<ark_bn254::g1::Config>();
}

#[test]
fn bls12_381_distributions_agree_with_arkworks() {
    distributions_agree_with_arkworks::<ark_bls12_381::g1::Config>();
}

/// Uniform scalars keep the plan they had: without GLV, the class plan is the one-MSM plan of
/// `plan_for`; with it, that plan or one GLV group of all the scalars, whichever the model
/// prices lower by the margin.
#[test]
fn uniform_scalars_keep_their_plan() {
    type P = ark_bn254::g1::Config;
    for n in [1usize, 100, 1 << 12, 1 << 16] {
        let scs =
            scalars_of::<<P as ark_ec::CurveConfig>::ScalarField>(n, 1, Distribution::Uniform);
        let c = Config {
            glv: GlvPolicy::Off,
            ..cfg(2, ClassPolicy::Auto)
        };
        let cp = plan_for_scalars::<P>(&scs, &c).unwrap();
        assert!(!cp.uses_classes(), "n={n}: {}", cp.reason());
        let plain = multiexp::plan_for::<P>(n, &c).unwrap();
        assert_eq!(cp.whole(), Some(plain.chosen()), "n={n}");
        let with_glv = plan_for_scalars::<P>(&scs, &cfg(2, ClassPolicy::Auto)).unwrap();
        assert_eq!(with_glv.whole(), Some(plain.chosen()), "n={n}");
        if with_glv.uses_classes() {
            let g = &with_glv.groups()[0];
            assert!(with_glv.groups().len() == 1 && g.glv && g.n == 2 * n && g.bits <= 128);
            let whole = with_glv.whole_makespan().unwrap();
            assert!(with_glv.makespan() < whole * 0.97, "{}", with_glv.reason());
        }
    }
}

/// GLV is priced like every other choice: forced, it splits every full-size scalar (two
/// halves each, gathered); off, never; by default, taken only where it beats one MSM by the
/// margin, and on curves without the endomorphism never offered.
#[test]
fn glv_is_priced_forced_or_off() {
    glv_windows_follow_the_halves_bound_and_the_cache();
    type P = ark_bls12_381::g1::Config;
    let with = |glv| Config {
        glv,
        ..cfg(2, ClassPolicy::Auto)
    };
    for n in [1usize, 64, 1 << 12, 1 << 18] {
        let stats = ScalarStats::uniform(n);
        let forced = multiexp::plan_for_stats::<P>(&stats, &with(GlvPolicy::Always)).unwrap();
        assert!(forced.uses_classes(), "{}", forced.reason());
        assert_eq!(forced.groups().len(), 1);
        let g = &forced.groups()[0];
        assert!(
            g.glv
                && g.gathered
                && g.n == 2 * n
                && Some(g.bits) == multiexp::unstable::glv_bits::<P>(),
            "{}",
            forced.describe()
        );
        assert!(forced.describe().contains("GLV"), "{}", forced.describe());
        let off = multiexp::plan_for_stats::<P>(&stats, &with(GlvPolicy::Off)).unwrap();
        assert!(!off.uses_classes());
        let auto = multiexp::plan_for_stats::<P>(&stats, &with(GlvPolicy::Auto)).unwrap();
        if auto.uses_classes() {
            assert!(auto.makespan() < 0.97 * off.makespan(), "{}", auto.reason());
            assert!(auto.makespan() <= forced.makespan() + 1e-6);
        } else {
            assert!(
                forced.makespan() >= 0.97 * off.makespan(),
                "{}",
                auto.reason()
            );
        }
    }
    // A witness-like mix: the full-size class split and merged with the ≤ 128-bit class.
    let mut stats = ScalarStats::default();
    stats.counts[6] = 3000;
    stats.counts[7] = 1000;
    let mixed = multiexp::plan_for_stats::<P>(&stats, &with(GlvPolicy::Always)).unwrap();
    let g = mixed.groups().iter().find(|g| g.glv).expect("a GLV group");
    assert_eq!(g.classes.1, 7);
    if g.classes.0 == 6 {
        assert_eq!(g.n, 3000 + 2 * 1000);
    } else {
        assert_eq!(g.n, 2 * 1000);
    }
    // No endomorphism (a ≠ 0): never offered, even forced.
    let r1 = ScalarStats::uniform(1 << 12);
    let none = Config {
        glv: GlvPolicy::Always,
        ..cfg(2, ClassPolicy::Auto)
    };
    let plan = multiexp::plan_for_stats::<ark_secp256r1::Config>(&r1, &none).unwrap();
    assert!(plan.groups().iter().all(|g| !g.glv));
}

/// −s and s cost the same: the all −1 input is a plain sum like the all 1 input, and −k is
/// planned as k.
#[test]
fn negatives_are_planned_as_their_magnitudes() {
    type P = ark_bls12_381::g1::Config;
    type F = <P as ark_ec::CurveConfig>::ScalarField;
    let n = 1 << 14;
    let c = cfg(2, ClassPolicy::Auto);
    let one = plan_for_scalars::<P>(&scalars_of::<F>(n, 1, Distribution::One), &c).unwrap();
    let minus = plan_for_scalars::<P>(&scalars_of::<F>(n, 1, Distribution::MinusOne), &c).unwrap();
    assert_eq!(one.ones(), n);
    assert_eq!(minus.ones(), n);
    assert_eq!(one.makespan(), minus.makespan());
    let pos: Vec<F> = scalars_of::<F>(n, 2, Distribution::U32);
    let neg: Vec<F> = pos.iter().map(|s| -*s).collect();
    let (p, m) = (
        plan_for_scalars::<P>(&pos, &c).unwrap(),
        plan_for_scalars::<P>(&neg, &c).unwrap(),
    );
    assert_eq!(p.makespan(), m.makespan());
    assert!(p.groups().iter().all(|g| g.bits <= 32), "{}", p.describe());
    assert!(m.groups().iter().all(|g| g.bits <= 32), "{}", m.describe());
    let pts = points::<P>(n, 3);
    let sum = msm_with(&pts, &pos, &c).unwrap();
    assert_eq!(msm_with(&pts, &neg, &c).unwrap(), -sum);
    assert_eq!(sum, arkworks(&pts, &pos));
}

/// The statistics see every class, and the negated share of each.
#[test]
fn statistics_count_each_class_and_its_negatives() {
    type F = ark_bn254::Fr;
    let b = boundaries::<F>();
    let stats = ScalarStats::of(&b);
    assert_eq!(stats.n(), b.len());
    // 0; ±1; ±2 in ≤ 8 bits; 2^k ± 1 and negatives: each k's three values split by bit length.
    assert_eq!(stats.counts[0], 1);
    assert_eq!((stats.counts[1], stats.negated[1]), (2, 1));
    let bits = |s: &F| {
        let big = s.into_bigint();
        let mut neg = F::MODULUS;
        neg.sub_with_borrow(&big);
        big.num_bits().min(neg.num_bits())
    };
    for (class, bound) in [(2usize, 8u32), (3, 16), (4, 32), (5, 64), (6, 128)] {
        let lower = if class == 2 {
            1
        } else {
            [8u32, 16, 32, 64][class - 3]
        };
        let want = b
            .iter()
            .filter(|s| (lower + 1..=bound).contains(&bits(s)))
            .count();
        assert_eq!(stats.counts[class], want, "class {class}");
    }
    let full = b.iter().filter(|s| bits(s) > 128).count();
    assert_eq!(stats.counts[7], full);
    assert!(stats.describe().contains("zero"));
}

/// A class that holds most scalars runs in place, over all the points, its r − s scalars as
/// negated digits and the others' digits zero: mixed signs, zeros and a few full-size scalars
/// among them, on every thread count and on the emulated IFMA path.
#[test]
fn a_class_of_most_scalars_runs_in_place() {
    fn run<P: SWCurveConfig>() {
        let n = 1 << 12;
        let pts = hard_points::<P>(n, 8);
        let mut scs = scalars_of::<P::ScalarField>(n, 9, Distribution::U32);
        for (i, s) in scs.iter_mut().enumerate() {
            match i % 100 {
                0 => *s = P::ScalarField::zero(),
                1..=49 => *s = -*s,
                _ => {}
            }
        }
        let want = arkworks(&pts, &scs);
        let plan = plan_for_scalars::<P>(&scs, &cfg(2, ClassPolicy::Auto)).unwrap();
        assert!(
            plan.groups().iter().any(|g| !g.gathered && g.plan.n() == n),
            "{}",
            plan.describe()
        );
        for threads in [1, 2, 3] {
            for ifma in [Ifma::Auto, Ifma::Emulated, Ifma::Off] {
                let c = Config {
                    ifma,
                    ..cfg(threads, ClassPolicy::Auto)
                };
                assert_eq!(
                    msm_with(&pts, &scs, &c).unwrap(),
                    want,
                    "{threads} {ifma:?}"
                );
            }
        }
    }
    run::<ark_bn254::g1::Config>();
    run::<ark_bls12_381::g1::Config>();
}
