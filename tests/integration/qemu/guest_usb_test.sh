#!/bin/sh
# Runs inside the guest (ipu.usbtest=1, started by scripts/qemu/usb-test.sh): the
# board behind QEMU's emulated FTDI UART (usb-serial on qemu-xhci, its chardev
# wired to ipu-board-sim on the host) through the driver's usb transport
# (libusb): the card is found on the USB bus and listed, answers gc-info, runs
# hello with gc-run, gives the benchmark samples, runs tutorial 3, resets and shows in gc-monitor. Then the cable
# is pulled in the middle of a run (the host's QMP device_del, after "=== unplug now"): the run fails at once naming
# the card, the card leaves the list, opening it by its place says to plug it in, and once the device is back
# ("=== replug now") the card opens and runs hello again.
status=0
# The usb cards alone (the guest's PCI card would become device 0 once the board is unplugged).
export IPU_EMU_DEVICES=usb IPU_EMU_PCI_ROOT=/nonexistent-usb-test
step() { echo "=== $1"; }
fail() { echo "FAIL: $1"; status=1; }
# Waits up to $1 seconds for gc-info -l to list (or, with "gone", to stop listing) a usb card.
wait_card() {
  i=0
  while [ $i -lt $(( $1 * 5 )) ]; do
    if gc-info -l 2>/dev/null | grep -q ' usb '; then [ "$2" = gone ] || return 0
    else [ "$2" = gone ] && return 0; fi
    sleep 0.2; i=$((i + 1))
  done
  return 1
}

step "usb: waiting for the board on the bus"
wait_card 30 || fail "no usb card appeared within 30 s (lsusb: $(cat /sys/bus/usb/devices/*/idProduct 2>/dev/null | tr '\n' ' '))"
step "gc-info -l"
gc-info -l || fail "gc-info -l"
place=$(gc-info -l 2>/dev/null | awk '$2 == "usb" { print $4; exit }')
place=${place:-usb:1-1}
# ipu.usbquick=1 (usb-test.sh IPU_USB_QUICK=1, for investigating the unplug): no first hello, benchmark or
# tutorial 3.
quick=; grep -q 'ipu.usbquick=1' /proc/cmdline && quick=1
step "gc-info -d 0 -i"
gc-info -d 0 -i > /tmp/usb-info.txt 2>&1 || fail "gc-info -d 0 -i"
cat /tmp/usb-info.txt
grep -q usb /tmp/usb-info.txt || fail "gc-info -d 0 -i does not name the usb transport"
if [ -z "$quick" ]; then
  step "gc-run hello"
  gc-run /usr/share/ipu-emu/tile/rv32im/hello.elf > /tmp/usb-hello.txt 2>&1 || fail "gc-run hello exited with $?"
  cat /tmp/usb-hello.txt
  grep -qi hello /tmp/usb-hello.txt || fail "gc-run hello printed no greeting"
fi
# The benchmark figures of the usb path (bench/link.sh prints them beside the socket and rtl transports'): RUNS
# samples (ipu.usbbench=RUNS on the kernel command line, 1 by default), each the median of 200 register reads and
# the time to read 16 KiB of tile memory (block frames), one "usb_sample: MEDIAN_US SECONDS" line each.
runs=$(sed -n 's/.*ipu\.usbbench=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
[ -n "$quick" ] && runs=0
i=0
while [ $i -lt "${runs:-1}" ]; do
  i=$((i + 1))
  step "ipu-mmio-latency"
  ipu-mmio-latency 0 200 > /tmp/usb-latency.txt || fail "ipu-mmio-latency over usb"
  cat /tmp/usb-latency.txt
  step "block read"
  t0=$(cut -d' ' -f1 /proc/uptime)
  gc-info -d 0 --dump-mem 0,0x100000,16384 > /tmp/usb-block.txt 2>&1 || fail "reading 16 KiB of tile memory over usb"
  t1=$(cut -d' ' -f1 /proc/uptime)
  block_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  echo "block_read_bytes: 16384"
  echo "block_read_s: $block_s"
  echo "usb_sample: $(sed -n 's/^median_us: //p' /tmp/usb-latency.txt) $block_s"
done

# Tutorial 3 on the board's 4-tile RTL card (ipu-board-sim --board rtl-tiny) through the usb transport, with the
# rv32im codelets and tile images usb-test.sh staged (the guest has no RISC-V compiler); the host compares the
# output with the in-process model's of the same board. It took 83 s (the whole test 283 s) on a 2-core host at
# load 23: the full data size and the block transfers fit, no smaller variant is needed.
tut=/usr/share/ipu-emu/usb
if [ -n "$quick" ]; then
  step "quick: no tutorial 3"
elif [ -f $tut/tut3_codelets.gp ]; then
  step "BEGIN tutorial3 usb"
  t0=$(cut -d' ' -f1 /proc/uptime)
  rc=0
  (cd $tut && IPU_EMU_CACHE=$tut/cache tutorial3_card tut3_codelets.gp) > /tmp/usb-tut3.txt 2>&1 || rc=$?
  t1=$(cut -d' ' -f1 /proc/uptime)
  cat /tmp/usb-tut3.txt
  echo "=== END tutorial3 usb rc=$rc time=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')"
  [ $rc = 0 ] || fail "tutorial 3 over usb exited with $rc"
else
  fail "no rv32im tutorial 3 staged in $tut (usb-test.sh stages it)"
fi
step "gc-reset"
gc-reset -d 0 || fail "gc-reset"
step "gc-monitor"
gc-monitor > /tmp/usb-monitor.txt 2>&1 || fail "gc-monitor exited with $?"
cat /tmp/usb-monitor.txt
grep -q " usb .*$place .*free" /tmp/usb-monitor.txt || fail "gc-monitor does not list the usb card ($place) as free"

# The pulled cable, mid-run: the host removes the device (QMP device_del) after "unplug now" while a program has
# the driver's transfers in flight, and plugs it back into the same port after "replug now". The rounds take three
# loads in turn: gc-run of compute.elf (an integer hash, ARG iterations a tile: minutes on the board's RTL; the
# driver polls the card's status all through a run), a 64 KiB tile-memory read (block frames, half a minute over
# this link), and a loop of 1 KiB reads by gc-info (each one opens, sets up the FTDI chip, reads and closes).
# The program must end within the driver's timeouts (at once: usbfs fails the transfers in flight) with a message
# naming the card and saying it is gone, gc-run with status 74 (the device stopped answering); the card leaves the
# list, opening it by its place says to plug it in, and once it is back it is listed and opens (and, after the
# rounds, runs hello). IPU_USB_UNPLUG_REPEAT=N (usb-test.sh; 3 by default) pulls it N times, the loads in turn.
spin=/usr/share/ipu-emu/tile/rv32im/compute.elf
# How long gc-run takes to attach, reset and load compute.elf (one iteration; the hash is its exit status): a long
# run is past that point, running, after twice the time.
t0=$(cut -d' ' -f1 /proc/uptime)
gc-run --arg 1 $spin > /dev/null 2>&1
settle=$(awk -v a="$t0" -v b="$(cut -d' ' -f1 /proc/uptime)" 'BEGIN { printf "%.1f", 2 * (b - a) + 1 }')
rounds=$(sed -n 's/.*ipu\.usbunplug=\([0-9][0-9]*\).*/\1/p' /proc/cmdline)
round=0
while [ $round -lt "${rounds:-1}" ]; do
  round=$((round + 1))
  r0=$(cut -d' ' -f1 /proc/uptime)
  case $((round % 3)) in
  1)
    load="gc-run of compute.elf" tool=gc-run
    step "mid-run pull $round: $load"
    gc-run --arg 2000000 $spin > /tmp/usb-midrun.txt 2>&1 &
    ;;
  2)
    load="a 64 KiB tile-memory read" tool=gc-info
    step "mid-run pull $round: $load"
    # The card still runs the compute.elf of the round before (the pull stopped gc-run, not the board).
    gc-reset -d 0 || fail "gc-reset after the replug"
    gc-info -d 0 --dump-mem 0,0x100000,65536 > /tmp/usb-dump.txt 2> /tmp/usb-midrun.txt &
    ;;
  0)
    # Each read opens the card (claim, FTDI setup), reads and closes it: the pull may hit any of those. The card is
    # named by its place, so that an open after the pull names it too (by id it would just not be there).
    load="a loop of 1 KiB tile-memory reads" tool=gc-info
    step "mid-run pull $round: $load"
    ( while IPU_EMU_DEVICES=$place gc-info -d 0 --dump-mem 0,0x100000,1024 > /tmp/usb-dump.txt 2> /tmp/usb-midrun.txt
      do :; done; exit 1 ) &
    ;;
  esac
  run=$!
  if [ $tool = gc-run ]; then
    sleep "$settle"
  else
    # Reading once gc-info holds the card (gc-monitor names it) and has set the chip up.
    i=0
    while [ $i -lt 150 ] && ! gc-monitor 2>/dev/null | grep -q "$place .*in-use .*$tool"; do sleep 0.2; i=$((i + 1)); done
    sleep 2
  fi
  kill -0 $run 2>/dev/null || fail "$load ended before the pull: $(cat /tmp/usb-midrun.txt)"
  step "unplug now"
  t0=$(cut -d' ' -f1 /proc/uptime)
  # At most 30 s: the driver's longest wait is a request's 10 s.
  i=0
  while [ $i -lt 150 ] && kill -0 $run 2>/dev/null; do sleep 0.2; i=$((i + 1)); done
  if kill -0 $run 2>/dev/null; then
    fail "$load still runs 30 s after the pull (a hang)"
    kill -9 $run
  fi
  rc=0; wait $run || rc=$?
  t1=$(cut -d' ' -f1 /proc/uptime)
  cat /tmp/usb-midrun.txt
  [ $rc != 0 ] || fail "$load succeeded although the cable was pulled"
  [ $tool = gc-info ] || [ $rc = 74 ] || fail "gc-run exited with $rc after the pull, not 74 (the device stopped answering)"
  # Gone mid-transfer, or (a loop's next open) not there: either way the card is named and the fix given.
  grep -q "$tool: error: .*($place) is gone: .*plug it back in\|$tool: error: .*($place): .*plug the board in" \
    /tmp/usb-midrun.txt || fail "$tool's error does not say that the card ($place) is gone and to plug it back in"
  wait_card 30 gone || fail "the unplugged card is still listed 30 s after the unplug"
  # Named by its place while it is away: an error that says to plug it in.
  if IPU_EMU_DEVICES=$place gc-info -d 0 -i > /tmp/usb-after.txt 2>&1; then
    fail "gc-info on the unplugged card ($place) succeeded"
  fi
  cat /tmp/usb-after.txt
  grep -qi "plug the board in" /tmp/usb-after.txt || fail "opening the unplugged card does not say to plug it in"
  step "replug now"
  wait_card 30 || fail "the card did not come back within 30 s of the replug"
  back=$(gc-info -l 2>/dev/null | awk '$2 == "usb" { print $4; exit }')
  [ "$back" = "$place" ] || fail "the card came back at $back, not at its place $place (the same port)"
  gc-info -d 0 -i > /tmp/usb-back.txt 2>&1 || fail "the card does not open again after the replug"
  grep -E '^(location|state|card_cycles):' /tmp/usb-back.txt
  t2=$(cut -d' ' -f1 /proc/uptime)
  echo "mid-run pull: $load exited with $rc $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s after" \
       "the cue; the round took $(awk -v a="$r0" -v b="$t2" 'BEGIN { printf "%.1f", b - a }') s"
done
# hello again on the card that came back: tile 0 only (loading all four tiles over the emulated UART takes a minute).
step "gc-run hello after the replug"
t0=$(cut -d' ' -f1 /proc/uptime)
gc-run -t 0 /usr/share/ipu-emu/tile/rv32im/hello.elf > /tmp/usb-hello2.txt 2>&1 || fail "gc-run hello after the replug exited with $?"
t1=$(cut -d' ' -f1 /proc/uptime)
cat /tmp/usb-hello2.txt
echo "mid-run pull: hello after the replug took $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s"
grep -q "hello from tile 0" /tmp/usb-hello2.txt || fail "gc-run hello after the replug printed no greeting"
step "reopened"
exit $status
