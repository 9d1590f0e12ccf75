#!/usr/bin/env bash
# ctest as `make test` runs it: the arguments go to ctest unchanged. Under
# CI=true a test that skips fails the run, whether ctest skipped it (its
# SKIP_RETURN_CODE, 77: QEMU, a guest kernel or Chromium missing) or CMocka
# skipped one of its cases: in CI everything a test needs is installed, so a
# skip means a test that did not test. Prints nothing more when all ran, so
# ctest's summary stays the last line.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
junit=$(mktemp --suffix=.xml)
trap 'rm -f "$junit"' EXIT
ctest "$@" --output-junit "$junit"
status=$?
if [ "${CI:-}" = true ]; then
  python3 "$here/ctest-no-skips.py" "$junit" || status=1
fi
exit $status
