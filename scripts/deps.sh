#!/usr/bin/env bash
# `make deps`: install and build everything the project needs on Debian 12.
# Idempotent: each step checks first and skips what is already there. Builds go
# to a cache (${IPU_EMU_CACHE:-~/.cache/ipu-emu}) that speeds later runs but that
# nothing depends on: a missing cache is rebuilt.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
cache=${IPU_EMU_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/ipu-emu}
mkdir -p "$cache"

step() { printf '[deps] %s\n' "$*"; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
  echo "deps: '$*' needs root; run 'make deps' as root or install sudo" >&2; exit 1; fi; }

# 1. Debian packages.
mapfile -t wanted < <(sed -e 's/#.*//' -e '/^\s*$/d' "$here/apt/packages.txt")
missing=()
for p in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  step "installing ${#missing[@]} Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
else
  step "Debian packages: all ${#wanted[@]} present"
fi

# 2. newlib for each tile ISA/ABI the boards use, built from Debian's newlib-source.
# The pairs first: a board the reader refuses stops here with its message (set -e), not with an empty list.
pairs=$(python3 "$here/board-isas.py" "$root/boards")
# shellcheck disable=SC2086 # one argument per pair
"$here/build-newlib.sh" "$cache" $pairs

# 3. QEMU's Debian source package (deb-src through a sources file we own).
if [ "${IPU_EMU_SKIP_QEMU_SOURCE:-0}" != 1 ]; then
  "$here/fetch-qemu-source.sh" "$cache"
fi
step "done (cache: $cache)"
