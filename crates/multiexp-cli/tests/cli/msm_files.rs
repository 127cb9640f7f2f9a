//! `multiexp msm --points --scalars` and `multiexp gen` end to end: results agree with
//! arkworks, bad files exit with code 2 and a message naming the file and the line or byte,
//! and no input makes the binary panic.

use std::path::PathBuf;

use ark_bls12_381::{g1::Config as G1, Fr, G1Projective};
use ark_ec::short_weierstrass::Affine;
use ark_ec::{CurveGroup, VariableBaseMSM};
use ark_ff::{Field, PrimeField};
use multiexp::input::{self, Endianness};

use crate::common::{multiexp, path_str, scratch, stderr, stdout};

/// Points with the awkward cases in: infinity, repeats, a point and its negation.
fn awkward_points(n: usize) -> Vec<Affine<G1>> {
    let mut points = multiexp::unstable::sample::points::<G1>(n, 11);
    points[0] = Affine::identity();
    points[1] = points[2];
    points[3] = -points[4];
    for i in (10..n).step_by(97) {
        points[i] = points[5];
    }
    points
}

#[test]
fn msm_on_bls12_381_hex_files_agrees_with_arkworks() {
    let dir = scratch("files", "agree");
    let n = 3000;
    let points = awkward_points(n);
    let mut scalars = multiexp::unstable::sample::scalars::<Fr>(n, 12);
    scalars[5] = Fr::from(0u64);
    scalars[6] = -Fr::ONE;
    let expected = G1Projective::msm(&points, &scalars).unwrap().into_affine();
    let (p, s) = (dir.join("points.hex"), dir.join("scalars.hex"));
    std::fs::write(&p, input::points_to_hex(&points)).unwrap();
    std::fs::write(&s, input::scalars_to_hex(&scalars, Endianness::Big)).unwrap();
    for threads in ["1", "2"] {
        let out = multiexp(&[
            "msm",
            "--curve",
            "bls12-381-g1",
            "--points",
            path_str(&p),
            "--scalars",
            path_str(&s),
            "--output-format",
            "json",
            "--threads",
            threads,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(json["result"], input::point_to_hex(&expected));
        assert_eq!(json["n"], n);
        assert!(json["validate_ms"].as_f64().is_some() && json["msm_ms"].as_f64().is_some());
    }
    // Little-endian scalars give the same result.
    std::fs::write(&s, input::scalars_to_hex(&scalars, Endianness::Little)).unwrap();
    let out = multiexp(&[
        "msm",
        "--curve",
        "bls12-381-g1",
        "--points",
        path_str(&p),
        "--scalars",
        path_str(&s),
        "--scalars-le",
        "--output-format",
        "hex",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), input::point_to_hex(&expected));
}

#[test]
fn gen_files_give_the_random_mode_result_in_every_format() {
    let dir = scratch("files", "gen");
    for curve in ["bls12-381-g1", "bn254-g2", "secp256k1-g1"] {
        let random = multiexp(&[
            "msm",
            "--curve",
            curve,
            "--n",
            "700",
            "--seed",
            "5",
            "--output-format",
            "hex",
        ]);
        assert!(random.status.success(), "{}", stderr(&random));
        for (format, extra, points_format) in [
            ("hex", None, "hex"),
            ("bin", None, "bin"),
            ("bin", Some("--uncompressed"), "bin-uncompressed"),
        ] {
            let (p, s) = (
                dir.join(format!("p.{format}")),
                dir.join(format!("s.{format}")),
            );
            let mut args = vec![
                "gen",
                "--curve",
                curve,
                "--n",
                "700",
                "--seed",
                "5",
                "--points",
                path_str(&p),
                "--scalars",
                path_str(&s),
                "--file-format",
                format,
            ];
            args.extend(extra);
            let out = multiexp(&args);
            assert!(out.status.success(), "{}", stderr(&out));
            let out = multiexp(&[
                "msm",
                "--curve",
                curve,
                "--points",
                path_str(&p),
                "--scalars",
                path_str(&s),
                "--points-format",
                points_format,
                "--scalars-format",
                format,
                "--output-format",
                "hex",
            ]);
            assert!(out.status.success(), "{curve} {format}: {}", stderr(&out));
            assert_eq!(stdout(&out), stdout(&random), "{curve} {format}");
        }
    }
}

#[test]
fn bad_files_exit_2_naming_file_and_line() {
    let dir = scratch("files", "bad");
    let points = multiexp::unstable::sample::points::<G1>(4, 1);
    let scalars = multiexp::unstable::sample::scalars::<Fr>(4, 1);
    let (p, s) = (dir.join("points.hex"), dir.join("scalars.hex"));
    let mut text = input::points_to_hex(&points);
    text.insert_str(0, "# four points\n");
    let lines: Vec<&str> = text.lines().collect();
    let broken = format!(
        "{}\n{}\n{}\n{}x\n{}\n",
        lines[0],
        lines[1],
        lines[2],
        &lines[3][..95],
        lines[4]
    );
    std::fs::write(&p, broken).unwrap();
    std::fs::write(&s, input::scalars_to_hex(&scalars, Endianness::Big)).unwrap();
    let run = |p: &PathBuf, s: &PathBuf, extra: &[&str]| {
        let mut args = vec![
            "msm",
            "--curve",
            "bls12-381-g1",
            "--points",
            path_str(p),
            "--scalars",
            path_str(s),
        ];
        args.extend(extra);
        multiexp(&args)
    };
    let out = run(&p, &s, &[]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert_eq!(
        message.trim(),
        format!(
            "error: {}:4: column 96: 'x' is not a hex digit",
            p.display()
        )
    );

    // A point outside the subgroup: rejected, unless the (unsafe) check is turned off.
    let outside = (5u64..)
        .filter_map(|x| Affine::<G1>::get_point_from_x_unchecked(x.into(), false))
        .find(|q| !q.is_in_correct_subgroup_assuming_on_curve())
        .unwrap();
    let mut with_outside = points.clone();
    with_outside[2] = outside;
    std::fs::write(&p, input::points_to_hex(&with_outside)).unwrap();
    let out = run(&p, &s, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!(
            "{}:3: a curve point outside the prime-order subgroup",
            p.display()
        )),
        "{}",
        stderr(&out)
    );
    let out = run(&p, &s, &["--no-subgroup-check", "--output-format", "hex"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = G1Projective::msm(&with_outside, &scalars)
        .unwrap()
        .into_affine();
    assert_eq!(stdout(&out), input::point_to_hex(&expected));

    // Count mismatch, scalars out of range, a missing file.
    std::fs::write(&p, input::points_to_hex(&points[..3])).unwrap();
    let out = run(&p, &s, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("4 scalars, but {} holds 3 points", p.display())),
        "{}",
        stderr(&out)
    );
    std::fs::write(&p, input::points_to_hex(&points)).unwrap();
    let r: Vec<u8> = Fr::MODULUS
        .as_ref()
        .iter()
        .rev()
        .flat_map(|l| l.to_be_bytes())
        .collect();
    let r_hex: String = r.iter().map(|b| format!("{b:02x}")).collect();
    let scalar_text = input::scalars_to_hex(&scalars[..3], Endianness::Big) + &r_hex + "\n";
    std::fs::write(&s, scalar_text).unwrap();
    let out = run(&p, &s, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{}:4: scalar ≥ the group order r", s.display())),
        "{}",
        stderr(&out)
    );
    let out = run(&p, &s, &["--reduce"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&dir.join("missing.hex"), &s, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("cannot read"));
}

#[test]
fn garbage_never_makes_the_binary_panic() {
    let dir = scratch("files", "garbage");
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let good_scalars = dir.join("s.hex");
    std::fs::write(
        &good_scalars,
        input::scalars_to_hex(
            &multiexp::unstable::sample::scalars::<Fr>(2, 1),
            Endianness::Big,
        ),
    )
    .unwrap();
    let good_points = dir.join("p.hex");
    std::fs::write(
        &good_points,
        input::points_to_hex(&multiexp::unstable::sample::points::<G1>(2, 1)),
    )
    .unwrap();
    for round in 0..12 {
        let len = [0usize, 1, 7, 8, 9, 48, 56, 97, 104, 200, 1000, 4096][round];
        let mut bytes: Vec<u8> = (0..len).map(|_| next() as u8).collect();
        if round % 3 == 0 && len >= 8 {
            bytes[..8].copy_from_slice(&2u64.to_le_bytes());
        }
        let p = dir.join("garbage");
        std::fs::write(&p, &bytes).unwrap();
        for (curve, format) in [
            ("bls12-381-g1", "hex"),
            ("bls12-381-g1", "bin"),
            ("bn254-g2", "bin-compressed"),
            ("secp256k1-g1", "bin-uncompressed"),
        ] {
            let out = multiexp(&[
                "msm",
                "--curve",
                curve,
                "--points",
                path_str(&p),
                "--scalars",
                path_str(&good_scalars),
                "--points-format",
                format,
            ]);
            assert_eq!(
                out.status.code(),
                Some(2),
                "{curve} {format} {len}: {}",
                stderr(&out)
            );
            assert!(stderr(&out).starts_with("error: "), "{}", stderr(&out));
        }
        let out = multiexp(&[
            "msm",
            "--curve",
            "bls12-381-g1",
            "--points",
            path_str(&good_points),
            "--scalars",
            path_str(&p),
            "--scalars-format",
            "bin",
        ]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    }
}

/// The result README.md's worked example commits to.
const README_RESULT: &str = "8be2ab4e05669a3b6e33d132ade1cfa09ce9927935d4f82a412f406b3fd59ff921cdeb12a0efab3ab3ca09738daeefd1";

#[test]
fn readme_worked_example_gives_arkworks_result() {
    let readme = include_str!("../../../../README.md");
    assert!(readme.contains(README_RESULT));
    let points = multiexp::unstable::sample::points::<G1>(4096, 1);
    let scalars = multiexp::unstable::sample::scalars::<Fr>(4096, 1);
    let expected = G1Projective::msm(&points, &scalars).unwrap().into_affine();
    assert_eq!(input::point_to_hex(&expected), README_RESULT);
    // The README's two commands, verbatim but for the directory.
    let dir = scratch("files", "readme");
    let (p, s) = (dir.join("points.hex"), dir.join("scalars.hex"));
    let out = multiexp(&[
        "gen",
        "--curve",
        "bls12-381-g1",
        "--n",
        "4096",
        "--seed",
        "1",
        "--points",
        path_str(&p),
        "--scalars",
        path_str(&s),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = |path: &PathBuf| {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert!(readme.contains(&first(&p)[..12]) && readme.contains(&first(&s)[..8]));
    let out = multiexp(&[
        "msm",
        "--curve",
        "bls12-381-g1",
        "--points",
        path_str(&p),
        "--scalars",
        path_str(&s),
        "--output-format",
        "hex",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), README_RESULT);
}
