#!/usr/bin/env python3
"""Print the distinct "isa:abi" pairs used by the board files in a folder."""
import pathlib
import sys
import tomllib

pairs = set()
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.toml")):
    with open(path, "rb") as f:
        board = tomllib.load(f)
    pairs.add(f"{board['isa']}:{board['abi']}")
print(" ".join(sorted(pairs)))
