#!/usr/bin/env bash
# make bitstream BOARD=<board>: the RTL card through the iCE40 flow for an FPGA
# board: yosys synth_ice40 -> nextpnr-ice40 -> icepack, then icetime. The card runs at the
# board's tile_clock_hz: straight off the oscillator when that is its frequency (the pcf's
# `set_frequency clk_i MHZ`), else from the iCE40 PLL with icepll's setting. Prints the
# utilisation (LUTs, logic cells, BRAM, SPRAM, DSP), the maximum clock nextpnr and icetime
# report and their margin, and exits non-zero with the reason on RTL yosys cannot synthesize,
# a design that does not fit the device, a clock the PLL cannot make, or a clock not met
# with at least 10% margin by both nextpnr and icetime.
# Usage: rtl/fpga/flow.sh [--design card|link] [--pcf FILE] [--by-module|--netlist] BOARD [OUT_DIR]
#   BOARD    a board name (boards/NAME.toml) or a path to a .toml
#   OUT_DIR  default build/bitstream/BOARD
#   --design link builds the host link with a register file in place of the card
#            (the flow's own small design; the default, card, is the RTL card).
#   --pcf    pin constraints (default rtl/fpga/NAME.pcf)
#   --by-module  only synthesize, keeping the hierarchy, and print the LUTs, flip-flops
#            and block RAMs of each module (where to cut when the design does not fit)
#   --netlist    stop after synthesis: OUT_DIR/BOARD.syn.v, the synthesized netlist as Verilog
#            (every run writes it: the netlist of the bitstream), is what the netlist
#            simulation runs (rtl/fpga/sim/netlist_sim.sh)
#   --param NAME=VALUE  one more parameter of the board top (ipu_board_top.sv: DmaChains,
#            HostService, Baud), repeatable: the card shape of a simulation board
#   --beyond-device  with --netlist: synthesize a card larger than the iCE40UP5K (more tile
#            SRAM, more logic) for simulation only; the device's limits are reported, not
#            enforced. Such a netlist can never be placed: it proves the synthesis of that card
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(dirname "$here")"
root="$(dirname "$rtl")"

design=card pcf="" by_module=0 netlist_only=0 beyond=0 params=""
while [[ "${1:-}" == --* ]]; do
    case "$1" in --design) design=$2; shift ;; --pcf) pcf=$2; shift ;; --by-module) by_module=1 ;; --netlist) netlist_only=1 ;;
        --beyond-device) beyond=1 ;;
        --param) [[ "${2:-}" =~ ^(DmaChains|HostService|Baud)=[0-9]+$ ]] || {
                     echo "bitstream: --param '${2:-}' is not NAME=NUMBER with NAME one of DmaChains, HostService, Baud" >&2; exit 2; }
                 params="$params, .${2%%=*}(${2#*=})"; shift ;;
        *) echo "bitstream: unknown option $1 (options: --design, --pcf, --by-module, --netlist, --param, --beyond-device)" >&2
           exit 2 ;; esac
    shift
done
(( beyond && !netlist_only )) && { echo "bitstream: --beyond-device makes a netlist for simulation only: add --netlist" >&2; exit 2; }
case "$design" in card) with_card=1 ;; link) with_card=0 ;;
    *) echo "bitstream: unknown --design '$design': use card or link" >&2; exit 2 ;; esac
board=${1:?usage: flow.sh [--design card|link] BOARD [OUT_DIR]}
if [[ "$board" == */* || "$board" == *.toml ]]; then toml=$board; else toml=$root/boards/$board.toml; fi
[[ -f "$toml" ]] || { echo "bitstream: no board file $toml (boards/ lists the boards)" >&2; exit 2; }
name=$(basename "$toml" .toml)
out="$(mkdir -p "${2:-build/bitstream/$name}" && cd "${2:-build/bitstream/$name}" && pwd)"
rm -f "$out/$name.bin"  # a refused run leaves no bitstream behind

for tool in yosys nextpnr-ice40 icepack icetime; do
    command -v $tool >/dev/null || {
        echo "bitstream: $tool not found: install the packages in scripts/apt/packages.txt (make deps)" >&2; exit 2; }
done

# The board's shape, read by the board reader's rules (boards/lib/board_rules.py, the C reader's
# checks and messages) rather than a pattern of our own: a board the card model would refuse (a
# hex or octal-looking value, a missing key, a value out of range) is refused here the same way.
shape=$(python3 "$root/boards/lib/board_rules.py" "$toml" --get num_ipus --get tiles_per_ipu \
        --get bytes_per_tile --get worker_contexts --get tile_clock_hz) \
    || { echo "bitstream: board $toml is refused by the board reader (its message is above)" >&2; exit 2; }
{ read -r ipus; read -r tiles_per_ipu; read -r bytes; read -r workers; read -r hz; } <<< "$shape"
tiles=$(( ipus * tiles_per_ipu ))
mhz=$(awk -v h="$hz" 'BEGIN {printf "%.2f", h / 1e6}')
pcf=${pcf:-$here/$name.pcf}
# A simulation-only card has no pins: its clock pad runs at the board clock (no PLL).
(( beyond )) && [[ ! -f "$pcf" ]] && pcf=/dev/null
[[ -f "$pcf" || "$pcf" == /dev/null ]] || { echo "bitstream: board $name has no pin constraints: write $pcf" >&2; exit 2; }
# Both nextpnr's and icetime's maximum clock must be at least the board's clock times this:
# routing differs from run to run and the part from the datasheet's corner, a board must
# not sit at the edge (issue 38).
margin=1.10
need=$(awk -v m="$mhz" -v k=$margin 'BEGIN {printf "%.2f", m * k}')

# The clock: the oscillator's (set_frequency clk_i in the pcf; none: the pad runs at the board
# clock) or the PLL's. The PLL's output is 16..275 MHz; below 16 the flow takes its GENCLK_HALF
# (half of an output at twice the clock). The setting must give tile_clock_hz exactly: the UART's
# bit period (ClockHz / baud) and the card's TILE_CLOCK_KHZ register are derived from it.
osc_mhz=$(awk '$1 == "set_frequency" && $2 == "clk_i" {print $3}' "$pcf")
osc_hz=$(awk -v m="${osc_mhz:-0}" 'BEGIN {printf "%.0f", m * 1e6}')
pll=""
if [[ -n "$osc_mhz" && "$osc_hz" != "$hz" ]]; then
    command -v icepll >/dev/null || { echo "bitstream: icepll not found: install fpga-icestorm (make deps)" >&2; exit 2; }
    half=0 want=$hz
    (( hz < 16000000 )) && half=1 want=$(( hz * 2 ))
    want_mhz=$(awk -v h="$want" 'BEGIN {printf "%.6f", h / 1e6}')
    icepll -i "$osc_mhz" -o "$want_mhz" > "$out/icepll.log" 2>&1 || true
    divr=$(sed -n 's/^DIVR: *\([0-9]*\).*/\1/p' "$out/icepll.log"); divf=$(sed -n 's/^DIVF: *\([0-9]*\).*/\1/p' "$out/icepll.log")
    divq=$(sed -n 's/^DIVQ: *\([0-9]*\).*/\1/p' "$out/icepll.log")
    filter=$(sed -n 's/^FILTER_RANGE: *\([0-9]*\).*/\1/p' "$out/icepll.log")
    got=0 rest=1
    if [[ -n "$divr" && -n "$divf" && -n "$divq" && -n "$filter" ]]; then
        got=$(( osc_hz * (divf + 1) / ((divr + 1) << divq << half) ))
        rest=$(( osc_hz * (divf + 1) % ((divr + 1) << divq << half) ))
    fi
    if [[ "$got" != "$hz" || "$rest" != 0 ]]; then
        echo "bitstream: the iCE40 PLL cannot make $mhz MHz from the $osc_mhz MHz oscillator (icepll:" \
             "$(grep -E 'achieved|Error' "$out/icepll.log" | head -1 | tr -s ' ')); set tile_clock_hz in $toml to a" \
             "frequency icepll -i $osc_mhz reaches exactly (below 16 MHz: half of one)" >&2
        exit 1
    fi
    select=GENCLK; (( half )) && select=GENCLK_HALF
    pll="DIVR $divr, DIVF $divf, DIVQ $divq, FILTER_RANGE $filter, $select"
fi

# The iCE40UP5K-SG48: 5280 logic cells, 30 BRAMs of 4 Kibit, 4 SPRAMs of 256 Kibit, 8 DSPs.
max_lut=5280 max_bram=30 max_spram=4 max_dsp=8
echo "== bitstream: $name ($design: $tiles tiles x $bytes bytes, $workers workers, $mhz MHz) -> $out"
if [[ -n "$pll" ]]; then
    echo "   clock $mhz MHz: the PLL from the $osc_mhz MHz oscillator ($pll)"
fi
if (( with_card && tiles * bytes > max_spram * 32768 && beyond )); then
    echo "   beyond the device: $(( tiles * bytes / 1024 )) KiB of tile SRAM in SPRAM cells, the iCE40UP5K has" \
         "$(( max_spram * 32 )) KiB (a netlist for simulation; it cannot be placed)"
elif (( with_card && tiles * bytes > max_spram * 32768 )); then
    echo "bitstream: $name does not fit: $tiles tiles x $bytes bytes of tile SRAM need" \
         "$(( tiles * bytes / 1024 )) KiB, the iCE40UP5K has $(( max_spram * 32 )) KiB of SPRAM;" \
         "lower tiles_per_ipu or bytes_per_tile in $toml" >&2
    exit 1
fi

# The board top with the board's shape: a wrapper, since yosys 0.23 cannot -chparam the card.
files="$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$rtl/sources.txt") $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$here/sources.txt")"
(cd "$rtl" && python3 "$rtl/synth/sv_for_yosys.py" "$out/src" $files)
if [[ -n "$pll" ]]; then
    # The PLL's clock on a global net; the card stays in reset until the PLL has locked.
    clock="  logic clk, pll_lock;
  SB_PLL40_PAD #(.FEEDBACK_PATH(\"SIMPLE\"), .DIVR(4'd$divr), .DIVF(7'd$divf), .DIVQ(3'd$divq),
                 .FILTER_RANGE(3'd$filter), .PLLOUT_SELECT(\"$select\")) u_pll (
    .PACKAGEPIN(clk_i), .PLLOUTGLOBAL(clk), .PLLOUTCORE(), .LOCK(pll_lock), .RESETB(1'b1), .BYPASS(1'b0),
    .EXTFEEDBACK(1'b0), .DYNAMICDELAY(8'd0), .LATCHINPUTVALUE(1'b0), .SCLK(1'b0), .SDI(1'b0), .SDO());"
    ports=".clk_i(clk), .btn_ni(btn_ni && pll_lock), .uart_rx_i, .uart_tx_o, .led_red_no, .led_green_no"
else
    clock="" ports=".*"
fi
cat > "$out/src/ipu_fpga_top.sv" <<TOP
// Generated by rtl/fpga/flow.sh from $toml.
module ipu_fpga_top (input logic clk_i, input logic btn_ni, input logic uart_rx_i,
                     output logic uart_tx_o, output logic led_red_no, output logic led_green_no);
$clock
  ipu_board_top #(.NumTiles($tiles), .NumWorkers($workers), .SramBytes($bytes), .ClockHz($hz),
                  .WithCard($with_card)$params) u_board ($ports);
endmodule
TOP
srcs=""
for f in $files ipu_fpga_top.sv; do srcs="$srcs $out/src/$(basename "$f")"; done

if (( by_module )); then
    # Hierarchy kept: the sum is a little above the flattened design's (no optimisation
    # across module boundaries), but each module's share shows where the LUTs go.
    echo "-- yosys synth_ice40 -noflatten"
    yosys -q -l "$out/yosys-modules.log" -p "read_verilog -sv -DSYNTHESIS -DIPU_ICE40_DSP $srcs; synth_ice40 -top ipu_fpga_top -dsp -spram -noflatten; tee -q -o $out/$name.modules.stat stat" \
        >/dev/null 2>"$out/yosys-modules.warnings" || {
        echo "bitstream: yosys cannot synthesize the RTL for $name; see $out/yosys-modules.log" >&2; exit 1; }
    awk '/^=== / {m = $2; sub(/^\$paramod[$\\]?[0-9a-f]*[\\]?/, "", m); sub(/\\.*/, "", m)}
         $1 == "SB_LUT4" {lut[m] += $2} $1 ~ /^SB_DFF/ {ff[m] += $2} $1 == "SB_RAM40_4K" {bram[m] += $2}
         $1 == "SB_LUT4" || $1 ~ /^SB_DFF/ || $1 == "SB_RAM40_4K" {seen[m] = 1}
         END {for (m in seen) if (m != "design") printf "   %-20s %6d LUTs %6d flip-flops %3d BRAM\n", m, lut[m], ff[m], bram[m]}' \
        "$out/$name.modules.stat" | sort -k2 -n -r
    echo "   (the device's limit is 5280 logic cells: LUTs plus the flip-flops that cannot share a cell with" \
         "the LUT feeding them; the full flow prints that count)"
    exit 0
fi

echo "-- yosys synth_ice40"
fail_synth() {
    grep -E "ERROR|Error" "$out/$1.log" "$out/$1.warnings" | head -5 >&2 || true
    echo "bitstream: yosys cannot synthesize the RTL for $name; see $out/$1.log" >&2
    exit 1
}
# Part 1, up to the memories: every memory BRAM or SPRAM cannot hold (several write
# ports, asynchronous reads) would become flip-flops; name them instead of waiting
# for yosys to build a design many times the device's size.
yosys -q -l "$out/yosys-mem.log" -p "read_verilog -sv -DSYNTHESIS -DIPU_ICE40_DSP $srcs; synth_ice40 -top ipu_fpga_top -dsp -spram -run :map_ffram; write_rtlil $out/$name.mem.il; tee -q -o $out/$name.mems dump t:\$mem_v2" \
    >/dev/null 2>"$out/yosys-mem.warnings" || fail_synth yosys-mem
awk -v cap=$max_lut '
    /^ *cell \$mem_v2/ {cell = $3} /parameter .MEMID/ {id = $3; gsub(/[\\"]/, "", id)} /parameter .SIZE / {size = $3}
    /parameter .WIDTH / {width = $3} /parameter .WR_PORTS / {wr = $3} /parameter .RD_PORTS / {rd = $3}
    /parameter .RD_CLK_ENABLE / {async = ($3 ~ /^[0-9]+.0+$/)}
    /^ *end$/ && cell != "" {
        bits = size * width; total += bits
        why = async ? "asynchronous reads" : (wr > 1 ? wr " write ports" : "too small for a block RAM")
        printf "   memory %s: %d x %d bits, %d read / %d write ports (%s) -> %d flip-flops\n", id, size, width, rd, wr, why, bits
        cell = ""
    }
    END {exit total > cap / 2}' "$out/$name.mems" || (( beyond )) || {
    echo "bitstream: $name does not fit the iCE40UP5K: the memories above stay flip-flops (the device has" \
         "$max_lut); give them one write port and synchronous reads so that BRAM/SPRAM hold them" >&2
    exit 1
}
# Part 2: the rest of synth_ice40 from the checkpoint, its LUT mapping for area (the card
# fills the device; timing has room): synth_ice40 -abc2's first ABC pass, then ABC with
# lut_area.abc (two rounds of choice-based area mapping and resynthesis, then LUT packing)
# where synth_ice40 maps for delay. About 110 logic cells fewer than synth_ice40 -abc2.
luts="abc; ice40_opt; techmap -map +/ice40/latches_map.v; abc -dress -lut 4 -script $here/lut_area.abc"
luts="$luts; ice40_wrapcarry -unwrap; techmap -map +/ice40/ff_map.v; clean"
luts="$luts; opt_lut -dlogic SB_CARRY:I0=1:I1=2:CI=3 -dlogic SB_CARRY:CO=3"
yosys -q -l "$out/yosys.log" -p "read_rtlil $out/$name.mem.il; synth_ice40 -top ipu_fpga_top -dsp -spram -run map_ffram:map_luts; $luts; synth_ice40 -top ipu_fpga_top -dsp -spram -run map_cells:; write_json $out/$name.json; splitnets; write_verilog -noattr $out/$name.syn.v; tee -q -o $out/$name.stat stat" \
    >/dev/null 2>"$out/yosys.warnings" || fail_synth yosys
count() { awk -v c="$1" '$1 == c {n = $2} END {print n + 0}' "$out/$name.stat"; }
lut=$(count SB_LUT4); bram=$(count SB_RAM40_4K); spram=$(count SB_SPRAM256KA); dsp=$(count SB_MAC16)
ff=$(awk '$1 ~ /^SB_DFF/ {n += $2} END {print n + 0}' "$out/$name.stat")
printf "   LUTs %d/%d, flip-flops %d, BRAM %d/%d, SPRAM %d/%d, DSP %d/%d\n" \
    "$lut" $max_lut "$ff" "$bram" $max_bram "$spram" $max_spram "$dsp" $max_dsp
if (( netlist_only )); then
    echo "== netlist: $out/$name.syn.v"
    exit 0
fi
over=""
(( lut > max_lut )) && over="$over ${lut} LUTs of $max_lut,"
(( ff > max_lut )) && over="$over ${ff} flip-flops of $max_lut,"
(( bram > max_bram )) && over="$over ${bram} BRAMs of $max_bram,"
(( spram > max_spram )) && over="$over ${spram} SPRAMs of $max_spram,"
(( dsp > max_dsp )) && over="$over ${dsp} DSPs of $max_dsp,"
# What the device really holds is logic cells: a LUT and a flip-flop share one only when
# the LUT's output feeds just that flip-flop; a flip-flop fed by another flip-flop, a RAM
# or a LUT that also drives other logic takes a cell of its own. nextpnr's packer counts them.
nextpnr-ice40 --up5k --package sg48 --pcf "$pcf" --json "$out/$name.json" --pack-only -l "$out/pack.log" -q \
    >/dev/null 2>&1 || true
cells=$(sed -n 's/.*ICESTORM_LC: *\([0-9]*\)\/.*/\1/p' "$out/pack.log" | head -1)
if [[ -n "$cells" ]]; then
    printf "   logic cells %d/%d (LUTs and the flip-flops that cannot share a cell with one)\n" "$cells" $max_lut
    if (( cells > max_lut )); then
        over="$over ${cells} logic cells of $max_lut ($lut LUTs + $(( cells - lut )) cells for flip-flops that cannot share one),"
        python3 "$here/lone_flip_flops.py" "$out/$name.json" 10 || true
    fi
elif [[ -z "$over" ]]; then
    grep -E "ERROR" "$out/pack.log" | head -5 >&2 || true
    echo "bitstream: nextpnr cannot pack $name; see $out/pack.log" >&2
    exit 1
fi
if [[ -n "$over" ]]; then
    echo "bitstream: $name does not fit the iCE40UP5K:${over%,}; make the RTL smaller or lower" \
         "tiles_per_ipu/worker_contexts/bytes_per_tile in $toml" >&2
    exit 1
fi

echo "-- nextpnr-ice40 --up5k --package sg48 --freq $mhz"
if ! nextpnr-ice40 --up5k --package sg48 --pcf "$pcf" --json "$out/$name.json" --asc "$out/$name.asc" \
        --freq "$mhz" --timing-allow-fail --report "$out/$name.report.json" -l "$out/nextpnr.log" -q \
        >/dev/null 2>&1; then
    grep -E "ERROR" "$out/nextpnr.log" | head -5 >&2 || true
    echo "bitstream: nextpnr cannot place and route $name; see $out/nextpnr.log" >&2
    exit 1
fi
fmax=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("%.2f" % min(c["achieved"] for c in r["fmax"].values()))' \
       "$out/$name.report.json")
echo "   max clock $fmax MHz (board: $mhz MHz)"

echo "-- icetime"
icetime -d up5k -P sg48 -p "$pcf" -c "$mhz" -t "$out/$name.asc" > "$out/icetime.log" 2>&1 || true
icetime_mhz=$(sed -n 's/^Total path delay: .* ns (\([0-9.]*\) MHz).*/\1/p' "$out/icetime.log" | tail -1)
if [[ -z "$icetime_mhz" ]]; then
    grep -iE "error|can't" "$out/icetime.log" | head -3 >&2 || true
    echo "bitstream: icetime did not time $name (it needs fpga-icestorm-chipdb); see $out/icetime.log" >&2
    exit 1
fi
echo "   icetime: $(grep -E '^Total path delay' "$out/icetime.log" | tail -1)"
pct() { awk -v a="$1" -v b="$mhz" 'BEGIN {printf "%.1f", (a / b - 1) * 100}'; }
echo "   margin: nextpnr $(pct "$fmax")%, icetime $(pct "$icetime_mhz")% over $mhz MHz (at least 10%: $need MHz)"
short=""
awk -v a="$fmax" -v b="$need" 'BEGIN {exit !(a < b)}' && short="nextpnr reaches $fmax MHz"
awk -v a="$icetime_mhz" -v b="$need" 'BEGIN {exit !(a < b)}' && short="${short:+$short, }icetime $icetime_mhz MHz"
if [[ -n "$short" ]]; then
    echo "bitstream: $name's clock is too fast for its RTL: $short, the board needs $mhz MHz with 10% margin" \
         "($need MHz; tile_clock_hz in $toml); lower it or shorten the critical path ($out/nextpnr.log," \
         "$out/icetime.log)" >&2
    exit 1
fi
echo "-- icepack"
icepack "$out/$name.asc" "$out/$name.bin"
echo "== bitstream: $out/$name.bin ($(stat -c %s "$out/$name.bin") bytes)"
