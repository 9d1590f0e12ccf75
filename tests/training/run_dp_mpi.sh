#!/bin/sh
# The multi-process data-parallel acceptance of issue 19: the data-parallel MLP (train_dp.cpp, built in the tree)
# once alone with 1 replica and once as 2 instances x 2 replicas under poprun (Open MPI), whose all-reduces go
# through MPI; the final weights hash must be the same bit for bit.
# Usage: run_dp_mpi.sh <poprun> <train_dp binary> [tiles per IPU]
set -eu
poprun=$1 prog=$2 tiles=${3:-8}
out=$(mktemp -d "${TMPDIR:-/tmp}/train-dp-mpi.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$prog" 1 "$tiles" > "$out/one.txt" 2>&1 || { cat "$out/one.txt"; echo "FAIL: the run with 1 replica failed"; exit 1; }
"$poprun" --num-instances 2 --num-replicas 4 --only-output-from-instance 0 --mpi-global-args=--oversubscribe \
  "$prog" 2 "$tiles" > "$out/mpi.txt" 2>&1 ||
  { cat "$out/mpi.txt"; echo "FAIL: the run of 2 instances x 2 replicas failed"; exit 1; }
cat "$out/one.txt" "$out/mpi.txt"
one=$(grep '^Weights hash: ' "$out/one.txt") mpi=$(grep '^Weights hash: ' "$out/mpi.txt")
grep -q '^Replicas agree: yes' "$out/mpi.txt" || { echo "FAIL: the instance's replicas disagree"; exit 1; }
if [ -z "$one" ] || [ "$one" != "$mpi" ]; then
  echo "FAIL: 1 replica gave '$one', 2 instances x 2 replicas gave '$mpi'; the weights must be bit-identical"
  exit 1
fi
echo "PASS: 1 replica and 2 instances x 2 replicas give the same weights ($one)"
