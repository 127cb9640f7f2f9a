//! What every module of the CLI suite runs the binary with.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `multiexp` binary run with `args`, to completion.
pub fn multiexp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_multiexp"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A scratch directory for one test, removed with everything in it when the test ends
/// (passed or failed: the guard drops while a failing test unwinds).
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A fresh scratch directory for one test: `area` (the module) and `test` keep the tests of
/// one process apart.
pub fn scratch(area: &str, test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("multiexp-{area}-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Scratch(dir)
}

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).to_string()
}

/// A path as a command-line argument.
pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A run's standard output, trimmed.
pub fn stdout(out: &Output) -> String {
    text(&out.stdout).trim().to_string()
}

/// A run's standard error.
pub fn stderr(out: &Output) -> String {
    text(&out.stderr)
}

/// A successful run's standard output; a failed run fails the test with its exit code and
/// standard error.
pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        text(&out.stderr)
    );
    text(&out.stdout)
}
