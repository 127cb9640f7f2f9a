#!/usr/bin/env bash
# Two builds of multiexp alternated process by process (A B, then B A, then A B): each runs
# `bench --compare auto` on the portable path (MULTIEXP_NO_IFMA=1), 2 threads, for BLS12-381
# and BN254 G1 at 2^12, 2^16, 2^20; prints round, curve, n, build, min ms, median ms.
#
#   bash scripts/binaries-ab.sh OLD_BINARY [NEW_BINARY]
set -euo pipefail
old=${1:?old binary}; new=${2:-target/release/multiexp}
for round in 1 2 3; do
  for curve in bls12-381-g1 bn254-g1; do
    for n in 4096 65536 1048576; do
      reps=7; [ $n = 1048576 ] && reps=3
      # A B in odd rounds, B A in even ones: whichever runs first in a pair gains or loses
      # by its place (seen at 0.75-0.78x, same plan, 2026-12-06), and the rounds cancel it.
      order="old new"; [ $((round % 2)) = 0 ] && order="new old"
      for which in $order; do
        bin=$old; [ $which = new ] && bin=$new
        r=$(MULTIEXP_NO_IFMA=1 $bin bench --curve $curve --n $n --threads 2 --reps $reps --compare auto 2>&1 | grep -E "^auto " | awk '{print $2, $3}')
        echo "$round $curve $n $which $r"
      done
    done
  done
done
