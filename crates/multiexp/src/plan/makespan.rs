//! Makespans of a list of independent tasks on P workers.
//!
//! - `lpt`: the pool executor's schedule. Tasks are ordered longest first (ties keep their
//!   index order) and each goes to the worker with the least load so far (ties: lowest
//!   index). The executor runs exactly this assignment, so the model predicts it.
//! - `fluid`: max(Σ t / P, max t), what a preemptive, work-conserving scheduler achieves; a
//!   partial last wave is billed pro rata. The sweep's oracle.

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

#[cfg(test)]
mod tests {
    use super::*;

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
