#!/usr/bin/env bash
# Graph compiler benchmark (issue 12): tutorial 7 (10000x1000 on the ipu2 IPU Model) compiled with liveness-based
# memory sharing and with the plain bump layout (debug.reuseMemory=false), alternately, RUNS times each. Prints
# the compile time (median, min, max and the ratio of medians) and the peak tile memory of each layout.
# Usage: bench/compile_memory.sh BIN_DIR [RUNS]
set -uo pipefail
bin=$1 runs=${2:-5}
declare -a shared bump
peak_shared="" peak_bump=""
for ((i = 0; i < runs; i++)); do
  out=$("$bin/ipu-demo" 2>&1) || { echo "FAIL: ipu-demo"; exit 1; }
  shared+=("$(grep -o 'compile [0-9.]*' <<<"$out" | cut -d' ' -f2)")
  peak_shared=$(grep -o 'Maximum: [0-9,]*' <<<"$out" | head -1 | cut -d' ' -f2)
  out=$(POPLAR_ENGINE_OPTIONS='{"debug.reuseMemory":"false"}' "$bin/ipu-demo" 2>&1) || { echo "FAIL: ipu-demo"; exit 1; }
  bump+=("$(grep -o 'compile [0-9.]*' <<<"$out" | cut -d' ' -f2)")
  peak_bump=$(grep -o 'Maximum: [0-9,]*' <<<"$out" | head -1 | cut -d' ' -f2)
done
python3 - "${shared[*]}" "${bump[*]}" "$peak_shared" "$peak_bump" <<'PY'
import statistics, sys
shared = [float(x) for x in sys.argv[1].split()]
bump = [float(x) for x in sys.argv[2].split()]
def line(name, xs):
    print(f"  compile, {name:<22} median {statistics.median(xs)*1000:7.1f} ms  (min {min(xs)*1000:.1f}, max {max(xs)*1000:.1f}, {len(xs)} runs)")
line("liveness sharing", shared)
line("bump layout", bump)
print(f"  compile time ratio (sharing / bump, medians): {statistics.median(shared)/statistics.median(bump):.2f}x")
print(f"  peak tile memory (incl. code): sharing {sys.argv[3]} B, bump {sys.argv[4]} B")
PY
