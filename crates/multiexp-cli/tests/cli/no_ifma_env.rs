//! `MULTIEXP_NO_IFMA` from the command line: the switch to the portable path on an IFMA host.

use std::process::Command;

use crate::common::text;

/// `MULTIEXP_NO_IFMA=1` runs the portable path (issue #14's switch), and `msm` says which
/// path ran; without it an IFMA CPU runs the IFMA path at a size where it wins.
#[test]
fn multiexp_no_ifma_runs_the_portable_path_and_says_so() {
    let path = |no_ifma: Option<&str>| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_multiexp"));
        cmd.args([
            "msm", "--curve", "bn254-g1", "--n", "2^14", "--format", "json",
        ]);
        if let Some(v) = no_ifma {
            cmd.env("MULTIEXP_NO_IFMA", v);
        } else {
            cmd.env_remove("MULTIEXP_NO_IFMA");
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        v["path"].as_str().unwrap().to_string()
    };
    assert_eq!(path(Some("1")), "portable");
    let default = path(None);
    assert!(
        default == "portable" || (default == "avx512-ifma" && multiexp::unstable::ifma_available()),
        "{default}"
    );
    assert_eq!(path(Some("0")), default, "MULTIEXP_NO_IFMA=0 leaves it on");
}
