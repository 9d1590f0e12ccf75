#!/usr/bin/env bash
# The host link's figures (issue 17): register read round trip and tile-memory
# read bandwidth over the socket transport (ipu-board-sim, the Verilated board
# top in its own process) beside the in-process rtl transport (rtl-tiny), runs
# alternating, medians with min and max. (The usb path's figures come from the
# QEMU guest: ctest -R qemu_usb_guest prints them.)
# Usage: bench/link.sh BUILD_DIR [RUNS]
set -euo pipefail
build=$(cd "${1:?usage: link.sh BUILD_DIR [RUNS]}" && pwd)
runs=${2:-5}
bin=$build/bin
for t in ipu-board-sim ipu-mmio-latency gc-info; do
  [ -x "$bin/$t" ] || { echo "not built: $bin/$t (the RTL needs Verilator)"; exit 0; }
done
work=$(mktemp -d "${TMPDIR:-/tmp}/ipu-bench-link.XXXXXX")
sim_pid=
trap '[ -n "$sim_pid" ] && kill $sim_pid 2>/dev/null; rm -rf "$work"' EXIT
"$bin/ipu-board-sim" --socket "$work/link" > "$work/sim.log" 2>&1 &
sim_pid=$!
for _ in $(seq 100); do [ -S "$work/link" ] && break; sleep 0.1; done
export IPU_EMU_PCI_ROOT=/nonexistent-bench IPU_EMU_LOCK_DIR=$work

# One sample: median register round trip (us) of 2000 reads, then seconds to read 16 KiB of tile memory.
sample() {
  local lat t0 t1
  lat=$(IPU_EMU_DEVICES=$1 "$bin/ipu-mmio-latency" 0 2000 | sed -n 's/^median_us: //p')
  t0=$(date +%s%N)
  IPU_EMU_DEVICES=$1 "$bin/gc-info" -d 0 --dump-mem 0,0x100000,16384 > /dev/null
  t1=$(date +%s%N)
  echo "$lat $(( t1 - t0 ))"
}
: > "$work/socket" && : > "$work/rtl"
for _ in $(seq "$runs"); do
  sample "socket:$work/link" >> "$work/socket"
  sample rtl-tiny >> "$work/rtl"
done
# median min max of column $2 in file $1
stats() { cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%s %s %s\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
read -r sl_med sl_min sl_max < <(stats "$work/socket" 1)
read -r rl_med rl_min rl_max < <(stats "$work/rtl" 1)
read -r sb_med sb_min sb_max < <(stats "$work/socket" 2)
read -r rb_med rb_min rb_max < <(stats "$work/rtl" 2)
echo "register read round trip, median of $runs runs of 2000 reads (min, max), in us:"
echo "  socket (ipu-board-sim):  $sl_med ($sl_min, $sl_max)"
echo "  rtl (in-process):        $rl_med ($rl_min, $rl_max)"
awk -v s="$sl_med" -v r="$rl_med" 'BEGIN { printf "  socket / rtl: %.1fx the in-process round trip\n", s / r }'
echo "16 KiB tile-memory read (gc-info --dump-mem, process start included), median of $runs (min, max):"
awk -v m="$sb_med" -v a="$sb_min" -v b="$sb_max" 'BEGIN { printf "  socket: %.0f KiB/s (%.0f, %.0f)\n", 16 / (m / 1e9), 16 / (b / 1e9), 16 / (a / 1e9) }'
awk -v m="$rb_med" -v a="$rb_min" -v b="$rb_max" 'BEGIN { printf "  rtl:    %.0f KiB/s (%.0f, %.0f)\n", 16 / (m / 1e9), 16 / (b / 1e9), 16 / (a / 1e9) }'
awk -v s="$sb_med" -v r="$rb_med" 'BEGIN { printf "  socket / rtl bandwidth ratio: %.3f\n", r / s }'
