use ark_ff::{Field, UniformRand, Zero};
use std::time::Instant;
fn main() {
    let mut rng = ark_std::test_rng();
    let mut a = ark_bn254::Fq::rand(&mut rng);
    let b = ark_bn254::Fq::rand(&mut rng);
    for _ in 0..3 {
        let t = Instant::now();
        for _ in 0..10_000_000 { a *= b; }
        println!("bn254 Fq mul {:.2} ns {}", t.elapsed().as_nanos() as f64 / 1e7, a.is_zero());
    }
    let mut a = ark_bls12_381::Fq::rand(&mut rng);
    let b = ark_bls12_381::Fq::rand(&mut rng);
    let t = Instant::now();
    for _ in 0..10_000_000 { a *= b; }
    println!("bls Fq mul {:.2} ns {}", t.elapsed().as_nanos() as f64 / 1e7, a.is_zero());
    let t = Instant::now();
    for _ in 0..10_000_000 { a.square_in_place(); }
    println!("bls Fq sqr {:.2} ns {}", t.elapsed().as_nanos() as f64 / 1e7, a.is_zero());
}
