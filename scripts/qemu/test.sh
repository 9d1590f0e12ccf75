#!/usr/bin/env bash
# `make qemu-test`: boots the guest, which lists the card (gc-info -l), runs
# gc-hosttraffictest and the Poplar programs of the build's manifest (tutorial 3
# on the DeviceManager) on the card through the vfio transport; each program's
# output must equal the in-process model's (tutorials.sh ran it there first).
# Prints the guest's boot time and the programs' run times on both.
# Usage: test.sh BUILD_DIR      Exit: 0 pass, 1 fail, 77 skipped (see message)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$(cd "${1:-build}" && pwd)
prepare_guest "$build"
serial=$build/qemu-guest/serial.log
manifest=$build/share/ipu-emu/tutorials/tutorials.txt
start=$(date +%s%N)
qemu_prefix="timeout ${IPU_QEMU_TEST_TIMEOUT:-900}"
rm -f "$serial"
# A second card whose whole session QEMU records (record=): the guest runs the first program on it alone, and the
# trace is replayed in-process below (docs/trace-format.md).
trace=$build/qemu-guest/recorded-card.trace
rm -f "$trace"
# A card for each program that names its own board (NAME.board beside the manifest: the training example's
# PopLibs codelets need more than the tiny board's 64 KiB tiles), behind root ports after the two above.
own_cards=() port=3
for f in "$(dirname "$manifest")"/*.board; do
  [ -f "$f" ] || continue
  own_cards+=(-device "pcie-root-port,id=rp$port,chassis=$port,slot=$port"
              -device "ipu-card,bus=rp$port,board=$(cat "$f"),board-path=$root/boards")
  port=$((port + 1))
done
run_guest ipu.test=1 -serial "file:$serial" -monitor none \
  -device pcie-root-port,id=rp1,chassis=2,slot=2 \
  -device "ipu-card,bus=rp1,board=${IPU_QEMU_BOARD:-tiny},board-path=$root/boards,record=$trace" \
  "${own_cards[@]}" </dev/null ||
  { log "FAIL: the guest did not finish (timeout or QEMU error); serial log $serial"; tail -n 30 "$serial" >&2; exit 1; }
wall=$(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }')
tr -d '\r' < "$serial" > "$serial.txt"
log "guest finished in $wall s (QEMU start to power-off)"
sed -n '/^=== /,$p' "$serial.txt" >&2

# The programs: the guest's output on the card against the in-process model's. Every program of the manifest must
# have run in the guest.
fail=0 n=0 times=()
while read -r name _; do
  [ -n "$name" ] || continue
  n=$((n + 1))
  card=$build/qemu-guest/$name.card.txt model=$build/qemu-guest/$name.model.txt
  end=$(grep "^=== END tutorial $name rc=" "$serial.txt" || true)
  if [ -z "$end" ]; then
    log "FAIL: tutorial $name did not run in the guest"; fail=1; continue
  fi
  sed -n "/^=== BEGIN tutorial $name ===\$/,/^=== END tutorial $name rc=/p" "$serial.txt" | sed '1d;$d' > "$card"
  # Line by line, but for the lines NAME.ignore lists (grep -E patterns: wall-clock figures).
  ignore=$(dirname "$manifest")/$name.ignore
  compared() { if [ -f "$ignore" ]; then grep -v -E -f "$ignore" "$1" || true; else cat "$1"; fi; }
  if diff -u <(compared "$model") <(compared "$card") >&2; then
    log "tutorial $name: output identical to the in-process model$([ -f "$ignore" ] && echo " (but for the lines of $name.ignore)")"
  else
    log "FAIL: tutorial $name on the card differs from the in-process model (- model, + card)"; fail=1
  fi
  times+=("$name: card in the guest (vfio) ${end##*time=} s, in-process model on the host $(cat "$build/qemu-guest/$name.model.time") s")
done < <(grep -v '^#' "$manifest")
[ $n -gt 0 ] || { log "FAIL: the manifest $manifest lists no program"; fail=1; }
# Record and replay: the recorded card's session, replayed on the model without QEMU, must match read for read; and
# the same trace with one register value changed must be reported with both values.
if ! grep -q "^=== END recorded .* rc=0" "$serial.txt"; then
  log "FAIL: no program ran on the recorded card in the guest"; fail=1
elif "$build/bin/ipu-replay" "$trace" >&2; then
  log "record/replay: the guest's session on the recorded card ($(du -h "$trace" | cut -f1)) replays in-process"
  python3 "$root/tests/integration/qemu/trace_edit.py" "$trace" "$trace.edited" 0x0 >&2
  if "$build/bin/ipu-replay" "$trace.edited" 2> "$trace.edited.txt" ||
     ! grep -q "recorded 0x.*, replayed 0x" "$trace.edited.txt"; then
    log "FAIL: ipu-replay did not report the edited register value"; cat "$trace.edited.txt" >&2; fail=1
  else
    log "record/replay: the edited trace is reported: $(cat "$trace.edited.txt")"
  fi
else
  log "FAIL: the guest's recorded session does not replay in-process (trace $trace)"; fail=1
fi
grep -q '^ipu-guest-test: exit 0' "$serial.txt" || { log "FAIL: the guest test failed (serial log $serial)"; fail=1; }

# The benchmark figures (issue 8): boot, MMIO round trip and DMA bandwidth from inside the guest, and the programs'
# run times on the card next to the in-process model's. The model's MMIO figure comes from the same tool here.
section() { sed -n "/^=== $1\$/,/^=== /p" "$serial.txt" | sed '1d;$d'; }
field() { sed -n "s/^$1: //p"; }
mmio=$(section ipu-mmio-latency)
mmio_model=$(env IPU_EMU_DEVICES="${IPU_QEMU_BOARD:-tiny}" IPU_BOARD_PATH="$root/boards" IPU_EMU_LOCK_DIR="$build/qemu-guest" \
               "$build/bin/ipu-mmio-latency" 0 10000 2>&1 || true)
log "figures: $(sed -n 's/^=== \(guest up after .* s\)$/\1/p' "$serial.txt" | head -n1) (kernel start to the test), whole run $wall s"
log "figures: MMIO read round trip: guest (vfio) median $(echo "$mmio" | field median_us) us, p99 $(echo "$mmio" | field p99_us) us; in-process model median $(echo "$mmio_model" | field median_us) us"
log "figures: host sync round trip in the guest: median $(section gc-hostsynclatencytest | field median_us) us"
log "figures: DMA in the guest (gc-hosttraffictest), $(section gc-hosttraffictest | awk '$1 ~ /^[0-9]+$/ && NF >= 3 { last = $0 }
  END { split(last, f, " "); printf "%s bytes: host->device %s MB/s, device->host %s MB/s", f[1], f[2], f[3] }')"
for t in "${times[@]}"; do log "figures: $t"; done
[ $fail = 0 ] && log "PASS"
exit $fail
