//! The host's cache sizes, and how a profile's per-window weights carry from the host that
//! measured them to the host that plans with them.
//!
//! A window's task weights are dominated, once its bucket set outgrows the private L2, by the
//! misses of the random bucket accesses: each point lands in one of 2^(c-1) buckets, so a
//! bucket set of F bytes in a cache of S bytes misses on about m(F/S) = max(0, 1 - S/F) of
//! them. The price of a window on a host is modelled as its price with every bucket in cache
//! times 1 + μ·m(F/L2) + μ3·m(F/L3'), where L3' is one core's share of the L3 and μ is the
//! processor's miss weight: the relative cost of a task whose every bucket access misses.
//! Carrying weights from host A to host B multiplies each window's weights by
//! max(1, (1 + μ·m_B + μ3·m3_B) / (1 + μ·m_A + μ3·m3_A)), which leaves a profile measured on
//! the host itself untouched.
//!
//! The carry only ever raises a price. Smaller caches than the measuring host's are what the
//! fit below saw (2 MiB to 512 KiB); larger ones are not: between the portable profiles of
//! three AMD hosts (Zen 3, 512 KiB L2, against Zen 4 and Zen 5, 1 MiB), the batch-affine point
//! price at windows 12..16, normalised at 9..11, measured 0.78-1.21 times Zen 3's (median
//! 1.01) where the two-way model predicted 0.82-0.94, and verify-plan on the Zen 5 host
//! measured the c = 14 tail split it then chose 6-12% slower than c = 13 at BLS12-381 2^17.5 and
//! 2^18. A bigger L2 holds more than the buckets (the streamed points or records, the batch's
//! scratch, the digits) and the AMD L3 behind it is close, so the gain the miss fraction
//! promises does not arrive; underpricing a wider window costs more than overpricing it.
//!
//! The miss weights were fitted on two full profiles (`calibrate --curves all`) of hosts whose
//! L2 differ fourfold: the built-in one (Intel Sapphire Rapids class, 2 MiB L2 per core) and
//! `../shared/peers/profiles/amd-epyc-zen3-2vcpu.json` (AMD Zen 3, 512 KiB): per curve/group,
//! the ratio of the Zen 3 point price to the built-in one at windows 9..16, normalised by its
//! median at windows 9..11 (every bucket set in L2 on both), against m(F/512 KiB) -
//! m(F/2 MiB). Least squares over the G1 curves: μ = 0.54 for batch-affine buckets (rms 0.12
//! over 80 windows), 0.36 for XYZZ (rms 0.18). IFMA records take the batch-affine weight. No
//! profile has a bucket set beyond its L3 share, so μ3 is not fitted: it is taken equal to μ
//! (a miss to memory costs at least another miss to L3), which only matters on hosts whose L3
//! share per core is a few MiB. The built-in profile's host recorded no L3; it is taken as
//! 16 MiB a core (its bucket sets reach 6 MiB at most, so only the L2 term moves its weights).

use std::path::Path;
use std::sync::OnceLock;

use crate::bucket::Processor;

/// Miss weight of batch-affine buckets (and IFMA records): see the module header.
pub const MISS_WEIGHT_BATCH_AFFINE: f64 = 0.54;
/// Miss weight of XYZZ buckets.
pub const MISS_WEIGHT_XYZZ: f64 = 0.36;

/// The L2 assumed where the host's cannot be read: the smallest of current server cores
/// (AMD Zen 2/3), so an unknown host is never planned with buckets that would not fit.
pub const DEFAULT_L2: u64 = 512 << 10;
/// One core's L3 share assumed where the host's cannot be read.
pub const DEFAULT_L3_SHARE: u64 = 4 << 20;

/// Cache sizes of one host, in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Caches {
    /// Level-1 data cache of one core (informational).
    pub l1d: Option<u64>,
    /// Level-2 cache of one core.
    pub l2: Option<u64>,
    /// One core's share of the level-3 cache: its size over the logical CPUs sharing it.
    pub l3_share: Option<u64>,
    /// Where the sizes were read: `sysfs`, `cpuid`, or `unknown`.
    pub source: &'static str,
}

impl Caches {
    /// Nothing known: every size takes its default.
    pub const UNKNOWN: Caches = Caches {
        l1d: None,
        l2: None,
        l3_share: None,
        source: "unknown",
    };

    /// This host's caches, read once per process: from Linux's sysfs, else from cpuid on
    /// x86-64, else unknown.
    pub fn host() -> Caches {
        static HOST: OnceLock<Caches> = OnceLock::new();
        *HOST.get_or_init(|| {
            Caches::from_sysfs(Path::new("/sys/devices/system/cpu/cpu0/cache"))
                .or_else(Caches::from_cpuid)
                .unwrap_or(Caches::UNKNOWN)
        })
    }

    /// The L2 in bytes, or [`DEFAULT_L2`].
    pub fn l2_or_default(&self) -> u64 {
        self.l2.filter(|&b| b > 0).unwrap_or(DEFAULT_L2)
    }

    /// One core's L3 share in bytes, or [`DEFAULT_L3_SHARE`].
    pub fn l3_share_or_default(&self) -> u64 {
        self.l3_share.filter(|&b| b > 0).unwrap_or(DEFAULT_L3_SHARE)
    }

    /// Reads `index*/{level,type,size,shared_cpu_list}` under `dir` (a CPU's `cache`
    /// directory in sysfs); `None` when no data or unified cache of level 2 is there.
    pub fn from_sysfs(dir: &Path) -> Option<Caches> {
        let mut caches = Caches {
            source: "sysfs",
            ..Caches::UNKNOWN
        };
        let entries = std::fs::read_dir(dir).ok()?;
        for entry in entries.flatten() {
            let path = entry.path();
            let is_index = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("index"));
            if !is_index {
                continue;
            }
            let read = |name: &str| {
                std::fs::read_to_string(path.join(name))
                    .ok()
                    .map(|s| s.trim().to_string())
            };
            let (Some(level), Some(kind), Some(size)) = (read("level"), read("type"), read("size"))
            else {
                continue;
            };
            if kind == "Instruction" {
                continue;
            }
            let Some(bytes) = parse_size(&size) else {
                continue;
            };
            let sharing = read("shared_cpu_list")
                .and_then(|l| count_cpus(&l))
                .unwrap_or(1)
                .max(1);
            match level.as_str() {
                "1" => caches.l1d = Some(bytes),
                "2" => caches.l2 = Some(bytes),
                "3" => caches.l3_share = Some(bytes / sharing),
                _ => {}
            }
        }
        caches.l2.map(|_| caches)
    }

    /// The deterministic cache parameters of cpuid (leaf 4 on Intel, 0x8000001D on AMD).
    #[cfg(target_arch = "x86_64")]
    #[allow(unused_unsafe)] // cpuid is a safe intrinsic in newer Rust, unsafe in the MSRV's
    pub fn from_cpuid() -> Option<Caches> {
        use std::arch::x86_64::{__cpuid, __cpuid_count};
        // SAFETY: cpuid exists on every x86-64 CPU; leaves beyond the maximum are not asked.
        let vendor = unsafe { __cpuid(0) };
        let amd = vendor.ebx == u32::from_le_bytes(*b"Auth");
        let leaf = if amd {
            // SAFETY: as above.
            let ext = unsafe { __cpuid(0x8000_0000) };
            if ext.eax < 0x8000_001D {
                return None;
            }
            0x8000_001D
        } else {
            if vendor.eax < 4 {
                return None;
            }
            4
        };
        let mut caches = Caches {
            source: "cpuid",
            ..Caches::UNKNOWN
        };
        for sub in 0..16 {
            // SAFETY: as above; the leaf was checked to exist.
            let r = unsafe { __cpuid_count(leaf, sub) };
            let kind = r.eax & 0x1f;
            if kind == 0 {
                break;
            }
            if kind == 2 {
                continue;
            }
            let level = (r.eax >> 5) & 7;
            let sharing = (((r.eax >> 14) & 0xfff) + 1) as u64;
            let ways = ((r.ebx >> 22) + 1) as u64;
            let partitions = (((r.ebx >> 12) & 0x3ff) + 1) as u64;
            let line = ((r.ebx & 0xfff) + 1) as u64;
            let sets = r.ecx as u64 + 1;
            let bytes = ways * partitions * line * sets;
            match level {
                1 => caches.l1d = Some(bytes),
                2 => caches.l2 = Some(bytes),
                3 => caches.l3_share = Some(bytes / sharing),
                _ => {}
            }
        }
        caches.l2.map(|_| caches)
    }

    /// No cpuid off x86-64.
    #[cfg(not(target_arch = "x86_64"))]
    pub fn from_cpuid() -> Option<Caches> {
        None
    }

    /// One line for the CLI: `L2 1 MiB, L3 16 MiB a core (sysfs)`.
    pub fn describe(&self) -> String {
        let size = |b: Option<u64>, default: u64| match b.filter(|&b| b > 0) {
            Some(b) => human(b),
            None => format!("{} assumed", human(default)),
        };
        format!(
            "L2 {}, L3 {} a core ({})",
            size(self.l2, DEFAULT_L2),
            size(self.l3_share, DEFAULT_L3_SHARE),
            self.source
        )
    }
}

/// `1 MiB`, `512 KiB`, `48 KiB`.
fn human(bytes: u64) -> String {
    if bytes >= 1 << 20 && bytes.is_multiple_of(1 << 20) {
        format!("{} MiB", bytes >> 20)
    } else if bytes >= 1 << 20 {
        format!("{:.1} MiB", bytes as f64 / (1u64 << 20) as f64)
    } else {
        format!("{} KiB", bytes >> 10)
    }
}

/// sysfs sizes: `48K`, `2048K`, `32M`, or plain bytes.
fn parse_size(s: &str) -> Option<u64> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&s[..i], s[i..].trim()),
        None => (s, ""),
    };
    let n: u64 = digits.parse().ok()?;
    let scale = match unit {
        "" | "B" => 1,
        "K" | "KB" | "KiB" => 1 << 10,
        "M" | "MB" | "MiB" => 1 << 20,
        "G" | "GB" | "GiB" => 1 << 30,
        _ => return None,
    };
    n.checked_mul(scale)
}

/// The number of CPUs in a list such as `0-3,8,10-11`.
fn count_cpus(list: &str) -> Option<u64> {
    let mut count = 0u64;
    for part in list.trim().split(',').filter(|p| !p.is_empty()) {
        count += match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                b.checked_sub(a)? + 1
            }
            None => {
                part.trim().parse::<u64>().ok()?;
                1
            }
        };
    }
    (count > 0).then_some(count)
}

/// The fraction of random accesses to `footprint` bytes that miss a cache of `cache` bytes.
pub fn miss_fraction(footprint: f64, cache: f64) -> f64 {
    if footprint <= cache || footprint <= 0.0 {
        0.0
    } else {
        1.0 - cache / footprint
    }
}

/// A processor's miss weight.
pub fn miss_weight(processor: Processor) -> f64 {
    match processor {
        Processor::Xyzz => MISS_WEIGHT_XYZZ,
        Processor::BatchAffine | Processor::BatchAffineIfma => MISS_WEIGHT_BATCH_AFFINE,
    }
}

/// The model's price factor of a bucket set of `footprint` bytes on a host with `caches`,
/// relative to the same set in cache.
pub fn price_factor(processor: Processor, footprint: f64, caches: &Caches) -> f64 {
    let mu = miss_weight(processor);
    1.0 + mu * miss_fraction(footprint, caches.l2_or_default() as f64)
        + mu * miss_fraction(footprint, caches.l3_share_or_default() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_cpu_lists_parse() {
        assert_eq!(parse_size("48K"), Some(48 << 10));
        assert_eq!(parse_size("2048K"), Some(2 << 20));
        assert_eq!(parse_size("32M"), Some(32 << 20));
        assert_eq!(parse_size("1024"), Some(1024));
        assert_eq!(parse_size("12Q"), None);
        assert_eq!(parse_size(""), None);
        assert_eq!(count_cpus("0-3,8,10-11"), Some(7));
        assert_eq!(count_cpus("5"), Some(1));
        assert_eq!(count_cpus("3-1"), None);
        assert_eq!(count_cpus(""), None);
    }

    #[test]
    fn sysfs_is_read_from_a_cache_directory() {
        let dir = std::env::temp_dir().join(format!("multiexp-sysfs-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let index = |i: u32, level: &str, kind: &str, size: &str, shared: &str| {
            let d = dir.join(format!("index{i}"));
            std::fs::create_dir_all(&d).unwrap();
            for (name, v) in [
                ("level", level),
                ("type", kind),
                ("size", size),
                ("shared_cpu_list", shared),
            ] {
                std::fs::write(d.join(name), format!("{v}\n")).unwrap();
            }
        };
        index(0, "1", "Data", "32K", "0");
        index(1, "1", "Instruction", "64K", "0");
        index(2, "2", "Unified", "512K", "0");
        index(3, "3", "Unified", "32768K", "0-1");
        std::fs::create_dir_all(dir.join("power")).unwrap();
        let c = Caches::from_sysfs(&dir).unwrap();
        assert_eq!(c.l1d, Some(32 << 10));
        assert_eq!(c.l2, Some(512 << 10));
        assert_eq!(c.l3_share, Some(16 << 20));
        assert_eq!(c.source, "sysfs");
        assert_eq!(c.describe(), "L2 512 KiB, L3 16 MiB a core (sysfs)");
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(Caches::from_sysfs(&dir), None);
    }

    #[test]
    fn this_host_has_caches_or_the_defaults() {
        let c = Caches::host();
        assert!(c.l2_or_default() >= 64 << 10, "{c:?}");
        assert!(c.l3_share_or_default() > 0, "{c:?}");
        assert!(Caches::UNKNOWN.describe().contains("assumed"));
    }

    #[test]
    fn the_price_factor_grows_with_the_footprint_past_each_cache() {
        let zen3 = Caches {
            l1d: None,
            l2: Some(512 << 10),
            l3_share: Some(16 << 20),
            source: "test",
        };
        let p = Processor::BatchAffine;
        assert_eq!(price_factor(p, (256 << 10) as f64, &zen3), 1.0);
        let f1 = price_factor(p, (1 << 20) as f64, &zen3);
        let f2 = price_factor(p, (2 << 20) as f64, &zen3);
        let f3 = price_factor(p, (64 << 20) as f64, &zen3);
        assert!((f1 - (1.0 + MISS_WEIGHT_BATCH_AFFINE * 0.5)).abs() < 1e-12);
        assert!(1.0 < f1 && f1 < f2 && f2 < f3 && f3 < 1.0 + 2.0 * MISS_WEIGHT_BATCH_AFFINE);
        assert!(price_factor(Processor::Xyzz, (1 << 20) as f64, &zen3) < f1);
    }
}
