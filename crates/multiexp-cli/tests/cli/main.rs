//! The CLI's integration suite, one test binary (one link of the library's instantiations
//! where a binary per file linked them once each). Each module runs the built `multiexp`
//! binary; `tests/threads_env.rs` stays a binary of its own because it measures the CPU time
//! of its children, which tests running beside it would add to.

mod common;

mod cli_messages;
mod kzg;
mod malformed_memory;
mod msm_files;
mod no_ifma_env;
mod scalars_cli;
mod tables_cli;
