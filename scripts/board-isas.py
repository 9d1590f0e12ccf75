#!/usr/bin/env python3
"""Print the distinct "isa:abi" pairs used by the board files in a folder.

Each board is read by the board reader's rules (boards/lib/board_rules.py), so a board the C reader would refuse
stops `make deps` here with the same message, instead of building newlib for it."""
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "boards" / "lib"))
sys.dont_write_bytecode = True
import board_rules  # noqa: E402 (the path above comes first)

pairs = set()
for path in sorted(pathlib.Path(sys.argv[1]).glob("*.toml")):
    try:
        board = board_rules.load_file(path)
    except board_rules.BoardError as e:
        sys.exit(f"board-isas: {e}")
    pairs.add(f"{board['isa']}:{board['abi']}")
print(" ".join(sorted(pairs)))
