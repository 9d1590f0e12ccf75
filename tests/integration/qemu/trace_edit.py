#!/usr/bin/env python3
"""Edits one recorded register read in an ipu-emu trace (docs/trace-format.md), so
that a replay test can check that ipu-replay reports the difference.

usage: trace_edit.py TRACE OUT OFFSET   changes the value of the first BAR0 read of
OFFSET (e.g. 0x0 for ID) in TRACE and writes the result to OUT; prints the record
number and the old and new values."""
import struct
import sys

# kind -> fixed field layout after the kind byte (little-endian).
FIXED = {1: "<BBQQi", 2: "<BBQQ", 3: "<Q", 4: "<i", 5: "<QIi", 6: "<QIi", 7: "<I"}


def main():
    src, dst, offset = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
    data = bytearray(open(src, "rb").read())
    if data[:8] != b"IPUTRACE":
        sys.exit(f"{src}: not an ipu-emu trace")
    pos = 8
    _version, board_size = struct.unpack_from("<II", data, pos)
    pos += 8 + board_size
    (name_len,) = struct.unpack_from("<I", data, pos)
    pos += 4 + name_len + 1
    record = 0
    while pos < len(data):
        kind = data[pos]
        record += 1
        fmt = FIXED[kind]
        fields = struct.unpack_from(fmt, data, pos + 1)
        at = pos + 1
        pos += 1 + struct.calcsize(fmt)
        if kind in (5, 6) and (kind == 6 or fields[2] == 0):
            pos += fields[1]  # the DMA's data
        if kind == 1 and fields[0] == 0 and fields[2] == offset:
            old = fields[3]
            new = old ^ 0x1
            struct.pack_into("<Q", data, at + 2 + 8, new)
            open(dst, "wb").write(data)
            print(f"record {record}: BAR0 read of 0x{offset:x} changed from 0x{old:x} to 0x{new:x}")
            return
    sys.exit(f"{src}: no BAR0 read of 0x{offset:x}")


main()
