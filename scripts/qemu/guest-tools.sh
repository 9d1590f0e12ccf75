#!/usr/bin/env bash
# Builds the statically linked gc tools the guest runs in
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
  cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIPU_SANITIZE=OFF \
    -DCMAKE_EXE_LINKER_FLAGS=-static >"$build/qemu-guest/tools-configure.log" 2>&1 ||
    { tail -n 30 "$build/qemu-guest/tools-configure.log" >&2; exit 1; }
fi
all=$(cmake --build "$out" --target help 2>/dev/null | sed -n 's/^\([A-Za-z0-9_-]*\):.*/\1/p')
echo "$all" | grep -qx gc_tools || { log "the gc_tools target is missing (driver/tools)"; exit 1; }
log "building gc_tools"
cmake --build "$out" -j"${IPU_QEMU_JOBS:-2}" --target gc_tools >"$build/qemu-guest/tools-build.log" 2>&1 ||
  { tail -n 30 "$build/qemu-guest/tools-build.log" >&2; exit 1; }
echo "$out/bin"
