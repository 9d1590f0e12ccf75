#!/usr/bin/env bash
# `make bench`: every benchmark of the build, one section each, in the order of
# the layers (card model, driver, runtime, Poplar, QEMU, RTL). Benchmarks print
# figures, measured in this run and where possible as a ratio to a baseline
# measured in the same run (the machine is shared and noisy); none asserts a
# speed. A wall-time figure is the median of several runs with min and max, and
# a speed is a ratio to a baseline run alternately with it (bench_stats.hpp).
# Simulated cycles do not depend on the host; where a benchmark repeats a run it
# checks that they are identical. A section whose part is not built says so and
# the rest still runs.
# Usage: [IPU_BENCH_SKIP="NAME ..."] bench/run.sh [BUILD_DIR]
#   IPU_BENCH_SKIP  benchmarks to leave out, by the names `run` gives them (spaces or
#                   commas between), e.g. IPU_BENCH_SKIP=netlist_tut3 for the gate-level
#                   tutorial 3 (its netlist build and simulation are the longest section).
set -uo pipefail
build=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
export IPU_BOARD_PATH=${IPU_BOARD_PATH:-$root/boards}
# Benchmarks open their own in-process cards; a private lock folder keeps them
# from waiting for (or colliding with) a test run on the same machine.
export IPU_EMU_LOCK_DIR=${IPU_EMU_LOCK_DIR:-$build/bench-locks}
mkdir -p "$IPU_EMU_LOCK_DIR"
bin=$build/bin
status=0
ran=" "

# Each section ends with its wall time, so a slow one shows (the whole run takes long on a loaded machine).
section_start=
section_done() { [ -n "$section_start" ] && printf -- '-- section time: %d s\n' $((SECONDS - section_start)); }
section() { section_done; section_start=$SECONDS; printf '\n== %s ==\n' "$*"; }
# skipped NAME: true (and says so) when IPU_BENCH_SKIP names the benchmark.
skipped() {
  case " ${IPU_BENCH_SKIP//,/ } " in *" $1 "*) echo "skipped: $1 (IPU_BENCH_SKIP)"; return 0 ;; esac
  return 1
}
# run NAME CMD...: runs one benchmark, remembers it ran, and keeps going on failure.
run() {
  local name=$1; shift
  ran="$ran$name "
  skipped "$name" && return
  if [ ! -x "$1" ]; then echo "not built: $1"; return; fi
  "$@" || { echo "FAIL: $name exited with $?"; status=1; }
}

section "card model: MIPS of a compute kernel, 1 tile and all ipu2 tiles, 1..N host threads (issue 3)"
run bench_model_mips "$bin/bench_model_mips"

section "card model: ISS against qemu-riscv32 on one kernel object (sort, CRC32, float matmul), alternating runs (issue 20)"
run bench_iss "$bin/bench_iss"

section "card model: gc-run (a cold process each run, tiny card, 1 host thread) against qemu-riscv32 on the bench_iss kernel object, 7 alternating pairs at N=2000 and N=8000, wall time (issue 35)"
ran="${ran}gc_run_vs_qemu "
python3 "$root/bench/gc_run_vs_qemu.py" "$bin" "$build/tile-tests/bench-iss" 7 2000 8000 || status=1

section "card model: differential fuzzer, 10^6 random RV32IMF programs on the interpreter and the JIT tier (issue 35)"
run test_iss_fuzz "$bin/test_iss_fuzz" --count 1000000

section "driver: DMA bandwidth on the model card (tiny), both directions, beside host memcpy (issue 5)"
ran="${ran}gc-hosttraffictest "
IPU_EMU_DEVICES=tiny run gc-hosttraffictest "$bin/gc-hosttraffictest" --min 4K --max 64M 2>/dev/null

section "runtime: stream throughput beside memcpy, ipu2 image load (issue 6)"
run bench_runtime "$bin/bench_runtime"

section "fuzz targets: every reader (ELF, executable, profiles, board, link, trace) under libFuzzer with ASan/UBSan, ${FUZZ_BENCH_SECONDS:-90} s each (issue 36; make test runs each for 5 s)"
fuzz=$build/tests/fuzz/fuzz-build
if [ -x "$fuzz/trace_fuzz" ] && [ -x "$bin/fuzz_seeds" ]; then
  corpus=$build/tests/fuzz/bench-corpus
  rm -rf "$corpus"
  "$bin/fuzz_seeds" "$corpus/seeds" "$root/boards" >/dev/null || { echo "FAIL: fuzz_seeds"; status=1; }
  for t in elf_fuzz exe_fuzz profile_json_fuzz profile_cbor_fuzz board_fuzz board_utf8_fuzz link_fuzz trace_fuzz; do
    mkdir -p "$corpus/$t"
    log=$corpus/$t.log
    "$fuzz/$t" -max_total_time="${FUZZ_BENCH_SECONDS:-90}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$corpus/$t-" "$corpus/$t" "$corpus/seeds/$t" >"$log" 2>&1
    frc=$?
    # libFuzzer's last status line has the coverage (cov: edges, ft: features, corp: inputs kept).
    last=$(grep -E '^#[0-9]+' "$log" | tail -1)
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
    cov=$(sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/cov \1, ft \2, corpus \3/p' <<<"$last")
    printf '%-18s %10s executions (%s/s), %s, exit %d\n' "$t" "${runs:-?}" "${rate:-?}" "${cov:-no status line}" "$frc"
    if [ "$frc" != 0 ]; then
      echo "FAIL: $t found something (log: $log)"; grep -E 'ERROR|runtime error|deadly|Test unit written' "$log" | head -5
      status=1
    fi
  done
else
  echo "not built: the fuzz targets need clang-14 and libclang-rt-14-dev (make deps)"
fi

section "Poplar: tutorial 7, 10000x1000 on the ipu2 IPU Model, 3 runs: medians with min and max (issues 7, 20)"
ran="${ran}bench_calibration "
python3 "$root/bench/bench_calibration.py" demo "$bin" 3 || status=1

section "Poplar compiler: tutorial 7 on ipu2, compile time and peak tile memory with and without liveness sharing (issue 12)"
if [ -x "$bin/ipu-demo" ]; then
  "$root/bench/compile_memory.sh" "$bin" 5 || { echo "FAIL: compile_memory"; status=1; }
else
  echo "not built: ipu-demo"
fi

section "PopLibs: popops add of two 10M-float tensors and reduce ADD of 10Mx1 on the ipu2 IPU Model (issues 15, 20)"
popops_out=$build/bench-popops.txt
rm -f "$popops_out"
run bench_popops "$bin/bench_popops" > "$popops_out"
cat "$popops_out"

section "Cycle calibration: planner estimates, simulated cycles split by the execution profile, the seed's figures (issue 20)"
python3 "$root/bench/bench_calibration.py" calibrate "$bin" --popops-output "$popops_out" || status=1

section "Calibration table: tutorial 7 (ipu1, ipu2) and tutorial 6 against the seed, PopLibs operations on one ipu2 tile against Graphcore's estimators, with the ratio (issue 37)"
ran="${ran}bench_calib_ops "
python3 "$root/bench/bench_calibration.py" table "$bin" || status=1

section "PopLibs: poplin matMul 1024x1024x1024 float and a 3x3 convolution (batch 4, 64 to 64 channels, 56x56) on the ipu2 IPU Model (issue 16)"
run bench_poplin "$bin/bench_poplin"

section "PopLibs: poplin matMul 256x256x256 float and one popnn LSTM step (batch 16, 256 to 256) on the ipu2 IPU Model, against the operation in double on the host, alternating runs; BENCH_BASELINE_PREFIX=<earlier install> adds that build's figures, alternating processes (issue 34)"
run bench_poplibs_steps "$bin/bench_poplibs_steps"
if [ -n "${BENCH_BASELINE_PREFIX:-}" ]; then
  ran="${ran}poplibs_steps_vs "
  python3 "$root/bench/poplibs_steps_vs.py" "$bin/bench_poplibs_steps" "$BENCH_BASELINE_PREFIX" || status=1
fi

section "gcl: allReduce of ${GCL_BENCH_MIB:-8} MiB across 4 replicas, in one process and as 2 poprun instances x 2, beside MPI_Allreduce (issue 19)"
run bench_gcl "$bin/bench_gcl" "${GCL_BENCH_MIB:-8}"
if [ -x "$bin/bench_gcl" ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$bin/poprun" --num-instances 2 --num-replicas 4 \
    "$bin/bench_gcl" "${GCL_BENCH_MIB:-8}" || { echo "FAIL: bench_gcl under poprun"; status=1; }
fi

section "QEMU card: randomized MMIO/DMA harness under the ASan QEMU, 5000 iterations (issue 8)"
run bench_qemu_card "$bin/bench_qemu_card"

section "QEMU card: from inside the guest (issue 8)"
run bench_qemu_guest "$bin/bench_qemu_guest"

section "RTL: simulated tile-cycles per second, 1 and 4 tiles, against the card without its input stage, lock-step cost (issues 9, 38)"
run ipu_rtl_bench "$bin/ipu_rtl_bench" "$build/tile-tests/rtl/compute.elf"

section "RTL: tutorial 3 on the synthesized netlist of rtl-tiny's 4-tile card (the bitstream's yosys flow, Verilator on the iCE40 cell models, behind the board socket), output against the model's; yosys and Verilator builds of several minutes, then about 3 minutes of gate-level simulation (issue 38; make test runs it as fpga_netlist_tut3; IPU_BENCH_SKIP=netlist_tut3 skips it)"
ran="${ran}netlist_tut3 "
if skipped netlist_tut3; then
  :
elif [ -x "$bin/fpga_tut3_device" ] && command -v yosys > /dev/null; then
  "$root/tests/integration/fpga/netlist_tut3.sh" "$build/netlist-tut3" "$bin/fpga_tut3_device" \
    "$root/tests/tutorials/tut3/tut3_codelets.cpp" "$root/tests/tutorials/tut3/expected.txt" || { echo "FAIL: netlist_tut3"; status=1; }
else
  echo "not built: fpga_tut3_device (needs Verilator and Poplar) or yosys not installed"
fi

section "host link: register round trip and tile-memory reads over the socket transport and the emulated USB path (QEMU guest) beside in-process rtl (issue 17)"
run link "$root/bench/link.sh" "$build"

section "host link soak: ${LINK_SOAK_REQUESTS:-10000} gc-info/gc-run requests through the fault-injecting proxy (dropped, duplicated, cut, noisy frames, IRQ/DMA_REQ floods, a card that never stops talking), the bare console program on the icebreaker board simulation (issue 36)"
ran="${ran}link_soak "
if [ -x "$bin/ipu-board-sim" ] && [ -x "$bin/ipu-link-fault-proxy" ]; then
  python3 "$root/testkit/link/link_soak.py" "$bin" "$build/tile-tests/rtl/console.elf" \
    --requests "${LINK_SOAK_REQUESTS:-10000}" --seed "${LINK_SOAK_SEED:-36}" || { echo "FAIL: link_soak"; status=1; }
else
  echo "not built: ipu-board-sim or ipu-link-fault-proxy (the board simulation needs Verilator)"
fi

# Any other bench_* a module adds is run too, so a new benchmark is never forgotten.
for b in "$bin"/bench_*; do
  name=$(basename "$b")
  case "$ran" in *" $name "*) continue ;; esac
  [ -x "$b" ] || continue
  section "$name"
  run "$name" "$b"
done
section_done
printf '\nmake bench: %d s in all, status %d\n' "$SECONDS" "$status"
exit $status
