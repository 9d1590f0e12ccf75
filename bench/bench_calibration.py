#!/usr/bin/env python3
"""Cycle calibration and the tutorial 7 demo figures for `make bench` (issue 20).

  bench_calibration.py demo BIN_DIR [RUNS]
      Runs tutorial 7 (bin/ipu-demo: 10000x1000 on the ipu2 IPU Model) RUNS times (default 3): the planner's
      choice, the simulated cycles (checked identical in every run) and each wall-time phase as the median with
      min and max.

  bench_calibration.py calibrate BIN_DIR [--popops-output FILE]
      Puts side by side, for tutorial 7 and the PopLibs benchmarks (popops add of 10M floats, reduce of 10Mx1):
      the planner's estimate where one exists, the simulated cycles split into host copy / compute / exchange /
      sync+other from the execution profile, and the seed's published figures. Tutorial 7 runs once with its
      profile written (autoReport); the PopLibs figures come from bench_popops's output (FILE, as bench/run.sh
      saved it, or a fresh `bench_popops --runs 1`).

  bench_calibration.py table BIN_DIR [--quick] [--check]
      The calibration table (issue 37 item 6): tutorial 7 on ipu1 and ipu2 and tutorial 6 against the seed's
      figures, and PopLibs operations (bin/bench_calib_ops, one ipu2 tile each) against Graphcore's estimators
      (bench/calib_reference.py), with the ratio. --quick: the PopLibs rows' smallest shapes only, no tutorial 7;
      --check: exit non-zero when a PopLibs row is outside +-25% of its reference (the ctest calibration_table).

Simulated cycles do not depend on the host (the model's time is logical), so one run gives them exactly; wall
times vary and are medians. Exits non-zero when a program fails or prints something unexpected.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

# The seed's published figures (../shared/seeds/poplar-and-poplibs-user-guide.txt, tutorial 7 on 10000x1000):
# its planner's choice and cost, and the IPU Model report's "Program cycles".
SEED_TUT7_PLANNER = 4751
SEED_TUT7_PROGRAM = 5071


def fail(msg):
    print(f"FAIL: bench_calibration: {msg}")
    sys.exit(1)


def run(cmd, env=None):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited with {p.returncode}:\n{p.stdout[-2000:]}")
    return p.stdout


def grab(pattern, text, what):
    m = re.search(pattern, text, re.M)
    if not m:
        fail(f"no {what} in the output (pattern {pattern!r})")
    return m


def planner(out):
    m = grab(r"total cost=(\d+) \(compute cost=(\d+), exchange cost=(\d+),\s*reduce exchange cost=(\d+),\s*"
             r"reduce compute cost=(\d+)\)", out, "planner cost")
    total, compute, exchange, rexchange, rcompute = map(int, m.groups())
    return {"total": total, "compute": compute + rcompute, "exchange": exchange + rexchange}


def median_min_max(values, unit, scale=1.0):
    return (f"{statistics.median(values) * scale:.3f} {unit} (min {min(values) * scale:.3f}, "
            f"max {max(values) * scale:.3f}, n={len(values)})")


def demo(bin_dir, runs):
    prog = os.path.join(bin_dir, "ipu-demo")
    if not os.access(prog, os.X_OK):
        print(f"not built: {prog}")
        return
    cycles, measured, phases = [], [], {}
    out = ""
    for _ in range(runs):
        out = run([prog])
        grab(r"^Multiplication result OK", out, "'Multiplication result OK'")
        cycles.append(int(grab(r"^Program cycles: (\d+)", out, "program cycles").group(1)))
        measured.append(int(grab(r"^Measured cycles \(tile model\): (\d+)", out, "measured cycles").group(1)))
        wall = grab(r"^Wall time: (.*)$", out, "wall time").group(1)
        for name, secs in re.findall(r"([a-z ]+?) ([0-9.eE+-]+) s", wall):
            phases.setdefault(name.strip(" ,"), []).append(float(secs))
    split = grab(r"^colsAxisSplit=(\d+)", out, "planner choice").group(1)
    plan = planner(out)
    print(f"Planner: colsAxisSplit={split}, total cost {plan['total']:,} cycles (compute {plan['compute']:,}, "
          f"exchange {plan['exchange']:,})")
    same = "identical" if len(set(cycles)) == 1 else "DIFFERENT: " + ", ".join(map(str, cycles))
    print(f"Program cycles (IPU Model time model, docs/time-model.md): {cycles[0]} ({same} in all {runs} runs); "
          f"the seed's tutorial 7 on Mk1 reports {SEED_TUT7_PROGRAM}")
    print(f"Measured cycles (tile model): {measured[0]}")
    for name, values in phases.items():
        print(f"Wall time {name}: {median_min_max(values, 's')}")
    if len(set(cycles)) != 1 or len(set(measured)) != 1:
        fail("the estimated or measured cycles differ between runs of the same program")


def split_from_profile(path):
    with open(path) as f:
        exec_profile = json.load(f)
    sim = exec_profile["simulation"]
    parts = {"StreamCopy": 0, "OnTileExecute": 0, "DoExchange": 0}
    for step in sim["steps"]:
        if step["type"] in parts:
            parts[step["type"]] += step["cycles"]
    total = sim["cycles"]
    return {"total": total, "host copy": parts["StreamCopy"], "compute": parts["OnTileExecute"],
            "exchange": parts["DoExchange"], "sync/other": total - sum(parts.values())}


def popops_splits(text):
    if not re.search(r"^add\s+split:", text, re.M):
        return None
    rows = {}
    for what in ("add", "reduce"):
        m = grab(rf"^{what}\s+split: total (\d+) cycles: host copy (\d+), compute (\d+), exchange (\d+), "
                 rf"sync/other (\d+); vertex estimate (\d+)", text, f"{what} split")
        total, host, compute, exchange, other, estimate = map(int, m.groups())
        rows[what] = ({"total": total, "host copy": host, "compute": compute, "exchange": exchange,
                       "sync/other": other}, estimate)
    return rows


def calibrate(bin_dir, popops_output):
    header = (f"{'program':<22}{'estimate':>12}{'simulated':>12}{'host copy':>12}{'compute':>12}{'exchange':>11}"
              f"{'sync/other':>12}  seed (published)")
    print(header)
    prog = os.path.join(bin_dir, "ipu-demo")
    if os.access(prog, os.X_OK):
        with tempfile.TemporaryDirectory(prefix="ipu-calibration-") as d:
            env = dict(os.environ)
            env["POPLAR_ENGINE_OPTIONS"] = json.dumps({"autoReport.outputExecutionProfile": "true",
                                                      "autoReport.directory": d})
            out = run([prog], env)
            plan = planner(out)
            s = split_from_profile(os.path.join(d, "execution.json"))
        print(f"{'tutorial 7 10000x1000':<22}{plan['total']:>12,}{s['total']:>12,}{s['host copy']:>12,}"
              f"{s['compute']:>12,}{s['exchange']:>11,}{s['sync/other']:>12,}  program {SEED_TUT7_PROGRAM:,} "
              f"(IPU Model), planner {SEED_TUT7_PLANNER:,}")
        print(f"  planner's parts: compute {plan['compute']:,}, exchange {plan['exchange']:,}; simulated compute / "
              f"planner compute = {s['compute'] / max(1, plan['compute']):.1f}x; without the host copies the run is "
              f"{s['total'] - s['host copy']:,} cycles = {(s['total'] - s['host copy']) / SEED_TUT7_PROGRAM:.1f}x "
              f"the seed's program")
    else:
        print(f"not built: {prog}")
    if popops_output and os.path.exists(popops_output):
        with open(popops_output) as f:
            text = f.read()
    else:
        bench = os.path.join(bin_dir, "bench_popops")
        if not os.access(bench, os.X_OK):
            print(f"not built: {bench}")
            return
        text = run([bench, "10000000", "ipu2", "--runs", "1"])
    rows = popops_splits(text)
    if rows is None:
        print("popops: no figures (bench_popops did not run or printed no split)")
        return
    for what, label in (("add", "popops add 10M"), ("reduce", "popops reduce 10Mx1")):
        s, estimate = rows[what]
        est = f"{estimate:,}" if estimate else "none"
        print(f"{label:<22}{est:>12}{s['total']:>12,}{s['host copy']:>12,}{s['compute']:>12,}{s['exchange']:>11,}"
              f"{s['sync/other']:>12,}  none published")
    print("estimate: the program's own planner (tutorial 7) or its vertices' cycle estimates (PopLibs); simulated: "
          "the card model's cycles (host copy at the board's link, compute from the barrel schedule of scalar "
          "RV32IMF tiles, exchange at exchange_bytes_per_cycle); docs/architecture.md, \"Time model\"")


def table(bin_dir, quick, check):
    """The calibration table: tutorial 7 on ipu1 and ipu2 and tutorial 6 (program cycles) against the seed, then each
    PopLibs operation of bench_calib_ops (compute cycles on one ipu2 tile) against calib_reference.py's figure from
    Graphcore's estimators. With `check`, fails when a PopLibs row is outside +-25% of its reference."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import calib_reference
    print(f"{'op':<14}{'shape':<20}{'type':<7}{'target':<12}{'ours':>9}{'reference':>11}{'ratio':>7}  source")
    demo_prog = os.path.join(bin_dir, "ipu-demo")
    if not quick and os.access(demo_prog, os.X_OK):
        for target in ("ipu1", "ipu2"):
            out = run([demo_prog, "10000", "1000", target])
            ours = int(grab(r"^Program cycles: (\d+)", out, "program cycles").group(1))
            note = "" if target == "ipu1" else " (the seed's figure is Mk1's)"
            print(f"{'tutorial 7':<14}{'10000x1000':<20}{'float':<7}{target:<12}{ours:>9,}{SEED_TUT7_PROGRAM:>11,}"
                  f"{ours / SEED_TUT7_PROGRAM:>7.2f}  seed: Poplar and PopLibs User Guide, tutorial 7, "
                  f"'Program cycles: 5071' (Mk1 IPU Model){note}")
    tut6 = os.path.abspath(os.path.join(bin_dir, "calib_tutorial6"))
    if not quick and os.access(tut6, os.X_OK):
        # The seed's tutorial 6 program, run in its folder (it loads matrix-mul-codelets.cpp from there); its
        # program cycles from the execution profile, since the tutorial prints none.
        with tempfile.TemporaryDirectory(prefix="ipu-calibration-") as d:
            env = dict(os.environ)
            env["POPLAR_ENGINE_OPTIONS"] = json.dumps({"autoReport.outputExecutionProfile": "true",
                                                      "autoReport.directory": d})
            src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "tutorials", "tut6")
            p = subprocess.run([tut6, "40", "50"], cwd=src, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
            if p.returncode != 0 or "Multiplication result OK" not in p.stdout:
                fail(f"tutorial 6 failed:\n{p.stdout[-2000:]}")
            with open(os.path.join(d, "execution.json")) as f:
                ours = json.load(f)["simulation"]["cycles"]
        print(f"{'tutorial 6':<14}{'40x50':<20}{'float':<7}{'ipu2':<12}{ours:>9,}{'-':>11}{'-':>7}  the seed prints no "
              f"cycles for tutorial 6 and its DotProductVertex has no estimate (ours charges the default, "
              f"docs/time-model.md)")
    ops = os.path.join(bin_dir, "bench_calib_ops")
    if not os.access(ops, os.X_OK):
        print(f"not built: {ops}")
        if check:
            fail("bench_calib_ops is not built")
        return
    out = run([ops] + (["--quick"] if quick else []))
    outside = []
    for line in out.splitlines():
        parts = line.split("|")
        if len(parts) != 4:
            continue
        op, shape, typ, ours = parts[0], parts[1], parts[2], int(parts[3])
        ref, vertices, source = calib_reference.reference(op, shape)
        ratio = ours / ref
        flag = "" if 0.75 <= ratio <= 1.25 else "  OUTSIDE +-25%"
        if flag:
            outside.append(f"{op} {shape}: ours {ours}, reference {ref}, ratio {ratio:.2f}")
        print(f"{op:<14}{shape:<20}{typ:<7}{'ipu2, 1 tile':<12}{ours:>9,}{ref:>11,}{ratio:>7.2f}  {source}: "
              f"{vertices}{flag}")
    print("ours: the IPU Model time model's compute-set cycles for the operation alone (tutorials: program cycles); "
          "reference: Graphcore's PopLibs estimators for the vertices PopLibs would use (bench/calib_reference.py "
          "names each formula and commit), or the seed's published figure")
    if check and outside:
        fail("rows outside +-25% of their reference:\n  " + "\n  ".join(outside))


def main(argv):
    if len(argv) >= 2 and argv[0] == "demo":
        demo(argv[1], int(argv[2]) if len(argv) > 2 else 3)
    elif len(argv) >= 2 and argv[0] == "table":
        table(argv[1], "--quick" in argv[2:], "--check" in argv[2:])
    elif len(argv) >= 2 and argv[0] == "calibrate":
        out = argv[3] if len(argv) > 3 and argv[2] == "--popops-output" else None
        calibrate(argv[1], out)
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main(sys.argv[1:])
