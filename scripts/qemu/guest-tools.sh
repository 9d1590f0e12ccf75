#!/usr/bin/env bash
# Builds the statically linked programs the guest runs (the gc tools, and the
# Poplar tutorials once hostlib provides them) in BUILD_DIR/qemu-guest/tools,
# a separate CMake build of this project linked with -static.
# Usage: guest-tools.sh BUILD_DIR   -> prints the directory of the binaries
set -euo pipefail
build=$(cd "${1:?usage: guest-tools.sh BUILD_DIR}" && pwd)
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$build/qemu-guest/tools
log() { echo "[qemu-guest] $*" >&2; }
if [ ! -f "$out/build.ninja" ]; then
  log "configuring the static guest build in $out"
  cmake -S "$root" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DIPU_SANITIZE=OFF \
    -DCMAKE_EXE_LINKER_FLAGS=-static >"$build/qemu-guest/tools-configure.log" 2>&1 ||
    { tail -n 30 "$build/qemu-guest/tools-configure.log" >&2; exit 1; }
fi
# Whatever of the guest's programs this checkout has (the driver's tools always).
targets=$(cmake --build "$out" --target help 2>/dev/null | sed -n 's/^\(gc[-_][a-z_-]*\|tutorial[0-9a-z_-]*\):.*/\1/p' | sort -u)
[ -n "$targets" ] || { log "no guest programs found (driver/tools missing?)"; exit 1; }
log "building $(echo $targets | tr '\n' ' ')"
cmake --build "$out" -j"${IPU_QEMU_JOBS:-2}" --target $targets >"$build/qemu-guest/tools-build.log" 2>&1 ||
  { tail -n 30 "$build/qemu-guest/tools-build.log" >&2; exit 1; }
echo "$out/bin"
