#!/usr/bin/env bash
# `make bench`: run every benchmark binary of the build and print its figures.
set -euo pipefail
build=${1:-build}
export IPU_BOARD_PATH=${IPU_BOARD_PATH:-$(cd "$(dirname "$0")/.." && pwd)/boards}
for b in "$build"/bin/bench_*; do
  [ -x "$b" ] || continue
  echo "== $(basename "$b") =="
  "$b"
done
