#!/bin/sh
# The system trace (docs/system-trace.md) of tutorial 7 with a user's own tracepoints: builds tutorial 7's program
# unchanged plus user_trace.cpp against an install tree as a user does (g++ --std=c++11 ... -lpvti -lpoplar), runs
# it with PVTI_OPTIONS naming a directory and a profile report, draws the report with the trace (popvis --trace),
# then checks the trace file and the page's host timeline (check_trace.py). Also checks that without PVTI_OPTIONS
# nothing is written.
# Usage: pvti_trace.sh <install-prefix> <tutorial-7-dir> <pvti-test-dir> [tutorial arguments...]
set -eu
prefix=$1 tut=$2 dir=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/pvti-trace.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$tut"/*.cpp "$dir/user_trace.cpp" "$work"/
cd "$work"
export CPLUS_INCLUDE_PATH="$prefix/include" LIBRARY_PATH="$prefix/lib" LD_LIBRARY_PATH="$prefix/lib"
export PATH="$prefix/bin:$PATH"
echo "+ g++ --std=c++11 ${TUTORIAL_CXXFLAGS:-} matrix-vector.cpp user_trace.cpp -lpvti -lpoplar -o prog"
# shellcheck disable=SC2086 # the flags are a word list
g++ --std=c++11 ${TUTORIAL_CXXFLAGS:-} matrix-vector.cpp user_trace.cpp -lpvti -lpoplar -o prog

# Without PVTI_OPTIONS (a small run: only the absence of a file is checked).
env -u PVTI_OPTIONS ./prog 40 50 ipu1 > untraced.txt 2>&1 || { cat untraced.txt; echo "FAIL: the program failed"; exit 1; }
if ls ./*.pvti.jsonl > /dev/null 2>&1; then echo "FAIL: a trace file was written without PVTI_OPTIONS"; exit 1; fi

# Traced, with the profile report (autoReport) that popvis draws the IPU's steps from.
PVTI_OPTIONS='{"enable":"true","directory":"traces"}' \
POPLAR_ENGINE_OPTIONS='{"autoReport.all":"true","autoReport.directory":"report"}' ./prog "$@" > output.txt 2>&1 ||
  { cat output.txt; echo "FAIL: the traced program failed"; exit 1; }
cat output.txt
grep -q "Multiplication result OK" output.txt || { echo "FAIL: wrong result"; exit 1; }
set -- traces/*.pvti.jsonl
[ $# -eq 1 ] && [ -f "$1" ] || { echo "FAIL: expected one trace file in traces/, found: $*"; exit 1; }
grep -q "pvti trace file: traces/" output.txt || { echo "FAIL: getCurrentTraceFilename did not name it"; exit 1; }
echo "trace file: $1 ($(wc -l < "$1") lines)"
popvis report report --trace "$1" --output report.html || { echo "FAIL: popvis failed"; exit 1; }
python3 "$dir/check_trace.py" "$1" output.txt report.html
