#!/usr/bin/env bash
# The link-group guest test (issue 19): one boot of the guest with two ipu-card devices in one link group (one
# 2-IPU card, tiny IPUs) and a third whose group misses its second IPU. In the guest (guest_group_test.sh) gc-info
# lists each group once, the complete one with 2 IPUs, the incomplete one is refused naming the missing IPU, and the
# 2-IPU pipeline (tests/integration/qemu/group) runs on the group through vfio; its output must equal the
# in-process model's on a tiny2 card (tutorials.sh runs it there first, which also links its tile images).
# Usage: group-test.sh BUILD_DIR      Exit: 0 pass, 1 fail, 77 skipped (see message)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$(cd "${1:-build}" && pwd)
guest=$build/qemu-group
name=two_ipu_pipeline
if [ ! -x "$build/bin/$name" ] || [ ! -f "$build/share/ipu-emu/qemu-group/tutorials.txt" ]; then
  log "FAIL: $build/bin/$name or its manifest is not built"; exit 1
fi
# A folder laid out as a build for tutorials.sh, holding only this test's program and manifest.
programs=$guest/programs
rm -rf "$programs" && mkdir -p "$programs/bin" "$programs/share/ipu-emu"
ln -s "$build/bin/$name" "$programs/bin/$name"
ln -s "$build/share/poplar" "$programs/share/poplar"
cp -r "$build/share/ipu-emu/qemu-group" "$programs/share/ipu-emu/tutorials"
card="ipu-card,board=tiny,board-path=$root/boards"
export IPU_QEMU_PROGRAMS=$programs IPU_QEMU_GUEST_DIR=$guest IPU_QEMU_BOARD=tiny2
export IPU_QEMU_CARDS="-device pcie-root-port,id=rp0,chassis=1,slot=1
  -device $card,bus=rp0,link-group=1,ipu-index=0,ipus=2
  -device pcie-root-port,id=rp1,chassis=2,slot=2
  -device $card,bus=rp1,link-group=1,ipu-index=1,ipus=2
  -device pcie-root-port,id=rp2,chassis=3,slot=3
  -device $card,bus=rp2,link-group=2,ipu-index=0,ipus=2"
prepare_guest "$build"
serial=$guest/serial.log
rm -f "$serial"
start=$(date +%s%N)
qemu_prefix="timeout ${IPU_QEMU_TEST_TIMEOUT:-900}"
run_guest ipu.grouptest=1 -serial "file:$serial" -monitor none </dev/null ||
  { log "FAIL: the guest did not finish (timeout or QEMU error); serial log $serial"; tail -n 30 "$serial" >&2; exit 1; }
wall=$(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }')
tr -d '\r' < "$serial" > "$serial.txt"
sed -n '/^=== /,$p' "$serial.txt" >&2

fail=0
on_card=$guest/$name.card.txt model=$guest/$name.model.txt
end=$(grep "^=== END tutorial $name rc=" "$serial.txt" || true)
if [ -z "$end" ]; then
  log "FAIL: $name did not run in the guest"; fail=1
else
  sed -n "/^=== BEGIN tutorial $name ===\$/,/^=== END tutorial $name rc=/p" "$serial.txt" | sed '1d;$d' > "$on_card"
  if diff -u "$model" "$on_card" >&2; then
    log "$name on the link group: output identical to the in-process tiny2 model"
  else
    log "FAIL: $name on the link group differs from the in-process model (- model, + guest)"; fail=1
  fi
fi
grep -q '^ipu-guest-group-test: exit 0' "$serial.txt" || { log "FAIL: the guest test failed (serial log $serial)"; fail=1; }
log "figures: $(sed -n 's/^=== \(guest up after .* s\)$/\1/p' "$serial.txt" | head -n1), whole run $wall s"
[ -z "$end" ] || log "figures: $name: link group in the guest (vfio) ${end##*time=} s, in-process tiny2 model $(cat "$guest/$name.model.time") s"
[ $fail = 0 ] && log "PASS"
exit $fail
