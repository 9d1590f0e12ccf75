#!/usr/bin/env bash
# The usb transport end to end without a board: ipu-board-sim (the Verilated FPGA
# board top) on a Unix socket, QEMU's emulated FTDI UART (usb-serial on
# qemu-xhci) with its chardev on that socket, and in the guest the driver's usb
# transport through libusb (tests/integration/qemu/guest_usb_test.sh). Midway the
# guest says "=== unplug now" and this script pulls the cable (QMP device_del)
# while no guest program has the card open (QEMU 7.2 can crash on a removal with a
# transfer in flight), then on "=== replug now" plugs it back (device_add on the
# same chardev).
# Usage: usb-test.sh BUILD_DIR      Exit: 0 pass, 1 fail, 77 skipped (see message)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$(cd "${1:-build}" && pwd)
sim=$build/bin/ipu-board-sim
[ -x "$sim" ] || { log "SKIP: $sim is not built (Verilator missing: make deps)"; exit 77; }
[ -f "$build/tile/rtl-tiny/bin/hello.elf" ] || { log "FAIL: no rv32im hello ($build/tile/rtl-tiny/bin/hello.elf)"; exit 1; }
prepare_guest "$build"
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-usb-test.XXXXXX")
serial=$build/qemu-guest/usb-serial.log
link=$work/board.sock qmp=$work/qmp.sock
pids=()
cleanup() { for p in "${pids[@]}"; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

"$sim" --socket "$link" > "$build/qemu-guest/usb-board-sim.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$link" ] && break; sleep 0.1; done
[ -S "$link" ] || { log "FAIL: ipu-board-sim did not listen on $link"; cat "$build/qemu-guest/usb-board-sim.log" >&2; exit 1; }

# One QMP command (after the capabilities handshake); prints QEMU's answer.
qmp() {
  python3 - "$qmp" "$1" <<'EOF'
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rw")
def send(cmd):
    f.write(json.dumps(cmd) + "\n"); f.flush()
    while True:
        reply = json.loads(f.readline())
        if "return" in reply or "error" in reply:
            return reply
f.readline()  # the greeting
send({"execute": "qmp_capabilities"})
reply = send(json.loads(sys.argv[2]))
print(json.dumps(reply))
sys.exit(1 if "error" in reply else 0)
EOF
}

rm -f "$serial"
start=$(date +%s%N)
qemu_prefix="timeout ${IPU_QEMU_TEST_TIMEOUT:-600}" run_guest ipu.usbtest=1 -serial "file:$serial" -monitor none \
  -qmp "unix:$qmp,server=on,wait=off" \
  -device qemu-xhci,id=xhci -chardev "socket,id=link,path=$link,reconnect=1" \
  -device usb-serial,chardev=link,id=board,bus=xhci.0 </dev/null &
qemu_pid=$!
pids+=($qemu_pid)
# Follows the guest: unplug and replug on its cues.
unplugged=0 replugged=0
while kill -0 $qemu_pid 2>/dev/null; do
  if [ $unplugged = 0 ] && grep -q '^=== unplug now' "$serial" 2>/dev/null; then
    qmp '{"execute": "device_del", "arguments": {"id": "board"}}' >&2 && unplugged=1 ||
      { log "FAIL: QMP device_del"; break; }
    log "unplugged the usb-serial device"
  fi
  if [ $unplugged = 1 ] && [ $replugged = 0 ] && grep -q '^=== replug now' "$serial" 2>/dev/null; then
    qmp '{"execute": "device_add", "arguments": {"driver": "usb-serial", "chardev": "link", "id": "board", "bus": "xhci.0"}}' >&2 &&
      replugged=1 || { log "FAIL: QMP device_add"; break; }
    log "plugged the usb-serial device back in"
  fi
  sleep 0.1
done
rc=0; wait $qemu_pid || rc=$?
wall=$(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }')
tr -d '\r' < "$serial" > "$serial.txt"
sed -n '/^=== /,$p' "$serial.txt" >&2
fail=0
[ $rc = 0 ] || { log "FAIL: QEMU exited with $rc (timeout or error); serial log $serial"; fail=1; }
[ $unplugged = 1 ] && [ $replugged = 1 ] || { log "FAIL: the guest never asked for the unplug and the replug"; fail=1; }
grep -q '^ipu-guest-usb-test: exit 0' "$serial.txt" || { log "FAIL: the guest's usb test failed (serial log $serial)"; fail=1; }
section() { sed -n "/^=== $1\$/,/^=== /p" "$serial.txt" | sed '1d;$d'; }
field() { sed -n "s/^$1: //p"; }
log "figures: the usb guest test took $wall s (QEMU start to power-off)"
log "figures: register read round trip over usb (guest, emulated FTDI, board sim): median $(section ipu-mmio-latency | field median_us) us"
log "figures: 16 KiB tile-memory read over usb: $(section 'block read' | field block_read_s) s"
[ $fail = 0 ] && log "PASS"
exit $fail
