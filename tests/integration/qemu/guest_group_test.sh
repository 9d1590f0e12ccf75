#!/bin/sh
# Runs inside the guest (ipu.grouptest=1, started by scripts/qemu/group-test.sh). QEMU gave it a link group of two
# ipu-card devices (one 2-IPU card) and a group whose second member is missing. gc-info must list each group once,
# the complete one with 2 IPUs; opening the incomplete one must be refused naming the missing IPU; the manifest's
# 2-IPU program runs on the complete group, its output framed so that group-test.sh can diff it against the
# in-process model's.
status=0
uptime_s() { cut -d' ' -f1 /proc/uptime; }
echo "=== guest up after $(uptime_s) s"
echo "=== gc-info -l"
gc-info -l > /tmp/list.txt 2>&1 || { echo "FAIL: gc-info -l"; status=1; }
cat /tmp/list.txt
# Every listed device: the complete group opens with 2 IPUs, the incomplete one is refused.
complete=0 refused=0 bad_slot=
for id in 0 1 2 3; do
  gc-info -d $id -i > /tmp/info$id.txt 2>&1; rc=$?
  grep -q 'no device' /tmp/info$id.txt && break
  echo "=== gc-info -d $id -i (exit $rc)"
  cat /tmp/info$id.txt
  if [ $rc = 0 ] && grep -Eq 'num_ipus"?[:= ]+2([^0-9]|$)' /tmp/info$id.txt; then
    complete=$((complete + 1))
  elif [ $rc != 0 ] && grep -q 'link group 2 is incomplete: IPU 1 of its 2 is missing' /tmp/info$id.txt; then
    refused=$((refused + 1))
    bad_slot=$(sed -n 's/.*(found \([0-9a-f:.]*\) as IPU 0).*/\1/p' /tmp/info$id.txt | head -n1)
  else
    echo "FAIL: device $id is neither the 2-IPU group nor the refused incomplete one"; status=1
  fi
done
[ $complete = 1 ] || { echo "FAIL: $complete devices with 2 IPUs listed instead of 1"; status=1; }
[ $refused = 1 ] && [ -n "$bad_slot" ] || { echo "FAIL: the incomplete group was not refused as expected"; status=1; }
# The program sees the complete group only: the DeviceManager opens every device it lists.
mkdir -p /tmp/complete
for d in /sys/bus/pci/devices/*; do [ "${d##*/}" = "$bad_slot" ] || ln -s "$d" /tmp/complete/; done
tutdir=/usr/share/ipu-emu/tutorials
grep -v '^#' $tutdir/tutorials.txt > /tmp/programs.txt
while read -r name args; do
  [ -n "$name" ] || continue
  t0=$(uptime_s)
  # shellcheck disable=SC2086 # args is the manifest's word list
  (cd $tutdir && IPU_EMU_PCI_ROOT=/tmp/complete "$name" $args) > "/tmp/$name.out" 2>&1; rc=$?
  t1=$(uptime_s)
  echo "=== BEGIN tutorial $name ==="
  cat "/tmp/$name.out"
  echo "=== END tutorial $name rc=$rc time=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
  [ $rc = 0 ] || { echo "FAIL: $name exited with $rc"; status=1; }
done < /tmp/programs.txt
exit $status
