#!/bin/sh
# Issue 37: a tile holds only the code of its vertices and the runtime pieces they call. Runs tutorial 7
# (10000 x 1000 on the ipu2 IPU Model, `make demo`'s program), prints the profile summary's
# "Code, runtime, heap (each tile)" figure and fails if it exceeds the bound (a quarter of the 50,016 B that a tile
# carried when every image linked the whole runtime with printf).
# Usage: tile_code_bytes.sh <ipu-demo> <bound-bytes>
set -eu
demo=$1 bound=$2
out=$("$demo" 10000 1000 ipu2 --profile)
echo "$out" | grep -q "Multiplication result OK" || { echo "$out"; echo "FAIL: wrong result"; exit 1; }
line=$(echo "$out" | grep "Code, runtime, heap (each tile):") || { echo "$out"; echo "FAIL: no code line"; exit 1; }
bytes=$(echo "$line" | sed 's/.*: *//; s/ B$//; s/,//g')
echo "tutorial 7 (ipu2): Code, runtime, heap (each tile) = $bytes B (bound $bound B)"
case $bytes in ''|*[!0-9]*) echo "FAIL: '$line' has no byte count"; exit 1 ;; esac
[ "$bytes" -le "$bound" ] || { echo "FAIL: $bytes B > $bound B"; exit 1; }
echo "PASS"
