#!/bin/sh
# Uses an install tree as a user outside the source tree would: pkg-config for every installed .pc file, each
# installed ipu_card header alone as C11, `cc x.c -lipudrv`, and a CMake project that finds poplar and ipudrv with
# find_package.
# Usage: check_install.sh <install-prefix> <this-folder>
# INSTALL_CFLAGS: compiler flags the sanitizer build's libraries need in the programs that link them.
set -eu
prefix=$1 here=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig" LD_LIBRARY_PATH="$prefix/lib"
status=0
for pc in "$prefix"/lib/pkgconfig/*.pc; do
  lib=$(basename "$pc" .pc)
  libs=$(pkg-config --libs "$lib") || { echo "FAIL: pkg-config $lib"; status=1; continue; }
  echo "pkg-config $lib: $libs"
done
for lib in poplar ipudrv; do
  [ -f "$prefix/lib/pkgconfig/$lib.pc" ] || { echo "FAIL: no $lib.pc installed"; status=1; }
done
echo "+ cc -std=c11 driver_client.c \$(pkg-config --cflags --libs ipudrv)"
# shellcheck disable=SC2046 # pkg-config's output is a word list
cc -std=c11 -Wall -Werror ${INSTALL_CFLAGS:-} "$here/driver_client.c" $(pkg-config --cflags --libs ipudrv) \
  -o "$work/driver_client"
IPU_EMU_DEVICES=tiny "$work/driver_client" || { echo "FAIL: the driver client"; status=1; }
# The card's contract headers go to every user of the driver: each must compile alone in a C11 program (the C++20
# backend_class.hpp stays in the source tree, contract/CMakeLists.txt; an install tree made before that change may
# still hold it, as cmake --install removes nothing, hence *.h).
echo "+ cc -std=c11 on each installed include/ipu_card header alone"
headers=0
for h in "$prefix"/include/ipu_card/*.h; do
  headers=$((headers + 1))
  printf '#include <ipu_card/%s>\nint main(void) { return 0; }\n' "$(basename "$h")" > "$work/header.c"
  cc -std=c11 -Wall -Werror -fsyntax-only -I"$prefix/include" "$work/header.c" ||
    { echo "FAIL: installed ipu_card/$(basename "$h") does not compile alone as C11"; status=1; }
done
[ "$headers" -ge 3 ] || { echo "FAIL: $headers ipu_card headers installed; expected backend.h, hw.h, link_frame.h"; status=1; }
echo "+ cmake project with find_package(poplar) and find_package(ipudrv)"
if cmake -S "$here/consumer" -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" \
     -DDRIVER_CLIENT_SOURCE="$here/driver_client.c" -DCMAKE_C_FLAGS="${INSTALL_CFLAGS:-}" \
     -DCMAKE_CXX_FLAGS="${INSTALL_CFLAGS:-}" > "$work/cmake.log" 2>&1 &&
   cmake --build "$work/consumer" >> "$work/cmake.log" 2>&1; then
  "$work/consumer/poplar_client" || { echo "FAIL: poplar_client"; status=1; }
  IPU_EMU_DEVICES=tiny "$work/consumer/driver_client" || { echo "FAIL: driver_client (CMake)"; status=1; }
else
  cat "$work/cmake.log"; echo "FAIL: the find_package project does not build"; status=1
fi
exit $status
