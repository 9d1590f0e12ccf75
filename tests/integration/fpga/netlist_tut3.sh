#!/usr/bin/env bash
# Tutorial 3 on the synthesized netlist of the 4-tile card: rtl-tiny's card (4 tiles
# x 64 KiB, 6 workers, the DMA engine and the exchange fabric: ipu-board-sim --board
# rtl-tiny's shape) through the bitstream's own yosys synth_ice40 flow (rtl/fpga/flow.sh
# --netlist, same scripts and options), simulated on yosys's iCE40 cell models behind
# the board simulation's socket (rtl/fpga/sim/netlist_sim.sh). Then socket_tut3.sh:
# tutorial 3's output on the netlist must equal the in-process model's of rtl-tiny and
# hold every line of expected.txt.
# This card cannot be placed on an iCE40UP5K: its 256 KiB of tile SRAM is 8 SPRAM cells
# (the device has 4) and its logic is several times the device's 5,280 cells
# (flow.sh --beyond-device). It proves the synthesis of the multi-tile card; the placed
# and routed proof is the 1-tile icebreaker card's (fpga_pnr_card_checks).
# make test runs it in three steps chained by CTest fixtures (tests/integration/fpga/
# CMakeLists.txt): --synth (yosys), --sim (Verilator), then socket_tut3.sh on the
# simulation; `make bench` runs all three at once (no step argument). The UART is
# synthesized at 2 clocks a bit (Baud = ClockHz / 2, the least the UART's RTL takes; the
# RTL is the same, only the board top's Baud parameter differs): tutorial 3 is 4.1 M
# clocks, 86% of them its 184 KB upload (17.2 M at ipu-board-sim's 8 clocks a bit).
# Compiled by clang (netlist_sim.sh) the netlist runs about 17,000-25,000 clocks a second
# under load, and tutorial 3 took 143 s at load 2-3 on 2 cores (2026-12-01; 1,425 s with
# g++'s build); --synth took 176 s and --sim 189 s.
# Usage: netlist_tut3.sh WORK_DIR --synth | --sim | TUT3_PROGRAM TUT3_CODELETS EXPECTED
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fpga="$here/../../../rtl/fpga"
work=$1
shift
mkdir -p "$work"
step=all
[[ "${1:-}" == --synth || "${1:-}" == --sim ]] && step=${1#--}
t0=$(date +%s)
# rtl-tiny's board simulation (rtl/CMakeLists.txt, Vipu_board_sim4): DMA chains and no host
# service; its UART bit of 2 clocks (rtl-tiny's tile_clock_hz / 2) so that the link is fast.
baud=$(( $(python3 "$here/../../../boards/lib/board_rules.py" --boards-dir "$here/../../../boards" rtl-tiny \
          --get tile_clock_hz) / 2 ))
if [[ $step != sim ]]; then
    "$fpga/flow.sh" --netlist --beyond-device --param DmaChains=1 --param HostService=0 --param Baud=$baud \
        rtl-tiny "$work"
    echo "netlist: yosys $(( $(date +%s) - t0 )) s"
    [[ $step == all ]] || exit 0
fi
t1=$(date +%s)
"$fpga/sim/netlist_sim.sh" "$work/rtl-tiny.syn.v" "$work/ipu-board-netlist-sim4" --board rtl-tiny --baud $baud
t2=$(date +%s)
echo "netlist: Verilator $(( t2 - t1 )) s"
[[ $step == all ]] || exit 0
"$here/socket_tut3.sh" "$work/ipu-board-netlist-sim4" "$@"
echo "tutorial 3 on the netlist: $(( $(date +%s) - t2 )) s"
