//! Planning an MSM: the cost model, the makespan of a task list, the profile of weights, and
//! the planner that chooses the window, the processor and the split.

pub mod cost;
pub mod discovery;
pub mod layout;
pub mod legacy;
pub mod makespan;
pub mod planner;
pub mod probe;
pub mod profile;
pub mod sweep;

pub use discovery::{ProfileChoice, ProfileSource};
pub use layout::{ChunkTask, Plan, PlanReport, SplitKind};
pub use planner::{
    Candidate, CandidatePrice, Decision, PlanOptions, Planner, SplitPolicy, DEFAULT_MARGIN,
    MIN_WINDOW,
};
pub use profile::{Host, Profile, TaskWeights, Weights, WindowWeights, PROFILE_VERSION};
