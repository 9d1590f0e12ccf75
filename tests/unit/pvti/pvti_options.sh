#!/bin/sh
# PVTI_OPTIONS as libpvti reads it (docs/system-trace.md), with pvti_probe: unset or enable false writes nothing;
# a directory is made and holds one file; a "channels" list keeps only those channels; a value that is not JSON
# traces with the defaults (the current directory); disabled channels and events after closeTrace are dropped;
# the file is valid JSON lines ending with a close record that counts them.
# Usage: pvti_options.sh PVTI_PROBE
set -eu
probe=$1
work=$(mktemp -d "${TMPDIR:-/tmp}/pvti-options.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
check() { # FILE EXPECTED-NAMES: the event names in the file, in order, and the file's framing
  python3 - "$1" "$2" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
recs = [json.loads(l) for l in lines]
assert recs[0]["format"] == "ipu-emu-pvti" and recs[0]["version"] == 1, recs[0]
assert recs[-1]["type"] == "close" and recs[-1]["records"] == len(recs), recs[-1]
names = ",".join(r.get("name", r.get("series", "")) + ":" + r["type"] for r in recs[1:-1])
assert names == sys.argv[2], "got %s, expected %s" % (names, sys.argv[2])
ts = [r["ts"] for r in recs[1:]]
assert ts == sorted(ts), "times go backwards"
PY
}

env -u PVTI_OPTIONS "$probe" > out.txt
grep -qx "file=" out.txt || fail "a file without PVTI_OPTIONS: $(cat out.txt)"
PVTI_OPTIONS='{"enable":"false","directory":"off"}' "$probe" > out.txt
grep -qx "file=" out.txt && [ ! -e off ] || fail "enable false still traced"

PVTI_OPTIONS='{"enable":"true","directory":"a/b"}' "$probe" > out.txt
file=$(sed -n 's/^file=//p' out.txt)
case "$file" in a/b/*.pvti.jsonl) ;; *) fail "file '$file' is not in a/b" ;; esac
[ "$(ls a/b | wc -l)" = 1 ] || fail "not one file in a/b"
check "$file" "scoped:begin,instant:event,framework:begin,framework:end,scoped:end,probe series:sample"
echo "all channels: ok ($file)"

PVTI_OPTIONS='{"directory":"c","channels":["Framework"]}' "$probe" > out.txt
check "$(sed -n 's/^file=//p' out.txt)" "framework:begin,framework:end,probe series:sample"
echo "channels list: ok"

PVTI_OPTIONS='not json' "$probe" > out.txt 2> err.txt
file=$(sed -n 's/^file=//p' out.txt)
case "$file" in ./*.pvti.jsonl) ;; *) fail "not JSON: file '$file' is not in the current directory" ;; esac
grep -q "not a JSON object" err.txt || fail "no note about the malformed PVTI_OPTIONS"
check "$file" "scoped:begin,instant:event,framework:begin,framework:end,scoped:end,probe series:sample"
echo "malformed options: ok"
echo PASS
