#!/usr/bin/env python3
"""The user path against QEMU (issue 35, item 6): the bench_iss kernel object
(sort, CRC32, float matmul) run by `gc-run` on a `tiny` card with one host
thread, a new process each time (so a cold process and a cold translation
state: JIT translations live in the process), alternating with
`qemu-riscv32` on the Linux build of the same object. Each figure is wall
time; the speed ratio is qemu's time over gc-run's, taken pair by pair so a
drift of the shared machine's speed hits both sides of a pair. Both sides
must exit with the same checksum byte. Prints median, min and max.

Usage: gc_run_vs_qemu.py BIN_DIR BENCH_ISS_DIR [PAIRS] [N ...]
"""
import os
import shutil
import statistics
import subprocess
import sys
import time


def timed(cmd, env):
    """Wall seconds and exit status of one run of `cmd`."""
    t = time.perf_counter()
    r = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - t, r.returncode, r.stderr.decode(errors="replace")


def spread(xs):
    return "median %.3f (min %.3f, max %.3f)" % (statistics.median(xs), min(xs), max(xs))


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    bin_dir, iss_dir = sys.argv[1], sys.argv[2]
    pairs = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    sizes = [int(n) for n in sys.argv[4:]] or [2000, 8000]
    gc_run = os.path.join(bin_dir, "gc-run")
    tile_elf = os.path.join(iss_dir, "iss_kernel_tile.elf")
    linux_elf = os.path.join(iss_dir, "iss_kernel_linux.elf")
    for path in (gc_run, tile_elf, linux_elf):
        if not os.path.exists(path):
            print("not built: %s" % path)
            return 0
    if not shutil.which("qemu-riscv32"):
        print("qemu-riscv32 not available (Debian package qemu-user): no ratio")
        return 0
    env = dict(os.environ, IPU_EMU_DEVICES="tiny", IPU_EMU_HOST_THREADS="1")
    iss = env.get("IPU_EMU_ISS") or "jit"
    try:
        load = os.getloadavg()[0]
    except OSError:
        load = float("nan")
    print("load average %.2f at the start; ISS mode %s; %d pairs per size, qemu first in each pair" %
          (load, iss, pairs))
    status = 0
    for n in sizes:
        gc_cmd = [gc_run, "-t", "0", "--arg", str(n), tile_elf]
        q_cmd = ["qemu-riscv32", linux_elf, str(n)]
        timed(gc_cmd, env)  # one warm-up of each: the page cache, not the process, is warm after it
        timed(q_cmd, env)
        gs, qs, ratio = [], [], []
        for _ in range(pairs):
            qt, qrc, _ = timed(q_cmd, env)
            gt, grc, gerr = timed(gc_cmd, env)
            if grc != qrc:
                print("FAIL: N=%d gc-run exited %d, qemu-riscv32 %d\n%s" % (n, grc, qrc, gerr[-2000:]))
                status = 1
                break
            gs.append(gt)
            qs.append(qt)
            ratio.append(qt / gt)
        if not ratio:
            continue
        print("N=%-5d gc-run %s s; qemu-riscv32 %s s" % (n, spread(gs), spread(qs)))
        print("N=%-5d speed, qemu time / gc-run time: %s (target 3.0)" % (n, spread(ratio)))
    return status


if __name__ == "__main__":
    sys.exit(main())
