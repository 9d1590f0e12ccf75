#!/bin/sh
# Runs inside the guest (ipu.test=1): the card must be listed, host traffic must
# work through vfio, and every Poplar tutorial present runs on the card; its
# output is framed so that scripts/qemu/test.sh can diff it against the model.
status=0
step() { echo "=== $1"; }
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
step "gc-reset"
gc-reset -d 0 || { echo "FAIL: gc-reset"; status=1; }
for t in /usr/bin/tutorial*; do
  [ -x "$t" ] || continue
  name=${t##*/}
  echo "=== BEGIN tutorial $name ==="
  "$t" 2>&1; rc=$?
  echo "=== END tutorial $name rc=$rc"
  [ $rc = 0 ] || status=1
done
exit $status
