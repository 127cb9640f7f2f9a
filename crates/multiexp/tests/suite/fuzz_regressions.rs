//! Replays every committed fuzz input — the minimised corpus (`fuzz/corpus/<target>/`) and the
//! crash reproducers (`fuzz/regressions/<target>/`) — through the fuzz harness on the stable
//! toolchain: no panic, `Ok` or a typed error, and the harness's own properties (IFMA and
//! arkworks arithmetic agree, accepted inputs are canonical).

use crate::harness;

use std::path::Path;

fn replay(dir: &Path, run: fn(&[u8])) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut files: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
    files.sort();
    for file in &files {
        let data = std::fs::read(file).unwrap();
        let outcome = std::panic::catch_unwind(|| run(&data));
        assert!(outcome.is_ok(), "{} panics", file.display());
    }
    files.len()
}

#[test]
fn committed_fuzz_inputs_parse_without_panicking() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut corpus = 0;
    for (target, run) in harness::TARGETS {
        corpus += replay(&root.join("corpus").join(target), *run);
        replay(&root.join("regressions").join(target), *run);
    }
    assert!(corpus > 0, "no corpus under {}", root.display());
}
