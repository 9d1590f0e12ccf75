#!/usr/bin/env bash
# Builds ipu-board-netlist-sim: ipu-board-sim (board_sim.cpp, the same socket and
# link) on the icebreaker card's synthesized netlist, the one that goes into the
# bitstream (rtl/fpga/flow.sh --netlist writes it: yosys's write_verilog after
# synth_ice40), simulated in Verilator with yosys's iCE40 cell models. The
# simulation runs at the board's clock (the PLL is a wire there) with the board's
# UART bit period (tile_clock_hz / LinkBaud clocks).
# NETLIST may also be the placed and routed card, the .asc icepack packs into the
# bitstream (rtl/fpga/flow.sh writes OUT_DIR/BOARD.asc): pnr_for_sim.py reads it
# back with icebox_vlog and adds the DSPs and SPRAMs icebox_vlog leaves out, and
# the same cell models simulate it (ipu-board-pnr-sim, the post-place-and-route
# simulation).
# Usage: netlist_sim.sh NETLIST|ASC OUT_BINARY [--board NAME] [--baud B] [--mutate]
#   --mutate  flips one LUT's truth table first (netlist_for_sim.py; on an .asc,
#             pnr_for_sim.py --flip-lut): a card that must fail the checks.
#   --board NAME  the board whose card the netlist is (default icebreaker): the
#             simulation answers to --board NAME only, clocked at that board's
#             tile_clock_hz (boards/NAME.toml, read by boards/lib/board_rules.py).
#   --baud B  the UART baud the netlist was synthesized for (flow.sh --param Baud=B;
#             default the contract's link baud, the board top's default): the bit
#             period is tile_clock_hz / B clocks, as the board top derives it, e.g.
#             rtl-tiny's 4-tile card (flow.sh --beyond-device) at 2 clocks a bit.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(dirname "$(dirname "$here")")"
root="$(dirname "$rtl")"
usage="usage: netlist_sim.sh NETLIST OUT_BINARY [--board NAME] [--baud B] [--mutate]"
netlist=${1:?$usage}
binary=${2:?$usage}
shift 2
board=icebreaker baud=""
while [[ "${1:-}" == --board || "${1:-}" == --baud ]]; do
    case "$1" in --board) board=${2:?--board needs a name} ;; --baud) baud=${2:?--baud needs a number} ;; esac
    shift 2
done
# The bit period as the board top computes it (ClockHz / Baud, rtl/fpga/ipu_board_top.sv), from the
# board reader's clock and the contract's baud: nothing here restates either.
hz=$(python3 "$root/boards/lib/board_rules.py" --boards-dir "$root/boards" "$board" --get tile_clock_hz) || {
    echo "netlist_sim: board '$board' is refused by the board reader (its message is above)" >&2; exit 2; }
baud=${baud:-$(python3 -c 'import sys, tomllib; print(tomllib.load(open(sys.argv[1], "rb"))["link"]["baud"])' \
               "$root/contract/card.toml")}
[[ "$baud" =~ ^[1-9][0-9]*$ ]] || { echo "netlist_sim: --baud '$baud' is not a whole number of bits per second" >&2; exit 2; }
clks=$(( hz / baud ))
# The UART's transmitter counts ClksPerBit - 1 down in a counter of $clog2(ClksPerBit) bits: one clock a
# bit leaves it no counter, so the RTL needs two at least.
(( clks >= 2 )) || {
    echo "netlist_sim: --baud $baud gives $clks clocks a UART bit at $board's $hz Hz; the UART needs 2 or more: give --baud $(( hz / 2 )) or less" >&2
    exit 2; }
# The C++ compiler for the Verilated netlist: clang unless IPU_NETLIST_CXX names another (why: below).
cxx=$(command -v "${IPU_NETLIST_CXX:-clang++-14}" || command -v clang++ || command -v g++ || true)
[[ -n "$cxx" ]] || { echo "netlist_sim: no C++ compiler: install clang-14 (scripts/apt/packages.txt) or set IPU_NETLIST_CXX" >&2; exit 2; }
[[ -z "${IPU_NETLIST_CXX:-}" || "$cxx" == "$(command -v "$IPU_NETLIST_CXX")" ]] || {
    echo "netlist_sim: IPU_NETLIST_CXX '$IPU_NETLIST_CXX' is not a compiler on PATH; give a compiler's name or path" >&2; exit 2; }
compiler=gcc
[[ "$("$cxx" --version)" == *clang* ]] && compiler=clang
work="$binary.d"
mkdir -p "$work"

cells=""
for d in "$(dirname "$(dirname "$(command -v yosys)")")/share/yosys" /usr/share/yosys /usr/local/share/yosys; do
    [[ -f "$d/ice40/cells_sim.v" ]] && { cells="$d/ice40/cells_sim.v"; break; }
done
[[ -n "$cells" ]] || { echo "netlist_sim: yosys's ice40/cells_sim.v not found (install yosys)" >&2; exit 2; }

if [[ "$netlist" == *.asc ]]; then
    command -v icebox_vlog > /dev/null || { echo "netlist_sim: icebox_vlog not found (install fpga-icestorm)" >&2; exit 2; }
    flip=()
    # The LUT flipped in a placed card: one of the link bridge's (tile 22, 1 holds the UART receiver's logic).
    [[ "${1:-}" == --mutate ]] && flip=(--flip-lut "${IPU_PNR_FLIP_LUT:-22,1,6}")
    mkdir -p "$work/src"
    python3 "$here/pnr_for_sim.py" "$netlist" "$rtl/fpga/icebreaker.pcf" "$work/src/pnr.v" "${flip[@]}"
    python3 "$here/netlist_for_sim.py" "$cells" "$work/src/pnr.v" "$work/src"
else
    python3 "$here/netlist_for_sim.py" "$cells" "$netlist" "$work/src" "$@"
fi

# The cell models are not lint-clean (unused inputs, timing blocks, widths): their
# warnings are theirs. -O3 and fast X handling as ipu-board-sim's Verilated tops.
# The per-clock code is compiled by clang when there is one (IPU_NETLIST_CXX picks another
# compiler). Every cell is evaluated every clock: megabytes of straight-line code, and
# rtl-tiny's 4-tile card (4.2x icebreaker's cells) ran 15x slower a clock than icebreaker's
# under g++ -Os, its 3.5 MB of code far beyond a core's 1 MB L2. g++ turns the LUT models'
# nested ?: into branches and spills its locals; clang's code is 2.5 MB, and it ran the
# 4-tile card 5.2x as fast (2026-12-01, median of 5 alternating pairs, 3.7-6.2x, load 2.3-2.8); see
# docs/hardware.md. Verilator's OPT_FAST (-Os) applies to it either way (-O2 gained nothing).
# The code run once (constructors, initial values: OPT_SLOW) is compiled at -O0: it is half
# the files, and -O1 took 2.2x as long to compile them (rtl-tiny's 4-tile card, clang 14).
verilator --cc --exe --build -j 1 -O3 --x-assign fast --x-initial fast -Wno-fatal -Wno-lint -Wno-style \
    --compiler $compiler -MAKEFLAGS "CXX=$cxx LINK=$cxx OPT_SLOW=-O0" \
    +define+NO_ICE40_DEFAULT_ASSIGNMENTS \
    --top-module ipu_fpga_top --prefix Vipu_board_net -Mdir "$work/obj" -o "$binary" \
    -CFLAGS "-I$root/contract/include -DIPU_BOARD_SIM_NETLIST=$board -DIPU_BOARD_SIM_CLKS_PER_BIT=$clks" \
    "$work/src/cells_sim.v" "$work/src/netlist.v" "$here/board_sim.cpp" > "$work/verilator.log" 2>&1 || {
    grep -E "%Error|error:" "$work/verilator.log" | head -10 >&2
    echo "netlist_sim: Verilator cannot build the netlist simulation; see $work/verilator.log" >&2
    exit 1
}
echo "netlist_sim: $binary ($board, $clks clocks per UART bit, compiled by $cxx)"
