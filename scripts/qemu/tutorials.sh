#!/usr/bin/env bash
# Stages the Poplar programs the guest runs (BUILD_DIR/share/ipu-emu/tutorials/tutorials.txt, written by
# tests/integration/qemu/CMakeLists.txt) into ROOT, a tree that initramfs.sh lays over the guest's root:
#   usr/bin/NAME                      the program (dynamic; initramfs.sh adds the libraries ldd lists)
#   usr/share/ipu-emu/tutorials/      the manifest and the programs' data (precompiled codelets)
#   usr/share/poplar/                 libpoplar's data folder (tile runtime, device headers)
#   root/.cache/ipu-emu/              the tile images libpoplar links
#   LIBDIR/../share/poplibs/          PopLibs' codelets (.gp) for programs linked with PopLibs: each library finds
#                                     them relative to itself, and initramfs.sh puts the build's libraries in
#                                     LIBDIR, libc's folder
# Each program first runs here against the in-process model (IPU_EMU_DEVICES=BOARD): that is the reference output
# the guest's must equal (OUT/NAME.model.txt, run time in OUT/NAME.model.time), and it links the tile images into
# ROOT's cache, because the guest has no RISC-V toolchain to link them itself. The image cache is keyed by content
# (board, runtime, codelets), so the card in the guest finds the same images. A program with a NAME.board file
# beside the manifest runs on a card of that board instead (test.sh gives the guest one); NAME.card, written here,
# tells the guest that card's tile count and memory per tile.
# Usage: tutorials.sh BUILD_DIR ROOT OUT [BOARD]
set -euo pipefail
build=$(cd "$1" && pwd) stage=$2 out=$3 board=${4:-tiny}
root=$(cd "$(dirname "$0")/../.." && pwd)
log() { echo "[qemu-tutorials] $*" >&2; }
tutdir=$build/share/ipu-emu/tutorials
manifest=$tutdir/tutorials.txt
[ -f "$manifest" ] || { log "no $manifest: this build has no tutorial programs for the guest (is libpoplar built?)"; exit 1; }
[ -d "$build/share/poplar" ] || { log "no $build/share/poplar: libpoplar's data folder is missing"; exit 1; }

rm -rf "$stage"
mkdir -p "$stage/usr/bin" "$stage/usr/share/ipu-emu/tutorials" "$stage/usr/share/poplar" "$out"
stage=$(cd "$stage" && pwd) out=$(cd "$out" && pwd)
cache=$stage/root/.cache/ipu-emu
mkdir -p "$cache"
# The host run links the tile images with the newlib that make deps built; only the images go to the guest.
host_cache=${IPU_EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipu-emu}
for d in "$host_cache"/newlib-*; do if [ -d "$d" ]; then ln -s "$d" "$cache/"; fi; done
locks=$(mktemp -d "${TMPDIR:-/tmp}/ipu-tutorial-locks.XXXXXX")
trap 'rm -rf "$locks"' EXIT

# PopLibs' codelets where the program's PopLibs libraries will look in the guest: the same path relative to the
# library as in the build tree (lib/ -> share/poplibs/), from the folder initramfs.sh gives them (libc's).
stage_poplibs_codelets() {
  local deps libc_dir rel
  deps=$(ldd "$1")
  echo "$deps" | grep -q 'libpoputil\.so' || return 0 # every PopLibs library links libpoputil
  [ -d "$build/share/poplibs/codelets" ] || { log "$1 links PopLibs but $build/share/poplibs has no codelets"; exit 1; }
  libc_dir=$(dirname "$(echo "$deps" | sed -n 's|.*libc\.so\.6 => \(/[^ ]*\) .*|\1|p')")
  rel=$(realpath --relative-to="$build/lib" "$build/share/poplibs")
  mkdir -p "$stage$(realpath -m -s "$libc_dir/$rel")"
  cp -a "$build/share/poplibs/." "$stage$(realpath -m -s "$libc_dir/$rel")/"
}

cp -a "$tutdir/." "$stage/usr/share/ipu-emu/tutorials/"
cp -aL "$build/share/poplar/." "$stage/usr/share/poplar/"
while read -r name args; do
  [ -n "$name" ] || continue
  prog=$build/bin/$name
  [ -x "$prog" ] || { log "$name is in the manifest but $prog is not built"; exit 1; }
  cp "$prog" "$stage/usr/bin/"
  stage_poplibs_codelets "$prog"
  # Twice: the first run links the tile images into the cache, the second is timed with them cached, as the guest
  # finds them. stdout and stderr go to one file, as in the guest (guest_test.sh): the same buffering, so the same
  # interleaving of the two streams.
  prog_board=$board
  if [ -f "$tutdir/$name.board" ]; then
    prog_board=$(cat "$tutdir/$name.board")
    # The guest picks the card of this board by its tile count and memory per tile (guest_test.sh). The guest has
    # no Python, so the board is read here by the board reader's rules (boards/lib/board_rules.py) into NAME.card.
    figures=$(python3 "$root/boards/lib/board_rules.py" "$prog_board" --boards-dir "$root/boards" \
              --get num_ipus --get tiles_per_ipu --get bytes_per_tile) || { log "FAIL: $name's board"; exit 1; }
    { read -r ipus; read -r tiles; read -r mem; } <<< "$figures"
    echo "$((ipus * tiles)) $mem" > "$stage/usr/share/ipu-emu/tutorials/$name.card"
  fi
  for run in link timed; do
    start=$(date +%s%N)
    rc=0
    # shellcheck disable=SC2086 # args is the manifest's word list
    (cd "$tutdir" && env IPU_EMU_DEVICES="$prog_board" IPU_EMU_LOCK_DIR="$locks" IPU_BOARD_PATH="$root/boards" \
       IPU_EMU_CACHE="$cache" "$prog" $args) > "$out/$name.model.txt" 2>&1 || rc=$?
    end=$(date +%s%N)
    if [ $rc != 0 ]; then
      cat "$out/$name.model.txt" >&2
      log "FAIL: $name exited with $rc on the in-process model ($prog_board, $run run)"; exit 1
    fi
  done
  awk -v ns=$((end - start)) 'BEGIN { printf "%.3f\n", ns / 1e9 }' > "$out/$name.model.time"
  log "$name on the in-process model ($prog_board): $(cat "$out/$name.model.time") s"
done < <(grep -v '^#' "$manifest")
find "$cache" -maxdepth 1 -name 'newlib-*' -type l -delete
# The codelets cache holds only what the host compiled; the guest loads the precompiled .gp files.
rm -rf "$cache/codelets"
ls "$cache"/images/*.elf >/dev/null 2>&1 || { log "the model run left no tile image in $cache/images"; exit 1; }
