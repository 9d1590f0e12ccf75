#!/usr/bin/env bash
# `make test`'s ctest runner (scripts/ctest-strict.sh) fails under CI=true when
# a test skips: a scratch project with one test made to skip (exit 77 with
# SKIP_RETURN_CODE) and one with a skipped CMocka case. Outside CI the same run
# passes, and under CI=true a project whose tests all run passes.
set -euo pipefail
root=$1
strict=$root/scripts/ctest-strict.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

project() { # $1: folder; the rest: extra CMake lines
  local dir=$1; shift
  mkdir -p "$dir"
  { echo 'cmake_minimum_required(VERSION 3.25)'; echo 'project(skip_check NONE)'; echo 'enable_testing()'
    echo 'add_test(NAME runs COMMAND sh -c "echo ran")'; printf '%s\n' "$@"; } >"$dir/CMakeLists.txt"
  cmake -S "$dir" -B "$dir/b" >/dev/null
}
run() { # $1: CI value; $2: project; prints the status
  (cd "$2/b" && CI=$1 "$strict" --output-on-failure >"$scratch/out" 2>&1) && echo 0 || echo $?
}

project "$scratch/skips" 'add_test(NAME skips COMMAND sh -c "exit 77")' \
  'set_tests_properties(skips PROPERTIES SKIP_RETURN_CODE 77)'
[ "$(run true "$scratch/skips")" != 0 ] || { echo "FAIL: a ctest skip passed under CI=true"; cat "$scratch/out"; exit 1; }
grep -q "skips: skipped by ctest" "$scratch/out" || { echo "FAIL: the skipped test is not named"; cat "$scratch/out"; exit 1; }
[ "$(run false "$scratch/skips")" = 0 ] || { echo "FAIL: a skip failed outside CI"; cat "$scratch/out"; exit 1; }
echo "ok: a ctest skip fails under CI=true and passes outside CI"

project "$scratch/cmocka" 'add_test(NAME cmocka_case COMMAND sh -c "echo \"[  SKIPPED ] test_needs_qemu\"")'
[ "$(run true "$scratch/cmocka")" != 0 ] || { echo "FAIL: a CMocka skip passed under CI=true"; cat "$scratch/out"; exit 1; }
grep -q "CMocka skipped test_needs_qemu" "$scratch/out" || { echo "FAIL: the CMocka case is not named"; cat "$scratch/out"; exit 1; }
echo "ok: a skipped CMocka case fails under CI=true"

project "$scratch/clean"
[ "$(run true "$scratch/clean")" = 0 ] || { echo "FAIL: a run without skips failed under CI=true"; cat "$scratch/out"; exit 1; }
echo "ok: a run without skips passes under CI=true"
