#!/usr/bin/env bash
# The FPGA flow on RTL that yosys cannot synthesize: a copy of rtl/ whose ALU has a
# loop bounded by a signal (hardware cannot unroll it); the flow must stop
# at yosys with its reason, before place and route, and leave no bitstream.
# Usage: unsynthesizable.sh OUT_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
out=$1
rm -rf "$out" && mkdir -p "$out/tree"
cp -r "$root/rtl" "$root/boards" "$out/tree/"
alu="$out/tree/rtl/tile/ipu_tile_alu.sv"
grep -q "^endmodule" "$alu"
sed -i 's/^endmodule.*/  logic [31:0] ones;\n  always_comb begin\n    ones = 0;\n    for (int i = 0; i < a_i; i++) ones = ones + 1;\n  end\nendmodule/' "$alu"
FLOW_RTL="$out/tree/rtl" "$here/check_flow.sh" 1 "yosys cannot synthesize the RTL for icebreaker" -- icebreaker "$out/bitstream"
[[ ! -e "$out/bitstream/icebreaker.bin" ]] || { echo "unsynthesizable: FAIL: a bitstream was left behind"; exit 1; }
