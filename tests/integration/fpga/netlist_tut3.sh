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
# `make bench` runs it (bench/run.sh), not `make test`: the netlist simulates over 100
# times slower than the source-level card (about 5,500 clocks/s), and tutorial 3 moves
# 184 KB to the card: at the 8-clock UART bit of ipu-board-sim (80 clocks a byte) that
# was 86% of its 17.2 M clocks and the run took 51 minutes (2026-11-30). The netlist is
# synthesized for 2 clocks a bit instead (Baud = ClockHz / 2, the least the UART's RTL
# takes; the RTL is the same, only the board top's Baud parameter differs): 4.1 M clocks,
# 1,425 s under load 3.5 on 2 cores (about 13 CPU-minutes, 2026-12-01).
# Usage: netlist_tut3.sh WORK_DIR TUT3_PROGRAM TUT3_CODELETS EXPECTED
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fpga="$here/../../../rtl/fpga"
work=$1
shift
mkdir -p "$work"
t0=$(date +%s)
# rtl-tiny's board simulation (rtl/CMakeLists.txt, Vipu_board_sim4): DMA chains and no host
# service; its UART bit of 2 clocks (rtl-tiny's tile_clock_hz / 2) so that the link is fast.
baud=$(( $(python3 "$here/../../../boards/lib/board_rules.py" --boards-dir "$here/../../../boards" rtl-tiny \
          --get tile_clock_hz) / 2 ))
"$fpga/flow.sh" --netlist --beyond-device --param DmaChains=1 --param HostService=0 --param Baud=$baud \
    rtl-tiny "$work"
t1=$(date +%s)
"$fpga/sim/netlist_sim.sh" "$work/rtl-tiny.syn.v" "$work/ipu-board-netlist-sim4" --board rtl-tiny --baud $baud
t2=$(date +%s)
echo "netlist: yosys $(( t1 - t0 )) s, Verilator $(( t2 - t1 )) s"
"$here/socket_tut3.sh" "$work/ipu-board-netlist-sim4" "$@"
echo "tutorial 3 on the netlist: $(( $(date +%s) - t2 )) s"
