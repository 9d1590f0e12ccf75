#!/usr/bin/env bash
# Packs the guest's initramfs: busybox-static, the vfio modules of Debian's
# kernel, the project's programs and boards, and the init script. EXTRA_ROOT
# (optional, see tutorials.sh) is a tree laid over the root as it is.
# Static programs go in alone; a dynamic one (the Poplar programs, linked with
# libpoplar.so) comes with every library ldd lists: system libraries (and the
# loader) at the path ldd resolved them to, the build's own beside libc, so
# that the guest's loader finds exactly the files the host's would.
# Usage: initramfs.sh BIN_DIR KERNEL_VERSION OUT.cpio.gz [EXTRA_ROOT]
set -euo pipefail
bin=$1 kver=$2 out=$3 extra=${4:-}
root=$(cd "$(dirname "$0")/../.." && pwd)
here=$(cd "$(dirname "$0")" && pwd)
stage=$(mktemp -d "${TMPDIR:-/tmp}/ipu-initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,usr/bin,usr/share/ipu-emu/boards,lib/modules,proc,sys,dev,tmp,run}

busybox=$(command -v busybox || echo /bin/busybox)
# A static binary has no program interpreter (readelf is in binutils, with gcc).
is_static() { ! readelf -l "$1" 2>/dev/null | grep -q 'program interpreter'; }
is_static "$busybox" || { echo "busybox is not static: apt-get install busybox-static" >&2; exit 1; }
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
  [ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done

# vfio-pci and what it needs, then the xHCI USB host (the usb transport's guest
# test: QEMU's usb-serial FTDI device on qemu-xhci; no ftdi_sio, so that libusb
# finds the chip free), in load order (uncompressed .ko in Debian 12).
mods=/lib/modules/$kver/kernel
for m in virt/lib/irqbypass.ko drivers/vfio/vfio.ko drivers/vfio/vfio_iommu_type1.ko \
         drivers/vfio/vfio_virqfd.ko drivers/vfio/pci/vfio-pci-core.ko drivers/vfio/pci/vfio-pci.ko \
         drivers/usb/common/usb-common.ko drivers/usb/core/usbcore.ko drivers/usb/host/xhci-hcd.ko \
         drivers/usb/host/xhci-pci.ko; do
  if [ -f "$mods/$m" ]; then cp "$mods/$m" "$stage/lib/modules/"; echo "$(basename "$m")" >> "$stage/lib/modules/order"
  elif [ -f "$mods/$m.xz" ]; then xz -dc "$mods/$m.xz" > "$stage/lib/modules/$(basename "$m")"; echo "$(basename "$m")" >> "$stage/lib/modules/order"
  fi
done

# Programs and libraries go in without their debug information: it is most of
# their size (libpoplar's alone is ~20 MB), and the kernel unpacks the whole
# initramfs at every boot. (Only these: the .gp codelets and tile images keep the
# DWARF that libpoplar reads.)
copy_stripped() { cp -L "$1" "$2"; strip --strip-debug "$2"; }
# Copies the shared libraries (and the program interpreter) of a dynamic program.
add_libraries() {
  local deps lib
  deps=$(ldd "$1")
  case $deps in *'not found'*) echo "$deps" >&2; echo "initramfs: $1 misses libraries" >&2; exit 1 ;; esac
  for lib in $(echo "$deps" | sed -n 's|.*=> \(/[^ ]*\) .*|\1|p; s|^[[:space:]]*\(/[^ ]*\) .*|\1|p'); do
    # System libraries and the loader keep their paths. The build's own
    # (libpoplar, found through the program's RUNPATH) go beside libc, where
    # the guest's loader finds them by default: the build folder's path may
    # be hidden in the guest (it mounts a tmpfs on /tmp).
    case $lib in
      /lib/*|/lib64/*|/usr/lib/*) dest=$lib ;;
      *) dest=$(dirname "$(echo "$deps" | sed -n 's|.*libc\.so\.6 => \(/[^ ]*\) .*|\1|p')")/${lib##*/} ;;
    esac
    if [ ! -e "$stage$dest" ]; then
      mkdir -p "$stage$(dirname "$dest")"
      copy_stripped "$lib" "$stage$dest"
    fi
  done
}
# Programs only: BIN_DIR may also hold scripts generated for the host (bench wrappers).
is_elf() { readelf -h "$1" >/dev/null 2>&1; }
for f in "$bin"/*; do
  [ -x "$f" ] && [ -f "$f" ] && is_elf "$f" || continue
  copy_stripped "$f" "$stage/usr/bin/${f##*/}"
  if ! is_static "$f"; then add_libraries "$f"; fi
done
if [ -n "$extra" ]; then
  cp -a "$extra/." "$stage/"
  for f in "$extra"/usr/bin/*; do
    [ -x "$f" ] && [ -f "$f" ] && is_elf "$f" || continue
    strip --strip-debug "$stage/usr/bin/${f##*/}"
    if ! is_static "$f"; then add_libraries "$f"; fi
  done
fi
cp "$root"/boards/*.toml "$stage/usr/share/ipu-emu/boards/"
cp "$here/guest-init.sh" "$stage/init"
cp "$root/tests/integration/qemu/guest_test.sh" "$stage/usr/bin/ipu-guest-test"
cp "$root/tests/integration/qemu/guest_usb_test.sh" "$stage/usr/bin/ipu-guest-usb-test"
cp "$root/tests/integration/qemu/guest_group_test.sh" "$stage/usr/bin/ipu-guest-group-test"
chmod +x "$stage/init" "$stage/usr/bin/ipu-guest-test" "$stage/usr/bin/ipu-guest-usb-test" "$stage/usr/bin/ipu-guest-group-test"
(cd "$stage" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) > "$out.tmp"
mv "$out.tmp" "$out"
