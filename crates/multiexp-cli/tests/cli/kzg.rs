//! EIP-4844 commitments agree with c-kzg's `blob_to_kzg_commitment` on the mainnet setup:
//! through the library (random blobs from seeded ChaCha, the edge blobs, 1 and 2 threads) and
//! through `multiexp kzg commit` (raw and hex blob files); bad setups and blobs exit with code
//! 2 and a message naming the file and the line or element.

use std::path::{Path, PathBuf};

use ark_bls12_381::Fr;
use ark_ff::{AdditiveGroup, BigInteger, Field, PrimeField};
use multiexp::input::{self, Endianness};
use multiexp::kzg::{self, TrustedSetup, BYTES_PER_BLOB, FIELD_ELEMENTS_PER_BLOB};
use multiexp::Config;

use crate::common::{multiexp, path_str, scratch, stderr, stdout};

/// The mainnet setup file multiexp embeds.
fn setup_file() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../multiexp/data/trusted_setup.txt")
}

/// The raw bytes of a blob: each element 32 bytes big-endian.
fn raw_blob(elements: &[Fr]) -> Vec<u8> {
    elements
        .iter()
        .flat_map(|e| e.into_bigint().to_bytes_be())
        .collect()
}

/// c-kzg's commitment of a raw blob.
fn c_kzg_bytes(raw: &[u8]) -> [u8; 48] {
    let blob = c_kzg::Blob::from_bytes(raw).unwrap();
    let commitment = c_kzg::ethereum_kzg_settings(0)
        .blob_to_kzg_commitment(&blob)
        .unwrap();
    commitment.to_bytes().into_inner()
}

/// c-kzg's commitment of a raw blob, `0x` and hex.
fn c_kzg_commitment(raw: &[u8]) -> String {
    let hex: String = c_kzg_bytes(raw)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("0x{hex}")
}

/// The blobs the library is checked on: random, zero, all r − 1, one nonzero element at the
/// ends and the middle, small values.
fn blobs() -> Vec<(String, Vec<Fr>)> {
    let n = FIELD_ELEMENTS_PER_BLOB;
    let mut blobs: Vec<(String, Vec<Fr>)> = (1..=3)
        .map(|seed| {
            let blob = multiexp::unstable::sample::scalars::<Fr>(n, seed);
            (format!("random seed {seed}"), blob)
        })
        .collect();
    blobs.push(("zero".into(), vec![Fr::ZERO; n]));
    blobs.push(("all r - 1".into(), vec![-Fr::ONE; n]));
    let value = multiexp::unstable::sample::scalars::<Fr>(1, 9)[0];
    for i in [0, 1, 2047, 4095] {
        let mut blob = vec![Fr::ZERO; n];
        blob[i] = value;
        blobs.push((format!("one element at {i}"), blob));
    }
    let small = (0..n as u64).map(|i| Fr::from(i % 300)).collect();
    blobs.push(("small values".into(), small));
    blobs
}

#[test]
fn commitments_equal_c_kzg_on_random_and_edge_blobs() {
    let setup = TrustedSetup::ethereum();
    for (what, elements) in blobs() {
        let raw = raw_blob(&elements);
        assert_eq!(raw.len(), BYTES_PER_BLOB);
        let blob = kzg::blob_from_bytes(&raw, what.as_str()).unwrap();
        assert_eq!(blob, elements, "{what}");
        let (expected, expected_hex) = (c_kzg_bytes(&raw), c_kzg_commitment(&raw));
        for threads in [1, 2] {
            let config = Config {
                threads: Some(threads),
                ..Config::default()
            };
            let c = kzg::blob_to_commitment(setup, &blob, &config).unwrap();
            assert_eq!(
                kzg::commitment_bytes(&c),
                expected,
                "{what}, {threads} threads"
            );
            assert_eq!(kzg::commitment_hex(&c), expected_hex, "{what}");
        }
    }
}

#[test]
fn setup_file_equals_the_embedded_setup() {
    let read = TrustedSetup::from_file(&setup_file()).unwrap();
    assert_eq!(&read, TrustedSetup::ethereum());
}

#[test]
fn kzg_commit_prints_c_kzg_commitments_of_raw_and_hex_blobs() {
    let dir = scratch("kzg", "commit");
    let first = multiexp::unstable::sample::scalars::<Fr>(FIELD_ELEMENTS_PER_BLOB, 21);
    let second = multiexp::unstable::sample::scalars::<Fr>(FIELD_ELEMENTS_PER_BLOB, 22);
    let (raw, hex) = (dir.join("first.bin"), dir.join("second.hex"));
    std::fs::write(&raw, raw_blob(&first)).unwrap();
    let text = format!("0x{}", input::scalars_to_hex(&second, Endianness::Big));
    std::fs::write(&hex, text).unwrap();
    let expected = [
        format!("{} {}", raw.display(), c_kzg_commitment(&raw_blob(&first))),
        format!("{} {}", hex.display(), c_kzg_commitment(&raw_blob(&second))),
    ];
    let blobs = ["--blob", path_str(&raw), "--blob", path_str(&hex)];
    let setup_path = setup_file();
    let setup = ["--setup", path_str(&setup_path)];
    for extra in [&[][..], &setup[..], &["--threads", "1"][..]] {
        let mut args = vec!["kzg", "commit"];
        args.extend(blobs);
        args.extend(extra);
        let out = multiexp(&args);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected.join("\n"), "{extra:?}");
    }
    let mut args = vec!["kzg", "commit", "--format", "json"];
    args.extend(blobs);
    let out = multiexp(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 2);
    assert_eq!(json[0]["blob"], path_str(&raw));
    assert_eq!(json[1]["blob"], path_str(&hex));
    assert_eq!(json[1]["commitment"], c_kzg_commitment(&raw_blob(&second)));
}

#[test]
fn kzg_commit_refuses_a_blob_element_at_or_above_r() {
    let dir = scratch("kzg", "range");
    let good = dir.join("good.bin");
    std::fs::write(&good, raw_blob(&blobs()[0].1)).unwrap();
    let mut raw = raw_blob(&vec![Fr::ONE; FIELD_ELEMENTS_PER_BLOB]);
    let r = Fr::MODULUS.to_bytes_be();
    raw[17 * 32..18 * 32].copy_from_slice(&r);
    let bad = dir.join("bad.bin");
    std::fs::write(&bad, &raw).unwrap();
    let out = multiexp(&[
        "kzg",
        "commit",
        "--blob",
        path_str(&good),
        "--blob",
        path_str(&bad),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let message = stderr(&out);
    assert!(
        message.contains(&format!("{}: byte 544: blob element 17 ", bad.display())),
        "{message}"
    );
    assert_eq!(
        stdout(&out),
        "",
        "nothing is printed for the good blob either"
    );

    // In hex, one element per line: the element's line.
    let hex: String = raw
        .chunks(32)
        .map(|c| c.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect();
    let bad = dir.join("bad.hex");
    std::fs::write(&bad, hex).unwrap();
    let out = multiexp(&["kzg", "commit", "--blob", path_str(&bad)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{}:18: blob element 17 ", bad.display())),
        "{}",
        stderr(&out)
    );
}

#[test]
fn kzg_commit_refuses_a_setup_with_a_corrupted_point() {
    let dir = scratch("kzg", "setup");
    let text = std::fs::read_to_string(setup_file()).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Line 1234: a G1 Lagrange point with its x's last digit changed.
    let line = &mut lines[1233];
    let last = if line.ends_with('0') { "1" } else { "0" };
    line.replace_range(95.., last);
    let setup = dir.join("setup.txt");
    std::fs::write(&setup, lines.join("\n")).unwrap();
    let blob = dir.join("blob.bin");
    std::fs::write(&blob, vec![0u8; BYTES_PER_BLOB]).unwrap();
    let out = multiexp(&[
        "kzg",
        "commit",
        "--setup",
        path_str(&setup),
        "--blob",
        path_str(&blob),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("{}:1234: ", setup.display())),
        "{}",
        stderr(&out)
    );
    assert_eq!(stdout(&out), "");
}

#[test]
fn kzg_commit_refuses_a_truncated_blob() {
    let dir = scratch("kzg", "truncated");
    let raw = raw_blob(&blobs()[0].1);
    let (bin, hex) = (dir.join("short.bin"), dir.join("short.hex"));
    std::fs::write(&bin, &raw[..BYTES_PER_BLOB - 100]).unwrap();
    let digits: String = raw[..BYTES_PER_BLOB - 32]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    std::fs::write(&hex, digits).unwrap();
    for (file, found) in [(&bin, BYTES_PER_BLOB - 100), (&hex, BYTES_PER_BLOB - 32)] {
        let out = multiexp(&["kzg", "commit", "--blob", path_str(file)]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let expected = format!(
            "{}: expected 131072 bytes (262144 hex digits), found {found} bytes",
            file.display()
        );
        assert!(stderr(&out).contains(&expected), "{}", stderr(&out));
    }
    // Nothing is read past a blob's largest form.
    let out = multiexp(&["kzg", "commit", "--blob", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("/dev/zero: longer than"),
        "{}",
        stderr(&out)
    );
}

/// The README's worked example: `gen --seed 7` then `kzg commit` prints the commitment the
/// README quotes, and that commitment is c-kzg's.
#[test]
fn the_readme_worked_example_prints_c_kzgs_commitment() {
    let dir = scratch("kzg", "readme");
    let (points, blob) = (dir.join("points.hex"), dir.join("blob.hex"));
    let gen = multiexp(&[
        "gen",
        "--curve",
        "bls12-381-g1",
        "--n",
        "4096",
        "--seed",
        "7",
        "--points",
        path_str(&points),
        "--scalars",
        path_str(&blob),
    ]);
    assert!(gen.status.success(), "{}", stderr(&gen));
    let out = multiexp(&[
        "kzg",
        "commit",
        "--setup",
        path_str(&setup_file()),
        "--blob",
        path_str(&blob),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let printed = stdout(&out);
    let commitment = printed.split_whitespace().last().unwrap().to_string();
    let text = std::fs::read_to_string(blob.as_path()).unwrap();
    let raw: Vec<u8> = text
        .lines()
        .flat_map(|l| {
            (0..l.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&l[i..i + 2], 16).unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(commitment, c_kzg_commitment(&raw));
    let readme = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let readme = std::fs::read_to_string(readme).unwrap();
    assert!(
        readme.contains(&format!("# /tmp/blob.hex {commitment}")),
        "the README's worked example should quote {commitment}"
    );
}
