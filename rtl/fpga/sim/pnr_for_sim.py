#!/usr/bin/env python3
"""The placed and routed card read back from its bitstream (the .asc, icepack's
input), as Verilog for the post-place-and-route simulation.

fpga-icestorm's icebox_vlog turns the logic, carry, flip-flop, block-RAM, IO and
PLL configuration of the .asc into Verilog, but it does not write the UltraPlus
hard blocks this card uses: the SB_MAC16 DSPs (icebox_vlog only traces their
inputs, as a TODO) and the SB_SPRAM256KA single-port RAMs (not at all). Without
them the tile has no multiplier and no SRAM. This script adds them from the same
.asc: icebox's own databases give each block's configuration bits
(dsp_config_db, spram_db's SPRAM_EN) and the routing wires of its ports, and
icebox_vlog's net comments name the net each wire belongs to.

It also connects the clock pad: the PLL's PACKAGEPIN is a net of its own in
icebox_vlog's output, not the pcf's clk_i port (icebox_vlog reports the port as
unmatched); the simulation drives the PLL's pad from clk_i.

Usage: pnr_for_sim.py ASC PCF OUT_V [--module NAME] [--flip-lut X,Y,N]
  --flip-lut  inverts the truth table of LUT N of logic tile (X, Y) in the .asc
              first: a routed card that must fail the checks.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

def load_icebox():
    # icebox.py lives beside icebox_vlog (a link into fpga-icestorm's python directory).
    vlog = shutil.which("icebox_vlog")
    if not vlog:
        sys.exit("pnr_for_sim: icebox_vlog not found (install fpga-icestorm)")
    sys.path.insert(0, os.path.dirname(os.path.realpath(vlog)))
    import icebox  # noqa: E402
    return icebox


def cbit(ic, icebox, x, y, name):
    """The value of the IpConfig bit NAME of tile (x, y), from the tile's bit database."""
    tile = ic.tile(x, y)
    for bits, kind, *rest in ic.tile_db(x, y):
        if kind == "IpConfig" and rest and rest[0] == name:
            val = True
            for b in bits:
                m = re.match(r"(!?)B(\d+)\[(\d+)\]", b)
                on = tile[int(m.group(2))][int(m.group(3))] == "1"
                val = val and (on != (m.group(1) == "!"))
            return int(val)
    sys.exit("pnr_for_sim: no configuration bit %s in tile (%d, %d)" % (name, x, y))


def net_map(vlog):
    """Segment (x, y, wire) -> net name, from icebox_vlog's comments under each net."""
    seg2net, net = {}, None
    decl = re.compile(r"^(?:wire|reg) ([A-Za-z_][A-Za-z0-9_]*)(?: = [01])?;$")
    com = re.compile(r"^// \((\d+), (\d+), '([^']+)'\)$")
    for line in vlog.splitlines():
        m = decl.match(line)
        if m:
            net = m.group(1)
            continue
        m = com.match(line)
        if m and net:
            seg2net[(int(m.group(1)), int(m.group(2)), m.group(3))] = net
        elif not line.startswith("//"):
            net = None
    return seg2net


def bus(seg2net, nets, prefix, width, default="1'b0"):
    """A Verilog concatenation of the nets on PREFIX_{width-1}..PREFIX_0."""
    parts = [seg2net.get(nets.get("%s_%d" % (prefix, i)), default) for i in range(width - 1, -1, -1)]
    return "{" + ", ".join(parts) + "}"


def dsps(ic, icebox, seg2net):
    out = []
    for (x, y) in sorted(ic.dsp_tiles[0]):
        nets = ic.get_dsp_nets_db(x, y)
        if not any(seg in seg2net for seg in nets.values()):
            continue  # an unused DSP
        cfg = {k: cbit(ic, icebox, *loc) for k, loc in ic.get_dsp_config_db(x, y).items()}

        def two(name):
            return "2'b%d%d" % (cfg[name + "_1"], cfg[name + "_0"])

        params = ["NEG_TRIGGER(1'b0)"]
        for k in ("C_REG", "A_REG", "B_REG", "D_REG", "TOP_8x8_MULT_REG", "BOT_8x8_MULT_REG",
                  "PIPELINE_16x16_MULT_REG1", "PIPELINE_16x16_MULT_REG2", "TOPADDSUB_UPPERINPUT",
                  "BOTADDSUB_UPPERINPUT", "MODE_8x8", "A_SIGNED", "B_SIGNED"):
            params.append("%s(1'b%d)" % (k, cfg[k]))
        for k in ("TOPOUTPUT_SELECT", "TOPADDSUB_LOWERINPUT", "TOPADDSUB_CARRYSELECT",
                  "BOTOUTPUT_SELECT", "BOTADDSUB_LOWERINPUT", "BOTADDSUB_CARRYSELECT"):
            params.append("%s(%s)" % (k, two(k)))
        ports = []
        for p in ("CLK", "CE", "AHOLD", "BHOLD", "CHOLD", "DHOLD", "IRSTTOP", "IRSTBOT", "ORSTTOP",
                  "ORSTBOT", "OLOADTOP", "OLOADBOT", "ADDSUBTOP", "ADDSUBBOT", "OHOLDTOP", "OHOLDBOT", "CI"):
            # A clock enable left unrouted is on, as in the logic tiles; any other input reads 0.
            ports.append("%s(%s)" % (p, seg2net.get(nets[p], "1'b1" if p == "CE" else "1'b0")))
        for p in "ABCD":
            ports.append("%s(%s)" % (p, bus(seg2net, nets, p, 16)))
        ports += ["ACCUMCI(1'b0)", "SIGNEXTIN(1'b0)", "ACCUMCO()", "SIGNEXTOUT()"]
        ports.append("CO(%s)" % seg2net.get(nets["CO"], ""))
        out.append(mac16(x, y, params, nets, seg2net, ports))
    return out


def mac16(x, y, params, nets, seg2net, ports):
    # Outputs no net reads are left open, one bit at a time: O is written as 32 single-bit ports.
    o_bits = [seg2net.get(nets["O_%d" % i]) for i in range(32)]
    ports = [p for p in ports if not p.startswith("O(")]
    wires = "  wire [31:0] dsp_%d_%d_o;\n" % (x, y)
    assigns = "".join("  assign %s = dsp_%d_%d_o[%d];\n" % (n, x, y, i) for i, n in enumerate(o_bits) if n)
    ports.append("O(dsp_%d_%d_o)" % (x, y))
    return (wires + "  SB_MAC16 #(\n    ." + ",\n    .".join(params) + "\n  ) dsp_%d_%d (\n    ." % (x, y)
            + ",\n    .".join(ports) + "\n  );\n" + assigns)


def sprams(ic, icebox, seg2net):
    out = []
    for (x, y, z), nets in sorted(icebox.spram_db[ic.device].items()):
        if not cbit(ic, icebox, *nets["SPRAM_EN"]):
            continue
        name = "spram_%d_%d_%d" % (x, y, z)
        ports = []
        for p, w in (("ADDRESS", 14), ("DATAIN", 16), ("MASKWREN", 4)):
            ports.append("%s(%s)" % (p, bus(seg2net, nets, p, w)))
        for p in ("WREN", "CHIPSELECT", "CLOCK", "STANDBY", "SLEEP", "POWEROFF"):
            ports.append("%s(%s)" % (p, seg2net.get(nets[p], "1'b0")))
        o_bits = [seg2net.get(nets["DATAOUT_%d" % i]) for i in range(16)]
        ports.append("DATAOUT(%s_o)" % name)
        out.append("  wire [15:0] %s_o;\n  SB_SPRAM256KA %s (\n    ." % (name, name) + ",\n    .".join(ports)
                   + "\n  );\n" + "".join("  assign %s = %s_o[%d];\n" % (n, name, i)
                                          for i, n in enumerate(o_bits) if n))
    return out


def flip_lut(asc_text, x, y, n, icebox):
    """The .asc with LUT N of logic tile (x, y) inverted (every truth-table bit of its lutff)."""
    lines = asc_text.split("\n")
    head = ".logic_tile %d %d" % (x, y)
    i = lines.index(head)
    tile = lines[i + 1:i + 17]
    bits = [list(r) for r in tile]
    # The LUT's 16 bits: lutff N uses rows 2N and 2N+1, columns 36..45 (icebox.get_lutff_bits);
    # get_lutff_lut_bits picks 16 of those 20.
    for k in (4, 14, 15, 5, 6, 16, 17, 7, 3, 13, 12, 2, 1, 11, 10, 0):
        r, c = 2 * n + k // 10, 36 + k % 10
        bits[r][c] = "0" if bits[r][c] == "1" else "1"
    lines[i + 1:i + 17] = ["".join(r) for r in bits]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("asc")
    ap.add_argument("pcf")
    ap.add_argument("out")
    ap.add_argument("--module", default="ipu_fpga_top")
    ap.add_argument("--flip-lut")
    a = ap.parse_args()
    icebox = load_icebox()
    asc = a.asc
    with tempfile.TemporaryDirectory() as tmp:
        if a.flip_lut:
            x, y, n = (int(v) for v in a.flip_lut.split(","))
            asc = os.path.join(tmp, "flipped.asc")
            open(asc, "w").write(flip_lut(open(a.asc).read(), x, y, n, icebox))
            print("pnr_for_sim: LUT %d of logic tile (%d, %d) inverted" % (n, x, y))
        vlog = subprocess.run(["icebox_vlog", "-n", a.module, "-p", a.pcf, asc], check=True,
                              capture_output=True, text=True).stdout
        ic = icebox.iceconfig()
        ic.read_file(asc)
    seg2net = net_map(vlog)
    body, extra = [], dsps(ic, icebox, seg2net) + sprams(ic, icebox, seg2net)
    unmatched = re.findall(r"^// Warning: unmatched port '(\w+)'$", vlog, re.M)
    pad = re.search(r"SB_PLL40_PAD #\(.*?\)\s*\w+\s*\(\s*\.PACKAGEPIN\((\w+)\)", vlog, re.S)
    if "clk_i" in unmatched:
        if not pad:
            sys.exit("pnr_for_sim: clk_i is not routed and there is no PLL pad to drive")
        extra.append("  assign %s = clk_i;\n" % pad.group(1))
    unmatched = [p for p in unmatched if p != "clk_i"]
    if unmatched:
        sys.exit("pnr_for_sim: ports the pcf names but the .asc does not use: %s" % ", ".join(unmatched))
    header = re.search(r"^module \w+ \((.*)\);$", vlog, re.M).group(1)
    ports = {p.split()[-1] for p in header.split(",")}
    in_pll = False
    for line in vlog.splitlines():
        # Comments (each net's wire list) and icebox_vlog's DSP input traces (assignments to
        # undeclared names) are dropped: the DSPs are instantiated below.
        if line.startswith("//") or line.startswith("/* DSP"):
            continue
        # icebox_vlog declares the ports again as wires in the body, which Verilog forbids
        # after an ANSI port list.
        m = re.match(r"^wire (\w+);$", line)
        if m and m.group(1) in ports:
            continue
        # The simulation's PLL is a wire (netlist_for_sim.py's stub): of icebox_vlog's
        # parameters it keeps those yosys's synthesized netlist sets.
        in_pll = in_pll or line.startswith("SB_PLL40_PAD #(")
        if in_pll and line.startswith(") "):
            in_pll = False
            body[-1] = body[-1].rstrip(",")  # the last parameter kept
        if in_pll and re.match(r"^  \.(DELAY_ADJUSTMENT_MODE_\w+|SHIFTREG_DIV_MODE|FDA_\w+|ENABLE_ICEGATE|TEST_MODE)\(", line):
            continue
        if line == "endmodule":
            body.extend(extra)
        body.append(line)
    text = "\n".join(body) + "\n"
    if not os.path.exists(a.out) or open(a.out).read() != text:
        open(a.out, "w").write(text)
    print("pnr_for_sim: %s: %d DSPs, %d SPRAMs added to icebox_vlog's netlist"
          % (a.out, sum("SB_MAC16" in e for e in extra), sum("SB_SPRAM256KA" in e for e in extra)))


if __name__ == "__main__":
    main()
