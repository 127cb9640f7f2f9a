//! Emits `cfg(multiexp_host_ifma)` when the build host, which must also be the target, has
//! AVX-512 F and IFMA: tests that need the native IFMA backend run only there, and are
//! reported as ignored, with the reason, elsewhere. A test built with the cfg that then runs
//! on a CPU without the features fails (it asks for the CPU-feature token and gets none).

fn main() {
    println!("cargo::rustc-check-cfg=cfg(multiexp_host_ifma)");
    println!("cargo::rerun-if-changed=build.rs");
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    if var("CARGO_CFG_TARGET_ARCH") == "x86_64" && var("HOST") == var("TARGET") && host_ifma() {
        println!("cargo::rustc-cfg=multiexp_host_ifma");
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
