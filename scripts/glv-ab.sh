#!/usr/bin/env bash
# GLV against none in one process (`--compare auto,noglv,glv`, interleaved rep by rep: the
# planner's choice, GLV never, GLV always), on both paths, BN254 and BLS12-381 G1, uniform
# scalars from 2^10 to 2^20 (and 2^17) and the witness mix (20% full-size) at 2^16. Writes the raw bench
# output to $1.
#
#   bash scripts/glv-ab.sh docs/bench/glv-raw.txt [BINARY]
set -euo pipefail
out=${1:?output file}
bin=${2:-target/release/multiexp}
: > "$out"
run() { # path curve n reps scalars
  local env=()
  [ "$1" = portable ] && env=(MULTIEXP_NO_IFMA=1)
  echo "== path=$1 curve=$2 n=$3 scalars=$5 reps=$4" >> "$out"
  env "${env[@]}" "$bin" bench --curve "$2" --n "$3" --threads 2 --reps "$4" \
    --scalars "$5" --compare auto,noglv,glv >> "$out" 2>&1
}
for path in portable ifma; do
  for curve in bn254-g1 bls12-381-g1; do
    for n in 1024 4096 16384 65536 131072 262144 1048576; do
      reps=11; [ "$n" -ge 131072 ] && reps=7; [ "$n" -ge 262144 ] && reps=5
      run "$path" "$curve" "$n" "$reps" uniform
    done
    run "$path" "$curve" 65536 9 witness
  done
done
