#!/usr/bin/env bash
# The post-place-and-route simulation: the card that fpga_bitstream_card placed
# and routed (its .asc, what icepack packs into the bitstream) read back and
# simulated (rtl/fpga/sim/netlist_sim.sh on the .asc builds ipu-board-pnr-sim),
# then the link and the card's registers (the card checks' shape group) and the
# gc tools with a program (netlist_tools.sh, against the source-level simulation).
# With --mutate the .asc has one LUT inverted and the checks must reject it.
# Usage: pnr_checks.sh ASC PNR_SIM CHECKS REFERENCE_SIM GC_BIN_DIR PROGRAM GREETING [--mutate]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
asc=$1 sim=$2 checks=$3 ref=$4 bin=$5 prog=$6 greeting=$7
shift 7
[ -f "$asc" ] || { echo "FAIL: no $asc (fpga_bitstream_card writes it)"; exit 1; }
t0=$(date +%s)
"$here/../../../rtl/fpga/sim/netlist_sim.sh" "$asc" "$sim" "$@"
echo "ipu-board-pnr-sim built in $(( $(date +%s) - t0 )) s"
t0=$(date +%s)
rc=0
"$checks" || rc=$?
echo "card checks (shape): rc $rc, $(( $(date +%s) - t0 )) s"
if [ "${1:-}" = --mutate ]; then
  [ $rc != 0 ] || { echo "FAIL: the card checks passed on the placed card with a LUT inverted"; exit 1; }
  echo "PASS: the card checks reject the placed card with a LUT inverted"
  exit 0
fi
[ $rc = 0 ] || { echo "FAIL: the card checks failed on the placed and routed card"; exit 1; }
"$here/netlist_tools.sh" "$ref" "$sim" "$bin" "$prog" "$greeting"
