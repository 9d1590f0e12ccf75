#!/bin/sh
# Checks that every non-empty line of an expected-output file appears, whole, in an output file; names each missing
# line. Exit status 0 when all are there. Used by the tutorial and SDK program runners.
# Usage: expect_lines.sh <expected-file> <output-file>
for f in "$1" "$2"; do
  if [ ! -r "$f" ]; then
    echo "FAIL: cannot read $f (give readable files, with absolute paths when the caller changes folder)"
    exit 2
  fi
done
result=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  if ! grep -qxF -- "$line" "$2"; then
    echo "FAIL: missing expected line: $line"
    result=1
  fi
done < "$1"
exit $result
