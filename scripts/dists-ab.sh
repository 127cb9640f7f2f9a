#!/usr/bin/env bash
# old/new binaries alternated (A B in odd rounds, B A in even ones; ROUNDS rounds), portable, 2 threads, bench --compare auto
# usage: scripts/dists-ab.sh OLD NEW "curves" "logns" "dists" ROUNDS
# VS=arkworks: time `msm` as a caller does, `bench --vs arkworks` (multiexp::msm_with, and
# arkworks on the same scalars), printing multiexp's then arkworks' min and median ms.
old=$1; new=$2; curves=$3; logns=$4; dists=$5; rounds=${6:-3}
for round in $(seq 1 $rounds); do
 for curve in $curves; do
  for logn in $logns; do
   n=$((1<<logn)); reps=7; [ $logn -ge 20 ] && reps=3; [ $logn -le 12 ] && reps=${REPS12:-15}
   for d in $dists; do
    # A B in odd rounds, B A in even ones: the place in a pair is worth up to 25% on this
    # VM (same plan, 2026-12-06), so the rounds cancel it.
    order="old new"; [ $((round % 2)) = 0 ] && order="new old"
    for which in $order; do
      bin=$old; [ $which = new ] && bin=$new
      if [ -n "${VS:-}" ]; then
        r=$(MULTIEXP_NO_IFMA=1 $bin bench --curve $curve --n $n --threads 2 --reps $reps --scalars $d --vs $VS 2>&1 | grep -E "^(multiexp|$VS) " | awk '{printf "%s %s ", $2, $3}')
      else
        r=$(MULTIEXP_NO_IFMA=1 $bin bench --curve $curve --n $n --threads 2 --reps $reps --scalars $d --compare auto 2>&1 | grep -E "^auto " | awk '{print $2, $3}')
      fi
      echo "$round $curve 2^$logn $d $which $r"
    done
   done
  done
 done
done
