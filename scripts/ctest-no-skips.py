#!/usr/bin/env python3
"""Fails when a ctest run (its JUnit file) skipped a test or a CMocka case.

Usage: ctest-no-skips.py JUNIT.xml. scripts/ctest-strict.sh calls it under
CI=true. Silent and exit 0 when every test ran all of its cases.
"""
import re
import sys
import xml.etree.ElementTree as ET

CMOCKA_SKIP = re.compile(r"^\[\s+SKIPPED\s+\]\s+(\S+)", re.M)


def skips(path):
    found = []
    for case in ET.parse(path).getroot().iter("testcase"):
        name = case.get("name")
        skipped = case.find("skipped")
        if case.get("status") == "notrun" or skipped is not None:
            why = skipped.get("message") if skipped is not None else "not run"
            found.append(f"{name}: skipped by ctest ({why})")
        out = case.findtext("system-out") or ""
        for inner in CMOCKA_SKIP.findall(out):
            found.append(f"{name}: CMocka skipped {inner}")
    return found


def main():
    if len(sys.argv) != 2:
        print("usage: ctest-no-skips.py JUNIT.xml", file=sys.stderr)
        return 2
    try:
        found = skips(sys.argv[1])
    except (OSError, ET.ParseError) as e:
        print(f"ctest-no-skips: cannot read ctest's JUnit file {sys.argv[1]}: {e}", file=sys.stderr)
        return 2
    for line in found:
        print(f"ctest-no-skips: {line}", file=sys.stderr)
    if found:
        print(f"ctest-no-skips: {len(found)} skip(s) under CI=true: in CI every test must run; install what the "
              "skipped test names (`make deps`) or fix the test", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
