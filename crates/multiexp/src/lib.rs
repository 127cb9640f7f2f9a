#![doc = include_str!("../../../README.md")]
#![deny(missing_docs)]

pub mod curves;
mod error;

pub use error::Error;
