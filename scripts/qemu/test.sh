#!/usr/bin/env bash
# `make qemu-test`: boots the guest, which lists the card (gc-info -l), runs
# gc-hosttraffictest and the Poplar tutorials it has through the vfio transport;
# the tutorials' output must equal the in-process model's.
# Usage: test.sh BUILD_DIR      Exit: 0 pass, 1 fail, 77 skipped (see message)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$(cd "${1:-build}" && pwd)
prepare_guest "$build"
serial=$build/qemu-guest/serial.log
start=$(date +%s)
qemu_prefix="timeout ${IPU_QEMU_TEST_TIMEOUT:-900}"
run_guest ipu.test=1 -serial "file:$serial" -monitor none </dev/null ||
  { log "FAIL: the guest did not finish (timeout or QEMU error); serial log $serial"; tail -n 30 "$serial" >&2; exit 1; }
tr -d '\r' < "$serial" > "$serial.txt"
log "guest finished in $(( $(date +%s) - start )) s"
sed -n '/^=== /,$p' "$serial.txt" >&2
grep -q '^ipu-guest-test: exit 0' "$serial.txt" || { log "FAIL: the guest test failed (serial log $serial)"; exit 1; }

# Tutorials: the guest's output on the card against the in-process model's.
fail=0
for name in $(sed -n 's/^=== BEGIN tutorial \(.*\) ===$/\1/p' "$serial.txt"); do
  sed -n "/^=== BEGIN tutorial $name ===\$/,/^=== END tutorial $name/p" "$serial.txt" | sed '1d;$d' > "$build/qemu-guest/$name.card.txt"
  (cd "$build" && IPU_BOARD_PATH=$root/boards "$build/bin/$name") > "$build/qemu-guest/$name.model.txt" 2>&1 || true
  if diff -u "$build/qemu-guest/$name.model.txt" "$build/qemu-guest/$name.card.txt" >&2; then
    log "tutorial $name: output identical to the in-process model"
  else
    log "FAIL: tutorial $name differs from the in-process model"; fail=1
  fi
done
[ $fail = 0 ] && log "PASS"
exit $fail
