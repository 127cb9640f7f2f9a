//! Deterministic random inputs, made fast, for tests, benchmarks and the CLI.
//!
//! Points: a walk P_i = P_{i-1} + T[u_i] over a table T of 32 random multiples of the
//! generator, started at a random multiple in every block of 4096 points, then normalised to
//! affine with one batched inversion per block: one mixed addition per point instead of a
//! scalar multiplication. Scalars: uniform in the scalar field. Block b draws from ChaCha8
//! stream b of the seed, so the output depends on (n, seed) only, not on the thread count.

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{CurveGroup, PrimeGroup};
use ark_ff::{PrimeField, UniformRand};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

const BLOCK: usize = 4096;
const TABLE: usize = 32;

fn block_rng(seed: u64, stream: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(stream);
    rng
}

/// n pseudo-random points of the prime-order subgroup, determined by `seed`.
pub fn points<P: SWCurveConfig>(n: usize, seed: u64) -> Vec<Affine<P>> {
    let mut rng = block_rng(seed, u64::MAX);
    let g = Projective::<P>::generator();
    let table: Vec<Affine<P>> = {
        let t: Vec<Projective<P>> = (0..TABLE)
            .map(|_| g * P::ScalarField::rand(&mut rng))
            .collect();
        Projective::normalize_batch(&t)
    };
    let blocks: Vec<usize> = (0..n.div_ceil(BLOCK)).collect();
    blocks
        .par_iter()
        .flat_map_iter(|&b| {
            let len = BLOCK.min(n - b * BLOCK);
            let mut rng = block_rng(seed, b as u64);
            let mut acc = g * P::ScalarField::rand(&mut rng);
            let mut walk = Vec::with_capacity(len);
            for _ in 0..len {
                acc += &table[(rng.next_u32() as usize) % TABLE];
                walk.push(acc);
            }
            Projective::normalize_batch(&walk)
        })
        .collect()
}

/// n uniform scalars, determined by `seed`.
pub fn scalars<F: PrimeField>(n: usize, seed: u64) -> Vec<F> {
    let blocks: Vec<usize> = (0..n.div_ceil(BLOCK)).collect();
    blocks
        .par_iter()
        .flat_map_iter(|&b| {
            let len = BLOCK.min(n - b * BLOCK);
            let mut rng = block_rng(seed ^ 0x5ca1_ab1e, b as u64);
            (0..len).map(|_| F::rand(&mut rng)).collect::<Vec<_>>()
        })
        .collect()
}

/// How benchmark scalars are drawn: uniform field elements, or the sizes provers' scalars
/// have (witness values are mostly 0, 1, small integers and small negatives r − k).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Distribution {
    /// Uniform in the scalar field.
    #[default]
    Uniform,
    /// All 0.
    Zero,
    /// All 1.
    One,
    /// All r − 1 (−1).
    MinusOne,
    /// 0 or 1, half each.
    Bool,
    /// Uniform below 2^8.
    U8,
    /// Uniform below 2^16.
    U16,
    /// Uniform below 2^32.
    U32,
    /// Uniform below 2^64.
    U64,
    /// −k for k uniform in [1, 2^32).
    NegSmall,
    /// A witness: 50% {0, 1}, 30% below 2^32, 20% uniform, mixed at random.
    Witness,
}

impl Distribution {
    /// Every distribution, in the order of the help text.
    pub const ALL: [Distribution; 11] = [
        Distribution::Uniform,
        Distribution::Zero,
        Distribution::One,
        Distribution::MinusOne,
        Distribution::Bool,
        Distribution::U8,
        Distribution::U16,
        Distribution::U32,
        Distribution::U64,
        Distribution::NegSmall,
        Distribution::Witness,
    ];

    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Distribution::Uniform => "uniform",
            Distribution::Zero => "zero",
            Distribution::One => "one",
            Distribution::MinusOne => "minus-one",
            Distribution::Bool => "bool",
            Distribution::U8 => "u8",
            Distribution::U16 => "u16",
            Distribution::U32 => "u32",
            Distribution::U64 => "u64",
            Distribution::NegSmall => "neg-small",
            Distribution::Witness => "witness",
        }
    }

    /// The distribution called `name`.
    pub fn parse(name: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|d| d.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = Self::ALL.iter().map(|d| d.name()).collect();
                format!(
                    "unknown scalar distribution {name:?}: expected one of {}",
                    names.join(", ")
                )
            })
    }

    fn draw<F: PrimeField>(self, rng: &mut ChaCha8Rng) -> F {
        let below = |rng: &mut ChaCha8Rng, bits: u32| F::from(rng.next_u64() >> (64 - bits));
        match self {
            Distribution::Uniform => F::rand(rng),
            Distribution::Zero => F::zero(),
            Distribution::One => F::one(),
            Distribution::MinusOne => -F::one(),
            Distribution::Bool => F::from(rng.next_u32() & 1),
            Distribution::U8 => below(rng, 8),
            Distribution::U16 => below(rng, 16),
            Distribution::U32 => below(rng, 32),
            Distribution::U64 => below(rng, 64),
            Distribution::NegSmall => -F::from((rng.next_u64() >> 32).max(1)),
            Distribution::Witness => match rng.next_u32() % 10 {
                0..=4 => F::from(rng.next_u32() & 1),
                5..=7 => below(rng, 32),
                _ => F::rand(rng),
            },
        }
    }
}

impl std::fmt::Display for Distribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// n scalars drawn from `dist`, determined by (n, seed); uniform ones are [`scalars`]'s.
pub fn scalars_of<F: PrimeField>(n: usize, seed: u64, dist: Distribution) -> Vec<F> {
    if dist == Distribution::Uniform {
        return scalars(n, seed);
    }
    let blocks: Vec<usize> = (0..n.div_ceil(BLOCK)).collect();
    blocks
        .par_iter()
        .flat_map_iter(|&b| {
            let len = BLOCK.min(n - b * BLOCK);
            let mut rng = block_rng(seed ^ 0xd157_0000, b as u64);
            (0..len).map(|_| dist.draw(&mut rng)).collect::<Vec<_>>()
        })
        .collect()
}
