#!/bin/sh
# The data-parallel acceptance of issue 19: builds and runs train_dp.cpp through run_tutorial.sh (its expected lines
# checked each time) with one replica and with <replicas> replicas, and requires the same final weights hash.
# Usage: run_dp.sh <install-prefix> <source-dir> <replicas> [tiles per IPU]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
run="$here/../tutorials/run_tutorial.sh"
prefix=$1 src=$2 replicas=$3 tiles=${4:-8}
out=$(mktemp -d "${TMPDIR:-/tmp}/train-dp.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$run" "$prefix" "$src" train_dp.cpp "$src/train_dp_expected.txt" 1 "$tiles" > "$out/one.txt" 2>&1 ||
  { cat "$out/one.txt"; echo "FAIL: the run with 1 replica failed"; exit 1; }
"$run" "$prefix" "$src" train_dp.cpp "$src/train_dp_expected.txt" "$replicas" "$tiles" > "$out/many.txt" 2>&1 ||
  { cat "$out/many.txt"; echo "FAIL: the run with $replicas replicas failed"; exit 1; }
cat "$out/one.txt" "$out/many.txt"
one=$(grep '^Weights hash: ' "$out/one.txt") many=$(grep '^Weights hash: ' "$out/many.txt")
if [ -z "$one" ] || [ "$one" != "$many" ]; then
  echo "FAIL: 1 replica gave '$one', $replicas replicas gave '$many'; the weights must be bit-identical"
  exit 1
fi
echo "PASS: 1 and $replicas replicas give the same weights ($one)"
