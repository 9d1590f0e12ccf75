#!/usr/bin/env python3
"""The synthesized card's netlist, ready for Verilator: the flow's netlist
(rtl/fpga/flow.sh --netlist: yosys's write_verilog after synth_ice40, the
netlist that goes into the bitstream) and the iCE40 cell models yosys ships
(share/yosys/ice40/cells_sim.v).

The models' SB_PLL40_PAD is a black box (no clock comes out of it); the netlist
simulation replaces it with a wire from the pad to the global clock and LOCK
high: the simulation is clocked at the PLL's output frequency, so everything
but the PLL itself is the synthesized logic.

--mutate flips the truth table (LUT_INIT) of one SB_LUT4, the first whose
output drives the net named by --net: a netlist that must fail the card checks
(the comparison with the source-level simulation can fail).

Usage: netlist_for_sim.py CELLS_SIM NETLIST OUT_DIR [--mutate --net NAME]
Writes OUT_DIR/cells_sim.v and OUT_DIR/netlist.v.
"""
import argparse
import os
import re
import sys

PLL_STUB = """
// netlist_for_sim.py: the PLL as a wire (the simulation runs at its output clock).
module SB_PLL40_PAD (
  input PACKAGEPIN, output PLLOUTCORE, output PLLOUTGLOBAL, input EXTFEEDBACK,
  input [7:0] DYNAMICDELAY, output LOCK, input BYPASS, input RESETB,
  input LATCHINPUTVALUE, output SDO, input SDI, input SCLK);
  parameter FEEDBACK_PATH = "SIMPLE";
  parameter PLLOUT_SELECT = "GENCLK";
  parameter DIVR = 4'b0000;
  parameter DIVF = 7'b0000000;
  parameter DIVQ = 3'b000;
  parameter FILTER_RANGE = 3'b000;
  assign PLLOUTCORE = PACKAGEPIN;
  assign PLLOUTGLOBAL = PACKAGEPIN;
  assign LOCK = 1'b1;
  assign SDO = 1'b0;
endmodule
"""


def cells(src: str) -> str:
    text = open(src).read()
    # Drop the black-box PLL (with its attribute line) and put the stub in its place.
    start = text.index("module SB_PLL40_PAD (")
    attr = text.rfind("(* blackbox *)", 0, start)
    if attr >= 0 and text[attr:start].strip() == "(* blackbox *)":
        start = attr
    end = text.index("endmodule", start) + len("endmodule")
    return text[:start] + PLL_STUB + text[end:]


def mutate(netlist: str, net: str) -> str:
    # write_verilog -noattr writes each cell as `SB_LUT4 #(.LUT_INIT(16'hXXXX)) NAME (... .O(NET) ...);`
    cell = re.compile(r"SB_LUT4\s*#\(\s*\.LUT_INIT\(16'h([0-9a-fA-F]{4})\)\s*\)\s*(\S+)\s*\((.*?)\);", re.S)
    for m in cell.finditer(netlist):
        out = re.search(r"\.O\(([^()]*)\)", m.group(3))
        if out and net in out.group(1):
            flipped = "%04x" % (int(m.group(1), 16) ^ 0xFFFF)
            print("netlist_for_sim: LUT %s (output %s): LUT_INIT 16'h%s -> 16'h%s"
                  % (m.group(2), out.group(1).strip(), m.group(1), flipped))
            s = m.start(1)
            return netlist[:s] + flipped + netlist[m.end(1):]
    sys.exit("netlist_for_sim: no SB_LUT4 drives a net named like '%s'" % net)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cells_sim")
    ap.add_argument("netlist")
    ap.add_argument("out_dir")
    ap.add_argument("--mutate", action="store_true")
    # The first LUT on the way into the bridge's first payload byte: the low byte of every register offset and word
    # index, so the mutant misreads ID at attach. (A net matched by "pay_q" alone may be the last byte, which register
    # reads never use: the mutant then passed the checks.)
    ap.add_argument("--net", default="u_bridge.pay_q[0]")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    netlist = open(a.netlist).read()
    if a.mutate:
        netlist = mutate(netlist, a.net)
    for name, text in (("cells_sim.v", cells(a.cells_sim)), ("netlist.v", netlist)):
        path = os.path.join(a.out_dir, name)
        # Rewritten only when changed: Verilator's build depends on these files.
        if not os.path.exists(path) or open(path).read() != text:
            open(path, "w").write(text)


if __name__ == "__main__":
    main()
