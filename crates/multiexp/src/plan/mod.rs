//! Planning an MSM: the cost model, the makespan of a task list, the profile of weights, and
//! the planner that chooses the window, the processor and the split.

pub mod cost;
pub mod legacy;
pub mod makespan;
pub mod planner;
pub mod probe;
pub mod profile;
pub mod sweep;

pub use planner::{
    Candidate, CandidatePrice, ChunkTask, Decision, Plan, PlanOptions, PlanReport, Planner,
    SplitKind, SplitPolicy, DEFAULT_MARGIN, MIN_WINDOW,
};
pub use profile::{Host, Profile, TaskWeights, Weights, WindowWeights, PROFILE_VERSION};
