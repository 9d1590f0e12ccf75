#!/usr/bin/env bash
# The usb transport end to end without a board: ipu-board-sim (the Verilated FPGA
# board top) on a Unix socket, QEMU's emulated FTDI UART (usb-serial on
# qemu-xhci) with its chardev on that socket, and in the guest the driver's usb
# transport through libusb (tests/integration/qemu/guest_usb_test.sh). The board
# sim has the 4-tile rtl-tiny shape (rv32im): this script stages tutorial 3 for it
# (popc --target rtl-tiny codelets, the tile images linked by a run on the
# in-process model of the same board, whose output is the golden one) and the
# guest's run over usb must print the same. Then, in the middle of a
# run (gc-run of the rv32im compute.elf staged here), the guest says "=== unplug
# now" and this script pulls the cable (QMP device_del) with the driver's
# transfers in flight, then on "=== replug now" plugs it back (device_add on the
# same chardev and the same port: the same place on the bus, as a board plugged
# back into its socket); the guest checks the error, the reopen and a run after it.
# Usage: usb-test.sh BUILD_DIR      Exit: 0 pass, 1 fail, 77 skipped (see message)
# IPU_USB_BENCH_RUNS=N: the guest takes N benchmark samples (bench/link.sh), 1 by default.
# IPU_USB_UNPLUG_REPEAT=N: the guest pulls the cable mid-run N times (3 by default: gc-run, a long read, a loop of
# short reads); IPU_USB_QUICK=1 skips the
# first hello, the benchmark and tutorial 3 (for investigating the unplug); IPU_QEMU_GDB=1 runs QEMU under gdb,
# which prints every thread's backtrace if it crashes. QEMU's (and gdb's) output: BUILD_DIR/qemu-guest/usb-qemu.log.
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$(cd "${1:-build}" && pwd)
sim=$build/bin/ipu-board-sim
[ -x "$sim" ] || { log "SKIP: $sim is not built (Verilator missing: make deps)"; exit 77; }
[ -f "$build/tile/rtl-tiny/bin/hello.elf" ] || { log "FAIL: no rv32im hello ($build/tile/rtl-tiny/bin/hello.elf)"; exit 1; }
spin=$build/tile-tests/rtl/compute.elf
[ -f "$spin" ] || { log "FAIL: no rv32im compute.elf ($spin: the rtl_tile_programs target)"; exit 1; }
for t in popc tutorial3_card; do
  [ -x "$build/bin/$t" ] || { log "FAIL: $build/bin/$t is not built (tutorial 3 over usb needs it)"; exit 1; }
done
prepare_guest "$build"
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-usb-test.XXXXXX")
serial=$build/qemu-guest/usb-serial.log
link=$work/board.sock qmp=$work/qmp.sock
pids=()
cleanup() { for p in "${pids[@]}"; do pkill -P "$p" 2>/dev/null || true; kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# Tutorial 3 for the rtl-tiny board (rv32im), staged over the guest's root in an initramfs of this test's own:
# the codelets precompiled by popc, and the tile images a run on the in-process model of the same board links into
# the cache the guest's run finds them in (keyed by board, runtime and codelets). That run's output is the golden one.
usbroot=$build/qemu-guest/usb-root tut=/usr/share/ipu-emu/usb
rm -rf "$usbroot" && cp -a "$build/qemu-guest/root" "$usbroot"
mkdir -p "$usbroot$tut/cache"
install -D -m 644 "$spin" "$usbroot/usr/share/ipu-emu/tile/rv32im/compute.elf"
"$build/bin/popc" --target rtl-tiny "$root/tests/tutorials/tut3/tut3_codelets.cpp" -o "$usbroot$tut/tut3_codelets.gp"
host_cache=${IPU_EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipu-emu}
for d in "$host_cache"/newlib-*; do if [ -d "$d" ]; then ln -s "$d" "$usbroot$tut/cache/"; fi; done
golden=$build/qemu-guest/usb-tut3.model.txt
t0=$(date +%s%N)
(cd "$usbroot$tut" && IPU_EMU_DEVICES=model:rtl-tiny IPU_EMU_LOCK_DIR=$work IPU_BOARD_PATH=$root/boards \
   IPU_EMU_CACHE="$usbroot$tut/cache" "$build/bin/tutorial3_card" tut3_codelets.gp) > "$golden" 2>&1 ||
  { cat "$golden" >&2; log "FAIL: tutorial 3 on the in-process model (rtl-tiny) failed"; exit 1; }
model_s=$(awk -v ns=$(( $(date +%s%N) - t0 )) 'BEGIN { printf "%.1f", ns / 1e9 }')
find "$usbroot$tut/cache" -maxdepth 1 -name 'newlib-*' -type l -delete
rm -rf "$usbroot$tut/cache/codelets"
ls "$usbroot$tut/cache"/images/*.elf >/dev/null 2>&1 || { log "FAIL: the model run linked no tile image"; exit 1; }
initrd=$build/qemu-guest/usb-initramfs.cpio.gz
"$here/initramfs.sh" "$("$here/guest-tools.sh" "$build")" "${kernel#/boot/vmlinuz-}" "$initrd" "$usbroot"

"$sim" --board rtl-tiny --socket "$link" > "$build/qemu-guest/usb-board-sim.log" 2>&1 &
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
qemu_prefix="timeout ${IPU_QEMU_TEST_TIMEOUT:-900}"
if [ -n "${IPU_QEMU_GDB:-}" ]; then
  printf '%s\n' 'handle SIGUSR1 SIGUSR2 SIGPIPE nostop noprint pass' 'run' 'thread apply all bt' > "$work/gdb.cmd"
  qemu_prefix="$qemu_prefix gdb -q -batch -x $work/gdb.cmd --args"
fi
quick=; [ -n "${IPU_USB_QUICK:-}" ] && quick=" ipu.usbquick=1"
pulls=${IPU_USB_UNPLUG_REPEAT:-3}
qemu_prefix=$qemu_prefix run_guest "ipu.usbtest=1 ipu.usbbench=${IPU_USB_BENCH_RUNS:-1} ipu.usbunplug=$pulls$quick" \
  -serial "file:$serial" -monitor none \
  -qmp "unix:$qmp,server=on,wait=off" \
  -device qemu-xhci,id=xhci -chardev "socket,id=link,path=$link,reconnect=1" \
  -device usb-serial,chardev=link,id=board,bus=xhci.0,port=1 </dev/null > "$build/qemu-guest/usb-qemu.log" 2>&1 &
qemu_pid=$!
pids+=($qemu_pid)
# Follows the guest: unplug and replug on its cues (each cue once, in turn).
unplugged=0 replugged=0
while kill -0 $qemu_pid 2>/dev/null; do
  cues=$(grep -c '^=== unplug now' "$serial" 2>/dev/null || true)
  if [ "${cues:-0}" -gt $unplugged ] && [ $unplugged = $replugged ]; then
    qmp '{"execute": "device_del", "arguments": {"id": "board"}}' >&2 && unplugged=$((unplugged + 1)) ||
      { log "FAIL: QMP device_del"; break; }
    log "unplugged the usb-serial device ($unplugged)"
  fi
  cues=$(grep -c '^=== replug now' "$serial" 2>/dev/null || true)
  if [ "${cues:-0}" -gt $replugged ] && [ $unplugged -gt $replugged ]; then
    qmp '{"execute": "device_add", "arguments": {"driver": "usb-serial", "chardev": "link", "id": "board", "bus": "xhci.0", "port": "1"}}' >&2 &&
      replugged=$((replugged + 1)) || { log "FAIL: QMP device_add"; break; }
    log "plugged the usb-serial device back in ($replugged)"
  fi
  sleep 0.1
done
rc=0; wait $qemu_pid || rc=$?
wall=$(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }')
tr -d '\r' < "$serial" > "$serial.txt"
sed -n '/^=== /,$p' "$serial.txt" >&2
fail=0
[ $rc = 0 ] || { log "FAIL: QEMU exited with $rc (timeout or error); serial log $serial"; tail -n 40 "$build/qemu-guest/usb-qemu.log" >&2; fail=1; }
[ $unplugged = "$pulls" ] && [ $replugged = "$pulls" ] ||
  { log "FAIL: $unplugged unplugs and $replugged replugs of $pulls (the guest did not ask for them all)"; fail=1; }
grep '^mid-run pull: ' "$serial.txt" | while read -r line; do log "figures: $line"; done || true
grep -q '^ipu-guest-usb-test: exit 0' "$serial.txt" || { log "FAIL: the guest's usb test failed (serial log $serial)"; fail=1; }
# Tutorial 3 in the guest over usb against the model's output.
end=$(grep '^=== END tutorial3 usb rc=' "$serial.txt" || true)
if [ -n "$quick" ]; then
  log "quick run (IPU_USB_QUICK): no tutorial 3"
elif [ -z "$end" ]; then
  log "FAIL: tutorial 3 did not run in the guest over usb"; fail=1
else
  sed -n '/^=== BEGIN tutorial3 usb$/,/^=== END tutorial3 usb rc=/p' "$serial.txt" | sed '1d;$d' > "$build/qemu-guest/usb-tut3.card.txt"
  if diff -u "$golden" "$build/qemu-guest/usb-tut3.card.txt" >&2; then
    log "tutorial 3 over usb: output identical to the in-process model (rtl-tiny)"
  else
    log "FAIL: tutorial 3 over usb differs from the in-process model (- model, + usb card)"; fail=1
  fi
  log "figures: tutorial 3 over usb in the guest ${end##*time=} s, on the in-process model (rtl-tiny, linking included) $model_s s"
fi
log "figures: the usb guest test took $wall s (QEMU start to power-off)"
grep '^usb_sample: ' "$serial.txt" | while read -r _ lat secs; do
  log "figures: usb sample: register read round trip median $lat us (200 reads), 16 KiB tile-memory read $secs s"
done || true
[ $fail = 0 ] && log "PASS"
exit $fail
