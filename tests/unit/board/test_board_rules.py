#!/usr/bin/env python3
"""boards/lib/board_rules.py (the rules of the Python board readers) against the C reader (board_probe):

- the key table: kind, range, string size and meaning of every key, in the same order (they cannot drift);
- every shipped board reads to the same values;
- each bad board is refused with the same message, word for word, and accepted boards (UTF-8 text) read the same;
- 300 random byte strings get the same verdict from both UTF-8 checks, and the verdict of Python's UTF-8 decoder;
- the two scripts that read boards before the build, gen-ldscript.py and board-isas.py, refuse an octal value and
  a repeated key with the C reader's message.

Usage: test_board_rules.py BOARD_PROBE SOURCE_DIR. Prints one line per disagreement and exits 1 if any.
"""
import pathlib
import random
import re
import subprocess
import sys
import tempfile

probe, source = sys.argv[1], pathlib.Path(sys.argv[2])
sys.path.insert(0, str(source / "boards" / "lib"))
sys.dont_write_bytecode = True
import board_rules  # noqa: E402

failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)
        print(f"FAIL: {what}")


def c_reader(path):
    """(values, None) or (None, message) from the C reader."""
    r = subprocess.run([probe, "load", str(path)], capture_output=True, text=True, errors="replace")
    if r.returncode == 0:
        return dict(line.split("=", 1) for line in r.stdout.splitlines()), None
    return None, r.stderr.rstrip("\n")


def py_reader(path):
    try:
        return {k: str(v) for k, v in board_rules.load_file(path).items()}, None
    except board_rules.BoardError as e:
        return None, str(e)


# The key table.
c_keys = subprocess.run([probe, "keys"], capture_output=True, text=True, check=True).stdout.splitlines()
py_keys = [f"{k.key}|{k.kind}|{k.text_size}|{k.min}|{k.max}|{k.meaning}" for k in board_rules.KEYS]
expect(c_keys == py_keys, f"key tables differ:\n  C:      {c_keys}\n  Python: {py_keys}")

# The shipped boards.
shipped = sorted((source / "boards").glob("*.toml"))
for path in shipped:
    c, py = c_reader(path), py_reader(path)
    expect(c == py and c[0] is not None, f"{path.name}: C {c} != Python {py}")

tiny = (source / "boards" / "tiny.toml").read_bytes()


def tiny_with(key, line):
    """tiny.toml with the line of `key` replaced by `line` (appended when tiny has no such key)."""
    lines = tiny.split(b"\n")
    out = [line if ln.startswith(key + b" ") else ln for ln in lines]
    if out == lines:
        out.insert(len(out) - 1, line)
    return b"\n".join(out)


CASES = {
    # Issue 36: octal and repeated keys, the cases the scripts are tested on too.
    "octal": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 010"),
    "repeated": tiny_with(b"zzz", b"num_ipus = 1"),
    "octal_prefix": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 0o4"),
    "leading_zero_underscore": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 0_4"),
    "trailing_underscore": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 4_"),
    "too_big": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 99999999999999999999999"),
    "sign": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = +4"),
    "float": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 4.0"),
    "string_for_integer": tiny_with(b"tiles_per_ipu", b'tiles_per_ipu = "4"'),
    "bool_for_integer": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = true"),
    "hex_ok": tiny_with(b"tiles_per_ipu", b"tiles_per_ipu = 0x1_0 # sixteen"),
    "out_of_range": tiny_with(b"worker_contexts", b"worker_contexts = 9"),
    "not_page_multiple": tiny_with(b"bytes_per_tile", b"bytes_per_tile = 5000"),
    "too_many_tiles": tiny_with(b"num_ipus", b"num_ipus = 64").replace(b"tiles_per_ipu = 4", b"tiles_per_ipu = 4096"),
    "unknown_key": tiny_with(b"zzz", b'colour = "blue"'),
    "repeated_unknown": tiny_with(b"zzz", b'colour = "blue"\ncolour = "red"'),
    "missing_key": tiny_with(b"abi", b"# no abi"),
    "unquoted_string": tiny_with(b"isa", b"isa = rv32imf"),
    "empty_value": tiny_with(b"isa", b"isa ="),
    "bad_isa": tiny_with(b"isa", b'isa = "rv64gc"'),
    "empty_name": tiny_with(b"name", b'name = ""'),
    "empty_transport": tiny_with(b"transport", b'transport = ""'),
    "long_name": tiny_with(b"name", b'name = "' + b"n" * 40 + b'"'),
    "escaped_control": tiny_with(b"abi", b'abi = "a\\u0001"'),
    "escape_ok": tiny_with(b"abi", b'abi = "\\u0069lp32f"'),
    "literal_ok": tiny_with(b"description", b"description = '4 # tiles' # a comment"),
    "table": tiny_with(b"zzz", b"[extra]\nx = 1"),
    "table_named_as_key": tiny_with(b"zzz", b"[name]"),
    "dotted": tiny_with(b"zzz", b"extra.x = 1"),
    "array": tiny_with(b"zzz", b"extra = [1,\n  2]"),
    "quoted_key_ok": tiny_with(b"abi", b'"abi" = "ilp32f"'),
    "multiline_string": tiny_with(b"description", b'description = """4 tiles \\\n  x"""\nx = 1'),
    "deep": b"abi = " + b"[" * 40 + b"\n" + tiny,
    "nul": tiny + b"# \0\n",
    "long_comment_ok": b"# " + b"c" * 509 + b'name = "evil"\n' + tiny,
    # UTF-8: accepted in comments and strings, ill-formed refused before any TOML is read.
    "utf8_ok": tiny_with(b"description", "# tiny \u2014 caf\u00e9\ndescription = \"4 tiles \u2014 \U0001F600\""
                         .encode()),
    "utf8_long": tiny_with(b"description", ("description = \"" + "\u00e9" * 64 + "\"").encode()),
    "utf8_bare_key": tiny_with(b"zzz", "caf\u00e9 = 1".encode()),
    "byte_ff": tiny + b"x = '\xff\xff'\n",
    "overlong": tiny + b"# \xc0\xaf\n",
    "overlong3": tiny + b"# \xe0\x80\xaf\n",
    "surrogate": tiny + b"# \xed\xa0\x80\n",
    "past_10ffff": tiny + b"# \xf4\x90\x80\x80\n",
    "cut": tiny + b"# \xe2\x80\n",
    "cut_at_end": tiny + b"# \xe2\x80",
    "stray": tiny + b"# \x80\n",
    "control": tiny + b'x = "\x01"\n',
    "delete": tiny + b"# \x7f\n",
}
# TOML syntax errors outside the board's own rules: toml11 and tomllib word them differently, so these must only
# both be refused at the same file:line.
SAME_LINE_ONLY = {"utf8_bare_key", "repeated_unknown", "table_named_as_key"}

with tempfile.TemporaryDirectory() as tmp:
    tmp = pathlib.Path(tmp)
    for name, text in CASES.items():
        path = tmp / f"{name}.toml"
        path.write_bytes(text)
        (c, c_err), (py, py_err) = c_reader(path), py_reader(path)
        if name in SAME_LINE_ONLY:
            where = re.match(r"[^:]*:\d+:", c_err or "")
            expect(c is None and py is None and where and py_err.startswith(where.group(0)),
                   f"{name}: not refused at the same line: C {c_err!r}, Python {py_err!r}")
        else:
            expect((c, c_err) == (py, py_err), f"{name}: C {(c, c_err)!r} != Python {(py, py_err)!r}")
        expect(name.endswith("_ok") == (c is not None), f"{name}: the C reader {'refused' if c is None else 'took'} it")
    # Random bytes in a comment: the two UTF-8 checks agree on each (same verdict, offset and reason), and with
    # Python's own UTF-8 decoder on whether the text is well-formed.
    rng = random.Random(36)
    for i in range(300):
        junk = bytes(rng.choice((rng.randrange(0x80, 0x100), rng.randrange(0x20, 0x7F))) for _ in range(6))
        path = tmp / f"junk{i}.toml"
        path.write_bytes(tiny + b"# " + junk + b"\n")
        c, py = c_reader(path), py_reader(path)
        try:
            junk.decode("utf-8")
            well_formed = True
        except UnicodeDecodeError:
            well_formed = False
        expect(c == py and (c[0] is not None) == well_formed, f"bytes {junk!r}: C {c[1]!r}, Python {py[1]!r}, "
               f"well-formed: {well_formed}")
    # Not a regular file: the same refusal.
    expect(c_reader(tmp) == py_reader(tmp), f"a directory: C {c_reader(tmp)} != Python {py_reader(tmp)}")

    # The scripts that read boards before the build: the C reader's message, behind the script's name.
    scripts = 0
    for name in ("octal", "repeated"):
        path = tmp / f"{name}.toml"
        _, message = c_reader(path)
        folder = tmp / name
        folder.mkdir()
        (folder / "bad.toml").write_bytes(CASES[name])
        runs = {
            "gen-ldscript.py --get": ([source / "firmware/scripts/gen-ldscript.py", path, "--get", "name"],
                                      f"gen-ldscript: {path}: {message}\n"),
            "board-isas.py": ([source / "scripts/board-isas.py", folder],
                              f"board-isas: {message.replace(str(path), str(folder / 'bad.toml'))}\n"),
            "board_rules.py": ([source / "boards/lib/board_rules.py", path], f"board_rules: {message}\n"),
        }
        for script, (argv, want) in runs.items():
            r = subprocess.run([sys.executable, *map(str, argv)], capture_output=True, text=True)
            expect(r.returncode == 1 and r.stderr == want,
                   f"{script} on {name}: exit {r.returncode}, stderr {r.stderr!r}, want {want!r}")
            scripts += 1

if failures:
    print(f"{len(failures)} disagreements")
    sys.exit(1)
print(f"C and Python agree: {len(c_keys)} keys, {len(shipped)} shipped boards, {len(CASES)} edited boards, "
      f"300 random byte strings, {scripts} script runs")
