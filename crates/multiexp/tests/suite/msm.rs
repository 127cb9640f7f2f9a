//! The MSM test matrix: one line per curve/group, generic bodies in `common`.

use crate::common;

macro_rules! msm_tests {
    ($($name:ident => $config:ty;)*) => {$(
        mod $name {
            type C = $config;
            #[test]
            fn random_inputs_match_naive_and_arkworks() {
                super::common::random_inputs_match_naive_and_arkworks::<C>();
            }
            #[test]
            fn every_window_matches_naive() {
                super::common::every_window_matches_naive::<C>();
            }
            #[test]
            fn every_thread_count_and_split_matches_naive() {
                super::common::every_thread_count_and_split_matches_naive::<C>();
            }
            #[test]
            fn edge_cases_match_naive() {
                super::common::edge_cases_match_naive::<C>();
            }
            #[test]
            fn adversarial_inputs_match_naive() {
                super::common::adversarial_inputs_match_naive::<C>();
            }
            #[test]
            fn batch_size_boundaries_match_arkworks() {
                super::common::batch_size_boundaries_match_arkworks::<C>();
            }
            #[test]
            fn lanes_match_arkworks() {
                super::common::lanes_match_arkworks::<C>();
            }
            #[test]
            fn length_mismatch_is_an_error() {
                super::common::length_mismatch_is_an_error::<C>();
            }
        }
    )*};
}

for_each_group!(msm_tests);

/// The matrix runs the IFMA processor natively only where the CPU has AVX-512 IFMA; this says
/// so in the test output elsewhere (the emulated arms run everywhere).
#[test]
#[cfg_attr(not(multiexp_host_ifma), ignore = "needs a CPU with AVX-512 IFMA")]
fn the_matrix_runs_the_native_ifma_arms() {
    assert!(
        multiexp::unstable::ifma_available(),
        "built for a CPU with AVX-512 IFMA, running on one without"
    );
}
