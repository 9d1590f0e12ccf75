#!/usr/bin/env bash
# Build newlib for the tile from Debian's newlib-source, once per ISA:ABI pair.
# Usage: build-newlib.sh CACHE_DIR rv32imf:ilp32f [rv32im:ilp32 ...]
# Result: CACHE_DIR/newlib-<version>-<isa>-<abi>/riscv64-unknown-elf/{include,lib}
set -euo pipefail
cache=$1; shift
tarball=$(ls /usr/src/newlib/newlib-*.tar.* 2>/dev/null | head -n1)
[ -n "$tarball" ] || { echo "build-newlib: no tarball in /usr/src/newlib; install newlib-source (make deps)" >&2; exit 1; }
version=$(basename "$tarball" | sed -E 's/newlib-([0-9.]+)\.tar.*/\1/')

# build_pair ISA ABI PREFIX: configure, compile and install one newlib (run in a subshell of its own).
build_pair() {
  local isa=$1 abi=$2 prefix=$3 work src
  echo "[deps] building newlib $version for $isa/$abi (about a minute per core)..."
  work=$(mktemp -d "$cache/newlib-build.XXXXXX")
  tar -xf "$tarball" -C "$work"
  src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -n1)
  mkdir -p "$work/build" && cd "$work/build"
  "$src/configure" --target=riscv64-unknown-elf --prefix="$prefix" --disable-multilib \
    --disable-newlib-supplied-syscalls --enable-newlib-nano-malloc --disable-nls \
    CFLAGS_FOR_TARGET="-march=$isa -mabi=$abi -Os -ffunction-sections -fdata-sections -mcmodel=medlow" \
    > "$work/configure.log" 2>&1 || { tail -n 30 "$work/configure.log" >&2; exit 1; }
  echo "[deps]   compiling (log: $work/make.log)"
  make -j"$(nproc)" > "$work/make.log" 2>&1 || { tail -n 40 "$work/make.log" >&2; exit 1; }
  make install > "$work/install.log" 2>&1 || { tail -n 20 "$work/install.log" >&2; exit 1; }
  touch "$prefix/.complete"
  cd / && rm -rf "$work"
  echo "[deps] newlib for $isa/$abi installed in $prefix"
}

# The pairs build side by side: most of a newlib build is its many configure scripts, one after another, so one
# build leaves the second core mostly idle (on a cold 2-core machine, beside other work: one after the other 655 s, side by side 514 s).
pids=() names=()
for pair in "$@"; do
  isa=${pair%%:*}; abi=${pair##*:}
  prefix="$cache/newlib-$version-$isa-$abi"
  if [ -f "$prefix/.complete" ]; then
    echo "[deps] newlib $version for $isa/$abi: cached in $prefix"; continue
  fi
  build_pair "$isa" "$abi" "$prefix" &
  pids+=($!) names+=("$isa/$abi")
done
failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "build-newlib: newlib for ${names[$i]} failed (its log is above)" >&2; failed=1; }
done
exit $failed
