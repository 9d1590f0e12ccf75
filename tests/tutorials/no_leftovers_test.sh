#!/bin/sh
# Issue 35 item 3: the paths users take leave nothing behind. Runs gc-run on the ISS benchmark kernel (checked
# against the reference interpreter's exit code) and the tutorial 7 program on a model card, with a private TMPDIR,
# then checks that no process they started is still running and that the TMPDIR is empty. The processes under
# test carry a marker in their environment, which every process they start inherits (the model passes its
# environment to a compiler, changing only TMPDIR), so /proc finds them whatever their process group or parent.
# Usage: no_leftovers_test.sh WORK_DIR GC_RUN KERNEL_ELF DEMO [ISS_MODE]
#   ISS_MODE: IPU_EMU_ISS for the runs (empty: the default). With an opt-in compiling mode the translation cache
#   is a fresh folder in WORK_DIR, and it must hold nothing but shared objects afterwards.
set -u
work=$1 gc_run=$2 kernel=$3 demo=$4 mode=${5:-}
rm -rf "$work"
mkdir -p "$work/tmp" "$work/cache" "$work/locks"
mark="IPU_LEFTOVER_MARK=$$.$(date +%s%N)"
fail() { echo "FAIL: $*"; exit 1; }

# Runs "$@" with the marker, the private TMPDIR and the mode; returns its exit status.
run() {
  env "$mark" TMPDIR="$work/tmp" IPU_EMU_ISS_CACHE="$work/cache" IPU_EMU_LOCK_DIR="$work/locks" \
    IPU_EMU_ISS="$mode" IPU_EMU_ISS_HOT=2000 "$@"
}

# gc-run: one tile, one host thread, a few million instructions; the same exit code (the kernel's checksum) as
# the reference interpreter.
IPU_EMU_DEVICES=tiny IPU_EMU_HOST_THREADS=1 IPU_EMU_ISS=interp "$gc_run" --tiles 0 --arg 300 "$kernel" >/dev/null
want=$?
[ "$want" -lt 64 ] || [ "$want" -gt 75 ] || fail "gc-run on the interpreter exited $want (an error status)"
for i in 1 2 3; do
  IPU_EMU_DEVICES=tiny IPU_EMU_HOST_THREADS=1 run "$gc_run" --tiles 0 --arg 300 "$kernel" >/dev/null
  got=$?
  [ "$got" -eq "$want" ] || fail "gc-run run $i exited $got, the interpreter $want"
done
echo "gc-run: 3 runs, exit code $got as on the interpreter"

# Tutorial 7 (Poplar, its codelets compiled for the tiles) on the ipu1 model card.
IPU_EMU_DEVICES=ipu1 run "$demo" 400 60 hw >"$work/demo.txt" 2>&1 || { cat "$work/demo.txt"; fail "ipu-demo failed"; }
grep -q "Multiplication result OK" "$work/demo.txt" || { cat "$work/demo.txt"; fail "ipu-demo: wrong result"; }
echo "tutorial 7 on the model card: Multiplication result OK"

# Processes with the marker: a killed process group takes a moment to go, so look for up to 5 s.
left=""
for i in $(seq 50); do
  left=""
  for env in /proc/[0-9]*/environ; do
    if tr '\0' '\n' 2>/dev/null <"$env" | grep -qx "$mark"; then
      pid=${env#/proc/}
      pid=${pid%/environ}
      left="$left $pid($(tr '\0' ' ' 2>/dev/null <"/proc/$pid/cmdline"))"
    fi
  done
  [ -z "$left" ] && break
  sleep 0.1
done
[ -z "$left" ] || fail "processes left running:$left"
echo "no process left running"

leftover_tmp=$(ls -A "$work/tmp")
[ -z "$leftover_tmp" ] || fail "left in TMPDIR: $leftover_tmp"
echo "TMPDIR empty"
if [ -n "$mode" ]; then
  others=$(find "$work/cache" -mindepth 1 ! -name '*.so')
  [ -z "$others" ] || fail "left in the translation cache besides shared objects: $others"
  echo "translation cache ($mode): $(find "$work/cache" -name '*.so' | wc -l) shared objects and nothing else"
else
  [ -z "$(ls -A "$work/cache")" ] || fail "the default mode wrote into the translation cache"
  echo "default mode: the translation cache is untouched"
fi
rm -rf "$work"
