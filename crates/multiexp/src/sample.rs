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
