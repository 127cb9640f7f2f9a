//! One module per subcommand.

pub mod bench;
pub mod bench_decode;
pub mod bench_kzg;
pub mod bench_table;
pub mod calibrate;
pub mod curves;
pub mod demo;
pub mod gen;
pub mod kzg;
pub mod memory;
pub mod msm;
pub mod plan;
pub mod sweep;
pub mod table;
pub mod verify_plan;
