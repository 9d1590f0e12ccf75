#!/usr/bin/env bash
# `make demo`: the main job on the in-process IPU Model. It runs the most
# complete end-to-end program the build has: the Poplar matrix-vector program
# with its profile summary when hostlib/poplar is built, otherwise `gc-run`
# with the firmware's hello program on every tile of the `tiny` board.
set -euo pipefail
build=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
export IPU_BOARD_PATH=${IPU_BOARD_PATH:-$root/boards}
if [ -x "$build/bin/ipu-demo" ]; then
  # The engine writes its graph and execution profiles when it is destroyed (autoReport); popvis turns them into a
  # page a person can look at.
  report=$(cd "$build" && pwd)/demo-report
  export POPLAR_ENGINE_OPTIONS=${POPLAR_ENGINE_OPTIONS:-"{\"autoReport.all\": \"true\", \"autoReport.directory\": \"$report\"}"}
  "$build/bin/ipu-demo"
  if [ -x "$build/bin/popvis" ] && [ -f "$report/profile.json" ]; then
    echo
    "$build/bin/popvis" report "$report"
    echo "demo: open $report/report.html in a browser to see memory per tile, the step timeline and liveness"
  fi
  exit 0
fi
hello=$(ls "$build"/tile/tiny/bin/hello*.elf 2>/dev/null | head -n1 || true)
if [ -x "$build/bin/gc-run" ] && [ -n "$hello" ]; then
  echo "demo: gc-run $hello on every tile of the 'tiny' IPU Model card"
  export IPU_EMU_DEVICES=${IPU_EMU_DEVICES:-tiny}
  exec "$build/bin/gc-run" --tiles all "$hello"
fi
echo "demo: nothing to run: $build has neither bin/ipu-demo nor bin/gc-run with tile/tiny/bin/hello.elf" >&2
echo "demo: run 'make' first; if it succeeded, the demo program is missing from the build (a bug)" >&2
exit 1
