//! One module per subcommand.

pub mod bench;
pub mod bench_decode;
pub mod calibrate;
pub mod curves;
pub mod demo;
pub mod gen;
pub mod memory;
pub mod msm;
pub mod plan;
pub mod sweep;
pub mod verify_plan;
