#!/bin/bash
# Record and replay in-process: a tile program run through gc-run on a model card
# recorded with IPU_EMU_RECORD, replayed by ipu-replay (every register read must
# match); then the same trace with one recorded register value changed, which
# ipu-replay must report with both values.
# usage: record_replay_test.sh GC_RUN IPU_REPLAY ELF
set -u
GC_RUN=$1 REPLAY=$2 ELF=$3
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
IPU_EMU_DEVICES=${IPU_EMU_DEVICES:-tiny} IPU_EMU_RECORD=$dir/run.trace "$GC_RUN" "$ELF" >"$dir/run.out" 2>&1 ||
  { echo "FAIL: gc-run under recording"; cat "$dir/run.out"; exit 1; }
[ -s "$dir/run.trace" ] || { echo "FAIL: no trace written"; exit 1; }
echo "recorded $(stat -c %s "$dir/run.trace") bytes"
"$REPLAY" "$dir/run.trace" || { echo "FAIL: the replay of an unchanged trace differs"; exit 1; }
python3 "$here/trace_edit.py" "$dir/run.trace" "$dir/edited.trace" 0x0 || exit 1
"$REPLAY" "$dir/edited.trace" 2>"$dir/replay.err"
rc=$?
cat "$dir/replay.err"
[ "$rc" -eq 1 ] || { echo "FAIL: ipu-replay exit status $rc on an edited trace, expected 1"; exit 1; }
grep -q "BAR0 read of offset 0x0 (size 4): recorded 0x.*, replayed 0x" "$dir/replay.err" ||
  { echo "FAIL: the difference does not name the read and both values"; exit 1; }
# A trace cut in the middle of a record is refused, not replayed as a match.
head -c 100 "$dir/run.trace" >"$dir/cut.trace"
"$REPLAY" "$dir/cut.trace" 2>/dev/null
[ $? -eq 2 ] || { echo "FAIL: a cut trace was not refused"; exit 1; }
echo "record/replay: all checks passed"
