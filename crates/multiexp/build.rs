//! Emits `cfg(multiexp_host_ifma)` when the build host, which must also be the target, has
//! AVX-512 F and IFMA: tests that need the native IFMA backend run only there, and are
//! reported as ignored, with the reason, elsewhere. A test built with the cfg that then runs
//! on a CPU without the features fails (it asks for the CPU-feature token and gets none).
//! Warns when the `asm` feature is on for x86-64 but the adx and bmi2 target features are not.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(multiexp_host_ifma)");
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_ARCH") == "x86_64" && var("HOST") == var("TARGET") && host_ifma() {
        println!("cargo::rustc-cfg=multiexp_host_ifma");
    }
    // Shown where cargo shows this crate's warnings (its own workspace, a path dependency);
    // elsewhere the first MSM says it (src/asm.rs).
    let features = var("CARGO_CFG_TARGET_FEATURE");
    let has = |f: &str| features.split(',').any(|x| x == f);
    if var("CARGO_CFG_TARGET_ARCH") == "x86_64"
        && std::env::var_os("CARGO_FEATURE_ASM").is_some()
        && !(has("adx") && has("bmi2"))
    {
        println!(
            "cargo::warning=arkworks' assembly field arithmetic needs the adx and bmi2 target \
             features, which this build lacks: RUSTFLAGS=\"-C target-feature=+adx,+bmi2\" \
             (about 8% on BLS12-381)"
        );
    }
}

#[cfg(target_arch = "x86_64")]
fn host_ifma() -> bool {
    std::is_x86_feature_detected!("avx512f") && std::is_x86_feature_detected!("avx512ifma")
}

#[cfg(not(target_arch = "x86_64"))]
fn host_ifma() -> bool {
    false
}
