//! Shared pieces of the CLI: output formats, timing, encodings, the CPU check, and the
//! profile loader every planning command uses.

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use multiexp::profile::ProfileSource;
use multiexp::profile::{resolve_profile, ProfileSearch};
use multiexp::Profile;

use clap::ValueEnum;

/// Output format of every command.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Human-readable table.
    #[default]
    Table,
    /// JSON for scripts.
    Json,
}

/// The binary is built with ADX and BMI2 on x86-64 (`.cargo/config.toml`) so that arkworks'
/// assembly field multiplication is used; on a CPU without them it would die of an illegal
/// instruction, so say so first.
pub fn check_cpu() -> Result<(), String> {
    #[cfg(all(
        target_arch = "x86_64",
        target_feature = "adx",
        target_feature = "bmi2"
    ))]
    {
        if !std::is_x86_feature_detected!("adx") || !std::is_x86_feature_detected!("bmi2") {
            return Err(
                "this multiexp binary was built for x86-64 CPUs with ADX and BMI2 \
                 (see .cargo/config.toml), and this CPU lacks them; rebuild without them: \
                 RUSTFLAGS=\"-C target-feature=-adx,-bmi2\" cargo build --release"
                    .to_string(),
            );
        }
    }
    Ok(())
}

/// Min and median of samples (ms).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Smallest sample.
    pub min: f64,
    /// Median sample.
    pub median: f64,
}

impl Stats {
    /// The stats of a non-empty sample list.
    pub fn of(samples: &[f64]) -> Stats {
        let mut s = samples.to_vec();
        s.sort_by(f64::total_cmp);
        let median = if s.is_empty() {
            f64::NAN
        } else if s.len() % 2 == 1 {
            s[s.len() / 2]
        } else {
            (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0
        };
        Stats {
            min: s.first().copied().unwrap_or(f64::NAN),
            median,
        }
    }
}

/// One timed contender: a name and a closure that computes its answer.
pub struct Contender<'a, R> {
    /// Display name.
    pub name: String,
    /// Computes the answer once.
    pub run: Box<dyn FnMut() -> R + 'a>,
}

/// The outcome of timing one contender.
pub struct Timed<R> {
    /// Display name.
    pub name: String,
    /// Every sample, ms.
    pub samples: Vec<f64>,
    /// The last answer it computed.
    pub result: R,
}

/// Runs every contender once to warm up, then `reps` rounds, each in its own order (see
/// [`round_orders`]), so that drift of the machine's speed hits all of them alike, and so
/// does what a run leaves behind for the next one. The order matters on virtual machines:
/// after a long run that leaves a core idle (halo2curves' 2^16 MSMs keep 1.5 of 2 cores busy),
/// a 2-thread MSM that follows runs up to 60% slower, whichever library it is
/// (docs/bench/interleave-order-gnr-raw.txt). In a fixed order A B C, and in its rotations
/// too, A always follows C.
pub fn interleave<R>(reps: usize, contenders: Vec<Contender<'_, R>>) -> Vec<Timed<R>> {
    let mut out: Vec<Timed<R>> = Vec::new();
    let mut runs = Vec::new();
    for mut c in contenders {
        let result = (c.run)();
        out.push(Timed {
            name: c.name,
            samples: Vec::new(),
            result,
        });
        runs.push(c.run);
    }
    for order in round_orders(runs.len(), reps.max(1)) {
        for i in order {
            let start = Instant::now();
            let r = runs[i]();
            out[i].samples.push(start.elapsed().as_secs_f64() * 1e3);
            out[i].result = r;
        }
    }
    out
}

/// The orders of `reps` rounds of `m` contenders that follow a warm-up in the order 0..m:
/// each round is the permutation that keeps the counts of "i runs right after j" most even
/// over all pairs (i, j), itself included (least sum of squares; the first such one), chosen
/// among every permutation where m ≤ 5, else among the rotations of 0..m and their reversals.
/// Deterministic, so that a run repeats. With three contenders and 7 rounds, each follows
/// each contender (itself too) 1 to 3 times.
pub fn round_orders(m: usize, reps: usize) -> Vec<Vec<usize>> {
    let candidates: Vec<Vec<usize>> = if m <= 5 {
        permutations(m)
    } else {
        let rotations = (0..m).map(|r| (0..m).map(|k| (k + r) % m).collect::<Vec<_>>());
        rotations
            .clone()
            .chain(rotations.map(|v| v.into_iter().rev().collect()))
            .collect()
    };
    let mut follows = vec![vec![0u64; m]; m];
    let mut last = m.saturating_sub(1);
    let mut out = Vec::with_capacity(reps);
    for _ in 0..reps {
        let score = |order: &[usize]| {
            let mut f = follows.clone();
            let mut prev = last;
            for &i in order {
                f[i][prev] += 1;
                prev = i;
            }
            f.iter().flatten().map(|&c| c * c).sum::<u64>()
        };
        let Some(best) = candidates.iter().min_by_key(|c| score(c)) else {
            break;
        };
        for &i in best {
            follows[i][last] += 1;
            last = i;
        }
        out.push(best.clone());
    }
    out
}

/// Every permutation of 0..m, in lexicographic order.
fn permutations(m: usize) -> Vec<Vec<usize>> {
    if m == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for first in 0..m {
        for rest in permutations(m - 1) {
            let mut v = vec![first];
            v.extend(rest.into_iter().map(|x| if x >= first { x + 1 } else { x }));
            out.push(v);
        }
    }
    out
}

/// Time one closure, ms.
pub fn time_ms<R>(f: impl FnOnce() -> R) -> (R, f64) {
    let start = Instant::now();
    let r = f();
    (r, start.elapsed().as_secs_f64() * 1e3)
}

/// Parses a size such as `65536`, `2^16` or `1<<16`.
pub fn parse_size(s: &str) -> Result<usize, String> {
    let s = s.trim();
    let parsed = if let Some((b, e)) = s.split_once('^') {
        let b: u32 = b.trim().parse().map_err(|_| format!("bad base in {s:?}"))?;
        let e: u32 = e
            .trim()
            .parse()
            .map_err(|_| format!("bad exponent in {s:?}"))?;
        (b as usize).checked_pow(e)
    } else if let Some((b, e)) = s.split_once("<<") {
        let b: usize = b
            .trim()
            .parse()
            .map_err(|_| format!("bad value in {s:?}"))?;
        let e: u32 = e
            .trim()
            .parse()
            .map_err(|_| format!("bad shift in {s:?}"))?;
        b.checked_shl(e)
    } else {
        Some(s.parse().map_err(|_| format!("not a size: {s:?}"))?)
    };
    parsed.ok_or_else(|| format!("size {s:?} overflows"))
}

/// Parses a split policy: `auto`, `never`, or a part count such as `2` or `parts2`.
pub fn parse_split(s: &str) -> Result<multiexp::SplitPolicy, String> {
    match s {
        "auto" => Ok(multiexp::SplitPolicy::Auto),
        "never" => Ok(multiexp::SplitPolicy::Never),
        _ => {
            let k = s.strip_prefix("parts").unwrap_or(s);
            k.parse::<usize>()
                .ok()
                .filter(|&k| k >= 1)
                .map(multiexp::SplitPolicy::Parts)
                .ok_or_else(|| format!("split must be auto, never or partsK (K ≥ 1), got {s:?}"))
        }
    }
}

/// A multiexp configuration to benchmark, spelled as `:`-separated settings: a split policy
/// (`auto`, `never`, `partsK`), a window (`c12`), a processor (`xyzz`, `batch`, `ifma`), a
/// batch size (`b512`) and lanes per bucket (`l1` turns them off, `l8`), e.g. `parts2`,
/// `c13:batch`, `never:c16:xyzz`, `c14:ifma:b768` or `c9:l1`;
/// `whole` runs one MSM over all the scalars (no scalar classes), e.g. `whole` against `auto`;
/// `noglv` never splits full-size scalars by the curve's GLV endomorphism, `glv` always does.
#[derive(Clone, Debug, PartialEq)]
pub struct Variant {
    /// The spelling it was parsed from.
    pub name: String,
    /// Split policy.
    pub split: multiexp::SplitPolicy,
    /// Forced window.
    pub window: Option<u32>,
    /// Forced processor.
    pub processor: Option<multiexp::Processor>,
    /// Forced batch size.
    pub batch: Option<usize>,
    /// Forced lanes per bucket.
    pub lanes: Option<usize>,
    /// Scalar classes allowed, or one MSM over all the scalars (`whole`).
    pub classes: multiexp::ClassPolicy,
    /// GLV priced, never (`noglv`) or always (`glv`).
    pub glv: multiexp::GlvPolicy,
}

impl Variant {
    /// The config this variant runs with on `threads` threads.
    pub fn config(&self, threads: usize) -> multiexp::Config {
        multiexp::Config {
            threads: Some(threads),
            split: self.split,
            window: self.window,
            processor: self.processor,
            batch: self.batch,
            lanes: self.lanes,
            classes: self.classes,
            glv: self.glv,
            ..multiexp::Config::default()
        }
    }
}

/// Parses a [`Variant`].
pub fn parse_variant(s: &str) -> Result<Variant, String> {
    let mut v = Variant {
        name: s.to_string(),
        split: multiexp::SplitPolicy::Auto,
        window: None,
        processor: None,
        batch: None,
        lanes: None,
        classes: multiexp::ClassPolicy::Auto,
        glv: multiexp::GlvPolicy::Auto,
    };
    for token in s.split(':') {
        match token {
            "whole" => v.classes = multiexp::ClassPolicy::Off,
            "noglv" => v.glv = multiexp::GlvPolicy::Off,
            "glv" => v.glv = multiexp::GlvPolicy::Always,
            "xyzz" => v.processor = Some(multiexp::Processor::Xyzz),
            "batch" => v.processor = Some(multiexp::Processor::BatchAffine),
            "ifma" => v.processor = Some(multiexp::Processor::BatchAffineIfma),
            t if t.starts_with('c') && t[1..].parse::<u32>().is_ok() => {
                v.window = t[1..].parse().ok();
            }
            t if t.starts_with('b') && t[1..].parse::<usize>().is_ok_and(|b| b > 0) => {
                v.batch = t[1..].parse().ok();
            }
            t if t.starts_with('l')
                && t[1..].parse::<usize>().is_ok_and(|l| l.is_power_of_two()) =>
            {
                v.lanes = t[1..].parse().ok();
            }
            t => v.split = parse_split(t)?,
        }
    }
    Ok(v)
}

/// The profile every planning command uses (`--profile`, `$MULTIEXP_PROFILE`, config dir,
/// built-in: the library's search), its warnings on stderr.
pub fn load_profile(flag: Option<&Path>) -> (Arc<Profile>, ProfileSource) {
    let found = resolve_profile(&ProfileSearch::of_process(flag));
    for w in &found.warnings {
        eprintln!("{w}");
    }
    (found.profile, found.source)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[test]
    fn interleave_keeps_each_contenders_samples_in_balanced_rounds() {
        let calls = RefCell::new(Vec::new());
        let (m, reps) = (3, 21);
        let contenders: Vec<Contender<'_, usize>> = (0..m)
            .map(|i| Contender {
                name: format!("c{i}"),
                run: Box::new({
                    let calls = &calls;
                    move || {
                        calls.borrow_mut().push(i);
                        i
                    }
                }),
            })
            .collect();
        let timed = interleave(reps, contenders);
        let calls = calls.into_inner();
        // The warm-up in the given order, then the rounds of round_orders.
        let expected: Vec<usize> = (0..m).chain(round_orders(m, reps).concat()).collect();
        assert_eq!(calls, expected);
        for (i, t) in timed.iter().enumerate() {
            assert_eq!(t.name, format!("c{i}"));
            assert_eq!(t.samples.len(), reps);
            assert_eq!(t.result, i);
        }
    }

    #[test]
    fn round_orders_are_permutations_that_balance_who_follows_whom() {
        for m in 1..=7 {
            for reps in [1, 3, 7, 21] {
                let orders = round_orders(m, reps);
                assert_eq!(orders.len(), reps);
                let mut follows = vec![vec![0usize; m]; m];
                let mut last = m - 1;
                for order in &orders {
                    let mut sorted = order.clone();
                    sorted.sort();
                    assert_eq!(sorted, (0..m).collect::<Vec<_>>(), "{m} contenders");
                    for &i in order {
                        follows[i][last] += 1;
                        last = i;
                    }
                }
                if m <= 5 && reps >= 7 {
                    // Even to within a few runs: no pair twice its fair share.
                    let fair = reps as f64 / m as f64;
                    for row in &follows {
                        for &c in row {
                            assert!((c as f64) <= 2.0 * fair + 1.0, "{m} x {reps}: {follows:?}");
                        }
                    }
                }
            }
        }
        // Three contenders: in 7 rounds each follows each one (itself too) 1 to 3 times.
        let mut follows = [[0; 3]; 3];
        let mut last = 2;
        for i in round_orders(3, 7).concat() {
            follows[i][last] += 1;
            last = i;
        }
        assert!(
            follows.iter().flatten().all(|&c| (1..=3).contains(&c)),
            "{follows:?}"
        );
        assert_eq!(permutations(3).len(), 6);
        assert_eq!(permutations(3)[1], [0, 2, 1]);
    }
}
