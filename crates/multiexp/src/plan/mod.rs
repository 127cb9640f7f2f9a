//! Planning an MSM: the cost model, the makespan of a task list, and the planner that chooses
//! the window, the processor and the split; gnark's models and the sweep that compares them.
//! The crate root re-exports the plan types, [`crate::unstable`] the engine.

pub mod classes;
pub mod cost;
pub(crate) mod layout;
pub mod legacy;
pub mod makespan;
pub(crate) mod planner;
pub mod probe;
pub mod sweep;

pub(crate) use layout::{Plan, SplitKind};
