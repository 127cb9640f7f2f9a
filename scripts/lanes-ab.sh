#!/usr/bin/env bash
# Lanes per bucket on and off in one process (`--compare auto,auto:l1`, interleaved rep by
# rep), on both paths, for the distributions where small windows run (u8, u16, witness) and
# for uniform scalars (whose top chunk may take lanes). Writes the raw bench output to $1.
#
#   bash scripts/lanes-ab.sh docs/bench/lanes-raw.txt [BINARY]
set -euo pipefail
out=${1:?output file}
bin=${2:-target/release/multiexp}
: > "$out"
for path in portable ifma; do
  for curve in bn254-g1 bls12-381-g1; do
    for n in 65536 1048576; do
      reps=9; [ "$n" = 1048576 ] && reps=5
      for d in uniform u8 u16 witness; do
        echo "== path=$path curve=$curve n=$n scalars=$d reps=$reps" >> "$out"
        if [ "$path" = portable ]; then
          MULTIEXP_NO_IFMA=1 "$bin" bench --curve "$curve" --n "$n" --threads 2 --reps "$reps" \
            --scalars "$d" --compare auto,auto:l1 >> "$out" 2>&1
        else
          "$bin" bench --curve "$curve" --n "$n" --threads 2 --reps "$reps" \
            --scalars "$d" --compare auto,auto:l1 >> "$out" 2>&1
        fi
      done
    done
  done
done
