#!/usr/bin/env bash
# Configures the project twice with libpoplar switched off: with IPU_REQUIRE_ALL=ON it must fail and name
# libpoplar; with IPU_REQUIRE_ALL=OFF it must succeed with a warning (so the failure is the option's doing).
set -uo pipefail
cmake=$1 src=$2 scratch=$3 cache=$4
rm -rf "$scratch" && mkdir -p "$scratch"
gen=()
command -v ninja >/dev/null && gen=(-G Ninja)
if "$cmake" -S "$src" -B "$scratch/strict" "${gen[@]}" -DIPU_EMU_CACHE="$cache" -DIPU_BUILD_POPLAR=OFF \
    -DIPU_REQUIRE_ALL=ON >"$scratch/strict.log" 2>&1; then
  echo "FAIL: configure passed with libpoplar off and IPU_REQUIRE_ALL=ON"; exit 1
fi
grep -q "libpoplar cannot be built: IPU_BUILD_POPLAR is OFF" "$scratch/strict.log" ||
  { echo "FAIL: the configure error does not name libpoplar:"; tail -20 "$scratch/strict.log"; exit 1; }
if ! "$cmake" -S "$src" -B "$scratch/lenient" "${gen[@]}" -DIPU_EMU_CACHE="$cache" -DIPU_BUILD_POPLAR=OFF \
    -DIPU_REQUIRE_ALL=OFF >"$scratch/lenient.log" 2>&1; then
  echo "FAIL: configure without IPU_REQUIRE_ALL failed:"; tail -20 "$scratch/lenient.log"; exit 1
fi
grep -q "libpoplar is not built" "$scratch/lenient.log" ||
  { echo "FAIL: no warning that libpoplar is not built"; exit 1; }
grep -q "tests/unit/poplar is not built" "$scratch/lenient.log" ||
  { echo "FAIL: no warning that the Poplar tests are not run"; exit 1; }
rm -rf "$scratch"
echo "configure with libpoplar off: fails with IPU_REQUIRE_ALL=ON, warns without it"
