#!/bin/sh
# Checks that every shared library of an install tree carries RUNPATH $ORIGIN (and no other search path), so that
# each finds the libraries it needs beside itself wherever the tree is moved.
# Usage: install_runpath.sh <install-prefix>
set -eu
lib=$1/lib
count=0 bad=0
for f in "$lib"/*.so.*.*.*; do
  [ -f "$f" ] && [ ! -L "$f" ] || continue
  count=$((count + 1))
  entry=$(readelf -d "$f" | grep -E '\((RUNPATH|RPATH)\)' || true)
  case "$entry" in
    *"(RUNPATH)"*"Library runpath: [\$ORIGIN]"*) echo "ok: $(basename "$f"): RUNPATH \$ORIGIN" ;;
    *) echo "FAIL: $(basename "$f") has ${entry:-no RUNPATH}; it must have RUNPATH \$ORIGIN (ipu_install_shared_library)"
       bad=1 ;;
  esac
done
if [ "$count" -lt 11 ]; then
  echo "FAIL: only $count shared libraries in $lib; expected libpoplar, libpoputil, libpopops, libpoplin, libpopnn,"
  echo "      libpoprand, libpopsparse, libgcl, libpopdist, libpva, libpvti and libipudrv"
  exit 1
fi
exit $bad
