#!/usr/bin/env python3
"""The architecture check: every arrow between the tree's folders goes down.

The tree is layered (docs/architecture.md, "Layers"): a folder may use the
folders below it and never one above it, and no two top-level folders may use
each other, directly or through others. The arrows are read from the sources:

  - `#include "x"` in C, C++ and SystemVerilog-free sources, resolved to the
    folder that holds x (the including file's own folder first, then every
    file of the tree whose path ends in x);
  - CMake: `target_link_libraries(t ... l ...)` from the folder that defines
    t to the folder that defines l, and include directories or sources named
    by path (`${IPU_SOURCE_DIR}/folder/...`, `${ROOT}/folder/...`).

Usage: check-layers.py [--root DIR] [--verbose]
Exit status 0 when every arrow goes down, 1 with one line per offending arrow.
"""
import argparse
import os
import re
import sys
from collections import defaultdict

# Lowest first. A path belongs to the longest prefix listed here. The tools of
# driver/ and hostlib/ sit above both libraries (gc tools, gc-run, popc).
LAYERS = [
    ("contract", 0),
    ("boards", 1),
    ("codec", 2),
    ("model", 3),
    ("rtl", 4),
    ("backends", 5),
    ("driver", 6),
    ("qemu-device", 6),
    ("firmware", 7),
    ("hostlib", 8),
    # PopLibs sit on Poplar inside hostlib: libpoplar (hostlib/poplar) never reaches into a PopLibs library's
    # folder; a library gives Poplar what it must know through Poplar's API (e.g. Graph::registerPerfEstimator).
    *((f"hostlib/{lib}", 8.5) for lib in ("poputil", "popops", "poplin", "popnn", "poprand", "popsparse",
                                          "popfloat", "poplibs_support", "gcl", "popdist", "poplibs.cmake")),
    ("driver/tools", 9),
    ("hostlib/tools", 9),
    ("testkit", 10),
    ("bench", 11),
    ("tests", 12),
]
SOURCE_EXT = (".c", ".h", ".cpp", ".hpp", ".cc", ".inc")
SKIP_DIRS = {".git", "build", "build-asan", "node_modules", "__pycache__"}
INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
PATH_RE = re.compile(r"\$\{(?:IPU_SOURCE_DIR|ROOT|CMAKE_SOURCE_DIR|PROJECT_SOURCE_DIR)\}/([A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)?)")
DEFINE_RE = re.compile(r"\badd_(?:library|executable)\s*\(\s*([A-Za-z0-9_.:+-]+)")
LINK_RE = re.compile(r"\btarget_link_libraries\s*\(\s*([A-Za-z0-9_.:+-]+)([^)]*)\)", re.S)


def layer_of(rel):
    """(layer name, rank) of a path relative to the root, or None outside the layers."""
    best = None
    for prefix, rank in LAYERS:
        if rel == prefix or rel.startswith(prefix + "/"):
            if best is None or len(prefix) > len(best[0]):
                best = (prefix, rank)
    return best


def top(rel):
    return rel.split("/", 1)[0]


def walk(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS and not d.startswith("build")]
        for name in filenames:
            yield os.path.relpath(os.path.join(dirpath, name), root)


def read(root, rel):
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
        return f.read()


def include_edges(root, files):
    by_suffix = defaultdict(list)
    for rel in files:
        parts = rel.split("/")
        for i in range(len(parts)):
            by_suffix["/".join(parts[i:])].append(rel)
    for rel in files:
        if not rel.endswith(SOURCE_EXT):
            continue
        for target in INCLUDE_RE.findall(read(root, rel)):
            local = os.path.normpath(os.path.join(os.path.dirname(rel), target))
            if local in by_suffix and local in files:
                yield rel, [local], f'#include "{target}"'
                continue
            candidates = by_suffix.get(target.lstrip("./"), [])
            if candidates:
                yield rel, candidates, f'#include "{target}"'


def cmake_edges(root, files):
    cmake_files = [f for f in files if f.endswith("CMakeLists.txt") or f.endswith(".cmake")]
    owner = {}
    texts = {f: read(root, f) for f in cmake_files}
    for f, text in texts.items():
        for name in DEFINE_RE.findall(text):
            owner.setdefault(name, f)
    for f, text in texts.items():
        for target, libs in LINK_RE.findall(text):
            src = owner.get(target, f)
            for lib in re.split(r"\s+", libs):
                if lib in owner and lib != target:
                    yield src, [owner[lib]], f"target_link_libraries({target} ... {lib})"
        for path in PATH_RE.findall(text):
            yield f, [path], "${...}/" + path


def upward(edges):
    """Arrows whose source sits below every place the arrow may point to."""
    bad = []
    for src, candidates, why in edges:
        s = layer_of(src)
        if s is None:
            continue
        ranks = []
        for c in candidates:
            t = layer_of(c)
            if t is None or top(c) == top(src) and t[1] == s[1]:
                ranks = []  # inside its own layer, or outside the layers: not an arrow
                break
            ranks.append((t[1], t[0]))
        if ranks and min(ranks)[0] > s[1]:
            bad.append(f"{src} ({s[0]}) -> {candidates[0]} ({min(ranks)[1]}): {why} runs upward")
    return bad


def cycles(edges):
    graph = defaultdict(set)
    for src, candidates, _ in edges:
        if layer_of(src) is None or len(candidates) != 1 or layer_of(candidates[0]) is None:
            continue
        a, b = top(src), top(candidates[0])
        if a != b:
            graph[a].add(b)
    found = []
    state = {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                found.append(" -> ".join(path[path.index(nxt):] + [nxt]))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    files = sorted(walk(args.root))
    edges = list(include_edges(args.root, files)) + list(cmake_edges(args.root, files))
    problems = upward(edges) + [f"cycle between top-level folders: {c}" for c in cycles(edges)]
    if args.verbose:
        print(f"check-layers: {len(files)} files, {len(edges)} arrows")
    for p in problems:
        print(p)
    if problems:
        print(f"check-layers: {len(problems)} arrow(s) break the layer order "
              f"({', '.join(n for n, _ in LAYERS)}); move the code down or the dependency up", file=sys.stderr)
        return 1
    print(f"check-layers: every arrow goes down ({len(edges)} arrows in {len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
