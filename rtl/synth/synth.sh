#!/usr/bin/env bash
# make synth: yosys synthesis of one tile and of the tile array (the rtl-tiny
# shape). Prints cells, flip-flops and memories of each and fails on anything
# yosys cannot synthesize (a parse error, a latch, multiple drivers, a loop).
# Usage: rtl/synth/synth.sh [OUT_DIR]   (default build/synth)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
rtl="$(dirname "$here")"
out="$(mkdir -p "${1:-build/synth}" && cd "${1:-build/synth}" && pwd)"

# Package order first; rtl/sources.txt is the list Verilator builds from too.
files=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$rtl/sources.txt")
(cd "$rtl" && python3 "$here/sv_for_yosys.py" "$out/src" $files)
srcs=""
for f in $files; do srcs="$srcs $out/src/$(basename "$f")"; done

run() { # name top params
    local name=$1 top=$2 params=$3
    echo "== synth: $name ($top $params) =="
    sed -e "s|@TOP@|$top|g" -e "s|@PARAMS@|$params|g" -e "s|@OUT@|$out|g" -e "s|@NAME@|$name|g" \
        "$here/synth.ys" | sed "1i read_verilog -sv -DSYNTHESIS $srcs" > "$out/$name.ys"
    # yosys -q still prints warnings (memories kept as registers): keep them in a file.
    if ! yosys -q -l "$out/$name.log" -s "$out/$name.ys" >/dev/null 2>"$out/$name.warnings"; then
        cat "$out/$name.warnings" >&2
        echo "synth: $name failed; see $out/$name.log" >&2
        exit 1
    fi
    # Cells, flip-flops (every $*dff* / $_*DFF*_ cell) and memories of the whole hierarchy.
    awk '/design hierarchy/ {h=1} h && /Number of cells:/ {cells=$4}
         h && /\$_.*DFF.*_|\$.*dff/ {ff+=$2}
         h && /\$mem_v2/ {mems+=$2}
         END {printf "  cells %d, flip-flops %d, memories %d", cells, ff, mems}' "$out/$name.stat"
    awk '/design hierarchy/ {h=1} h && /Number of memory bits:/ {bits=$5 ? $5 : $4}
         END {printf " (%d bits)\n", bits}' "$out/$name.mem.stat"
}

# The RTL modules' default parameters are the rtl-tiny shape: 4 tiles, 6 workers,
# 64 KiB per tile (yosys 0.23 trips an internal assertion on -chparam of ipu_card).
run tile ipu_tile ""
run array ipu_card ""
echo "== synth: reports in $out =="
