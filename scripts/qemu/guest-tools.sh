#!/usr/bin/env bash
# Builds the statically linked gc tools (and ipu-mmio-latency, the guest's MMIO
# benchmark from tests/integration/qemu) the guest runs in
# BUILD_DIR/qemu-guest/tools, a separate CMake build of this project linked with
# -static. (The Poplar programs link libpoplar.so, so they cannot be static: they
# come from BUILD_DIR with their libraries, see tutorials.sh and initramfs.sh.)
# Usage: guest-tools.sh BUILD_DIR   -> prints the directory of the binaries
set -euo pipefail
build=$(cd "${1:?usage: guest-tools.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/qemu-guest/tools
mkdir -p "$out"
log() { echo "[qemu-guest] $*" >&2; }
if [ ! -f "$out/build.ninja" ]; then
  log "configuring the static guest build in $out"
  # The guest reaches the card through vfio: its tools do not need the RTL
  # transport, whose Verilated card would add minutes of compiling.
  cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIPU_SANITIZE=OFF \
    -DCMAKE_DISABLE_FIND_PACKAGE_verilator=TRUE \
    -DCMAKE_EXE_LINKER_FLAGS=-static >"$build/qemu-guest/tools-configure.log" 2>&1 ||
    { tail -n 30 "$build/qemu-guest/tools-configure.log" >&2; exit 1; }
fi
all=$(cmake --build "$out" --target help 2>/dev/null | sed -n 's/^\([A-Za-z0-9_-]*\):.*/\1/p')
for t in gc_tools ipu-mmio-latency; do
  echo "$all" | grep -qx -- "$t" || { log "the $t target is missing"; exit 1; }
done
log "building gc_tools ipu-mmio-latency"
cmake --build "$out" -j"${IPU_QEMU_JOBS:-2}" --target gc_tools ipu-mmio-latency \
  >"$build/qemu-guest/tools-build.log" 2>&1 ||
  { tail -n 30 "$build/qemu-guest/tools-build.log" >&2; exit 1; }
echo "$out/bin"
