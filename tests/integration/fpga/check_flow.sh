#!/usr/bin/env bash
# Runs the FPGA flow (rtl/fpga/flow.sh) and checks its verdict: the exit status
# (0 = a bitstream, non-zero = refused, "any" = either) and a line it must print.
# Usage: check_flow.sh EXPECT_STATUS PATTERN -- FLOW_ARGS...
set -uo pipefail
expect=$1 pattern=$2
shift 3
root="$(cd "$(dirname "$0")/../../.." && pwd)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$root/rtl/fpga/flow.sh" "$@" >"$log" 2>&1
status=$?
cat "$log"
if [[ "$expect" == 0 && $status -ne 0 ]]; then
    echo "check_flow: FAIL: the flow refused (status $status), a bitstream was expected"; exit 1
fi
if [[ "$expect" != 0 && "$expect" != any && $status -eq 0 ]]; then
    echo "check_flow: FAIL: the flow made a bitstream, a refusal was expected"; exit 1
fi
if ! grep -Eq -- "$pattern" "$log"; then
    echo "check_flow: FAIL: no line matches '$pattern'"; exit 1
fi
echo "check_flow: ok (status $status, '$pattern' found)"
