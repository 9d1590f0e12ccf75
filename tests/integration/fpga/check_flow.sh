#!/usr/bin/env bash
# Runs the FPGA flow (rtl/fpga/flow.sh) and checks its verdict: the exit status
# (0 = a bitstream, non-zero = refused, "any" = either) and the lines it must print.
# Usage: check_flow.sh EXPECT_STATUS PATTERN... -- FLOW_ARGS...
#   FLOW_RTL=DIR runs DIR/fpga/flow.sh instead of the tree's (a copy with broken RTL).
set -uo pipefail
expect=$1
shift
patterns=()
while [[ $# -gt 0 && "$1" != "--" ]]; do patterns+=("$1"); shift; done
[[ $# -gt 0 ]] || { echo "usage: check_flow.sh EXPECT_STATUS PATTERN... -- FLOW_ARGS..." >&2; exit 2; }
shift
root="$(cd "$(dirname "$0")/../../.." && pwd)"
flow="${FLOW_RTL:-$root/rtl}/fpga/flow.sh"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$flow" "$@" >"$log" 2>&1
status=$?
cat "$log"
if [[ "$expect" == 0 && $status -ne 0 ]]; then
    echo "check_flow: FAIL: the flow refused (status $status), a bitstream was expected"; exit 1
fi
if [[ "$expect" != 0 && "$expect" != any && $status -eq 0 ]]; then
    echo "check_flow: FAIL: the flow made a bitstream, a refusal was expected"; exit 1
fi
for pattern in "${patterns[@]}"; do
    if ! grep -Eq -- "$pattern" "$log"; then
        echo "check_flow: FAIL: no line matches '$pattern'"; exit 1
    fi
done
echo "check_flow: ok (status $status, ${#patterns[@]} lines found)"
