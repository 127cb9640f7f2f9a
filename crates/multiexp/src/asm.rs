//! Whether arkworks' assembly field multiplication is compiled in, and the one notice a
//! process prints when it is not but the CPU could run it.
//!
//! arkworks compiles its x86-64 assembly (about 8% of an MSM on BLS12-381) only with the
//! `asm` feature and the `adx` and `bmi2` target features at compile time. This crate's
//! `.cargo/config.toml` enables them for its own workspace; it does not reach a crate that
//! depends on multiexp, which must enable them itself (README: "Using it from your crate").
//! Cargo hides a dependency's build-script warnings, so the first MSM says it on stderr.

use std::sync::Once;

/// The variable that silences the notice (any value).
const QUIET: &str = "MULTIEXP_QUIET";

/// Whether arkworks' assembly field multiplication is compiled in: the `asm` feature on
/// x86-64 with the `adx` and `bmi2` target features. Always false elsewhere (arkworks has
/// no assembly for other targets).
pub fn asm_field_arithmetic() -> bool {
    cfg!(all(
        feature = "asm",
        target_arch = "x86_64",
        target_feature = "adx",
        target_feature = "bmi2"
    ))
}

/// Whether this CPU has ADX and BMI2.
fn cpu_has_adx_bmi2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("adx") && std::is_x86_feature_detected!("bmi2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The notice, where one is due: the `asm` feature asked for, the assembly not compiled in,
/// a CPU that has ADX and BMI2, and no `MULTIEXP_QUIET`.
pub(crate) fn notice(asm_feature: bool, compiled: bool, cpu: bool, quiet: bool) -> Option<String> {
    (asm_feature && !compiled && cpu && !quiet).then(|| {
        "multiexp: arkworks' assembly field arithmetic is not compiled in: this build lacks \
         the adx and bmi2 target features this CPU has (MSMs run about 8% slower on \
         BLS12-381). Build with RUSTFLAGS=\"-C target-feature=+adx,+bmi2\" or put them in \
         your crate's .cargo/config.toml (multiexp's README, \"Using it from your crate\"); \
         MULTIEXP_QUIET=1 silences this notice."
            .to_string()
    })
}

/// Prints the notice once per process, where one is due.
pub(crate) fn notice_once() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let due = notice(
            cfg!(feature = "asm"),
            asm_field_arithmetic(),
            cpu_has_adx_bmi2(),
            std::env::var_os(QUIET).is_some(),
        );
        if let Some(text) = due {
            eprintln!("{text}");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_assembly_flags_not_reaching_a_dependent_crate_is_said_once_where_it_costs() {
        let text = notice(true, false, true, false).expect("due");
        assert!(
            text.contains("+adx,+bmi2") && text.contains("MULTIEXP_QUIET"),
            "{text}"
        );
        // Compiled in, no asm feature asked for, a CPU without them, or silenced: nothing.
        assert_eq!(notice(true, true, true, false), None);
        assert_eq!(notice(false, false, true, false), None);
        assert_eq!(notice(true, false, false, false), None);
        assert_eq!(notice(true, false, true, true), None);
        // This workspace's own builds enable the flags on x86-64.
        #[cfg(all(target_arch = "x86_64", feature = "asm"))]
        assert!(
            asm_field_arithmetic(),
            "the workspace's .cargo/config.toml sets adx, bmi2"
        );
    }
}
