#!/usr/bin/env python3
"""Where the Verilated card spends a clock cycle, by RTL module and source line.

Needs a build configured with -DIPU_RTL_PROFILE=ON: Verilator's --prof-cfuncs then
splits the generated code into one function per always block or assignment, named
after its module and line (..._PROF__ipu_tile_core__l482), so that perf's samples
land on RTL source lines instead of on a few huge functions (the profile of the
normal build is flat). Usage:

  rtl_profile.py BUILD_DIR [--variant tiny4] [--top 30] [--data perf.data]

runs `perf record` on ipu_rtl_bench (one round of the 1- and 4-tile runs) unless
--data names an existing recording, then prints each module's and each line's share
of the variant's samples, and the share of Verilator's scheduling code (the eval
loop and the calls into the split functions, which --prof-cfuncs makes larger).
"""
import argparse
import collections
import os
import re
import subprocess
import sys

# A split function: <prefix>___024root___<region>__TOP__<n>__PROF__<module>__l<line>.
PROF = re.compile(r"___(ico_sequent|nba_sequent|nba_comb|act_sequent|stl_sequent)__TOP__\d+__PROF__(\w+?)__l(\d+)$")


def record(build, data):
    bench = os.path.join(build, "bin", "ipu_rtl_bench")
    elf = os.path.join(build, "tile-tests", "rtl", "compute.elf")
    for path in (bench, elf):
        if not os.path.exists(path):
            sys.exit(f"rtl_profile: {path} is missing: build ipu_rtl_bench and tile-tests/rtl/compute.elf first")
    subprocess.run(["perf", "record", "-q", "-o", data, "--", bench, elf, "20000", "1"], check=True,
                   stdout=subprocess.DEVNULL)


def samples(data):
    """(percent, symbol) for every symbol perf sampled."""
    out = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "sym", "--stdio"],
                         check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if m:
            yield float(m.group(1)), m.group(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("build", help="the build tree (configured with -DIPU_RTL_PROFILE=ON)")
    ap.add_argument("--variant", default="tiny4", help="the Verilated configuration to report (tiny4, one)")
    ap.add_argument("--top", type=int, default=30, help="how many source lines to list")
    ap.add_argument("--data", help="an existing perf recording instead of a new one")
    args = ap.parse_args()
    data = args.data or os.path.join(args.build, "rtl_profile.data")
    if not args.data:
        record(args.build, data)

    prefix = f"Vipu_card_{args.variant}"
    modules, lines, regions = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0.0
    for pct, sym in samples(data):
        if not sym.startswith(prefix + "_"):
            continue
        total += pct
        m = PROF.search(sym)
        if m:
            regions[m.group(1)] += pct
            modules[m.group(2)] += pct
            lines[f"{m.group(2)}.sv:{m.group(3)}"] += pct
        else:
            modules["(scheduling: eval loop, triggers, calls)"] += pct
    if not lines:
        sys.exit(f"rtl_profile: no split functions of {prefix} in the samples: configure the build with "
                 "-DIPU_RTL_PROFILE=ON and rebuild ipu_rtl_bench")
    print(f"{prefix}: {total:.1f}% of all samples; shares below are of the variant's")
    for title, table, n in (("by region", regions, None), ("by module", modules, None),
                            ("by source line", lines, args.top)):
        print(f"\n{title}:")
        for key, pct in table.most_common(n):
            print(f"  {100 * pct / total:5.1f}%  {key}")


if __name__ == "__main__":
    main()
