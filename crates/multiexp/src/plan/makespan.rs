//! Makespans of a list of independent tasks on P workers.
//!
//! - `lpt`: the pool executor's schedule. Tasks are ordered longest first (ties keep their
//!   index order) and each goes to the worker with the least load so far (ties: lowest
//!   index). The executor runs exactly this assignment, so the model predicts it.
//! - `fluid`: max(Σ t / P, max t), what a preemptive, work-conserving scheduler achieves; a
//!   partial last wave is billed pro rata. The sweep's oracle.
//! - `lpt_makespan_grouped`: `lpt_makespan` of a list given as groups of equal tasks, bit for
//!   bit, in time proportional to the number of distinct worker loads rather than tasks ×
//!   workers; its comparisons go through a [`Probe`].

use crate::plan::probe::Probe;

/// A list schedule: which worker runs which tasks, in which order.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Per worker, the task indices it runs, in order.
    pub workers: Vec<Vec<usize>>,
    /// Per worker, its total load.
    pub loads: Vec<f64>,
    /// The largest load.
    pub makespan: f64,
}

/// Task indices ordered longest first, ties by index.
pub fn lpt_order(costs: &[f64]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..costs.len()).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
    order
}

/// The LPT list schedule of `costs` on `p` workers.
pub fn lpt(costs: &[f64], p: usize) -> Schedule {
    let p = p.max(1);
    let mut workers = vec![Vec::new(); p];
    let mut loads = vec![0.0f64; p];
    for t in lpt_order(costs) {
        let w = least_loaded(&loads);
        workers[w].push(t);
        loads[w] += costs[t];
    }
    let makespan = loads.iter().cloned().fold(0.0, f64::max);
    Schedule {
        workers,
        loads,
        makespan,
    }
}

/// The LPT makespan alone, without recording the assignment.
pub fn lpt_makespan(costs: &[f64], p: usize) -> f64 {
    let p = p.max(1);
    let mut loads = vec![0.0f64; p];
    let mut sorted = costs.to_vec();
    sorted.sort_by(|a, b| b.total_cmp(a));
    for c in sorted {
        let w = least_loaded(&loads);
        loads[w] += c;
    }
    loads.iter().cloned().fold(0.0, f64::max)
}

fn least_loaded(loads: &[f64]) -> usize {
    let mut best = 0;
    for (i, &l) in loads.iter().enumerate().skip(1) {
        if l < loads[best] {
            best = i;
        }
    }
    best
}

/// max(Σ t / P, max t).
pub fn fluid(costs: &[f64], p: usize) -> f64 {
    let sum: f64 = costs.iter().sum();
    let max = costs.iter().cloned().fold(0.0, f64::max);
    (sum / p.max(1) as f64).max(max)
}

/// Workers that carry the same load: their indices as ascending half-open ranges.
#[derive(Clone, Debug, Default)]
struct LoadClass {
    load: f64,
    members: Vec<(usize, usize)>,
}

impl LoadClass {
    fn size(&self) -> usize {
        self.members.iter().map(|&(a, b)| b - a).sum()
    }
}

/// Moves the `count` lowest-indexed members of `from` into `to` (cleared first).
fn take_first(from: &mut Vec<(usize, usize)>, mut count: usize, to: &mut Vec<(usize, usize)>) {
    to.clear();
    let mut whole = 0;
    for r in from.iter_mut() {
        if count == 0 {
            break;
        }
        let (a, b) = *r;
        if b - a <= count {
            to.push((a, b));
            count -= b - a;
            whole += 1;
        } else {
            to.push((a, a + count));
            r.0 = a + count;
            count = 0;
        }
    }
    from.drain(..whole);
}

/// Merges the ranges of `from` into `into`, keeping them ascending and coalesced.
fn merge_into(
    into: &mut Vec<(usize, usize)>,
    from: &[(usize, usize)],
    buffer: &mut Vec<(usize, usize)>,
) {
    buffer.clear();
    let (mut i, mut j) = (0, 0);
    while i < into.len() || j < from.len() {
        let next = if j == from.len() || (i < into.len() && into[i].0 < from[j].0) {
            i += 1;
            into[i - 1]
        } else {
            j += 1;
            from[j - 1]
        };
        match buffer.last_mut() {
            Some(last) if last.1 == next.0 => last.1 = next.1,
            _ => buffer.push(next),
        }
    }
    std::mem::swap(into, buffer);
}

/// Reusable buffers of [`lpt_makespan_grouped_in`]: its load classes.
#[derive(Clone, Debug, Default)]
pub struct LptScratch {
    /// Classes ascending by load in `classes[..live]`; spare buffers beyond.
    classes: Vec<LoadClass>,
    live: usize,
    buffer: Vec<(usize, usize)>,
    moved: Vec<(usize, usize)>,
}

impl LptScratch {
    /// The spare class slot at `live`, allocated on first use.
    fn spare(&mut self) -> &mut LoadClass {
        if self.classes.len() == self.live {
            self.classes.push(LoadClass::default());
        }
        &mut self.classes[self.live]
    }
}

/// [`lpt_makespan`] of `groups[i].1` tasks of cost `groups[i].0` each, on `p` workers.
///
/// The greedy gives each task, longest first, to the least loaded worker (lowest index on a
/// tie). Workers with equal loads form a class; a class at the minimum load receives tasks in
/// index order, every member's load becoming the same sum, so a whole round costs one
/// addition. The loads are the same f64 sums in the same order as in [`lpt_makespan`], hence
/// the same makespan. Costs must be non-negative. `groups` is sorted in place, longest first.
pub fn lpt_makespan_grouped<Pr: Probe>(
    groups: &mut [(f64, usize)],
    p: usize,
    probe: &mut Pr,
) -> f64 {
    lpt_makespan_grouped_in(groups, p, probe, &mut LptScratch::default())
}

/// [`lpt_makespan_grouped`] with reusable buffers.
pub fn lpt_makespan_grouped_in<Pr: Probe>(
    groups: &mut [(f64, usize)],
    p: usize,
    probe: &mut Pr,
    s: &mut LptScratch,
) -> f64 {
    use std::cmp::Ordering::Equal;
    // Insertion sort, longest first: few groups, and every comparison is probed.
    for i in 1..groups.len() {
        let mut j = i;
        while j > 0 && probe.lt(groups[j - 1].0, groups[j].0) {
            groups.swap(j - 1, j);
            j -= 1;
        }
    }
    s.live = 0;
    let first = s.spare();
    first.load = 0.0;
    first.members.clear();
    first.members.push((0, p.max(1)));
    s.live = 1;
    for &(cost, count) in groups.iter() {
        let mut left = count;
        while left > 0 {
            let base = s.classes[0].load;
            let load = base + cost;
            if probe.cmp(load, base) == Equal {
                // The task does not move the load: the same worker takes all of them.
                break;
            }
            let size = s.classes[0].size();
            let take = left.min(size);
            left -= take;
            // Where the new load goes among the other classes (all loads ≥ base).
            let mut at = 1;
            while at < s.live && probe.lt(s.classes[at].load, load) {
                at += 1;
            }
            let equal = at < s.live && probe.cmp(s.classes[at].load, load) == Equal;
            if take == size {
                if equal {
                    let (head, tail) = s.classes.split_at_mut(at);
                    merge_into(&mut tail[0].members, &head[0].members, &mut s.buffer);
                    s.classes[..s.live].rotate_left(1);
                    s.live -= 1;
                } else {
                    s.classes[0].load = load;
                    s.classes[..at].rotate_left(1);
                }
            } else if equal {
                let (head, tail) = s.classes.split_at_mut(at);
                take_first(&mut head[0].members, take, &mut s.moved);
                merge_into(&mut tail[0].members, &s.moved, &mut s.buffer);
            } else {
                let live = s.live;
                s.spare();
                let (head, tail) = s.classes.split_at_mut(live);
                tail[0].load = load;
                take_first(&mut head[0].members, take, &mut tail[0].members);
                s.classes[at..=live].rotate_right(1);
                s.live += 1;
            }
        }
    }
    s.classes[s.live - 1].load
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::probe::Blind;

    #[test]
    fn grouped_lpt_equals_the_task_by_task_schedule_bit_for_bit() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut scratch = LptScratch::default();
        for _ in 0..3000 {
            let groups_len = 1 + (next() % 4) as usize;
            let mut groups: Vec<(f64, usize)> = (0..groups_len)
                .map(|_| {
                    let cost = match next() % 4 {
                        0 => 1.0,
                        1 => 0.1 + (next() % 1000) as f64 / 7.0,
                        _ => 1e3 + (next() % 1_000_000) as f64 * 1.37,
                    };
                    (cost, (next() % 40) as usize)
                })
                .collect();
            let p = 1 + (next() % 70) as usize;
            let tasks: Vec<f64> = groups
                .iter()
                .flat_map(|&(c, k)| std::iter::repeat_n(c, k))
                .collect();
            let expected = lpt_makespan(&tasks, p);
            let got = lpt_makespan_grouped(&mut groups, p, &mut Blind);
            assert_eq!(got.to_bits(), expected.to_bits(), "{groups:?} on {p}");
            let again = lpt_makespan_grouped_in(&mut groups, p, &mut Blind, &mut scratch);
            assert_eq!(
                again.to_bits(),
                expected.to_bits(),
                "{groups:?} on {p}, reused"
            );
        }
    }

    #[test]
    fn lpt_assigns_longest_first_to_the_least_loaded_worker() {
        let s = lpt(&[3.0, 5.0, 2.0, 5.0, 1.0], 2);
        assert_eq!(s.workers, vec![vec![1, 0], vec![3, 2, 4]]);
        assert_eq!(s.loads, vec![8.0, 8.0]);
        assert_eq!(s.makespan, 8.0);
        assert_eq!(lpt_makespan(&[3.0, 5.0, 2.0, 5.0, 1.0], 2), 8.0);
    }

    #[test]
    fn a_partial_wave_costs_a_full_task_under_lpt_but_pro_rata_when_fluid() {
        let tasks = vec![1.0; 12];
        assert_eq!(lpt_makespan(&tasks, 8), 2.0);
        assert_eq!(fluid(&tasks, 8), 1.5);
        assert_eq!(fluid(&[4.0, 1.0], 8), 4.0);
    }
}
