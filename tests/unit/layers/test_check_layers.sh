#!/usr/bin/env bash
# The architecture check (scripts/check-layers.py) passes on the tree, and fails
# on a copy of the tree with upward includes (model -> hostlib, poplar -> popops)
# and one cycle added on purpose,
# naming the offending arrow: so the check can fail.
set -euo pipefail
root=$1
check=$root/scripts/check-layers.py
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

python3 "$check" --root "$root"

copy() { # a copy of the sources the check reads (no build trees, no .git)
  rm -rf "$scratch/tree" && mkdir -p "$scratch/tree"
  (cd "$root" && find . \( -name .git -o -name 'build*' \) -prune -o -type f \
     \( -name '*.c' -o -name '*.h' -o -name '*.cpp' -o -name '*.hpp' -o -name 'CMakeLists.txt' -o -name '*.cmake' \) \
     -print0 | cpio -0 -pdm --quiet "$scratch/tree")
}
expect_failure() { # $1: what was added; $2: a word the report must name
  if python3 "$check" --root "$scratch/tree" >"$scratch/out" 2>&1; then
    echo "FAIL: check-layers passed with $1"; cat "$scratch/out"; exit 1
  fi
  grep -q -- "$2" "$scratch/out" || { echo "FAIL: the report does not name $2"; cat "$scratch/out"; exit 1; }
  echo "ok: check-layers refused $1"
}

# The model (layer 3) including the Poplar runtime (hostlib, layer 8).
copy
printf '#include "ipu_runtime/tile_program.hpp"\n' >>"$scratch/tree/model/src/iss.cpp"
expect_failure "an upward include in model/src/iss.cpp" "model/src/iss.cpp (model) -> hostlib"

# libpoplar reaching up into a PopLibs library's folder (what issue 37 removed from poplar's time model).
copy
printf '#include "../../popops/codelets/map_code.h"\n' >>"$scratch/tree/hostlib/poplar/src/time_model.cpp"
expect_failure "poplar including a popops header" "hostlib/poplar/src/time_model.cpp (hostlib) -> hostlib/popops"

# The driver linking the test support library: upward, and a cycle tests -> driver -> tests.
copy
printf 'target_link_libraries(ipudrv PRIVATE ipu_test_support)\n' >>"$scratch/tree/driver/CMakeLists.txt"
expect_failure "an upward target link in driver/CMakeLists.txt" "cycle between top-level folders"
