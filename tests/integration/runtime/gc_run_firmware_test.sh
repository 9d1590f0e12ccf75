#!/bin/bash
# gc-run on the firmware's hello example (built with newlib by the tile build): one line per tile, exit code 0.
# usage: gc_run_firmware_test.sh GC_RUN TILE_BIN_DIR   (device 0 must be a "tiny" model card)
set -u
GC_RUN=$1
ELF=$2/hello.elf
if [ ! -f "$ELF" ]; then
  echo "FAIL: $ELF was not built (the firmware's tile build for 'tiny' must run first)"
  exit 1
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$GC_RUN" --timeout 60 "$ELF" >"$out"
status=$?
cat "$out"
[ "$status" -eq 0 ] || { echo "FAIL: gc-run exited $status"; exit 1; }
for t in 0 1 2 3; do
  n=$(grep -c "^\[tile $t\] " "$out")
  [ "$n" -eq 1 ] || { echo "FAIL: tile $t printed $n lines, expected 1"; exit 1; }
done
[ "$(wc -l <"$out")" -eq 4 ] || { echo "FAIL: expected 4 lines"; exit 1; }
echo "firmware hello: one line per tile, exit code 0"

# fw_faults with boot argument 3 loads from address 0: a recoverable fault, exit status 70, one line naming it.
FAULTS=$2/fw_faults.elf
if [ -f "$FAULTS" ]; then
  err=$(mktemp)
  "$GC_RUN" --timeout 60 --tiles 1 --arg 3 "$FAULTS" >/dev/null 2>"$err"
  status=$?
  cat "$err"
  grep -q "tile 1 context 0: LOAD_FAULT" "$err" || { echo "FAIL: fault not named"; rm -f "$err"; exit 1; }
  rm -f "$err"
  [ "$status" -eq 70 ] || { echo "FAIL: gc-run exited $status on a fault, expected 70"; exit 1; }
  echo "firmware fault: exit status 70"
fi
