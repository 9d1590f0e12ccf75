#!/bin/bash
# gc-run on hand-assembled tile programs: console lines per tile, exit codes, JSON, and every failure's exit status.
# usage: gc_run_test.sh GC_RUN ELF_DIR   (device 0 must be a "tiny" model card)
set -u
GC_RUN=$1
DIR=$2
failures=0
out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT

# expect NAME STATUS ARGS...: runs gc-run, checks its exit status, leaves stdout/stderr in $out/$err.
expect() {
  local name=$1 want=$2
  shift 2
  $GC_RUN "$@" >"$out" 2>"$err"
  local got=$?
  if [ "$got" -ne "$want" ]; then
    echo "FAIL $name: exit status $got, expected $want (gc-run $*)"
    sed 's/^/  stdout: /' "$out"
    sed 's/^/  stderr: /' "$err"
    failures=$((failures + 1))
    return 1
  fi
  echo "ok   $name (status $got)"
}

# has NAME FILE PATTERN: FILE contains the fixed string PATTERN.
has() {
  if ! grep -qF -- "$3" "$2"; then
    echo "FAIL $1: missing '$3' in:"
    sed 's/^/  /' "$2"
    failures=$((failures + 1))
  fi
}

lines() {
  local n
  n=$(wc -l <"$2")
  if [ "$n" -ne "$3" ]; then
    echo "FAIL $1: $n lines, expected $3"
    sed 's/^/  /' "$2"
    failures=$((failures + 1))
  fi
}

expect hello 0 "$DIR/hello.elf" && {
  lines hello "$out" 4
  for t in 0 1 2 3; do has hello "$out" "[tile $t] hi $t"; done
  lines hello-quiet "$err" 0
}
expect hello-some-tiles 0 --tiles 1,3 "$DIR/hello.elf" && { lines hello-some-tiles "$out" 2; has hello-some-tiles "$out" "[tile 3] hi 3"; }
expect exit-code 3 "$DIR/exit.elf"
expect exit-code-tile0 0 -t 0 "$DIR/exit.elf"
expect exit-code-tile2 6 --tiles=2-3 "$DIR/exit.elf"
expect fault 70 --arg 1 "$DIR/fault.elf" && { lines fault "$err" 1; has fault "$err" "LOAD_FAULT"; has fault "$err" "tile 0 context 0"; }
expect fault-verbose 70 -v --arg 1 "$DIR/fault.elf" && has fault-verbose "$err" "recovery: IPU_RESET"
expect hang 75 --timeout 0.3 "$DIR/hang.elf" && { lines hang "$err" 1; has hang "$err" "host sync timeout"; }
expect hang-verbose 75 -v --timeout 0.3 "$DIR/hang.elf" && { has hang-verbose "$err" "tile 2: RUNNING"; has hang-verbose "$err" "tile 0: EXITED"; }
expect run-timeout 75 --run-timeout 0.3 "$DIR/hang.elf" && has run-timeout "$err" "run timeout"
expect bad-elf 65 "$DIR/bad.elf" && has bad-elf "$err" "e_ident[EI_CLASS] = 2"
expect missing-elf 65 "$DIR/nope.elf" && has missing-elf "$err" "cannot open the tile ELF"
expect bad-tiles 65 --tiles 9 "$DIR/hello.elf" && has bad-tiles "$err" "tile 9 does not exist"
expect no-device 69 -d 7 "$DIR/hello.elf" && has no-device "$err" "device 7"
expect json 0 --json "$DIR/hello.elf" && {
  lines json-console "$err" 4
  python3 - "$out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 0 and d["error"] is None, d
assert [t["tile"] for t in d["tiles"]] == [0, 1, 2, 3], d
assert all(t["state"] == "EXITED" for t in d["tiles"]), d
assert d["load"]["tile_bytes"] == 4 * d["load"]["bus_bytes"], d
PY
}
expect json-fault 70 -j --arg 1 "$DIR/fault.elf" && python3 - "$out" <<'PY' || failures=$((failures + 1))
import json, sys
d = json.load(open(sys.argv[1]))
assert d["exit_code"] == 70, d
assert d["error"]["class"] == "recoverable_runtime_error" and d["error"]["recovery"] == "IPU_RESET", d
assert "LOAD_FAULT" in d["error"]["message"], d
PY
# A program path that needs escaping (quote, backslash, newline) and holds a byte that is not UTF-8: the summary is
# still one line of valid JSON, the path in it as given (the bad byte as U+FFFD).
odd=$(printf '%s/no "such" \\dir\nprog\377.elf' "$DIR")
expect json-odd-path 65 -j "$odd" && { lines json-odd-path "$out" 1; python3 - "$out" "$odd" <<'PY' || failures=$((failures + 1))
import json, os, sys
d = json.load(open(sys.argv[1]))
want = os.fsencode(sys.argv[2]).decode("utf-8", errors="replace")
assert d["program"] == want and d["exit_code"] == 65, (d["program"], want)
assert d["error"]["class"] == "application_runtime_error" and "cannot open the tile ELF" in d["error"]["message"], d
PY
}
expect help 0 --help && has help "$out" "usage: gc-run"
expect version 0 --version && has version "$out" "gc-run (ipu-emu)"
expect bad-option 64 --frobnicate "$DIR/hello.elf" && has bad-option "$err" "unknown option '--frobnicate'"
expect no-program 64 && has no-program "$err" "no tile program given"
expect bad-timeout 64 --timeout -1 "$DIR/hello.elf" && has bad-timeout "$err" "--timeout '-1'"

# Not a regular file: a FIFO used to block forever, a directory reported a size of 2^63-1 bytes. `timeout` turns a
# hang into a failure.
special=$(mktemp -d)
mkfifo "$special/prog.elf"
GC_RUN_REAL=$GC_RUN
GC_RUN="timeout 20 $GC_RUN_REAL"
expect fifo 65 "$special/prog.elf" && has fifo "$err" "prog.elf: is a FIFO, not a tile program"
expect directory 65 "$special" && has directory "$err" "is a directory, not a tile program"
expect directory-json 65 -j "$special" && has directory-json "$out" '"class":"application_runtime_error"'
# A card whose board file is /dev/zero: refused at attach, never read forever.
GC_RUN="env IPU_EMU_DEVICES=model:/dev/zero timeout 20 $GC_RUN_REAL"
expect board-dev-zero 69 "$DIR/hello.elf" && has board-dev-zero "$err" "/dev/zero: not a regular file"
GC_RUN=$GC_RUN_REAL
rm -rf "$special"

if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all gc-run checks passed"
