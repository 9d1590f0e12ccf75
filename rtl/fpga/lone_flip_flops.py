#!/usr/bin/env python3
"""Lists the flip-flops that take a logic cell of their own, by register.

An iCE40 logic cell holds one LUT and one flip-flop; nextpnr puts them together only
when the LUT's output feeds that flip-flop and nothing else. A flip-flop loaded from
another flip-flop, a RAM, a DSP or a shared LUT output costs a whole cell, which the
LUT count does not show. Reads the flattened yosys JSON that rtl/fpga/flow.sh writes.
Usage: lone_flip_flops.py DESIGN.json [TOP_N]
"""
import collections
import json
import re
import sys


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: lone_flip_flops.py DESIGN.json [TOP_N]")
    top_n = int(sys.argv[2]) if len(sys.argv) == 3 else 20
    with open(sys.argv[1]) as f:
        design = json.load(f)
    top = next(m for m in design["modules"].values() if m["attributes"].get("top"))
    cells = top["cells"]
    # The shortest name of each net bit: the register name rather than a derived one.
    name_of = {}
    for net, info in top["netnames"].items():
        for bit in info["bits"]:
            if isinstance(bit, int) and (bit not in name_of or len(net) < len(name_of[bit])):
                name_of[bit] = net
    driver, loads = {}, collections.Counter()
    for cell in cells.values():
        for port, bits in cell["connections"].items():
            for bit in bits:
                if not isinstance(bit, int):
                    continue
                if cell["port_directions"][port] == "output":
                    driver[bit] = cell["type"]
                else:
                    loads[bit] += 1
    lone = collections.Counter()
    for cell in cells.values():
        if not cell["type"].startswith("SB_DFF"):
            continue
        d, q = cell["connections"]["D"][0], cell["connections"]["Q"][0]
        if driver.get(d) == "SB_LUT4" and loads[d] == 1:
            continue  # shares the cell of the LUT that feeds it
        why = "its LUT also feeds other logic" if driver.get(d) == "SB_LUT4" else "loaded from " + driver.get(d, "a port")
        register = re.sub(r"\[\d+\]$", "", name_of.get(q, "?"))
        register = re.sub(r"^u_board\.(g_card\.u_card\.)?", "", register)  # the board top's prefix
        lone[(register, why)] += 1
    print(f"   {sum(lone.values())} flip-flops take a logic cell of their own; the largest registers:")
    for (register, why), count in lone.most_common(top_n):
        print(f"   {count:6d}  {register}  ({why})")


if __name__ == "__main__":
    main()
