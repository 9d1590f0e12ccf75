#!/bin/bash
# The trace recorder and replayer at their limits (issue 36, findings 8 and 11):
# - a recording that cannot be written (a full disk: a file size limit with SIGXFSZ
#   ignored, so writes fail with EFBIG) fails the run with a message naming the trace,
#   instead of exiting 0 with a cut trace, and with 74 (the card's calls fail as a
#   card that stopped answering: the exit status of a link timeout, also during the
#   upload, where it was 70);
# - a trace cut at any byte is never reported as a difference (exit 1): ipu-replay
#   exits 2 (cut short) or, for a cut between top-level records, 0;
# - a FIFO as the trace file is refused at once with a message, never blocks.
# usage: record_limits_test.sh GC_RUN IPU_REPLAY ELF
set -u
GC_RUN=$1 REPLAY=$2 ELF=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export IPU_EMU_DEVICES=${IPU_EMU_DEVICES:-tiny}
fail=0

# File size limits of 1..6 KiB cut the recording at attach, during the upload (the tiles' set-up) and during the
# run: each run must fail with 74 (the device stopped answering, not 70, a tile fault: a reset cannot help) and
# say why, and replay of each cut trace must exit 2.
for kib in 1 2 3 4 5 6; do
  (trap '' XFSZ; ulimit -f $kib; IPU_EMU_RECORD=$dir/full.trace timeout 60 "$GC_RUN" "$ELF") >"$dir/full.out" 2>&1
  rc=$?
  if [ "$rc" -ne 74 ]; then
    echo "FAIL: gc-run exit status $rc with its trace cut at $kib KiB, expected 74"; cat "$dir/full.out"; fail=1
  elif ! grep -q "cannot write the trace file $dir/full.trace: File too large" "$dir/full.out"; then
    echo "FAIL: the message does not name the trace and the write error"; cat "$dir/full.out"; fail=1
  else
    echo "a recording cut at $kib KiB fails the run (74): $(grep -m1 'gc-run: error' "$dir/full.out" | cut -c1-90)"
  fi
  "$REPLAY" "$dir/full.trace" 2>/dev/null
  rc=$?
  [ "$rc" -eq 2 ] || { echo "FAIL: ipu-replay exit status $rc on the trace cut at $kib KiB, expected 2"; fail=1; }
done

# Cuts of a whole trace, every 29th byte (a prime, so the cuts fall at every offset of the records that repeat):
# 2 or 0, never 1. Each cut is one ipu-replay process; every 11th byte took 647 of them, 63 s under the sanitizers.
IPU_EMU_RECORD=$dir/run.trace "$GC_RUN" "$ELF" >"$dir/run.out" 2>&1 ||
  { echo "FAIL: gc-run under recording"; cat "$dir/run.out"; exit 1; }
size=$(stat -c %s "$dir/run.trace")
cuts=0 refused=0
for ((n = 1; n < size; n += 29)); do
  head -c "$n" "$dir/run.trace" >"$dir/cut.trace"
  "$REPLAY" "$dir/cut.trace" >/dev/null 2>"$dir/cut.err"
  rc=$?
  cuts=$((cuts + 1))
  [ "$rc" -eq 2 ] && refused=$((refused + 1))
  if [ "$rc" -ne 2 ] && [ "$rc" -ne 0 ]; then
    echo "FAIL: the trace cut at byte $n of $size: ipu-replay exit status $rc, expected 2"; cat "$dir/cut.err"; fail=1
    break
  fi
done
echo "$cuts cuts of a $size-byte trace: $refused refused as cut short, the rest end between records"

# A FIFO is refused with a message within seconds, not waited on.
mkfifo "$dir/fifo"
IPU_EMU_RECORD=$dir/fifo timeout 20 "$GC_RUN" "$ELF" >"$dir/fifo.out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] || [ "$rc" -eq 124 ] || ! grep -q "trace file $dir/fifo is a FIFO" "$dir/fifo.out"; then
  echo "FAIL: a FIFO as the trace file: exit $rc"; cat "$dir/fifo.out"; fail=1
else
  echo "a FIFO trace is refused: $(grep -m1 FIFO "$dir/fifo.out")"
fi
[ "$fail" -eq 0 ] && echo "record limits: all checks passed"
exit "$fail"
