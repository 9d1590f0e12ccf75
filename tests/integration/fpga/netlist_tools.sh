#!/usr/bin/env bash
# The gc tools and a program on a gate-level simulation of the icebreaker card
# (ipu-board-netlist-sim: the synthesized netlist; ipu-board-pnr-sim: the placed
# and routed card read back from the .asc), against the source-level simulation
# of the same card (ipu-board-sim --board icebreaker): gc-info -i, gc-reset and
# gc-run of PROGRAM must print the same on both (the socket's path aside), and the
# program's output must hold GREETING. Tutorial 3 is not run: it maps its tensors
# to tiles 0..3, and this card has one tile. The SDK's hello (38 KB through a UART
# of 91 clocks a bit) takes minutes on a gate-level simulation; a bare program
# (tests/unit/rtl/console.S, 5 KB, greets too) keeps the test short.
# Usage: netlist_tools.sh REFERENCE_SIM GATE_SIM GC_BIN_DIR PROGRAM [GREETING]
set -euo pipefail
ref=$1 gate=$2 bin=$3 hello=$4 greeting=${5:-hello from tile 0}
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-netlist-tools.XXXXXX")
sim_pid=
cleanup() { [ -z "$sim_pid" ] || kill "$sim_pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*/*.txt; do echo "--- $f"; cat "$f"; done; exit 1; }
export IPU_EMU_PCI_ROOT=/nonexistent-netlist-tools IPU_EMU_LOCK_DIR=$work

# Runs the tools on SIM into DIR, each output with the socket's path replaced by "SOCKET".
session() {
  local sim=$1 dir=$2 t0
  mkdir -p "$dir"
  "$sim" --board icebreaker --socket "$dir/link" > "$dir/sim.log" 2>&1 &
  sim_pid=$!
  for _ in $(seq 100); do [ -S "$dir/link" ] && break; sleep 0.1; done
  [ -S "$dir/link" ] || fail "$sim did not listen on $dir/link"
  export IPU_EMU_DEVICES=socket:$dir/link
  for step in "gc-info -d 0 -i" "gc-reset -d 0" "gc-run -t 0 $hello"; do
    local name=${step%% *} rc=0
    t0=$(date +%s%N)
    # shellcheck disable=SC2086 # the step is a command line
    $bin/$step > "$dir/$name.raw" 2>&1 || rc=$?
    echo "$name exited with $rc" >> "$dir/$name.raw"
    sed "s|$dir/link|SOCKET|g" "$dir/$name.raw" > "$dir/$name.txt"
    echo "$(basename "$sim") $name: rc $rc, $(( ($(date +%s%N) - t0) / 1000000 )) ms"
  done
  kill "$sim_pid"; wait "$sim_pid" 2>/dev/null || true; sim_pid=
}
session "$ref" "$work/ref"
session "$gate" "$work/gate"
for name in gc-info gc-reset gc-run; do
  grep -q "exited with 0" "$work/ref/$name.txt" || fail "$name on the source-level simulation failed"
  diff -u "$work/ref/$name.txt" "$work/gate/$name.txt" || fail "$name prints differently on $(basename "$gate")"
done
grep -q "$greeting" "$work/gate/gc-run.txt" || fail "$(basename "$hello") did not print '$greeting' on $(basename "$gate")"
echo "PASS: gc-info, gc-reset and $(basename "$hello") print the same on $(basename "$gate") as on the source-level simulation"
