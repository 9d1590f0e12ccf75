#!/usr/bin/env python3
"""Rewrites rtl/ sources for yosys 0.23, whose SystemVerilog front end has no
`import`: each `import pkg::*;` is dropped and the package's names used in the
file are qualified as pkg::Name. Everything else passes through unchanged.
Usage: sv_for_yosys.py OUT_DIR FILE... (packages first)."""
import pathlib
import re
import sys


def package_names(text):
    names = set(re.findall(r'localparam\s+(?:[\w\s]+?)?(?:\[[^\]]*\]\s*)?(\w+)\s*=', text))
    names |= set(re.findall(r'typedef\s+[^;]*?}\s*(\w+)\s*;', text, re.S))
    names |= set(re.findall(r'function\s+automatic\s+[^(;]*?(\w+)\s*\(', text))
    for body in re.findall(r'enum\s+[^{]*{([^}]*)}', text, re.S):
        names |= set(re.findall(r'(\w+)\s*=', body)) | set(re.findall(r'^\s*(\w+)\s*,?\s*$', body, re.M))
    return names


def main():
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    packages = {}
    for name in sys.argv[2:]:
        path = pathlib.Path(name)
        text = path.read_text()
        pkg = re.match(r'(?:\s*//[^\n]*\n)*\s*package\s+(\w+)\s*;', text)
        if pkg:
            packages[pkg.group(1)] = package_names(text)
        else:
            for imported in re.findall(r'import\s+(\w+)::\*\s*;', text):
                text = re.sub(r'\s*import\s+' + imported + r'::\*\s*;', '', text, count=1)
                for sym in sorted(packages.get(imported, ()), key=len, reverse=True):
                    text = re.sub(r'(?<![\w:.\'])' + sym + r'\b', imported + '::' + sym, text)
        (out / path.name).write_text(text)


if __name__ == '__main__':
    main()
