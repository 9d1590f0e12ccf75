#!/usr/bin/env bash
# Tutorial 3 (the DeviceManager variant, streams and all) on the RTL card out of
# process: ipu-board-sim --board rtl-tiny behind the socket transport, every
# stream byte through the link's DMA_REQ/DMA_DATA. Its output must equal the
# in-process model's of the same board and hold every line of expected.txt.
# Usage: socket_tut3.sh IPU_BOARD_SIM TUT3_PROGRAM TUT3_CODELETS EXPECTED
set -euo pipefail
sim=$1 prog=$2 codelets=$3 expected=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-socket-tut3.XXXXXX")
sim_pid=
trap '[ -n "$sim_pid" ] && kill $sim_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
"$sim" --board rtl-tiny --socket "$work/link" > "$work/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do [ -S "$work/link" ] && break; sleep 0.1; done
[ -S "$work/link" ] || { echo "FAIL: ipu-board-sim did not listen"; cat "$work/sim.log"; exit 1; }
export IPU_EMU_PCI_ROOT=/nonexistent-socket-tut3 IPU_EMU_LOCK_DIR=$work
run() {
  local t0=$(date +%s%N)
  IPU_EMU_DEVICES=$1 "$prog" "$codelets" > "$2" 2>&1 || { echo "FAIL: tutorial 3 on $1 exited with $?"; cat "$2"; exit 1; }
  echo "tutorial 3 on $1: $(( ($(date +%s%N) - t0) / 1000000 )) ms"
}
run model:rtl-tiny "$work/model.txt"
run "socket:$work/link" "$work/socket.txt"
diff -u "$work/model.txt" "$work/socket.txt" || { echo "FAIL: the socket card's output differs from the model's"; exit 1; }
while IFS= read -r line; do
  [ -n "$line" ] || continue
  grep -qxF -- "$line" "$work/socket.txt" || { echo "FAIL: expected line missing: $line"; exit 1; }
done < "$expected"
echo "PASS: tutorial 3 over the socket link equals the model"
