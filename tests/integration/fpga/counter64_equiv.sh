#!/usr/bin/env bash
# The iCE40 build of ipu_counter64 (two SB_MAC16 accumulators, IPU_ICE40_DSP) against its
# behavioural counter, which is what Verilator simulates: yosys proves them equal for every
# sequence of inputs (k-induction from both at zero) on yosys's own SB_MAC16 simulation
# model. A second run on a copy with the high block's carry select broken must fail, so
# the proof is known to be able to fail.
# Usage: counter64_equiv.sh OUT_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out=$1
rm -rf "$out" && mkdir -p "$out"
counter="$root/rtl/common/ipu_counter64.sv"

# SB_MAC16 alone from yosys's iCE40 cell models (the whole file is slow to prove over).
cells="$(dirname "$(command -v yosys)")/../share/yosys/ice40/cells_sim.v"
awk '/^module SB_MAC16/ {on = 1} on {print} on && /^endmodule/ {exit}' "$cells" > "$out/sb_mac16.v"
grep -q "^endmodule" "$out/sb_mac16.v" || { echo "counter64_equiv: FAIL: no SB_MAC16 in $cells"; exit 1; }

prove() { # name counter.sv
    cat > "$out/$1.ys" <<EOF
read_verilog -sv $2
rename ipu_counter64 gold
read_verilog -sv -DIPU_ICE40_DSP $2
rename ipu_counter64 gate
read_verilog $out/sb_mac16.v
hierarchy -check
proc
flatten gate
async2sync
opt_clean
miter -equiv -flatten -make_assert gold gate miter
hierarchy -top miter
sat -verify -tempinduct -prove-asserts -set-init-zero -maxsteps 4 miter
EOF
    yosys -q -l "$out/$1.log" -s "$out/$1.ys" >/dev/null 2>&1
}

if ! prove counter "$counter"; then
    grep -E "ERROR|failed" "$out/counter.log" | head -5
    echo "counter64_equiv: FAIL: the SB_MAC16 counter differs from the behavioural one ($out/counter.log)"
    exit 1
fi
grep -q "Induction step proven: SUCCESS" "$out/counter.log" ||
    { echo "counter64_equiv: FAIL: no induction proof in $out/counter.log"; exit 1; }
echo "counter64_equiv: the SB_MAC16 counter equals the behavioural one"

sed "s/TOPADDSUB_CARRYSELECT (2'd2)/TOPADDSUB_CARRYSELECT (2'd0)/" "$counter" > "$out/broken.sv"
! cmp -s "$counter" "$out/broken.sv" || { echo "counter64_equiv: FAIL: could not break the copy"; exit 1; }
if prove broken "$out/broken.sv"; then
    echo "counter64_equiv: FAIL: the proof passed on a counter whose halves do not carry"
    exit 1
fi
echo "counter64_equiv: a counter whose halves do not carry is refused"
