#!/bin/sh
# /init of the ipu-emu guest: mounts, loads vfio-pci, binds every ipu-emu card
# (1234:11e9) to it, then runs the guest test (ipu.test=1) or a shell.
export PATH=/usr/bin:/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts && mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /tmp
for m in $(cat /lib/modules/order); do insmod "/lib/modules/$m" || echo "init: insmod $m failed"; done
for d in /sys/bus/pci/devices/*; do
  [ "$(cat "$d/vendor"):$(cat "$d/device")" = "0x1234:0x11e9" ] || continue
  echo vfio-pci > "$d/driver_override"
  echo "${d##*/}" > /sys/bus/pci/drivers_probe
  echo "init: card ${d##*/} -> $(basename "$(readlink "$d/driver")") (iommu group $(basename "$(readlink "$d/iommu_group")"))"
done
# Only the PCI cards: no simulated ones in the guest.
export IPU_EMU_DEVICES=
export IPU_BOARD_PATH=/usr/share/ipu-emu/boards
# libpoplar's data folder (tile runtime, device headers); the library's own lookup
# points into the host's build tree. Its tile images are in /root/.cache/ipu-emu.
export IPU_POPLAR_DATA_DIR=/usr/share/poplar
export HOME=/root
mkdir -p /root
if grep -q 'ipu.usbtest=1' /proc/cmdline; then
  ipu-guest-usb-test
  echo "ipu-guest-usb-test: exit $?"
  poweroff -f
fi
if grep -q 'ipu.grouptest=1' /proc/cmdline; then
  ipu-guest-group-test
  echo "ipu-guest-group-test: exit $?"
  poweroff -f
fi
if grep -q 'ipu.test=1' /proc/cmdline; then
  ipu-guest-test
  echo "ipu-guest-test: exit $?"
  poweroff -f
fi
echo "ipu-emu guest: gc-info -l lists the card; 'poweroff -f' (or Ctrl-A x) quits."
echo "Poplar programs: /usr/share/ipu-emu/tutorials/tutorials.txt lists them; run them from that folder."
exec setsid cttyhack sh -l
