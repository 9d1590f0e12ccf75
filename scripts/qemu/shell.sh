#!/usr/bin/env bash
# `make qemu-shell`: boots Debian's kernel on q35 + intel-iommu with the ipu-emu
# card bound to vfio-pci and drops you at a shell with gc-info on the PATH.
# Usage: shell.sh BUILD_DIR     (IPU_QEMU_BOARD=ipu1 picks another board)
set -euo pipefail
source "$(dirname "$0")/common.sh"
build=$(cd "${1:-build}" && pwd)
prepare_guest "$build"
log "booting; quit with 'poweroff -f' or Ctrl-A x"
run_guest "" -serial mon:stdio
