#!/usr/bin/env bash
# Builds the gc tools, gc-run (and ipu-mmio-latency, the guest's MMIO benchmark from
# tests/integration/qemu) the guest runs in BUILD_DIR/qemu-guest/tools, a
# separate CMake build of this project without the RTL card. They are dynamic
# programs (initramfs.sh adds the libraries ldd lists), because the usb
# transport's libusb needs libudev, which Debian ships only as a shared library.
# (The Poplar programs come from BUILD_DIR itself, see tutorials.sh.)
# Usage: guest-tools.sh BUILD_DIR   -> prints the directory of the binaries
set -euo pipefail
build=$(cd "${1:?usage: guest-tools.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/qemu-guest/tools
mkdir -p "$out"
log() { echo "[qemu-guest] $*" >&2; }
# A tree configured by an older script (static tools, no usb transport) is configured afresh.
if [ -f "$out/CMakeCache.txt" ] && grep -q '^CMAKE_EXE_LINKER_FLAGS:.*-static' "$out/CMakeCache.txt"; then
  rm -rf "$out"; mkdir -p "$out"
fi
if [ ! -f "$out/build.ninja" ]; then
  log "configuring the guest build in $out"
  # The guest reaches the card through vfio: its tools do not need the RTL
  # transport, whose Verilated card would add minutes of compiling.
  cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIPU_SANITIZE=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_verilator=TRUE >"$build/qemu-guest/tools-configure.log" 2>&1 ||
    { tail -n 30 "$build/qemu-guest/tools-configure.log" >&2; exit 1; }
fi
all=$(cmake --build "$out" --target help 2>/dev/null | sed -n 's/^\([A-Za-z0-9_-]*\):.*/\1/p')
for t in gc_tools gc-run ipu-mmio-latency; do
  echo "$all" | grep -qx -- "$t" || { log "the $t target is missing"; exit 1; }
done
log "building gc_tools gc-run ipu-mmio-latency"
cmake --build "$out" -j"${IPU_QEMU_JOBS:-2}" --target gc_tools gc-run ipu-mmio-latency \
  >"$build/qemu-guest/tools-build.log" 2>&1 ||
  { tail -n 30 "$build/qemu-guest/tools-build.log" >&2; exit 1; }
echo "$out/bin"
