# Shared by shell.sh and test.sh: build everything the guest needs and start it.
# The Poplar programs come from BUILD_DIR itself (make builds them); the gc
# tools from a static build of their own (guest-tools.sh).
# Sourced; defines prepare_guest BUILD_DIR and run_guest APPEND [qemu args...]
# ($qemu_prefix, e.g. "timeout 900", goes in front of QEMU).
# A test with programs and cards of its own sets, before prepare_guest/run_guest:
#   IPU_QEMU_PROGRAMS  a folder laid out as a build for tutorials.sh (bin/, share/) whose manifest is staged
#   IPU_QEMU_GUEST_DIR where the staged root, the outputs and the initramfs go (default BUILD_DIR/qemu-guest)
#   IPU_QEMU_CARDS     the -device arguments of the cards (default: one card on root port rp0)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
here=$root/scripts/qemu
log() { echo "[qemu] $*" >&2; }

# Sets qemu, kernel, initrd; exits 77 when something outside the project is missing. IPU_QEMU_VARIANT picks the
# QEMU build (build.sh's release, the default, or asan: the ctest guest tests boot the ASan one, which the fault tests
# build anyway, so that a test run builds QEMU once).
prepare_guest() {
  local build=$1 rc=0 variant=${IPU_QEMU_VARIANT:-release}
  qemu=$("$here/build.sh" "$variant") || rc=$?
  [ $rc = 0 ] || exit $rc
  # QEMU has known leaks at exit; a memory error still stops it with ASan's report (and fails the test).
  if [ "$variant" = asan ]; then export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"; fi
  kernel=$(ls /boot/vmlinuz-* 2>/dev/null | sort -V | tail -n1 || true)
  if [ -z "$kernel" ] || [ ! -r "$kernel" ]; then
    log "SKIP: no kernel in /boot: apt-get install linux-image-amd64"; exit 77
  fi
  local kver=${kernel#/boot/vmlinuz-}
  [ -d "/lib/modules/$kver" ] || { log "SKIP: /lib/modules/$kver missing"; exit 77; }
  command -v busybox >/dev/null || [ -x /bin/busybox ] || { log "SKIP: apt-get install busybox-static"; exit 77; }
  local bin guest=${IPU_QEMU_GUEST_DIR:-$build/qemu-guest}
  bin=$("$here/guest-tools.sh" "$build")
  # The Poplar programs: run on the in-process model first (the reference output, and the tile images the guest
  # cannot link itself), then staged with their data for the initramfs.
  "$here/tutorials.sh" "${IPU_QEMU_PROGRAMS:-$build}" "$guest/root" "$guest" "${IPU_QEMU_BOARD:-tiny}"
  # The rv32im hello for the board behind the usb transport (usb-test.sh), when this build has it.
  local hello=$build/tile/rtl-tiny/bin/hello.elf
  if [ -f "$hello" ]; then install -D -m 644 "$hello" "$guest/root/usr/share/ipu-emu/tile/rv32im/hello.elf"; fi
  initrd=$guest/initramfs.cpio.gz
  "$here/initramfs.sh" "$bin" "$kver" "$initrd" "$guest/root"
  log "kernel $kernel, initramfs $initrd ($(du -h "$initrd" | cut -f1)), QEMU $qemu"
}

# q35 with a virtual IOMMU (so vfio works in the guest) and the card behind a
# PCIe root port, like a real card in a slot. no_timer_check: on a busy host the
# emulated CPU can miss the kernel's early timer test, which then panics
# ("timer doesn't work through Interrupt-remapped IO-APIC").
run_guest() {
  local append=$1; shift
  local cards=${IPU_QEMU_CARDS:-"-device pcie-root-port,id=rp0,chassis=1,slot=1
    -device ipu-card,bus=rp0,board=${IPU_QEMU_BOARD:-tiny},board-path=$root/boards"}
  # shellcheck disable=SC2086 # cards is a list of QEMU arguments without spaces inside them
  ${qemu_prefix:-} "$qemu" -M q35,kernel-irqchip=split -m 1G -smp 2 -nographic -nodefaults -no-reboot \
    -L /usr/share/qemu -L /usr/share/seabios \
    -device intel-iommu,intremap=on \
    $cards \
    -kernel "$kernel" -initrd "$initrd" \
    -append "console=ttyS0 quiet panic=-1 intel_iommu=on no_timer_check $append" "$@"
}
