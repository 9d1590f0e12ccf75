#!/usr/bin/env bash
# The socket card's pulled cable: ipu-board-sim --board rtl-tiny (the Verilated
# board top) is killed in the middle of a run. gc-run of compute.elf (an integer
# hash: minutes on the board's RTL) must end within the driver's timeouts with
# status 74 (the device stopped answering) and a message naming the card and
# saying it is gone; gc-info then says to start the simulation. Restarted on the
# same socket, the card is listed (gc-info -l, gc-monitor), opens, resets
# (gc-reset) and runs hello again: nothing of the dead connection is kept. Then
# the simulation is stopped (SIGSTOP) mid-run: the run ends after one request's
# timeout saying the card stopped answering.
# Usage: socket_unplug.sh IPU_BOARD_SIM GC_BIN_DIR COMPUTE_ELF HELLO_ELF
set -euo pipefail
sim=$1 bin=$2 spin=$3 hello=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-socket-unplug.XXXXXX")
sim_pid=
cleanup() { [ -z "$sim_pid" ] || kill "$sim_pid" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; for f in "$work"/*.txt; do echo "--- $f"; cat "$f"; done; exit 1; }
start_sim() {
  rm -f "$work/link"
  "$sim" --board rtl-tiny --socket "$work/link" >> "$work/sim.txt" 2>&1 &
  sim_pid=$!
  for _ in $(seq 100); do [ -S "$work/link" ] && return 0; sleep 0.1; done
  fail "ipu-board-sim did not listen on $work/link"
}
export IPU_EMU_DEVICES=socket:$work/link IPU_EMU_PCI_ROOT=/nonexistent-socket-unplug IPU_EMU_LOCK_DIR=$work
place=socket:$work/link

# How long gc-run takes to attach, reset and load compute.elf here (a run of one iteration; the hash is its exit
# status): a long run is past that point, running, after twice the time (sanitizers and load slow it down).
calibrate() {
  local t0 rc=0
  t0=$(date +%s%N)
  "$bin/gc-run" --arg 1 "$spin" > "$work/calibrate.txt" 2>&1 || rc=$?
  case $rc in 64|65|69|70|74|75) fail "gc-run --arg 1 $spin failed ($rc)";; esac
  settle=$(awk -v ns=$(( $(date +%s%N) - t0 )) 'BEGIN { printf "%.1f", 2 * ns / 1e9 + 1 }')
}
start_sim
calibrate
"$bin/gc-run" --arg 2000000 "$spin" > "$work/run.txt" 2>&1 &
run=$!
sleep "$settle"
kill -0 $run 2>/dev/null || fail "gc-run ended before the simulation was killed"
kill -9 "$sim_pid"; wait "$sim_pid" 2>/dev/null || true; sim_pid=
t0=$(date +%s%N)
# At most 30 s: the driver's longest wait is a request's 10 s.
for _ in $(seq 300); do kill -0 $run 2>/dev/null || break; sleep 0.1; done
if kill -0 $run 2>/dev/null; then kill -9 $run; fail "gc-run still runs 30 s after the simulation was killed (a hang)"; fi
rc=0; wait $run || rc=$?
secs=$(awk -v ns=$(( $(date +%s%N) - t0 )) 'BEGIN { printf "%.1f", ns / 1e9 }')
cat "$work/run.txt"
echo "gc-run exited with $rc $secs s after the kill"
[ $rc = 74 ] || fail "gc-run exited with $rc, not 74 (the device stopped answering)"
grep -q "gc-run: error: .*($place) is gone: .*plug it back in" "$work/run.txt" ||
  fail "gc-run's error does not say that the card ($place) is gone"
# While it is away: opening it says to start the simulation.
if "$bin/gc-info" -d 0 -i > "$work/away.txt" 2>&1; then fail "gc-info on the stopped simulation succeeded"; fi
grep -q "ipu-board-sim --socket" "$work/away.txt" || fail "opening the stopped simulation does not say to start it"

start_sim
"$bin/gc-info" -l > "$work/list.txt" 2>&1 || fail "gc-info -l after the restart"
grep -q "$place" "$work/list.txt" || fail "gc-info -l does not list the restarted card"
"$bin/gc-monitor" > "$work/monitor.txt" 2>&1 || fail "gc-monitor after the restart"
grep -q "$place .*free" "$work/monitor.txt" || fail "gc-monitor does not show the restarted card as free"
"$bin/gc-info" -d 0 -i > "$work/info.txt" 2>&1 || fail "gc-info -d 0 -i after the restart"
grep -q "socket" "$work/info.txt" || fail "gc-info -i does not name the socket transport"
"$bin/gc-reset" -d 0 > "$work/reset.txt" 2>&1 || fail "gc-reset after the restart"
"$bin/gc-run" -t 0 "$hello" > "$work/hello.txt" 2>&1 || fail "gc-run hello after the restart exited with $?"
grep -q "hello from tile 0" "$work/hello.txt" || fail "gc-run hello after the restart printed no greeting"

# A simulation that stops answering (SIGSTOP) with the socket still open: the run ends after one request's
# timeout (10 s), not the runtime's 300 s host-sync limit, saying that the card stopped answering.
"$bin/gc-run" --arg 2000000 "$spin" > "$work/stopped.txt" 2>&1 &
run=$!
sleep "$settle"
kill -0 $run 2>/dev/null || fail "the second gc-run ended before the simulation was stopped"
kill -STOP "$sim_pid"
t0=$(date +%s%N)
for _ in $(seq 300); do kill -0 $run 2>/dev/null || break; sleep 0.1; done
if kill -0 $run 2>/dev/null; then kill -9 $run; fail "gc-run still runs 30 s after the simulation stopped (a hang)"; fi
rc=0; wait $run || rc=$?
stopped_secs=$(awk -v ns=$(( $(date +%s%N) - t0 )) 'BEGIN { printf "%.1f", ns / 1e9 }')
kill -CONT "$sim_pid"
cat "$work/stopped.txt"
echo "gc-run exited with $rc $stopped_secs s after the simulation stopped"
[ $rc = 74 ] || fail "gc-run exited with $rc after the simulation stopped, not 74 (the device stopped answering)"
grep -q "gc-run: error: .*($place) stopped answering" "$work/stopped.txt" ||
  fail "gc-run's error does not say that the card ($place) stopped answering"
echo "PASS: a killed board simulation ends the run in $secs s naming the card; restarted, it reopens and runs" \
     "hello; a stopped one ends the run in $stopped_secs s"
