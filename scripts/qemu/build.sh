#!/usr/bin/env bash
# Builds qemu-system-x86_64 with the ipu-card device from Debian's QEMU source,
# cached under ~/.cache/ipu-emu/qemu-build keyed by QEMU version, variant and a
# hash of the device sources; prints the binary's path on stdout.
# Usage: build.sh [release|asan]
# Exit codes: 0 built or cached, 77 QEMU cannot be built for a reason outside
# the project (no source, no build tools), anything else a real failure.
set -euo pipefail
variant=${1:-release}
root=$(cd "$(dirname "$0")/../.." && pwd)
cache=${IPU_EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipu-emu}
jobs=${IPU_QEMU_JOBS:-2}
log() { echo "[qemu-build] $*" >&2; }
skip() { log "SKIP: $*"; exit 77; }

case $variant in release|asan) ;; *) log "unknown variant '$variant' (release or asan)"; exit 2 ;; esac
for tool in meson ninja cmake flex bison pkg-config; do
  command -v "$tool" >/dev/null || skip "$tool is not installed (make deps)"
done
pkg-config --exists glib-2.0 pixman-1 || skip "libglib2.0-dev or libpixman-1-dev missing (make deps)"
src=$(ls -d "$cache"/qemu-src/qemu-*/ 2>/dev/null | head -n1 || true)
if [ -z "$src" ] || [ ! -f "$cache/qemu-src/.complete" ]; then
  "$root/scripts/fetch-qemu-source.sh" "$cache" >&2 || skip "QEMU's Debian source is not available (make deps)"
  src=$(ls -d "$cache"/qemu-src/qemu-*/ | head -n1)
fi
src=${src%/}
version=${src##*/qemu-}

# The key: everything that ends up in the binary from this project (the registry
# of embodiments and lock-step in backends/ included), including the RTL card (rtl/cmake, rtl/sim and the SystemVerilog) and
# the Verilator that builds it, or its absence: installing Verilator later gives
# a new binary with backend=rtl.
inputs=$(cd "$root" && find qemu-device model contract/include boards/lib backends scripts/qemu/build.sh scripts/qemu/patches \
           rtl/cmake rtl/sim rtl/pkg rtl/tile rtl/card rtl/lint rtl/sources.txt \
           -path qemu-device/README.md -prune -o -type f \( -name '*.c' -o -name '*.h' -o -name '*.cpp' \
           -o -name '*.hpp' -o -name '*.txt' -o -name '*.cmake' -o -name '*.build' -o -name '*.mak' \
           -o -name 'Kconfig' -o -name 'trace-events' -o -name '*.sh' -o -name '*.sv' -o -name '*.vlt' \
           -o -name '*.in' -o -name '*.patch' \) -print | LC_ALL=C sort)
verilator=$(verilator --version 2>/dev/null || echo none)
hash=$(cd "$root" && { echo "$version $variant $verilator"; for f in $inputs; do echo "$f"; cat "$f"; done; } |
       sha256sum | cut -c1-12)
out=$cache/qemu-build/$version-$variant-$hash
if [ -x "$out/qemu-system-x86_64" ]; then
  log "cached: $out"
  echo "$out/qemu-system-x86_64"
  exit 0
fi

mkdir -p "$cache/qemu-build"
exec 9>"$cache/qemu-build/.lock-$variant"
flock 9
if [ -x "$out/qemu-system-x86_64" ]; then echo "$out/qemu-system-x86_64"; exit 0; fi
start=$(date +%s)
work=$cache/qemu-build/work-$variant

# A hard-linked copy of the pristine tree; every file we change is replaced
# (never edited in place) so that the extracted source stays untouched.
if [ ! -f "$work/.source" ] || [ "$(cat "$work/.source")" != "$src" ]; then
  log "copying $src"
  rm -rf "$work" && mkdir -p "$work"
  cp -al "$src" "$work/src"
  echo "$src" > "$work/.source"
fi
qsrc=$work/src
dev=$root/qemu-device

# The card model core (and the RTL card, with Verilator) as static PIC archives
# (see qemu-device/meson.build).
log "building the card model core ($variant, RTL card: $verilator)"
sanitize=OFF; [ "$variant" = asan ] && sanitize=ON
# The cache outlives checkouts: a corelib build configured from another
# checkout's source is started afresh (CMake refuses to switch sources).
if [ -f "$work/corelib/CMakeCache.txt" ] &&
   ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$dev/corelib" "$work/corelib/CMakeCache.txt"; then
  rm -rf "$work/corelib"
fi
cmake -S "$dev/corelib" -B "$work/corelib" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DIPU_SANITIZE=$sanitize >"$work/corelib.log" 2>&1 || { tail -n 30 "$work/corelib.log" >&2; exit 1; }
cmake --build "$work/corelib" -j"$jobs" >>"$work/corelib.log" 2>&1 || { tail -n 30 "$work/corelib.log" >&2; exit 1; }
# corelib's qemu-link.txt: archives in link order, include directories,
# defines, further link flags; one space-separated line each, as meson lists.
meson_list() { local out="" w; for w in $1; do out+="${out:+, }'$2$w'"; done; echo "$out"; }
{ read -r l_libs; read -r l_incs; read -r l_defs; read -r l_ldflags; } < "$work/corelib/qemu-link.txt"
libs=$(meson_list "$l_libs" "")
incs=$(meson_list "$l_incs" "")
defs=$(meson_list "$l_defs" "-D")
ldflags=$(meson_list "$l_ldflags" ""); ldflags=${ldflags:+$ldflags,}

# The device's files and its meson/Kconfig/trace-events lines.
install_file() { rm -f "$2"; cp "$1" "$2"; }
for f in hw/misc/meson.build hw/misc/Kconfig hw/misc/trace-events; do
  install_file "$src/$f" "$qsrc/$f"
done
sed -e "s|@IPU_INCLUDES@|$incs|" -e "s|@IPU_LIBS@|$libs|" -e "s|@IPU_DEFINES@|$defs|" \
    -e "s|@IPU_LDFLAGS@|$ldflags|" "$dev/meson.build" >> "$qsrc/hw/misc/meson.build"
cat "$dev/Kconfig" >> "$qsrc/hw/misc/Kconfig"
cat "$dev/trace-events" >> "$qsrc/hw/misc/trace-events"
for f in ipu_card.c ipu_card.h ipu_card_group.c ipu_card_faults.c; do
  install_file "$dev/$f" "$qsrc/hw/misc/$f"
done
install_file "$dev/ipu-card.mak" "$qsrc/configs/devices/x86_64-softmmu/ipu-card.mak"

# Fixes to QEMU itself (scripts/qemu/patches/*.patch, each explained in its header), applied to fresh copies of
# the files they touch. Files an earlier build patched are restored first: the work tree is shared by checkouts
# whose patch sets differ.
if [ -f "$work/.patched" ]; then
  while read -r f; do install_file "$src/$f" "$qsrc/$f"; done < "$work/.patched"
fi
: > "$work/.patched"
for p in "$root"/scripts/qemu/patches/*.patch; do
  [ -f "$p" ] || continue
  for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p"); do
    install_file "$src/$f" "$qsrc/$f"
    echo "$f" >> "$work/.patched"
  done
  patch -s -p1 -d "$qsrc" < "$p" || { log "$p does not apply to QEMU $version"; exit 1; }
  log "applied ${p##*/}"
done

# Configure once per variant; later builds are incremental.
conf=(--target-list=x86_64-softmmu --without-default-features --without-default-devices
      --with-devices-x86_64=ipu-card --disable-docs --disable-werror --meson=meson
      --enable-trace-backends=log)
[ "$variant" = asan ] && conf+=(--enable-sanitizers)
if [ ! -f "$qsrc/build/build.ninja" ] || [ "$(cat "$work/.configured" 2>/dev/null)" != "${conf[*]}" ]; then
  log "configuring QEMU $version ($variant)"
  rm -rf "$qsrc/build" && mkdir -p "$qsrc/build"
  (cd "$qsrc/build" && ../configure "${conf[@]}") >"$work/configure.log" 2>&1 ||
    { tail -n 30 "$work/configure.log" >&2; exit 1; }
  echo "${conf[*]}" > "$work/.configured"
fi
log "building qemu-system-x86_64 (ninja -j$jobs)"
(cd "$qsrc/build" && ninja -j"$jobs" qemu-system-x86_64) >"$work/ninja.log" 2>&1 ||
  { grep -B2 -A8 -m5 'error' "$work/ninja.log" >&2 || tail -n 40 "$work/ninja.log" >&2; exit 1; }

mkdir -p "$out.tmp"
cp "$qsrc/build/qemu-system-x86_64" "$out.tmp/"
echo "built $(date -u +%FT%TZ) in $(( $(date +%s) - start )) s from $src" > "$out.tmp/build-info"
rm -rf "$out" && mv "$out.tmp" "$out"
# Keep the two newest binaries of this variant; older keys are dead weight.
ls -dt "$cache/qemu-build/$version-$variant-"* 2>/dev/null | grep -v '\.tmp$' | tail -n +3 | xargs -r rm -rf
log "built in $(( $(date +%s) - start )) s: $out"
echo "$out/qemu-system-x86_64"
