#!/bin/bash
# Many-core run (16 and 8 threads): split-policy tables and verify-plan, BN254 / BLS12-381 G1.
# Usage (repo root, with the stripped release binary xz-compressed at .devbin/multiexp.xz):
#   bash scripts/many-cores.sh OUTDIR [BUDGET_S] [HI_LOG]
# Build here without target-cpu=native (the workspace config adds only adx, bmi2):
#   cargo build --release -p multiexp-cli && mkdir -p .devbin &&
#   strip -o .devbin/multiexp target/release/multiexp && xz -f .devbin/multiexp
# Each step is bounded by what is left of BUDGET_S (default 470 s); the logs and CSV/SVG
# files are packed into OUTDIR/all.tgz after every step, so a cut-short run keeps its rows.
set -u
OUTD=${1:-$OUT}; BUDGET=${2:-470}; HI=${3:-22}
W=/tmp/r; mkdir -p $W
DEADLINE=$((SECONDS + BUDGET))
cd .devbin && xz -d -f -k multiexp.xz && chmod +x multiexp && B=$PWD/multiexp
LOG=$OUTD/log.txt
{ date -u; uname -a; lscpu; nproc; grep -m1 "model name" /proc/cpuinfo; free -g;
  ls /sys/devices/system/cpu/cpu0/cache/ 2>&1; $B --version; } > $W/machine.txt 2>&1
cat $W/machine.txt > $LOG
pack() { tar czf $OUTD/all.tgz -C $W . ; }
pack
NS=$(for e in $(seq 10 2 $HI); do printf "2^$e,"; done); NS=${NS%,}
step() { # name, cmd...
  local name=$1; shift
  local rem=$((DEADLINE - SECONDS))
  if [ $rem -lt 15 ]; then echo "SKIP $name (no time left)" | tee -a $LOG; return; fi
  echo "=== $name (rem ${rem}s) $(date -u +%T): $*" | tee -a $LOG
  local t0=$SECONDS
  timeout $rem "$@" > $W/$name.txt 2>&1; local rc=$?
  cat $W/$name.txt >> $LOG
  echo "=== $name rc=$rc took $((SECONDS - t0))s" | tee -a $LOG
  pack
}
cd $W
step cmp-bn254-t16 $B bench --curve bn254-g1 --n $NS --threads 16 --reps 5 --compare auto,never,parts2
step cmp-bls-t16 $B bench --curve bls12-381-g1 --n $NS --threads 16 --reps 5 --compare auto,never,parts2
step vp-bn254-t16 $B bench --curve bn254-g1 --verify-plan --n-range 2^10..2^$HI --threads 16 --window-span 2 --csv $W/vp-bn254-t16.csv --svg $W/vp-bn254-t16.svg
step vp-bls-t16 $B bench --curve bls12-381-g1 --verify-plan --n-range 2^10..2^$HI --threads 16 --window-span 2 --csv $W/vp-bls-t16.csv --svg $W/vp-bls-t16.svg
step cmp-bn254-t8 $B bench --curve bn254-g1 --n $NS --threads 8 --reps 5 --compare auto,never,parts2
step cmp-bls-t8 $B bench --curve bls12-381-g1 --n $NS --threads 8 --reps 5 --compare auto,never,parts2
echo "done at $SECONDS s" | tee -a $LOG
