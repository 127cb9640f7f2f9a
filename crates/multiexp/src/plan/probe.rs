//! Probes: the one channel through which a decision function looks at n.
//!
//! A decision function (the planner's `Planner::decide_probed`,
//! gnark's [`legacy`](crate::plan::legacy) models) routes every comparison whose outcome can
//! depend on n through a [`Probe`]:
//!
//! - [`Probe::cmp`] for two modeled quantities that are affine in n along the path taken so far
//!   (task costs, makespans, works: sums and constant multiples of `n as f64`);
//! - [`Probe::at_least`] for an integer predicate n ≥ t that is monotone in n (a batch that a
//!   point range fills, a loop bound capped by n).
//!
//! [`Blind`] just answers. [`Transcript`] also records each outcome and its signed gap, which is
//! what makes the sweep exact without walking every n: if two sizes a < b produce the same
//! transcript, every size in between does too. By induction along the path: the first
//! comparison is the same affine function of n everywhere, its sign is the same at both ends,
//! hence everywhere in [a, b]; so the second comparison is the same function too, and so on.
//! Where two transcripts differ, the first differing comparison is one affine function whose
//! sign changes between a and b, and its two recorded gaps locate the crossing (the secant of
//! an affine function is exact).

use std::cmp::Ordering;

/// Answers (and possibly records) the n-dependent comparisons of a decision function.
pub trait Probe {
    /// Compares two modeled quantities that are affine in n along the current path, with the
    /// semantics of IEEE `<` and `==` (values are never NaN).
    fn cmp(&mut self, x: f64, y: f64) -> Ordering;

    /// Whether `n >= threshold`.
    fn at_least(&mut self, n: u64, threshold: u64) -> bool;

    /// `x < y`.
    fn lt(&mut self, x: f64, y: f64) -> bool {
        self.cmp(x, y) == Ordering::Less
    }

    /// The larger of `x` and `y` (`x` on a tie).
    fn max(&mut self, x: f64, y: f64) -> f64 {
        if self.cmp(x, y) == Ordering::Less {
            y
        } else {
            x
        }
    }
}

/// IEEE ordering of two non-NaN values (an unordered pair reads as equal).
pub fn ieee_cmp(x: f64, y: f64) -> Ordering {
    if x < y {
        Ordering::Less
    } else if x > y {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

/// A probe that only answers: what a plain decision uses.
#[derive(Clone, Copy, Debug, Default)]
pub struct Blind;

impl Probe for Blind {
    #[inline]
    fn cmp(&mut self, x: f64, y: f64) -> Ordering {
        ieee_cmp(x, y)
    }

    #[inline]
    fn at_least(&mut self, n: u64, threshold: u64) -> bool {
        n >= threshold
    }
}

/// A probe that records every outcome (−1, 0, +1) and its signed gap.
///
/// The gap of `cmp(x, y)` is `x - y`; the gap of `at_least(n, t)` is `n - t + 1/2`, whose sign
/// is the predicate's and whose zero lies between the last false and the first true n.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transcript {
    outcomes: Vec<i8>,
    gaps: Vec<f64>,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Self {
        Transcript::default()
    }

    /// Number of recorded comparisons.
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// Whether nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// Whether both transcripts took the same path: the same outcomes in the same order.
    pub fn same_path(&self, other: &Transcript) -> bool {
        self.outcomes == other.outcomes
    }

    /// The first comparison where the two paths part, with its gap in each transcript (`None`
    /// when one path is a strict prefix of the other, or both are equal).
    pub fn first_difference(&self, other: &Transcript) -> Option<(usize, Option<(f64, f64)>)> {
        let common = self.outcomes.len().min(other.outcomes.len());
        for i in 0..common {
            if self.outcomes[i] != other.outcomes[i] {
                return Some((i, Some((self.gaps[i], other.gaps[i]))));
            }
        }
        (self.outcomes.len() != other.outcomes.len()).then_some((common, None))
    }

    fn push(&mut self, outcome: Ordering, gap: f64) {
        self.outcomes.push(outcome as i8);
        self.gaps.push(gap);
    }
}

impl Probe for Transcript {
    fn cmp(&mut self, x: f64, y: f64) -> Ordering {
        let o = ieee_cmp(x, y);
        self.push(o, x - y);
        o
    }

    fn at_least(&mut self, n: u64, threshold: u64) -> bool {
        let yes = n >= threshold;
        let o = if yes {
            Ordering::Greater
        } else {
            Ordering::Less
        };
        self.push(o, n as f64 - threshold as f64 + 0.5);
        yes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transcripts_part_at_the_first_differing_outcome_with_both_gaps() {
        let mut a = Transcript::new();
        let mut b = Transcript::new();
        for (t, n) in [(&mut a, 10u64), (&mut b, 30u64)] {
            t.cmp(1.0, 2.0);
            t.at_least(n, 20);
            t.cmp(n as f64, 15.0);
        }
        assert!(!a.same_path(&b));
        assert_eq!(a.first_difference(&b), Some((1, Some((-9.5, 10.5)))));
        let mut c = Transcript::new();
        c.cmp(1.0, 2.0);
        assert_eq!(a.first_difference(&c), Some((1, None)));
        assert_eq!(a.first_difference(&a.clone()), None);
    }

    #[test]
    fn blind_and_transcript_answer_alike() {
        let mut t = Transcript::new();
        for (x, y) in [(1.0, 2.0), (2.0, 2.0), (3.0, 2.0), (0.0, -0.0)] {
            assert_eq!(Blind.cmp(x, y), t.cmp(x, y));
            assert_eq!(Blind.max(x, y), t.max(x, y));
        }
        assert_eq!(Blind.at_least(5, 5), t.at_least(5, 5));
        assert_eq!(Blind.at_least(4, 5), t.at_least(4, 5));
    }
}
