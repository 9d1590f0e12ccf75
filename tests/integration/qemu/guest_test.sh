#!/bin/sh
# Runs inside the guest (ipu.test=1): the card must be listed, host traffic must
# work through vfio, and every Poplar program of the manifest (staged by
# scripts/qemu/tutorials.sh) runs on the card; its output is framed so that
# scripts/qemu/test.sh can diff it against the in-process model's.
status=0
# Seconds since the kernel started: the boot time, and the clock for the programs' run times (busybox's date has no
# sub-second format; /proc/uptime has hundredths).
uptime_s() { cut -d' ' -f1 /proc/uptime; }
step() { echo "=== $1"; }
step "guest up after $(uptime_s) s"
step "gc-info -l"
if gc-info -l > /tmp/info.txt 2>&1; then cat /tmp/info.txt; else cat /tmp/info.txt; echo "FAIL: gc-info -l"; status=1; fi
grep -q . /tmp/info.txt || { echo "FAIL: gc-info -l lists no card"; status=1; }
step "gc-hosttraffictest"
if command -v gc-hosttraffictest >/dev/null; then
  gc-hosttraffictest -d 0 --max 1048576 --time 0.05 || { echo "FAIL: gc-hosttraffictest"; status=1; }
else
  echo "FAIL: gc-hosttraffictest is not in the initramfs"; status=1
fi
# Tiles run on the card: host-sync round trips through vfio, then a reset.
step "gc-hostsynclatencytest"
gc-hostsynclatencytest -d 0 -n 100 || { echo "FAIL: gc-hostsynclatencytest"; status=1; }
# The card tests: tile programs through vfio, results read back by DMA and checked.
step "gc-memorytest"
gc-memorytest -d 0 -p walking-ones || { echo "FAIL: gc-memorytest"; status=1; }
step "gc-exchangetest"
gc-exchangetest -d 0 || { echo "FAIL: gc-exchangetest"; status=1; }
step "gc-iputraffictest"
gc-iputraffictest -d 0 -i 10 || { echo "FAIL: gc-iputraffictest"; status=1; }
step "gc-flops"
gc-flops -d 0 -i 200 || { echo "FAIL: gc-flops"; status=1; }
step "ipu-mmio-latency"
ipu-mmio-latency 0 10000 || { echo "FAIL: ipu-mmio-latency"; status=1; }
step "gc-reset"
gc-reset -d 0 || { echo "FAIL: gc-reset"; status=1; }
# The programs run from the manifest's folder (their arguments are relative to it), stdout and stderr into one
# file as on the host, so that both see the same buffering and interleave the streams the same way.
tutdir=/usr/share/ipu-emu/tutorials
# The location of the card for tutorial $1: the card whose tile count and memory per tile are those of the
# program's board (the guest's driver reports no board name for a vfio card). tutorials.sh read the board on the
# host, by the board reader's rules, into $1.card ("TILES BYTES_PER_TILE"): the guest has no board reader to run.
card_of_board() {
  f=$tutdir/$1.card
  [ -f "$f" ] || return 0
  read -r tiles mem < "$f"
  gc-info -l | awk 'NR > 1 { print $1, $4 }' | while read -r id loc; do
    gc-info -d "$id" -i > /tmp/card-info.txt 2>&1 || continue
    if grep -qx "num_tiles: $tiles" /tmp/card-info.txt && grep -qx "tile_mem_bytes: $mem" /tmp/card-info.txt; then
      echo "$loc"; break
    fi
  done
}
step "tutorials"
if [ -f $tutdir/tutorials.txt ]; then
  grep -v '^#' $tutdir/tutorials.txt > /tmp/tutorials.txt
  while read -r name args; do
    [ -n "$name" ] || continue
    # A program with its own board runs on that card alone (IPU_EMU_PCI_ROOT: a folder holding only its entry).
    pci_root=
    if [ -f "$tutdir/$name.board" ]; then
      board=$(cat "$tutdir/$name.board") loc=$(card_of_board "$name")
      [ -n "$loc" ] || { echo "FAIL: no card of board $board for tutorial $name"; status=1; continue; }
      pci_root=/tmp/card-$name
      mkdir -p "$pci_root" && ln -sf "/sys/bus/pci/devices/$loc" "$pci_root/$loc"
      echo "=== tutorial $name on card $loc (board $board)"
    fi
    t0=$(uptime_s)
    # shellcheck disable=SC2086 # args is the manifest's word list
    (cd $tutdir && if [ -n "$pci_root" ]; then export IPU_EMU_PCI_ROOT=$pci_root; fi && "$name" $args) \
      > "/tmp/$name.out" 2>&1; rc=$?
    t1=$(uptime_s)
    echo "=== BEGIN tutorial $name ==="
    cat "/tmp/$name.out"
    echo "=== END tutorial $name rc=$rc time=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
    [ $rc = 0 ] || { echo "FAIL: tutorial $name exited with $rc"; status=1; }
  done < /tmp/tutorials.txt
else
  echo "FAIL: no tutorial manifest in the initramfs ($tutdir/tutorials.txt)"; status=1
fi
# Record and replay (docs/trace-format.md): when test.sh adds a second card whose session QEMU records
# (record=FILE), the first program of the manifest runs once more, on that card alone (IPU_EMU_PCI_ROOT names a
# folder holding only its sysfs entry); test.sh replays the trace in-process on the host.
recorded=$(for d in /sys/bus/pci/devices/*; do
             [ "$(cat "$d/vendor"):$(cat "$d/device")" = 0x1234:0x11e9 ] && echo "${d##*/}"
           done | sed -n 2p)
if [ -n "$recorded" ] && [ -s /tmp/tutorials.txt ]; then
  step "recorded tutorial on card $recorded"
  mkdir -p /tmp/recorded-card && ln -sf "/sys/bus/pci/devices/$recorded" "/tmp/recorded-card/$recorded"
  read -r name args < /tmp/tutorials.txt
  # shellcheck disable=SC2086 # args is the manifest's word list
  (cd $tutdir && IPU_EMU_PCI_ROOT=/tmp/recorded-card "$name" $args) > /tmp/recorded.out 2>&1; rc=$?
  cat /tmp/recorded.out
  echo "=== END recorded $name rc=$rc"
  [ $rc = 0 ] || { echo "FAIL: tutorial $name on the recorded card exited with $rc"; status=1; }
fi
exit $status
