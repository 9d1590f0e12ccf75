#!/usr/bin/env python3
"""Editing the contract without regenerating must fail the freshness check.

Copies the contract folder and the generated outputs to a scratch tree, edits
one register offset in the copy, and asserts that `generate.py --check` fails
there and names a stale file -- so contract_fresh is a test that can fail."""
import pathlib
import shutil
import subprocess
import sys
import tempfile

root = pathlib.Path(__file__).resolve().parents[2]
with tempfile.TemporaryDirectory() as tmp:
    scratch = pathlib.Path(tmp)
    shutil.copytree(root / "contract", scratch / "contract")
    for rel in ["rtl/pkg/ipu_card_pkg.sv", "docs/hardware.md"]:
        (scratch / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(root / rel, scratch / rel)
    gen = scratch / "contract" / "generate.py"
    fresh = subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True)
    assert fresh.returncode == 0, f"copy should start fresh: {fresh.stderr}"
    toml = scratch / "contract" / "card.toml"
    text = toml.read_text()
    edited = text.replace("offset = 0x0a0", "offset = 0x0ac", 1)
    assert edited != text, "the edit must change the contract"
    toml.write_text(edited)
    stale = subprocess.run([sys.executable, gen, "--check"], capture_output=True, text=True)
    assert stale.returncode != 0, "an edited contract must make --check fail"
    assert "hw.h" in stale.stderr and "make regen" in stale.stderr, stale.stderr
print("stale contract detected as expected")
