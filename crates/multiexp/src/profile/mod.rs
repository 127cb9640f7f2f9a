//! Cost profiles: the measured price of each operation the planner counts, per curve/group,
//! in nanoseconds on one core of the host, and which profile a process plans with
//! ([`ProfileChoice`], the discovery of `discovery.rs`).
//!
//! A [`Profile`] is versioned JSON. `multiexp calibrate` measures one on the host; the
//! built-in profile ([`Profile::builtin`]) was measured the same way on the reference machine
//! (see `default_profile.json` beside this file and its host facts), so nothing requires
//! calibration. A curve/group missing from a profile takes the built-in profile's weights, and
//! one missing from that (a curve outside the catalogue) an estimate from operation counts
//! ([`Weights::estimate_for`]).
//!
//! What each weight prices (the cost formulas are in `cost.rs`):
//! - per window c and processor ([`WindowWeights`], [`TaskWeights`]): `point`, the price of
//!   adding one point into one of that window's 2^(c-1) buckets (cache misses of that many
//!   buckets and, for the batch-affine processors, the batch's shared inversion amortised over
//!   its batch size included), `bucket`, the price per filled bucket (its first point, a copy,
//!   and its share of the reduction to the chunk sum), and `fixed`, the price per task of that
//!   window's buckets whether filled or not. Where empty buckets cost more than filled ones (the
//!   batch-affine processors: a sparse task fills few batches and reduces its buckets by the
//!   gap-aware XYZZ sum), `fixed` carries B times an empty bucket's price and `bucket` is that
//!   much lower, possibly below zero: filling a bucket removes an empty one. The invariant is
//!   fixed + B·(bucket - point) ≥ 0 (a task over full buckets has a non-negative fixed part),
//!   which is what makes every cut of a task cost at least the whole (`cost.rs`). Profiles
//!   calibrated since the batch-affine lanes (`lanes_in_windows`) measured each small window
//!   with the lanes per bucket its tasks run with (2^(c-1)·L slots), older ones without;
//!   `cost.rs` prices a task with lanes from the window measured on as many slots;
//! - `task`: the fixed cost of one chunk task; `digit` and `digit_scalar`: the digit pass,
//!   per scalar·chunk and per scalar; `prepare`: converting one point to the IFMA processor's
//!   record; `merge`: adding one task's partial sum into its chunk sum; `add_full` and
//!   `double`: the projective addition and doubling of Horner's rule; `dispatch`: starting one
//!   parallel phase on a pool of two or more workers;
//! - `add_mixed`: one mixed XYZZ addition with the bucket in L1 (for reference: the task
//!   weights already contain it).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

mod cache;
mod discovery;

pub use cache::{
    miss_fraction, miss_weight, price_factor, Caches, DEFAULT_L2, DEFAULT_L3_SHARE,
    MISS_WEIGHT_BATCH_AFFINE, MISS_WEIGHT_XYZZ,
};
pub use discovery::{
    default_profile_path, discovered, resolve_profile, Discovered, ProfileChoice, ProfileSearch,
    ProfileSource, PROFILE_ENV,
};

use crate::bucket::{batch_size, ifma_batch_size, Processor};
use crate::curves::CurveSpec;
use crate::digits::PROFILED_WINDOW;
use crate::Error;

/// Format version of profile files; a file of another version is refused on load.
pub const PROFILE_VERSION: u32 = 2;

/// The multiexp version this library is; a profile measured by another one is refused on
/// load, since its processors may have changed.
pub const MULTIEXP_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The built-in profile's JSON, measured on the reference machine of the IFMA path.
const DEFAULT_PROFILE_JSON: &str = include_str!("default_profile.json");

/// The built-in profile of the portable path, measured on a CPU without AVX-512 (see
/// [`Profile::builtin_portable`]).
const PORTABLE_PROFILE_JSON: &str = include_str!("portable_profile.json");

/// What one chunk task costs with one processor at one window.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskWeights {
    /// Per task, ns: what does not depend on the points (resetting and scanning the buckets;
    /// the batch-affine reductions' one inversion per round).
    pub fixed: f64,
    /// Per point added into a filled bucket, ns.
    pub point: f64,
    /// Per filled bucket, ns: its first point (a copy) and its share of the reduction, less
    /// what an empty bucket costs (so this may be below `point`, or negative; see the module
    /// header for the invariant).
    pub bucket: f64,
}

impl TaskWeights {
    /// The fixed part of a task whose `buckets` buckets are all filled:
    /// fixed + B·(bucket - point). Never negative in a valid profile.
    pub fn fixed_full(&self, buckets: f64) -> f64 {
        self.fixed + buckets * (self.bucket - self.point)
    }
}

/// The task weights of every processor at one window c.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WindowWeights {
    /// The window c (2^(c-1) buckets).
    pub window: u32,
    /// XYZZ buckets with mixed additions.
    pub xyzz: TaskWeights,
    /// Batch-affine buckets, measured at batch size `batch_size`.
    pub batch_affine: TaskWeights,
    /// The batch size the batch-affine weights were measured at (informational).
    pub batch_size: usize,
    /// Batch-affine on AVX-512 IFMA, measured at `ifma_batch_size`; absent where the host or
    /// the curve has no IFMA processor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub batch_affine_ifma: Option<TaskWeights>,
    /// The batch size the IFMA weights were measured at (informational).
    #[serde(default)]
    pub ifma_batch_size: usize,
}

/// The per-operation prices for one curve/group, in ns on one core.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// One mixed XYZZ addition with the bucket in L1.
    pub add_mixed: f64,
    /// One projective addition (Horner).
    pub add_full: f64,
    /// One projective doubling (Horner).
    pub double: f64,
    /// Digit extraction, per scalar and chunk.
    pub digit: f64,
    /// Digit extraction, per scalar (leaving the Montgomery form).
    pub digit_scalar: f64,
    /// Converting one point to an IFMA record (0 where there is no IFMA processor).
    pub prepare: f64,
    /// Fixed cost of one chunk task.
    pub task: f64,
    /// Adding one task's partial sum into its chunk sum (conversion included).
    pub merge: f64,
    /// Starting one parallel phase (digits, records, tasks) on two or more workers.
    pub dispatch: f64,
    /// Task weights for windows 1..=16, in order.
    pub windows: Vec<WindowWeights>,
    /// Whether the window weights were measured on tasks that ran the executor's lanes per
    /// bucket (`bucket::lanes`; profiles calibrated since lanes, the built-in portable one):
    /// window c then prices 2^(c-1)·L slots, L the most lanes its buckets take, and a task
    /// with lanes is priced at its own window ([`crate::unstable::cost`]). Absent (older
    /// profiles, estimates): window c prices 2^(c-1) slots.
    #[serde(default)]
    pub lanes_in_windows: bool,
    /// The L3 of the host these weights price, for the windows above the profile's top one
    /// ([`Weights::task_weights`]); set where weights are carried to a host
    /// ([`Weights::carried`], [`Profile::weights_on`]), absent as a profile holds them.
    #[serde(skip)]
    pub wide: Option<WideWindows>,
}

/// The part of one core's L3 share a window above the profile's top one may fill before its
/// bucket misses are priced. Fitted on a Zen 4 host (16 MiB of L3 a core, portable path,
/// docs/bench/wide-windows.md): BLS12-381 2^22 at c = 18 (13 MiB of buckets, inside the share)
/// measured 1.02-1.03x c = 16 where the full share priced it 0.96x, and BN254 c = 17 (4.5 MiB)
/// measured 0.94x, as priced; the streamed points and digits, the other core's buckets and
/// the TLB (3072 pages of 4 KiB cover 12 MiB) take the rest.
pub const WIDE_L3_FRACTION: f64 = 0.5;

/// What the price of a window above a profile's top one depends on beyond the profile: one
/// core's L3 share on the planning host and each processor's bytes a bucket.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WideWindows {
    /// One core's share of the L3, bytes.
    pub l3_share: f64,
    /// Bytes a bucket of XYZZ, scalar batch-affine and IFMA batch-affine, in that order.
    pub bucket_bytes: [f64; 3],
}

impl WideWindows {
    /// The context of `spec` on a host with `caches`.
    pub fn new(spec: &CurveSpec, caches: &Caches) -> Self {
        let fe = 8.0 * spec.base_limbs as f64 * spec.extension_degree as f64;
        let record = 16.0 * (spec.base_bits as u64 + 1).div_ceil(52) as f64;
        WideWindows {
            l3_share: caches.l3_share_or_default() as f64,
            bucket_bytes: [4.0 * fe, 2.0 * fe + 8.0, record + 8.0],
        }
    }

    /// The L3 part of the cache model's price factor of window `c`'s bucket set, against
    /// [`WIDE_L3_FRACTION`] of the share.
    fn l3_factor(&self, c: u32, processor: Processor) -> f64 {
        let bytes = match processor {
            Processor::Xyzz => self.bucket_bytes[0],
            Processor::BatchAffine => self.bucket_bytes[1],
            Processor::BatchAffineIfma => self.bucket_bytes[2],
        };
        let footprint = (1u64 << (c - 1)) as f64 * bytes;
        1.0 + miss_weight(processor) * miss_fraction(footprint, WIDE_L3_FRACTION * self.l3_share)
    }
}

impl Weights {
    /// Estimates from operation counts, with no cache effects: a field multiplication costs
    /// `mul_ns`, a squaring 0.8 of it, an inversion 100 of them; mixed add 8M + 2S, full add
    /// 12M + 2S, doubling 6M + 3S, batch-affine add 5M + 1S + I/B (a third of that on IFMA
    /// lanes), a reduction 2 full adds per bucket.
    pub fn estimate(mul_ns: f64) -> Self {
        let m = mul_ns;
        let s = 0.8 * m;
        let inversion = 100.0 * m;
        let add_mixed = 8.0 * m + 2.0 * s;
        let add_full = 12.0 * m + 2.0 * s;
        let windows = (1..=PROFILED_WINDOW)
            .map(|c| {
                let batch = batch_size(c);
                let ifma_batch = ifma_batch_size(c);
                let affine = 5.0 * m + s;
                WindowWeights {
                    window: c,
                    xyzz: TaskWeights {
                        fixed: 0.0,
                        point: add_mixed,
                        bucket: 2.0 * add_full,
                    },
                    batch_affine: TaskWeights {
                        fixed: 0.0,
                        point: affine + inversion / batch as f64,
                        bucket: 2.0 * (affine + inversion / 64.0),
                    },
                    batch_size: batch,
                    batch_affine_ifma: Some(TaskWeights {
                        fixed: 0.0,
                        point: (affine + inversion / ifma_batch as f64) / 3.0,
                        bucket: 2.0 * (affine + inversion / 64.0) / 3.0,
                    }),
                    ifma_batch_size: ifma_batch,
                }
            })
            .collect();
        Weights {
            add_mixed,
            add_full,
            double: 6.0 * m + 3.0 * s,
            digit: 1.5,
            digit_scalar: m,
            prepare: 2.0 * m,
            task: 200.0,
            merge: add_full + 4.0 * m,
            dispatch: 20_000.0,
            windows,
            lanes_in_windows: false,
            wide: None,
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

    /// These weights, measured on a host with caches `from`, as the cache model prices them on
    /// a host with caches `to` (the module `cache.rs`): each window's `point` and `bucket`
    /// prices of each processor scale by the ratio of its bucket set's price factors on the
    /// two hosts where that ratio exceeds 1 (caches that are smaller on `to` raise a window's
    /// price; larger ones leave it as measured). `fixed` (resetting and scanning buckets in order) is not a random access and
    /// stays; a `bucket` price that would break the invariant fixed + B·(bucket - point) ≥ 0
    /// is raised to meet it. Equal caches give the weights back unchanged.
    pub fn carried(&self, spec: &CurveSpec, from: &Caches, to: &Caches) -> Weights {
        let mut out = self.clone();
        let wide = WideWindows::new(spec, to);
        let [xyzz_bytes, affine_bytes, ifma_bytes] = wide.bucket_bytes;
        for w in &mut out.windows {
            let buckets = (1u64 << (w.window - 1)) as f64;
            let scale = |t: &mut TaskWeights, processor: Processor, bytes: f64| {
                let footprint = buckets * bytes;
                // One way only: a host whose caches are larger than the measuring host's
                // is priced as measured (see `cache.rs`: a larger L2 made no window cheaper
                // on the AMD hosts measured, where the miss model promised 6-18%).
                let f = (price_factor(processor, footprint, to)
                    / price_factor(processor, footprint, from))
                .max(1.0);
                if f == 1.0 {
                    return;
                }
                t.point *= f;
                t.bucket = (t.bucket * f).max(t.point - t.fixed / buckets);
            };
            scale(&mut w.xyzz, Processor::Xyzz, xyzz_bytes);
            scale(&mut w.batch_affine, Processor::BatchAffine, affine_bytes);
            if let Some(t) = w.batch_affine_ifma.as_mut() {
                scale(t, Processor::BatchAffineIfma, ifma_bytes);
            }
        }
        out.wide = Some(wide);
        out
    }

    /// The weights of window `c` (clamped to the windows present).
    pub fn window(&self, c: u32) -> &WindowWeights {
        let i = (c.max(1) as usize - 1).min(self.windows.len().saturating_sub(1));
        &self.windows[i]
    }

    /// The task weights of `processor` at window `c`; `None` where it was not measured.
    ///
    /// A window above the profile's top one T (16: `calibrate` measures no wider, and 2^15
    /// buckets already outgrow every L2) is extrapolated from T: `point` and `bucket` grow
    /// per window by g = sqrt(point_T / point_(T-2)), the measured growth of the last two
    /// windows (at least 1: a wider window is never cheaper a point; the L2 misses are in
    /// it), times the cache model's L3 term (`cache.rs`) of the wider bucket set against T's
    /// on the planning host (where [`Weights::wide`] says which; against half the L3 share,
    /// [`WIDE_L3_FRACTION`]), and `fixed`, which scans and resets the buckets, doubles per
    /// window. The executor runs such windows as it runs T
    /// (one lane a bucket, the batch size of T); only their price is not measured, and
    /// `bench --compare c16,c17,...` checks it (docs/bench/wide-windows.md: BN254 2^22 on a
    /// Zen 4 host with 16 MiB of L3 a core measured c = 17 0.94x c = 16, c = 19 0.99x and
    /// c = 20 1.01x, where the trend alone, a flat one there, had chosen c = 19).
    pub fn task_weights(&self, c: u32, processor: Processor) -> Option<TaskWeights> {
        let pick = |w: &WindowWeights| match processor {
            Processor::Xyzz => Some(w.xyzz),
            Processor::BatchAffine => Some(w.batch_affine),
            Processor::BatchAffineIfma => w.batch_affine_ifma,
        };
        let at = pick(self.window(c))?;
        let top = self.windows.len() as u32;
        if c <= top || top < 3 {
            return Some(at);
        }
        let below = pick(self.window(top - 2))?;
        let steps = (c - top) as i32;
        let growth = if below.point > 0.0 {
            (at.point / below.point).sqrt().max(1.0)
        } else {
            1.0
        };
        let l3 = self.wide.map_or(1.0, |h| {
            h.l3_factor(c, processor) / h.l3_factor(top, processor)
        });
        let g = growth.powi(steps) * l3;
        let fixed = at.fixed * 2f64.powi(steps);
        let point = at.point * g;
        let buckets = (1u64 << (c - 1)) as f64;
        Some(TaskWeights {
            fixed,
            point,
            bucket: (at.bucket * g).max(point - fixed / buckets),
        })
    }

    /// Checks that every weight is a finite number, non-negative but for a task's `bucket`
    /// (whose bound is fixed + B·(bucket - point) ≥ 0), and that the windows are exactly
    /// 1..=16 in order.
    pub fn validate(&self, curve: &str) -> Result<(), Error> {
        let bad = |what: String| Error::InvalidProfile {
            curve: curve.to_string(),
            reason: what,
        };
        let scalars = [
            ("add_mixed", self.add_mixed),
            ("add_full", self.add_full),
            ("double", self.double),
            ("digit", self.digit),
            ("digit_scalar", self.digit_scalar),
            ("prepare", self.prepare),
            ("task", self.task),
            ("merge", self.merge),
            ("dispatch", self.dispatch),
        ];
        for (name, v) in scalars {
            if !(v.is_finite() && v >= 0.0) {
                return Err(bad(format!(
                    "{name} = {v} is not a finite, non-negative number"
                )));
            }
        }
        let windows: Vec<u32> = self.windows.iter().map(|w| w.window).collect();
        if windows != (1..=PROFILED_WINDOW).collect::<Vec<u32>>() {
            return Err(bad(format!(
                "windows must be 1..={PROFILED_WINDOW} in order, found {windows:?}"
            )));
        }
        for w in &self.windows {
            let tasks = [
                ("xyzz", Some(w.xyzz)),
                ("batch_affine", Some(w.batch_affine)),
                ("batch_affine_ifma", w.batch_affine_ifma),
            ];
            for (name, t) in tasks {
                if let Some(t) = t {
                    for (field, v) in [("fixed", t.fixed), ("point", t.point)] {
                        if !(v.is_finite() && v >= 0.0) {
                            return Err(bad(format!(
                                "window {} {name}.{field} = {v} is not a finite, \
                                 non-negative number",
                                w.window
                            )));
                        }
                    }
                    let buckets = (1u64 << (w.window - 1)) as f64;
                    let full = t.fixed_full(buckets);
                    // Rounding in the JSON may leave a bound met with equality a hair below.
                    if !(t.bucket.is_finite() && full >= -1e-9 * (t.fixed + 1.0)) {
                        return Err(bad(format!(
                            "window {} {name}: fixed + B·(bucket - point) = {full} with \
                             bucket = {}; it must be a finite, non-negative number",
                            w.window, t.bucket
                        )));
                    }
                }
            }
        }
        Ok(())
    }
}

/// Facts about the host a profile was measured on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Host {
    /// CPU model name.
    pub cpu: String,
    /// Number of logical cores available.
    pub cores: usize,
    /// When it was measured (ISO 8601, UTC).
    pub date: String,
    /// multiexp version that measured it.
    pub multiexp_version: String,
    /// The L2 of one of its cores, bytes; absent in profiles that did not record it (their
    /// weights are then taken as they are, as if measured on the planning host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_bytes: Option<u64>,
    /// One core's share of its L3, bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l3_share_bytes: Option<u64>,
}

impl Host {
    /// The caches recorded with the profile, where its L2 was.
    pub fn caches(&self) -> Option<Caches> {
        self.l2_bytes.map(|l2| Caches {
            l1d: None,
            l2: Some(l2),
            l3_share: self.l3_share_bytes,
            source: "profile",
        })
    }

    /// Records `caches` with the profile.
    pub fn with_caches(mut self, caches: &Caches) -> Self {
        self.l2_bytes = caches.l2;
        self.l3_share_bytes = caches.l3_share;
        self
    }
}

/// A cost profile: weights per curve/group name.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// Format version ([`PROFILE_VERSION`]).
    pub version: u32,
    /// The host the weights were measured on.
    pub host: Host,
    /// Weights by catalogue name.
    pub curves: BTreeMap<String, Weights>,
}

impl Default for Profile {
    fn default() -> Self {
        Profile::builtin().clone()
    }
}

impl Profile {
    /// The built-in profile, measured on the reference machine of the IFMA path (an Intel
    /// Sapphire Rapids class host, 2 MiB L2 a core; parsed once per process). It is the
    /// profile of record (`Default`, `ProfileChoice::Builtin`); where the IFMA path does not
    /// run, its weights give way to [`Profile::builtin_portable`]'s (see
    /// [`Profile::weights_for`]).
    pub fn builtin() -> &'static Profile {
        static BUILTIN: OnceLock<Profile> = OnceLock::new();
        BUILTIN.get_or_init(|| {
            // The embedded file is checked by `builtin_profile_parses_and_covers_the_catalogue`;
            // should it ever fail to parse, estimates stand in rather than a panic.
            Profile::parse(DEFAULT_PROFILE_JSON).unwrap_or_else(|_| Profile::empty(Host::default()))
        })
    }

    /// The built-in profile of the portable path: `MULTIEXP_NO_IFMA=1 multiexp calibrate
    /// --curves all` on an AMD EPYC Zen 4 host (2 vCPUs, 1 MiB L2 a core, 32 MiB L3), measured
    /// with the prefetching kernels of `bucket/prefetch.rs` and the limb-level field
    /// operations of `field.rs` (2026-12-05; those made BLS12-381's additions 17% cheaper than
    /// the profile of 2026-12-04 priced them). The portable
    /// processors' prices relative to each other differ by CPU class more than any cache
    /// model carries (on the IFMA reference host an XYZZ task at BLS12-381 c = 16 measured
    /// 0.83x the batch-affine one; on every AMD host measured, Zen 3, 4 and 5, 1.2-1.5x), so a
    /// host that runs the portable path plans from a portable host's measurements, carried to
    /// its caches (a smaller L2, Zen 2/3's 512 KiB, raises the wide windows' prices). The
    /// reference was the Zen 3 host's profile (`../shared/peers/profiles`) until the kernels
    /// changed: it priced c = 16 at 1.5x c = 14 per point, from bucket misses the prefetch
    /// now hides, and its plans measured 1.15x the best window at BLS12-381 2^20. Its task
    /// probes ran with the batch-affine lanes (`lanes_in_windows`), so its small windows'
    /// prices are those of their full lanes.
    pub fn builtin_portable() -> &'static Profile {
        static PORTABLE: OnceLock<Profile> = OnceLock::new();
        PORTABLE.get_or_init(|| {
            // Checked by `builtin_profile_parses_and_covers_the_catalogue`, as the IFMA one.
            Profile::parse(PORTABLE_PROFILE_JSON).unwrap_or_else(|_| Profile::builtin().clone())
        })
    }

    /// The built-in profile for a host where the IFMA path runs (`ifma`) or does not.
    pub fn builtin_for(ifma: bool) -> &'static Profile {
        if ifma {
            Profile::builtin()
        } else {
            Profile::builtin_portable()
        }
    }

    /// Whether this is the built-in profile (or a copy of it): its weights then stand for
    /// whichever built-in profile fits the path that runs.
    pub fn is_builtin(&self) -> bool {
        let builtin = Profile::builtin();
        std::ptr::eq(self, builtin) || self.host == builtin.host
    }

    /// Names the profile that prices a plan: this one, or for the built-in one the reference
    /// host of the path (`ifma` or portable), e.g. for a report's header.
    pub fn describe_for(&self, ifma: bool) -> String {
        if self.is_builtin() {
            let reference = Profile::builtin_for(ifma);
            format!(
                "built-in, {} path (measured on {}, {})",
                if ifma { "IFMA" } else { "portable" },
                reference.host.cpu,
                reference
                    .host
                    .caches()
                    .map(|c| c.describe())
                    .unwrap_or_else(|| "caches not recorded".into())
            )
        } else {
            format!("measured on {} ({})", self.host.cpu, self.host.date)
        }
    }

    /// A profile without measured curves: every curve/group takes the built-in weights.
    pub fn empty(host: Host) -> Self {
        Profile {
            version: PROFILE_VERSION,
            host,
            curves: BTreeMap::new(),
        }
    }

    /// Parses a profile file, refusing one of another format version, one measured by another
    /// multiexp version, and one with an invalid weight.
    pub fn from_json(text: &str) -> Result<Profile, Error> {
        let profile = Profile::parse(text)?;
        if profile.host.multiexp_version != MULTIEXP_VERSION {
            return Err(Error::ProfileMultiexpVersion {
                found: profile.host.multiexp_version,
                expected: MULTIEXP_VERSION.to_string(),
            });
        }
        Ok(profile)
    }

    /// Parses and validates, without the multiexp version check.
    fn parse(text: &str) -> Result<Profile, Error> {
        #[derive(Deserialize)]
        struct VersionOnly {
            version: Option<u32>,
        }
        let head: VersionOnly = serde_json::from_str(text).map_err(|e| Error::ProfileParse {
            reason: e.to_string(),
        })?;
        match head.version {
            Some(PROFILE_VERSION) => {}
            found => {
                return Err(Error::ProfileFormatVersion {
                    found,
                    expected: PROFILE_VERSION,
                })
            }
        }
        let profile: Profile = serde_json::from_str(text).map_err(|e| Error::ProfileParse {
            reason: e.to_string(),
        })?;
        for (name, w) in &profile.curves {
            w.validate(name)?;
        }
        Ok(profile)
    }

    /// The profile as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The weights for `spec` on this host, for the path that [`Ifma::Auto`](crate::Ifma)
    /// runs here ([`Profile::weights_for`]).
    pub fn weights(&self, spec: &CurveSpec) -> Weights {
        self.weights_for(spec, crate::Ifma::Auto.native())
    }

    /// The weights for `spec` on this host when the IFMA path runs (`ifma`) or does not: this
    /// profile's if it has them (the built-in one's: the built-in profile of that path,
    /// [`Profile::builtin_for`]), else the path's built-in profile's, else estimated from
    /// operation counts; carried from the caches of the host that measured them to this
    /// host's ([`Weights::carried`], [`Caches::host`]).
    pub fn weights_for(&self, spec: &CurveSpec, ifma: bool) -> Weights {
        self.weights_on(spec, &Caches::host(), ifma)
    }

    /// The weights for `spec` on a host with `caches` (see [`Profile::weights_for`]). Weights
    /// whose profile recorded no caches, and estimates, are taken as they are.
    pub fn weights_on(&self, spec: &CurveSpec, caches: &Caches, ifma: bool) -> Weights {
        let builtin = Profile::builtin_for(ifma);
        let own = if self.is_builtin() { builtin } else { self };
        let found = match own.curves.get(spec.name) {
            Some(w) => Some((w, &own.host)),
            None => builtin.curves.get(spec.name).map(|w| (w, &builtin.host)),
        };
        let mut weights = match found {
            Some((w, host)) => match host.caches() {
                Some(from) => w.carried(spec, &from, caches),
                None => w.clone(),
            },
            None => Weights::estimate_for(spec),
        };
        weights.wide = Some(WideWindows::new(spec, caches));
        weights
    }

    /// The weights for `spec` as the profile holds them, measured on its host.
    pub fn measured(&self, spec: &CurveSpec) -> Weights {
        self.curves
            .get(spec.name)
            .or_else(|| Profile::builtin().curves.get(spec.name))
            .cloned()
            .unwrap_or_else(|| Weights::estimate_for(spec))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curves;

    #[test]
    fn builtin_profile_parses_and_covers_the_catalogue() {
        // Both embedded profiles: `builtin_portable` would otherwise fall back to the IFMA
        // host's weights without a word, and the portable path plan with the wrong host's.
        for json in [DEFAULT_PROFILE_JSON, PORTABLE_PROFILE_JSON] {
            let builtin = Profile::parse(json).unwrap();
            for name in curves::NAMES {
                assert!(builtin.curves.contains_key(*name), "{name} missing");
            }
            assert_eq!(builtin.version, PROFILE_VERSION);
            assert!(!builtin.host.cpu.is_empty());
        }
        assert_ne!(Profile::builtin_portable().host, Profile::builtin().host);
    }

    #[test]
    fn a_profile_round_trips_through_json() {
        let mut p = Profile::empty(Host {
            cpu: "test cpu".into(),
            cores: 2,
            date: "2025-01-01T00:00:00Z".into(),
            multiexp_version: MULTIEXP_VERSION.into(),
            l2_bytes: Some(1 << 20),
            l3_share_bytes: Some(16 << 20),
        });
        let spec = curves::spec("bn254-g1").unwrap();
        p.curves
            .insert(spec.name.to_string(), Weights::estimate_for(&spec));
        assert_eq!(Profile::from_json(&p.to_json()).unwrap(), p);
    }

    #[test]
    fn profiles_of_another_version_or_corrupt_are_refused() {
        let mut p = Profile::empty(Host {
            multiexp_version: MULTIEXP_VERSION.into(),
            ..Host::default()
        });
        let spec = curves::spec("bn254-g1").unwrap();
        p.curves
            .insert(spec.name.to_string(), Weights::estimate_for(&spec));
        let good = p.to_json();

        let other_format = good.replacen("\"version\": 2", "\"version\": 1", 1);
        assert!(matches!(
            Profile::from_json(&other_format),
            Err(Error::ProfileFormatVersion { found: Some(1), .. })
        ));
        let mut old = p.clone();
        old.host.multiexp_version = "0.0.1".into();
        assert!(matches!(
            Profile::from_json(&old.to_json()),
            Err(Error::ProfileMultiexpVersion { .. })
        ));
        assert!(matches!(
            Profile::from_json(&good[..good.len() / 2]),
            Err(Error::ProfileParse { .. })
        ));
        let mut negative = p.clone();
        negative.curves.get_mut("bn254-g1").unwrap().windows[3]
            .xyzz
            .point = -1.0;
        assert!(matches!(
            Profile::from_json(&negative.to_json()),
            Err(Error::InvalidProfile { .. })
        ));
        // A bucket price below the point price, even below zero, is valid while a task over
        // full buckets keeps a non-negative fixed part; one ns beyond that is not.
        let mut cheap = p.clone();
        let t = &mut cheap.curves.get_mut("bn254-g1").unwrap().windows[3].xyzz;
        t.bucket = t.point - t.fixed / 8.0;
        Profile::from_json(&cheap.to_json()).unwrap();
        cheap.curves.get_mut("bn254-g1").unwrap().windows[3]
            .xyzz
            .bucket -= 1.0;
        assert!(matches!(
            Profile::from_json(&cheap.to_json()),
            Err(Error::InvalidProfile { .. })
        ));
        let mut short = p;
        short.curves.get_mut("bn254-g1").unwrap().windows.pop();
        assert!(matches!(
            Profile::from_json(&short.to_json()),
            Err(Error::InvalidProfile { .. })
        ));
    }

    #[test]
    fn curves_missing_from_a_profile_take_the_builtin_weights() {
        let spec = curves::spec("bls12-381-g1").unwrap();
        let empty = Profile::empty(Host::default());
        assert_eq!(empty.weights(&spec), Profile::builtin().weights(&spec));
    }

    /// Test caches: an L1d and an L2 (KiB) over a 16 MiB L3 share.
    fn caches(l1d_kib: u64, l2_kib: u64) -> Caches {
        Caches {
            l1d: Some(l1d_kib << 10),
            l2: Some(l2_kib << 10),
            l3_share: Some(16 << 20),
            source: "test",
        }
    }

    /// Weights as a profile holds them: without the planning host's context for the windows
    /// above the profile's ([`Weights::wide`]), which carrying them to a host sets.
    fn bare(w: Weights) -> Weights {
        Weights { wide: None, ..w }
    }

    /// AMD Zen 3: 512 KiB of L2, half the portable reference's.
    fn zen3() -> Caches {
        caches(32, 512)
    }

    /// The caches of the Zen 4/5 hosts: 1 MiB of L2, the portable reference's.
    fn zen5() -> Caches {
        caches(48, 1024)
    }

    #[test]
    fn weights_carry_unchanged_to_equal_caches_and_validly_to_others() {
        let builtin = Profile::builtin();
        let home = builtin.host.caches().unwrap();
        for name in curves::NAMES {
            let spec = curves::spec(name).unwrap();
            let measured = builtin.measured(&spec);
            assert_eq!(
                bare(measured.carried(&spec, &home, &home)),
                measured,
                "{name}"
            );
            assert_eq!(
                bare(builtin.weights_on(&spec, &home, true)),
                measured,
                "{name}"
            );
            for to in [zen3(), Caches::UNKNOWN] {
                let carried = builtin.weights_on(&spec, &to, true);
                carried.validate(name).unwrap();
                for (a, b) in measured.windows.iter().zip(&carried.windows) {
                    // A smaller L2 never makes a window cheaper, and fixed parts stay.
                    assert!(b.xyzz.point >= a.xyzz.point && b.xyzz.fixed == a.xyzz.fixed);
                    assert!(b.batch_affine.point >= a.batch_affine.point);
                }
            }
        }
    }

    #[test]
    fn windows_above_the_profiled_ones_extrapolate_from_the_top_window() {
        use crate::digits::{MAX_WINDOW, PROFILED_WINDOW};
        for profile in [Profile::builtin(), Profile::builtin_portable()] {
            for name in curves::NAMES {
                let spec = curves::spec(name).unwrap();
                let w = profile.measured(&spec);
                for p in [
                    Processor::Xyzz,
                    Processor::BatchAffine,
                    Processor::BatchAffineIfma,
                ] {
                    let Some(top) = w.task_weights(PROFILED_WINDOW, p) else {
                        assert_eq!(w.task_weights(MAX_WINDOW, p), None, "{name} {p:?}");
                        continue;
                    };
                    let below = w.task_weights(PROFILED_WINDOW - 2, p).unwrap();
                    let g = (top.point / below.point).sqrt().max(1.0);
                    let mut prev = top;
                    for c in PROFILED_WINDOW + 1..=MAX_WINDOW {
                        let t = w.task_weights(c, p).unwrap();
                        let b = (1u64 << (c - 1)) as f64;
                        assert_eq!(t.fixed, 2.0 * prev.fixed, "{name} {p:?} c={c}");
                        assert!(
                            (t.point / prev.point - g).abs() < 1e-9,
                            "{name} {p:?} c={c}"
                        );
                        assert!(t.point >= prev.point, "{name} {p:?} c={c}");
                        assert!(t.fixed_full(b) >= -1e-6 * t.fixed, "{name} {p:?} c={c}");
                        prev = t;
                    }
                }
            }
        }
    }

    #[test]
    fn wide_windows_pay_for_outgrowing_the_planning_hosts_l3() {
        use crate::digits::{MAX_WINDOW, PROFILED_WINDOW};
        let spec = curves::spec("bn254-g1").unwrap();
        let portable = Profile::builtin_portable();
        let host = |l3_share: u64| Caches {
            l1d: Some(48 << 10),
            l2: Some(1 << 20),
            l3_share: Some(l3_share),
            source: "sysfs",
        };
        let (big, small) = (
            portable.weights_on(&spec, &host(256 << 20), false),
            portable.weights_on(&spec, &host(4 << 20), false),
        );
        let p = Processor::BatchAffine;
        // Affine BN254 buckets are 72 bytes: 2^16 of them (c = 17) are 4.5 MiB, 2^19 are 36:
        // beyond half of a 4 MiB share, within half of a 256 MiB one.
        for c in 1..=MAX_WINDOW {
            let (a, b) = (
                big.task_weights(c, p).unwrap(),
                small.task_weights(c, p).unwrap(),
            );
            if c <= PROFILED_WINDOW {
                assert_eq!(a, b, "c={c}: measured windows carry as before");
            } else {
                assert!(b.point > a.point, "c={c}: {} vs {}", b.point, a.point);
                assert_eq!(a.fixed, b.fixed, "c={c}");
            }
        }
        let measured = portable.measured(&spec);
        let trend = measured.task_weights(MAX_WINDOW, p).unwrap().point;
        assert_eq!(big.task_weights(MAX_WINDOW, p).unwrap().point, trend);
    }

    #[test]
    fn a_smaller_l2_raises_the_price_of_the_windows_that_outgrow_it() {
        let spec = curves::spec("bn254-g1").unwrap();
        let builtin = Profile::builtin();
        let measured = builtin.measured(&spec);
        let carried = builtin.weights_on(&spec, &zen3(), true);
        let ratio =
            |c: u32| carried.window(c).batch_affine.point / measured.window(c).batch_affine.point;
        // Affine BN254 buckets are 72 bytes: 2^12 of them (c = 13) fit 512 KiB, 2^15 do not.
        assert_eq!(ratio(13), 1.0);
        let footprint = 32768.0 * 72.0;
        let factor = |l2: f64| 1.0 + MISS_WEIGHT_BATCH_AFFINE * miss_fraction(footprint, l2);
        let expect16 = factor(512.0 * 1024.0) / factor(2048.0 * 1024.0);
        assert!((ratio(16) - expect16).abs() < 1e-9, "{}", ratio(16));
        assert!(ratio(14) < ratio(15) && ratio(15) < ratio(16));
        // A profile that recorded no caches is taken as measured wherever it plans.
        let strip = super::tests::bare;
        let mut bare = builtin.clone();
        bare.host.l2_bytes = None;
        assert_eq!(strip(bare.weights_on(&spec, &zen3(), true)), measured);
        assert_eq!(strip(bare.weights_on(&spec, &zen3(), false)), measured);
    }

    #[test]
    fn the_portable_builtin_profile_parses_covers_the_catalogue_and_records_its_caches() {
        let portable = Profile::parse(PORTABLE_PROFILE_JSON).unwrap();
        assert_eq!(&portable, Profile::builtin_portable());
        for name in curves::NAMES {
            assert!(portable.curves.contains_key(*name), "{name} missing");
        }
        let caches = portable.host.caches().unwrap();
        assert_eq!(caches.l2, Some(1 << 20));
        assert!(caches.l3_share.is_some());
        assert!(!portable.is_builtin());
        assert!(Profile::builtin().is_builtin());
        assert!(Profile::builtin().clone().is_builtin());
        assert!(Profile::default().is_builtin());
    }

    #[test]
    fn the_builtin_profile_prices_each_path_from_its_own_reference_host() {
        let to = zen5();
        let portable = Profile::builtin_portable();
        let ifma = Profile::builtin();
        for name in curves::NAMES {
            let spec = curves::spec(name).unwrap();
            // The built-in profile (and a copy of it) stands for the path's reference.
            let expect =
                portable
                    .measured(&spec)
                    .carried(&spec, &portable.host.caches().unwrap(), &to);
            assert_eq!(ifma.weights_on(&spec, &to, false), expect, "{name}");
            assert_eq!(ifma.clone().weights_on(&spec, &to, false), expect, "{name}");
            assert_eq!(portable.weights_on(&spec, &to, false), expect, "{name}");
            // Caches larger than the measuring host's leave the weights as measured.
            assert_eq!(bare(expect), portable.measured(&spec), "{name}");
            let expect = ifma
                .measured(&spec)
                .carried(&spec, &ifma.host.caches().unwrap(), &to);
            assert_eq!(ifma.weights_on(&spec, &to, true), expect, "{name}");
            // A measured profile is its own on both paths; curves it lacks take the path's.
            let mut own = Profile::empty(Host::default());
            own.curves
                .insert(name.to_string(), Weights::estimate_for(&spec));
            for path in [false, true] {
                assert_eq!(
                    bare(own.weights_on(&spec, &to, path)),
                    Weights::estimate_for(&spec),
                    "{name}"
                );
            }
        }
        let empty = Profile::empty(Host::default());
        let spec = curves::spec("bn254-g1").unwrap();
        assert_eq!(
            empty.weights_on(&spec, &to, false),
            Profile::builtin().weights_on(&spec, &to, false)
        );
        assert!(Profile::builtin().describe_for(false).contains("portable"));
        assert!(Profile::builtin().describe_for(true).contains("IFMA"));
    }

    /// The miss that moved the portable path to its own reference (#14): on AMD hosts with a
    /// 1 MiB L2 (Zen 4, Zen 5), BLS12-381 G1 at 2^20 on 2 cores measured c = 16 XYZZ at
    /// 1.34-1.47x the best window (c = 13 batch-affine), which the Intel reference's weights
    /// chose however carried. The portable reference keeps batch-affine buckets there at
    /// every size, as measured on every AMD host.
    #[test]
    fn the_portable_path_keeps_batch_affine_buckets_where_amd_hosts_measured_them_faster() {
        use crate::plan::planner::{PlanOptions, Planner};
        for name in ["bn254-g1", "bls12-381-g1"] {
            let spec = curves::spec(name).unwrap();
            for to in [zen5(), zen3(), Caches::UNKNOWN] {
                let weights = Profile::builtin().weights_on(&spec, &to, false);
                let planner = Planner::new(&spec, weights, PlanOptions::default()).unwrap();
                for log in 16..=22 {
                    for workers in [1, 2, 8] {
                        let plan = planner.plan(1 << log, workers);
                        let xyzz = plan
                            .tasks()
                            .iter()
                            .filter(|t| t.processor == Processor::Xyzz)
                            .count();
                        assert!(
                            xyzz * 4 < plan.tasks().len(),
                            "{name} 2^{log} on {workers}: {}",
                            plan.describe()
                        );
                    }
                }
            }
        }
    }

    /// The prefetching kernels made c = 16 the fastest portable window at 2^20 on a 1 MiB L2
    /// (docs/bench/prefetch.md: 0.84-0.87x c = 14 on BN254 and BLS12-381 G1, 2 cores); the
    /// Zen 3 reference, measured before them, chose c = 13..15 there, 1.06-1.15x the best.
    /// The portable reference plans a window of at least 15 at 2^20 on 2 cores.
    #[test]
    fn the_portable_reference_takes_the_wide_windows_the_prefetching_kernel_made_cheap() {
        use crate::plan::planner::{PlanOptions, Planner};
        for name in ["bn254-g1", "bls12-381-g1"] {
            let spec = curves::spec(name).unwrap();
            let weights = Profile::builtin().weights_on(&spec, &zen5(), false);
            let planner = Planner::new(&spec, weights, PlanOptions::default()).unwrap();
            let plan = planner.plan(1 << 20, 2);
            assert!(plan.window() >= 15, "{name}: {}", plan.describe());
        }
    }

    /// Windows above 16 where docs/bench/wide-windows.md measured them faster (BN254 G1 from
    /// 2^21 on the portable reference host, 16 MiB of L3 a core: c = 17 0.94x c = 16 at
    /// 2^22; BLS12-381 G1 at one thread), not where it did not (BLS12-381 G1 at 2^22 on two
    /// threads), nor below 2^21, nor on a host whose L3 share the wider bucket set outgrows.
    #[test]
    fn windows_above_16_are_taken_at_large_sizes_where_the_l3_holds_their_buckets() {
        use crate::plan::planner::{PlanOptions, Planner};
        let plan = |name: &str, caches: &Caches, n: usize, p: usize| {
            let spec = curves::spec(name).unwrap();
            let weights = Profile::builtin().weights_on(&spec, caches, false);
            let planner = Planner::new(&spec, weights, PlanOptions::default()).unwrap();
            planner.plan(n, p)
        };
        let small_l3 = Caches {
            l3_share: Some(2 << 20),
            ..zen5()
        };
        for p in [1, 2, 8] {
            // On 8 workers c = 16's 16 chunks fill two waves, c = 17's 15 do not.
            let wide = plan("bn254-g1", &zen5(), 1 << 22, p);
            let expect = if p == 8 { 16 } else { 17 };
            assert_eq!(wide.window(), expect, "P={p}: {}", wide.describe());
            let narrow = plan("bn254-g1", &small_l3, 1 << 22, p);
            assert!(narrow.window() <= 16, "P={p}: {}", narrow.describe());
            // At one thread c = 17 (15 chunks and the carry's, K = 16) measured 0.97x c = 16.
            let bls = plan("bls12-381-g1", &zen5(), 1 << 22, p);
            if p == 1 {
                assert_eq!(bls.window(), 17, "P={p}: {}", bls.describe());
            } else {
                assert!(bls.window() <= 16, "P={p}: {}", bls.describe());
            }
        }
        let below = plan("bn254-g1", &zen5(), 1 << 20, 2);
        assert!(below.window() <= 16, "{}", below.describe());
    }
}
