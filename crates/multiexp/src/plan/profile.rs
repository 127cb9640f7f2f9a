//! Cost profiles: the measured (or estimated) price of each operation the planner counts,
//! per curve/group, in nanoseconds on one core.
//!
//! The built-in profile estimates each weight from operation counts × the price of one
//! coordinate-field multiplication; `multiexp calibrate` replaces it with measurements of
//! the host. A profile is versioned JSON so that it can be stored and reloaded.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::curves::CurveSpec;

/// Format version of profile files; a file of another version is refused on load.
pub const PROFILE_VERSION: u32 = 1;

/// The per-operation prices for one curve/group, in ns on one core.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// One mixed (bucket += affine point) XYZZ addition.
    pub add_mixed: f64,
    /// One batch-affine addition, the shared inversion amortised.
    pub add_batch: f64,
    /// One batch-affine addition on AVX-512 IFMA lanes, the shared inversion amortised.
    pub add_batch_ifma: f64,
    /// One full XYZZ addition (bucket reduction, merges).
    pub add_full: f64,
    /// One doubling (Horner).
    pub double: f64,
    /// Digit extraction, per scalar and chunk.
    pub digit: f64,
    /// Fixed overhead of one chunk task (scheduling, bucket reset, conversion).
    pub task: f64,
}

impl Weights {
    /// Estimates from operation counts: a field multiplication costs `mul_ns` and a squaring
    /// about 0.8 of it; mixed add 8M + 2S, full add 12M + 2S, doubling 6M + 3S.
    pub fn estimate(mul_ns: f64) -> Self {
        let s = 0.8 * mul_ns;
        Weights {
            add_mixed: 8.0 * mul_ns + 2.0 * s + 2.0 * mul_ns,
            add_batch: 5.0 * mul_ns + s + 3.0 * mul_ns,
            add_batch_ifma: (5.0 * mul_ns + s + 3.0 * mul_ns) / 3.0,
            add_full: 12.0 * mul_ns + 2.0 * s + 2.0 * mul_ns,
            double: 6.0 * mul_ns + 3.0 * s + 2.0 * mul_ns,
            digit: 1.5,
            task: 2_000.0,
        }
    }

    /// The estimate for a curve/group from its field sizes: a base-field multiplication of
    /// L limbs costs about 0.55·L² + 2 ns on a current x86-64 core with ADX, and an extension
    /// multiplication `spec.mul_weight()` of those.
    pub fn estimate_for(spec: &CurveSpec) -> Self {
        let l = spec.base_limbs as f64;
        let mul_ns = (0.55 * l * l + 2.0) * spec.mul_weight();
        Self::estimate(mul_ns)
    }
}

/// Facts about the host a profile was measured on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// CPU model name.
    pub cpu: String,
    /// Number of logical cores available.
    pub cores: usize,
    /// When it was measured (ISO 8601).
    pub date: String,
    /// multiexp version that measured it.
    pub multiexp_version: String,
}

/// A cost profile: weights per curve/group name, with a fallback estimate for the rest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Format version ([`PROFILE_VERSION`]).
    pub version: u32,
    /// The host the weights were measured on (empty for the built-in estimate).
    #[serde(default)]
    pub host: Host,
    /// Weights by catalogue name.
    pub curves: BTreeMap<String, Weights>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile::builtin()
    }
}

impl Profile {
    /// The built-in profile: estimates for every curve/group.
    pub fn builtin() -> Self {
        Profile {
            version: PROFILE_VERSION,
            host: Host::default(),
            curves: BTreeMap::new(),
        }
    }

    /// The weights for `spec`: measured if the profile has them, else estimated.
    pub fn weights(&self, spec: &CurveSpec) -> Weights {
        self.curves
            .get(spec.name)
            .cloned()
            .unwrap_or_else(|| Weights::estimate_for(spec))
    }
}
