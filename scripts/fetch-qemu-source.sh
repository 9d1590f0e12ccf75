#!/usr/bin/env bash
# Fetch QEMU's Debian source package (with Debian's patches applied) into the
# cache, enabling deb-src through a sources file this project owns.
# Usage: fetch-qemu-source.sh CACHE_DIR   -> CACHE_DIR/qemu-src/qemu-<version>/
set -euo pipefail
cache=$1
here=$(cd "$(dirname "$0")" && pwd)
dest="$cache/qemu-src"
if ls -d "$dest"/qemu-*/ >/dev/null 2>&1 && [ -f "$dest/.complete" ]; then
  echo "[deps] QEMU source: cached in $(ls -d "$dest"/qemu-*/ | head -n1)"; exit 0
fi
sources=/etc/apt/sources.list.d/ipu-emu-deb-src.sources
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
if ! cmp -s "$here/apt/ipu-emu-deb-src.sources" "$sources" 2>/dev/null; then
  echo "[deps] enabling deb-src in $sources"
  as_root install -m 0644 "$here/apt/ipu-emu-deb-src.sources" "$sources"
  as_root apt-get update -qq
fi
echo "[deps] fetching QEMU's Debian source package (apt-get source qemu)..."
rm -rf "$dest" && mkdir -p "$dest" && cd "$dest"
apt-get source -qq --download-only qemu > fetch.log 2>&1 || { tail -n 20 fetch.log >&2; exit 1; }
dsc=$(ls qemu_*.dsc | head -n1)
version=$(sed -n 's/^Version: //p' "$dsc" | head -n1 | sed 's/^[0-9]*://')
dpkg-source -x "$dsc" "qemu-$version" > extract.log 2>&1 || { tail -n 20 extract.log >&2; exit 1; }
rm -f qemu_*.tar.* && touch .complete
echo "[deps] QEMU source $version in $dest/qemu-$version"
