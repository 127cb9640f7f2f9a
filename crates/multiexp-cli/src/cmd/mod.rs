//! One module per subcommand.

pub mod bench;
pub mod calibrate;
pub mod curves;
pub mod demo;
pub mod msm;
pub mod plan;
pub mod verify_plan;
