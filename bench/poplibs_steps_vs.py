#!/usr/bin/env python3
"""bench_poplibs_steps against an earlier install tree (e.g. the previous main's `make install`).

Builds bench/bench_poplibs_steps.cpp with g++ against the earlier tree, as a user of that install would, then runs
the earlier and this build's programs alternately (one process each per round, so a slow moment of the shared
machine hits both) and prints, per workload, both sides' simulated cycles and median host wall time per run, and
the wall-time ratio this/earlier (> 1: this build is slower). Cycles do not depend on the host: a difference there
is a change of the libraries' code.

Usage: poplibs_steps_vs.py <this build's bench_poplibs_steps> <earlier install prefix> [rounds]
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile


def build_baseline(prefix, work):
    here = os.path.dirname(os.path.abspath(__file__))
    exe = os.path.join(work, 'bench_poplibs_steps_baseline')
    cmd = ['g++', '-std=c++17', '-O2', '-I' + os.path.join(prefix, 'include'), '-I' + here,
           os.path.join(here, 'bench_poplibs_steps.cpp'), '-L' + os.path.join(prefix, 'lib'), '-lpopnn', '-lpoplin',
           '-lpopops', '-lpoputil', '-lpoplar', '-Wl,-rpath,' + os.path.join(prefix, 'lib'), '-o', exe]
    subprocess.run(cmd, check=True)
    return exe


def run_once(exe):
    out = subprocess.run([exe, '3', '--json'], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    subject, prefix = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if not os.path.isdir(os.path.join(prefix, 'include', 'poplin')):
        sys.exit('poplibs_steps_vs.py: %s has no include/poplin; give an install prefix (make install, or a build\'s '
                 'install-tree)' % prefix)
    with tempfile.TemporaryDirectory() as work:
        baseline = build_baseline(prefix, work)
        runs = {'earlier': [], 'this': []}
        for _ in range(rounds):
            runs['earlier'].append(run_once(baseline))
            runs['this'].append(run_once(subject))
    for name in runs['this'][0]:
        figs = {}
        for side in ('earlier', 'this'):
            cycles = {r[name]['cycles'] for r in runs[side]}
            wall = statistics.median(r[name]['run_s'] for r in runs[side])
            figs[side] = (cycles, wall)
        print('%s: simulated cycles earlier %s, this %s; host wall per run earlier %.3f s, this %.3f s, '
              'ratio this/earlier %.2f (%d alternating rounds)' %
              (name, '/'.join(map(str, sorted(figs['earlier'][0]))), '/'.join(map(str, sorted(figs['this'][0]))),
               figs['earlier'][1], figs['this'][1], figs['this'][1] / figs['earlier'][1], rounds))


if __name__ == '__main__':
    main()
