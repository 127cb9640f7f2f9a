//! Peer MSM libraries for `bench --vs`, on identical inputs: arkworks always; halo2curves
//! 0.10 `msm_best` and blst 0.3 Pippenger with the `peers` feature.
//!
//! Inputs cross libraries as canonical integers of their coordinates and scalars; each peer's
//! answer comes back the same way so that it can be checked against multiexp's.

// The conversions serve the optional peers only; without the `peers` feature they rest.
#![cfg_attr(not(feature = "peers"), allow(dead_code, unused_imports))]

use ark_ec::short_weierstrass::{Affine, Projective, SWCurveConfig};
use ark_ec::{AffineRepr, VariableBaseMSM};
use ark_ff::{BigInteger, Field, PrimeField};

use crate::common::Contender;

/// A peer's run: computes its MSM and returns it as an arkworks point.
pub type PeerRun<'a, P> = Contender<'a, Result<Projective<P>, String>>;

/// Peers that `--vs` accepts.
pub const PEERS: &[&str] = &["arkworks", "halo2curves", "blst"];

/// Canonical little-endian bytes of a coordinate over a prime field.
fn coord_le<F: Field>(x: &F) -> Vec<u8> {
    x.to_base_prime_field_elements()
        .next()
        .map(|c| c.into_bigint().to_bytes_le())
        .unwrap_or_default()
}

/// The arkworks point with coordinates given as little-endian integers over a prime field.
fn point_from_le<P: SWCurveConfig>(x: &[u8], y: &[u8]) -> Result<Projective<P>, String> {
    let fx = <P::BaseField as Field>::BasePrimeField::from_le_bytes_mod_order(x);
    let fy = <P::BaseField as Field>::BasePrimeField::from_le_bytes_mod_order(y);
    let x = P::BaseField::from_base_prime_field_elems([fx]).ok_or("not a prime field")?;
    let y = P::BaseField::from_base_prime_field_elems([fy]).ok_or("not a prime field")?;
    let p = Affine::<P>::new_unchecked(x, y);
    if !p.is_on_curve() {
        return Err("peer returned a point off the curve".into());
    }
    Ok(p.into_group())
}

/// The contender for `name` on this curve/group, or why there is none.
pub fn contender<'a, P: SWCurveConfig>(
    name: &str,
    curve: &str,
    points: &'a [Affine<P>],
    scalars: &'a [P::ScalarField],
    threads: usize,
) -> anyhow::Result<PeerRun<'a, P>> {
    match name {
        "arkworks" => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()?;
            Ok(Contender {
                name: "arkworks".into(),
                run: Box::new(move || {
                    pool.install(|| {
                        // arkworks' own Pippenger: `msm` itself routes to multiexp on the
                        // curves this crate defines.
                        Ok(<Projective<P> as VariableBaseMSM>::msm_unchecked(
                            points, scalars,
                        ))
                    })
                }),
            })
        }
        #[cfg(feature = "peers")]
        "halo2curves" => with_peers::halo2curves(curve, points, scalars, threads),
        #[cfg(feature = "peers")]
        "blst" => with_peers::blst(curve, points, scalars),
        #[cfg(not(feature = "peers"))]
        "halo2curves" | "blst" => {
            let _ = curve;
            anyhow::bail!("{name}: this multiexp was built without the `peers` feature")
        }
        _ => anyhow::bail!("unknown peer {name:?}; known: {}", PEERS.join(", ")),
    }
}

/// Restricts this process to `threads` CPUs (the first ones it may use), so that libraries
/// that size their pools from the affinity mask (blst) use the same count as everyone else.
pub fn pin_threads(threads: usize) -> anyhow::Result<()> {
    #[cfg(target_os = "linux")]
    // SAFETY: cpu_set_t is plain data; the calls only read and write the set we pass.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            anyhow::bail!("sched_getaffinity failed");
        }
        let mut keep: libc::cpu_set_t = std::mem::zeroed();
        let mut kept = 0;
        for cpu in 0..libc::CPU_SETSIZE as usize {
            if kept < threads && libc::CPU_ISSET(cpu, &set) {
                libc::CPU_SET(cpu, &mut keep);
                kept += 1;
            }
        }
        if kept == threads
            && libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &keep) != 0
        {
            anyhow::bail!("sched_setaffinity failed");
        }
    }
    Ok(())
}

/// blst's own decoding of one compressed BLS12-381 G1 point (`blst_p1_uncompress`: flags,
/// canonical x, square root) and its subgroup check (`blst_p1_affine_in_g1`); `None` if
/// either rejects it.
#[cfg(feature = "peers")]
pub fn blst_g1_decode(compressed: &[u8; 48]) -> Option<blst::blst_p1_affine> {
    let mut point = blst::blst_p1_affine::default();
    // SAFETY: `compressed` holds the 48 bytes blst_p1_uncompress reads; `point` is a valid
    // output struct, and blst_p1_affine_in_g1 only reads it.
    unsafe {
        if blst::blst_p1_uncompress(&mut point, compressed.as_ptr())
            != blst::BLST_ERROR::BLST_SUCCESS
        {
            return None;
        }
        blst::blst_p1_affine_in_g1(&point).then_some(point)
    }
}

#[cfg(feature = "peers")]
mod with_peers {
    use super::*;
    use halo2curves::ff::PrimeField as _;
    use halo2curves::group::Curve as _;
    use halo2curves::CurveAffine;

    /// A halo2curves field repr (little-endian canonical bytes, for every field it has).
    fn repr<F: halo2curves::ff::PrimeField>(le: &[u8]) -> F::Repr {
        let mut r = F::Repr::default();
        let out = r.as_mut();
        let n = out.len().min(le.len());
        out[..n].copy_from_slice(&le[..n]);
        r
    }

    fn to_le<F: halo2curves::ff::PrimeField>(f: &F) -> Vec<u8> {
        f.to_repr().as_ref().to_vec()
    }

    fn convert<'a, P: SWCurveConfig, C>(
        points: &'a [Affine<P>],
        scalars: &'a [P::ScalarField],
        threads: usize,
    ) -> anyhow::Result<PeerRun<'a, P>>
    where
        C: CurveAffine,
    {
        let mut bases = Vec::with_capacity(points.len());
        for p in points {
            let c = match p.xy() {
                None => C::identity(),
                Some((x, y)) => {
                    let x = C::Base::from_repr(repr::<C::Base>(&coord_le(&x)));
                    let y = C::Base::from_repr(repr::<C::Base>(&coord_le(&y)));
                    let (x, y) = (Option::from(x), Option::from(y));
                    let xy = x
                        .zip(y)
                        .ok_or_else(|| anyhow::anyhow!("halo2curves field"))?;
                    Option::from(C::from_xy(xy.0, xy.1))
                        .ok_or_else(|| anyhow::anyhow!("halo2curves rejected a point"))?
                }
            };
            bases.push(c);
        }
        let coeffs = scalars
            .iter()
            .map(|s| {
                let le = s.into_bigint().to_bytes_le();
                Option::from(C::Scalar::from_repr(repr::<C::Scalar>(&le)))
                    .ok_or_else(|| anyhow::anyhow!("halo2curves rejected a scalar"))
            })
            .collect::<anyhow::Result<Vec<_>>>()?;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?;
        Ok(Contender {
            name: "halo2curves".into(),
            run: Box::new(move || {
                let r = pool.install(|| halo2curves::msm::msm_best(&coeffs, &bases));
                let a = r.to_affine();
                match Option::from(a.coordinates()) {
                    None => Ok(Projective::<P>::default()),
                    Some(c) => {
                        let c: halo2curves::Coordinates<C> = c;
                        point_from_le::<P>(&to_le(c.x()), &to_le(c.y()))
                    }
                }
            }),
        })
    }

    pub fn halo2curves<'a, P: SWCurveConfig>(
        curve: &str,
        points: &'a [Affine<P>],
        scalars: &'a [P::ScalarField],
        threads: usize,
    ) -> anyhow::Result<PeerRun<'a, P>> {
        use halo2curves::{bls12381, bn256, grumpkin, secp256k1, secp256r1};
        match curve {
            "bn254-g1" => convert::<P, bn256::G1Affine>(points, scalars, threads),
            "bls12-381-g1" => convert::<P, bls12381::G1Affine>(points, scalars, threads),
            "grumpkin-g1" => convert::<P, grumpkin::G1Affine>(points, scalars, threads),
            "secp256k1-g1" => convert::<P, secp256k1::Secp256k1Affine>(points, scalars, threads),
            "secp256r1-g1" => convert::<P, secp256r1::Secp256r1Affine>(points, scalars, threads),
            _ => anyhow::bail!("halo2curves: no {curve} in halo2curves 0.10"),
        }
    }

    pub fn blst<'a, P: SWCurveConfig>(
        curve: &str,
        points: &'a [Affine<P>],
        scalars: &'a [P::ScalarField],
    ) -> anyhow::Result<PeerRun<'a, P>> {
        if curve != "bls12-381-g1" {
            anyhow::bail!("blst: only bls12-381-g1 is compared");
        }
        let mut affine = Vec::with_capacity(points.len());
        for p in points {
            let mut bytes = [0u8; 96];
            match p.xy() {
                None => bytes[0] = 0x40,
                Some((x, y)) => {
                    let (mut x, mut y) = (coord_le(&x), coord_le(&y));
                    x.reverse();
                    y.reverse();
                    bytes[..48].copy_from_slice(&x);
                    bytes[48..].copy_from_slice(&y);
                }
            }
            let mut a = blst::blst_p1_affine::default();
            // SAFETY: `bytes` holds the 96 bytes blst_p1_deserialize reads.
            let err = unsafe { blst::blst_p1_deserialize(&mut a, bytes.as_ptr()) };
            if err != blst::BLST_ERROR::BLST_SUCCESS {
                anyhow::bail!("blst rejected a point: {err:?}");
            }
            affine.push(a);
        }
        let mut scalar_bytes = Vec::with_capacity(32 * scalars.len());
        for s in scalars {
            let mut le = s.into_bigint().to_bytes_le();
            le.resize(32, 0);
            scalar_bytes.extend_from_slice(&le);
        }
        Ok(Contender {
            name: "blst".into(),
            run: Box::new(move || {
                let r = blst::MultiPoint::mult(affine.as_slice(), &scalar_bytes, 255);
                let mut a = blst::blst_p1_affine::default();
                let mut out = [0u8; 96];
                // SAFETY: plain conversions between blst's own structs and a 96-byte buffer.
                unsafe {
                    blst::blst_p1_to_affine(&mut a, &r);
                    blst::blst_p1_affine_serialize(out.as_mut_ptr(), &a);
                }
                if out[0] & 0x40 != 0 {
                    return Ok(Projective::<P>::default());
                }
                let (mut x, mut y) = (out[..48].to_vec(), out[48..].to_vec());
                x.reverse();
                y.reverse();
                point_from_le::<P>(&x, &y)
            }),
        })
    }
}
