"""The board file rules of the C reader (boards/lib: ipu_board.c, board_text.c,
board_toml.cpp), for the Python tools that read boards before anything is
compiled (firmware/scripts/gen-ldscript.py at configure time, scripts/
board-isas.py in `make deps`, scripts/qemu/tutorials.sh for the guest).

tomllib alone reads `010` as an error only by luck, `0o10` as 8, and knows
nothing of the board keys; this module applies the board's own rules with the
C reader's messages, word for word, so that a bad board is refused the same way
whichever tool meets it first: the file checks, UTF-8 without control
characters, bracket depth, the key table (KEYS mirrors ipu_board_keys; the
board_rules test compares the two), integers as written in the file, strings,
missing keys and ipu_board_check's cross-key rules. tomllib checks the TOML
syntax and decodes the strings.

As a program: `board_rules.py BOARD [--get KEY]...` checks the board and
prints the value of each KEY, one a line; an error goes to stderr with exit
status 1.
"""
import collections
import os
import pathlib
import re
import stat
import sys
import tomllib

FILE_MAX_BYTES = 65536  # IPU_BOARD_FILE_MAX_BYTES (ipu_board.h)
MAX_NESTING = 32  # kMaxNesting (board_toml.cpp)
NAME_MAX, TEXT_MAX = 32, 128  # IPU_BOARD_NAME_MAX, IPU_BOARD_TEXT_MAX

Key = collections.namedtuple("Key", "key kind text_size min max meaning")


def _text(key, size, meaning):
    return Key(key, "text", size, 0, 0, meaning)


def _u32(key, lo, hi, meaning):
    return Key(key, "u32", 0, lo, hi, meaning)


def _u64(key, lo, hi, meaning):
    return Key(key, "u64", 0, lo, hi, meaning)


# The order and words of ipu_board_keys (ipu_board.c): missing keys are reported in this order.
KEYS = (
    _text("name", NAME_MAX, "the board's name"),
    _text("description", TEXT_MAX, "a one-line description"),
    _text("isa", NAME_MAX, 'the tile ISA string, e.g. "rv32imf" or "rv32im"'),
    _text("abi", NAME_MAX, 'the tile ABI, e.g. "ilp32f" or "ilp32"'),
    _text("transport", NAME_MAX, 'the default transport: "model" or "rtl"'),
    _u32("num_ipus", 1, 64, "IPUs on the card"),
    _u32("ipu_link_bytes_per_cycle", 1, 1024, "IPU-Link bytes per tile cycle between two IPUs"),
    _u32("ipu_link_latency_cycles", 0, 1000000, "tile cycles an exchange across IPUs waits for the IPU-Link"),
    _u32("tiles_per_ipu", 1, 4096, "tiles per IPU"),
    _u32("bytes_per_tile", 4096, 1048576, "bytes of SRAM per tile, a multiple of 4096, at most 1 MiB"),
    _u32("worker_contexts", 1, 6, "worker contexts per tile"),
    _u64("tile_clock_hz", 1000, 10000000000, "tile clock in Hz"),
    _u32("exchange_bytes_per_cycle", 1, 1024, "exchange bytes per cycle per tile"),
    _u32("memcpy_bytes_per_cycle", 1, 1024, "on-tile memcpy bytes per cycle"),
    _u32("data_path_width", 32, 1024, "data path width in bits"),
    _u32("min_ipu_sync_delay", 0, 1000000, "minimum IPU sync delay in cycles"),
    _u32("global_sync_cycles", 0, 1000000, "cycles of a global sync"),
    _u32("rpt_count_max", 1, 0xFFFFFFFF, "largest repeat count"),
    _u32("num_stride_bits", 1, 32, "bits in a stride field"),
    _u32("tiles_per_shared_exchange_bus", 1, 4096, "tiles sharing an exchange bus"),
    _u32("atomic_store_granularity", 1, 64, "atomic store granularity in bytes"),
    _u32("supervisor_stack_bytes", 256, 262144, "supervisor stack bytes"),
    _u32("worker_stack_bytes", 128, 262144, "stack bytes per worker"),
    _u64("host_link_bytes_per_second", 1000, 1000000000000,
         "effective host link bandwidth in bytes per second, each direction"),
    _u32("host_link_latency_ns", 0, 100000000, "latency of one host transfer in ns"),
)
_BY_NAME = {k.key: k for k in KEYS}


class BoardError(ValueError):
    """A board refused: the message names the file, the line, the key and the fix, as the C reader's does."""


def _c_str(text, limit=200):
    """What C's "%.200s" prints of `text`: at most `limit` bytes."""
    return text.encode("utf-8")[:limit].decode("utf-8", "replace")


# --- the file and its text (ipu_board.c open_board_file/read_board_text, board_text.c, board_toml.cpp) ---

def _read(path):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        raise BoardError(f"{path}: cannot open board file: {os.strerror(e.errno)}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            what = ("directory" if stat.S_ISDIR(st.st_mode) else "FIFO" if stat.S_ISFIFO(st.st_mode) else
                    "character device" if stat.S_ISCHR(st.st_mode) else "special file")
            raise BoardError(f"{path}: not a regular file (a {what}); a board file is a small .toml text file, "
                             "see boards/README.md")
        if st.st_size > FILE_MAX_BYTES:
            raise BoardError(f"{path}: {st.st_size} bytes is too large for a board file (at most {FILE_MAX_BYTES}); "
                             "is it the right file?")
        data = os.read(fd, FILE_MAX_BYTES + 1)
    finally:
        os.close(fd)
    if len(data) > FILE_MAX_BYTES:
        raise BoardError(f"{path}: longer than {FILE_MAX_BYTES} bytes; not a board file")
    if b"\0" in data:
        raise BoardError(f"{path}: contains a NUL byte, so it is not text; a board file is a small .toml text file, "
                         "see boards/README.md")
    return data


def _check_depth(data, path):
    depth, line = 0, 1
    for c in data:
        if c == 0x0A:
            line += 1
        elif c in b"[{":
            depth += 1
            if depth > MAX_NESTING:
                raise BoardError(f"{path}:{line}: brackets nest more than {MAX_NESTING} deep; a board file holds "
                                 "flat `key = value` lines (boards/README.md)")
        elif c in b"]}" and depth > 0:
            depth -= 1


# (first byte range, sequence length, allowed range of the second byte, what a second byte outside it means)
_LEADS = ((0xC2, 0xDF, 2, 0x80, 0xBF, ""), (0xE0, 0xE0, 3, 0xA0, 0xBF, "an overlong form"),
          (0xE1, 0xEC, 3, 0x80, 0xBF, ""), (0xED, 0xED, 3, 0x80, 0x9F, "a UTF-16 surrogate, U+D800..U+DFFF"),
          (0xEE, 0xEF, 3, 0x80, 0xBF, ""), (0xF0, 0xF0, 4, 0x90, 0xBF, "an overlong form"),
          (0xF1, 0xF3, 4, 0x80, 0xBF, ""), (0xF4, 0xF4, 4, 0x80, 0x8F, "a code point past U+10FFFF"))


def _utf8_problem(data, i):
    """(length of the well-formed sequence at data[i], None) or (0, what is wrong with it)."""
    c = data[i]
    if c < 0x80:
        return 1, None
    if c < 0xC0:
        return 0, "a continuation byte with no lead byte before it"
    if c < 0xC2:
        return 0, "an overlong form of an ASCII character"
    if c > 0xF4:
        return 0, "a byte that never occurs in UTF-8, as it would start a code point past U+10FFFF"
    _, _, n, lo, hi, why = next(lead for lead in _LEADS if lead[0] <= c <= lead[1])
    for k in range(1, n):
        if i + k >= len(data) or not 0x80 <= data[i + k] <= 0xBF:
            return 0, "a sequence cut short"
        if k == 1 and not lo <= data[i + 1] <= hi:
            return 0, why
    return n, None


def check_text(data, path):
    """ipu_board_check_text: well-formed UTF-8 with no control character but tab, CR and LF."""
    line, i = 1, 0
    while i < len(data):
        c = data[i]
        if c == 0x0A:
            line += 1
        if (c < 0x20 and c not in (0x09, 0x0A, 0x0D)) or c == 0x7F:
            raise BoardError(f"{path}:{line}: byte 0x{c:02x} at offset {i} is a control character; a board file is "
                             "UTF-8 text whose only control characters are tab and line ends; remove it")
        n, why = _utf8_problem(data, i)
        if not n:
            raise BoardError(f"{path}:{line}: byte 0x{c:02x} at offset {i} is not well-formed UTF-8 ({why}); save "
                             "the board file as UTF-8 (boards/README.md)")
        i += n


# --- where each key is written: the statements of the document, in file order ---

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _string_end(s, start, delim):
    """The index just past the `delim` that closes a string opened before s[start], or -1."""
    i = start
    while i < len(s):
        if delim[0] == '"' and s[i] == "\\":
            i += 2
            continue
        if s.startswith(delim, i):
            return i + len(delim)
        i += 1
    return -1


def _first_key(s):
    """(the first key of the dotted key that starts s, decoded; the text after it) or (None, s)."""
    m = _BARE_KEY.match(s)
    if m:
        return m.group(0), s[m.end():]
    if s[:1] in ("'", '"'):
        end = _string_end(s, 1, s[0])
        if end > 0:
            try:
                return next(iter(tomllib.loads(s[:end] + " = 0"))), s[end:]
            except tomllib.TOMLDecodeError:
                pass
    return None, s


def _value_token(v):
    """(the text of the value that starts v as the C reader quotes it, the delimiter of a multi-line string left
    open at the line's end or None, whether the value is an array or an inline table)."""
    for delim in ('"""', "'''"):
        if v.startswith(delim):
            end = _string_end(v, 3, delim)
            return (v.rstrip(" \t\r"), delim, False) if end < 0 else (v[:end], None, False)
    if v[:1] in ('"', "'"):
        end = _string_end(v, 1, v[0])
        return (v if end < 0 else v[:end]), None, False
    if v[:1] in ("[", "{"):
        return v.rstrip(" \t\r"), None, True
    return v.split("#", 1)[0].strip(" \t\r"), None, False


def _statements(lines):
    """[(line, top-level key, the value's text)] in file order, up to and with the first statement that is not a
    flat `key = value` (a table, a dotted key, an array: the C reader refuses it, as unknown or of the wrong type,
    so no later line matters); and the line of the first key given a second time, or None."""
    out, seen, twice, open_string = [], set(), None, None
    for n, raw in enumerate(lines, 1):
        if open_string:
            if _string_end(raw, 0, open_string) >= 0:
                open_string = None
            continue
        s = raw.strip(" \t\r")
        if not s or s[0] == "#":
            continue
        if s[0] == "[":
            key, _ = _first_key(s.lstrip("[").lstrip(" \t"))
            if key is not None:
                out.append((n, key, s))
            break
        key, rest = _first_key(s)
        rest = rest.lstrip(" \t")
        if key is None or rest[:1] not in ("=", "."):
            break  # not a statement: the TOML reader says what is wrong
        if key in seen and twice is None:
            twice = n
        seen.add(key)
        if rest[0] == ".":
            out.append((n, key, s))
            break
        token, open_string, nested = _value_token(rest[1:].lstrip(" \t"))
        out.append((n, key, token))
        if nested:
            break
    return out, twice


# --- values (ipu_board.c parse_integer, ipu_board_set_integer, ipu_board_set_text) ---

def _parse_integer(text):
    """The integer `text` is in the board format, or -1 (not an integer) or -2 (a decimal with a leading zero)."""
    base, p = 10, text
    if p.startswith("0x"):
        base, p = 16, p[2:]
    elif p[:1] == "0" and len(p) > 1:
        return -2 if p[1] in "0123456789_" else -1
    value, digits, after_digit = 0, 0, False
    for i, ch in enumerate(p):
        if ch == "_":
            if not after_digit or i + 1 >= len(p) or p[i + 1] not in "0123456789abcdefABCDEF":
                return -1
            after_digit = False
            continue
        if ch in "0123456789" or (base == 16 and ch in "abcdefABCDEF"):
            value = value * base + int(ch, 16)
        else:
            return -1
        if value > 0xFFFFFFFFFFFFFFFF:
            return -1
        digits, after_digit = digits + 1, True
    return value if digits else -1


def set_integer(k, token, path, line):
    value = _parse_integer(token)
    if value == -2:
        raise BoardError(f"{path}:{line}: key '{k.key}': '{_c_str(token)}' has a leading zero, which a board file "
                         "does not read as octal or decimal; write the number in decimal without leading zeros, or "
                         "in hex with 0x")
    if not k.min <= value <= k.max:
        raise BoardError(f"{path}:{line}: key '{k.key}': expected an integer from {k.min} to {k.max} ({k.meaning}), "
                         f"got '{_c_str(token)}'")
    return value


def set_text(k, text, path, line):
    raw = text.encode("utf-8")
    if len(raw) >= k.text_size:
        raise BoardError(f"{path}:{line}: key '{k.key}': string longer than {k.text_size - 1} characters")
    for i, c in enumerate(raw):
        if c < 0x20 or c == 0x7F:
            raise BoardError(f"{path}:{line}: key '{k.key}': the string holds a control character (byte {i}); write "
                             f"{k.meaning} on one line of printable text")
    if k.key == "transport" and text not in ("model", "rtl"):
        raise BoardError(f"{path}:{line}: key 'transport': expected \"model\" or \"rtl\", got \"{text}\"")
    return text


# --- the document (board_toml.cpp) ---

def _syntax_error(e, lines, statements, twice, path):
    """board_toml.cpp syntaxError: the board's rules for the line tomllib could not parse, else tomllib's reason."""
    reason = str(e)
    m = re.search(r" \(at line (\d+), column (\d+)\)$", reason)
    line, column = (int(m.group(1)), int(m.group(2))) if m else (len(lines), 1)
    reason = reason[:m.start()] if m else re.sub(r" \(at end of document\)$", "", reason)
    given_twice = twice is not None and twice <= line
    if given_twice:
        line, column = twice, 1
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    eq = text.find("=")
    k = _BY_NAME.get(text[:eq].strip(" \t\r")) if eq >= 0 else None
    if k and given_twice:
        raise BoardError(f"{path}:{line}: key '{k.key}' is given twice; keep one of the lines")
    if k:
        token = text[eq + 1:].split("#", 1)[0].strip(" \t\r")
        if k.kind == "text" and token[:1] not in ('"', "'"):
            raise BoardError(f"{path}:{line}: key '{k.key}': expected a quoted string ({k.meaning}), got "
                             f"'{_c_str(token)}'")
        if k.kind != "text":
            set_integer(k, token, path, line)
    raise BoardError(f"{path}:{line}:{column}: {reason}; a board file holds `key = integer` and `key = \"string\"` "
                     "lines (boards/README.md)")


def _store(doc, line, key, token, path):
    if key not in doc:  # a statement _statements misread; never a board file's flat lines
        raise BoardError(f"{path}:{line}: key '{_c_str(key)}' is not a flat `key = value` line (boards/README.md)")
    k = _BY_NAME.get(key) if "\0" not in key else None
    if not k:
        raise BoardError(f"{path}:{line}: unknown key '{_c_str(key)}' (see boards/README.md for the keys)")
    value = doc[key]
    if k.kind == "text":
        if not isinstance(value, str):
            raise BoardError(f"{path}:{line}: key '{k.key}': expected a quoted string ({k.meaning}), got "
                             f"'{_c_str(token)}'")
        return set_text(k, value, path, line)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BoardError(f"{path}:{line}: key '{k.key}': expected an integer ({k.meaning}), got '{_c_str(token)}'")
    return set_integer(k, token, path, line)


def check(board, what):
    """ipu_board_check's rules across keys (the ranges were checked as each value was read)."""
    if not board["name"]:
        raise BoardError(f"{what}: key 'name' is empty; give the board a name")
    if board["bytes_per_tile"] % 4096:
        raise BoardError(f"{what}: key 'bytes_per_tile': {board['bytes_per_tile']} is not a multiple of 4096")
    tiles = board["num_ipus"] * board["tiles_per_ipu"]
    if tiles > 65535:
        raise BoardError(f"{what}: num_ipus * tiles_per_ipu = {tiles} exceeds 65535 tiles")
    if not board["isa"].startswith("rv32i"):
        raise BoardError(f"{what}: key 'isa': expected a string starting \"rv32i\", got \"{board['isa']}\"")


def load_file(path):
    """The board in the file at `path` as a dict of every key, or BoardError with the C reader's message."""
    path = str(path)
    data = _read(path)
    _check_depth(data, path)
    check_text(data, path)
    text = data.decode("utf-8")
    lines = text.split("\n")
    statements, twice = _statements(lines)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        _syntax_error(e, lines, statements, twice, path)
    board = {}
    for line, key, token in statements:
        board[key] = _store(doc, line, key, token, path)
    unplaced = [key for key in doc if key not in board]
    if unplaced:  # a statement _statements could not follow; never a board file's flat lines
        raise BoardError(f"{path}: key '{_c_str(unplaced[0])}' is not a flat `key = value` line (boards/README.md)")
    for k in KEYS:
        if k.key not in board:
            raise BoardError(f"{path}: missing key '{k.key}' ({k.meaning})")
    check(board, path)
    return {k.key: board[k.key] for k in KEYS}


def is_path(name_or_path):
    """ipu_board.c is_path: a name with a '/' or ending in .toml is a path, anything else a board name."""
    return "/" in name_or_path or (len(name_or_path) > 5 and name_or_path.endswith(".toml"))


def load(name_or_path, boards_dir):
    """(board, path): a board by path, or by name from `boards_dir`."""
    path = pathlib.Path(name_or_path)
    if not is_path(name_or_path):
        path = pathlib.Path(boards_dir) / f"{name_or_path}.toml"
    return load_file(path), path


def main(argv):
    import argparse
    parser = argparse.ArgumentParser(description="Check a board file by the C reader's rules, or print its values.")
    parser.add_argument("board", help="a path to a board file, or a board name looked up in --boards-dir")
    parser.add_argument("--boards-dir", default=str(pathlib.Path(__file__).resolve().parents[1]))
    parser.add_argument("--get", metavar="KEY", action="append", default=[],
                        help="print the board's value of KEY (repeat for several, one a line)")
    args = parser.parse_args(argv)
    try:
        board, path = load(args.board, args.boards_dir)
        for key in args.get:
            if key not in board:
                raise BoardError(f"{path}: no key {key!r} (boards/README.md lists the keys)")
    except BoardError as e:
        print(f"board_rules: {e}", file=sys.stderr)
        return 1
    for key in args.get:
        print(board[key])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
