#!/usr/bin/env bash
# The host link's figures (issue 17): register read round trip and tile-memory
# read bandwidth over the socket transport (ipu-board-sim, the Verilated board
# top in its own process) beside the in-process rtl transport (rtl-tiny), runs
# alternating, medians with min and max; and over the emulated USB path (the
# QEMU guest of scripts/qemu/usb-test.sh: the driver's usb transport through
# libusb, QEMU's FTDI usb-serial, the same board sim), RUNS samples taken in the
# guest in the same run. Each sample: the median of the sample's register reads
# (2000 on the host, 200 in the guest, where one takes milliseconds) and the
# time to read 16 KiB of tile memory. Ratios are of the medians.
# Usage: bench/link.sh BUILD_DIR [RUNS]     IPU_BENCH_NO_USB=1 leaves the guest out.
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
"$bin/ipu-board-sim" --board rtl-tiny --socket "$work/link" > "$work/sim.log" 2>&1 &
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
# The usb path: one guest boot, RUNS samples in it ("usb_sample: MEDIAN_US SECONDS" lines on its serial console).
usb=skipped
if [ -z "${IPU_BENCH_NO_USB:-}" ]; then
  root=$(cd "$(dirname "$0")/.." && pwd)
  rc=0
  IPU_USB_BENCH_RUNS=$runs "$root/scripts/qemu/usb-test.sh" "$build" > "$work/usb.log" 2>&1 || rc=$?
  if [ $rc = 0 ]; then
    sed -n 's/^usb_sample: //p' "$build/qemu-guest/usb-serial.log.txt" | awk '{ print $1, $2 * 1e9 }' > "$work/usb"
    [ -s "$work/usb" ] && usb=ok
  elif [ $rc = 77 ]; then
    usb="skipped: $(grep SKIP "$work/usb.log" | tail -n1)"
  else
    tail -n 30 "$work/usb.log"; echo "FAIL: the usb guest test failed"; exit 1
  fi
fi
# median min max of column $2 in file $1
stats() { cut -d' ' -f"$2" "$1" | sort -g | awk '{ v[NR] = $1 } END { printf "%s %s %s\n", v[int((NR + 1) / 2)], v[1], v[NR] }'; }
read -r sl_med sl_min sl_max < <(stats "$work/socket" 1)
read -r rl_med rl_min rl_max < <(stats "$work/rtl" 1)
read -r sb_med sb_min sb_max < <(stats "$work/socket" 2)
read -r rb_med rb_min rb_max < <(stats "$work/rtl" 2)
if [ "$usb" = ok ]; then
  read -r ul_med ul_min ul_max < <(stats "$work/usb" 1)
  read -r ub_med ub_min ub_max < <(stats "$work/usb" 2)
fi
echo "register read round trip, median of $runs samples (min, max), in us:"
echo "  socket (ipu-board-sim):  $sl_med ($sl_min, $sl_max)"
echo "  rtl (in-process):        $rl_med ($rl_min, $rl_max)"
[ "$usb" = ok ] && echo "  usb (guest, QEMU FTDI): $ul_med ($ul_min, $ul_max)"
awk -v s="$sl_med" -v r="$rl_med" 'BEGIN { printf "  socket / rtl: %.1fx the in-process round trip\n", s / r }'
if [ "$usb" = ok ]; then
  awk -v u="$ul_med" -v s="$sl_med" -v r="$rl_med" 'BEGIN { printf "  usb / socket: %.1fx, usb / rtl: %.0fx\n", u / s, u / r }'
fi
echo "16 KiB tile-memory read (process start included), median of $runs (min, max):"
awk -v m="$sb_med" -v a="$sb_min" -v b="$sb_max" 'BEGIN { printf "  socket: %.1f KiB/s (%.1f, %.1f)\n", 16 / (m / 1e9), 16 / (b / 1e9), 16 / (a / 1e9) }'
awk -v m="$rb_med" -v a="$rb_min" -v b="$rb_max" 'BEGIN { printf "  rtl:    %.1f KiB/s (%.1f, %.1f)\n", 16 / (m / 1e9), 16 / (b / 1e9), 16 / (a / 1e9) }'
if [ "$usb" = ok ]; then
  awk -v m="$ub_med" -v a="$ub_min" -v b="$ub_max" 'BEGIN { printf "  usb:    %.1f KiB/s (%.1f, %.1f)\n", 16 / (m / 1e9), 16 / (b / 1e9), 16 / (a / 1e9) }'
fi
awk -v s="$sb_med" -v r="$rb_med" 'BEGIN { printf "  socket / rtl bandwidth ratio: %.3f\n", r / s }'
if [ "$usb" = ok ]; then
  awk -v u="$ub_med" -v s="$sb_med" -v r="$rb_med" 'BEGIN { printf "  usb / socket bandwidth ratio: %.3f, usb / rtl: %.4f\n", s / u, r / u }'
else
  echo "usb: $usb"
fi
