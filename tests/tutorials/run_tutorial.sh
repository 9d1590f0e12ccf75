#!/bin/sh
# Builds one tutorial program exactly as the seed does (g++ --std=c++11 prog.cpp -lpoplar) against an install tree,
# runs it in a scratch folder next to its codelets, and checks that every expected line appears in its output.
# Usage: run_tutorial.sh <install-prefix> <source-dir> <program.cpp> <expected-file> [program arguments...]
# A file `libs` in the source folder adds link flags after -lpoplar (the PopLibs tutorials: -lpopops -lpoputil);
# a file `<program>.libs` (train_dp.libs for train_dp.cpp) does so for that program instead.
set -eu
support=$(cd "$(dirname "$0")/../support" && pwd)
prefix=$1 src=$2 prog=$3 expected=$4
shift 4
work=$(mktemp -d "${TMPDIR:-/tmp}/poplar-tut.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$src"/*.cpp "$work"/
cd "$work"
export CPLUS_INCLUDE_PATH="$prefix/include" LIBRARY_PATH="$prefix/lib" LD_LIBRARY_PATH="$prefix/lib"
export PATH="$prefix/bin:$PATH"
# TUTORIAL_CXXFLAGS: extra flags the sanitizer build needs (its libpoplar carries the ASan runtime).
libs=""
if [ -f "$src/${prog%.cpp}.libs" ]; then libs=$(cat "$src/${prog%.cpp}.libs")
elif [ -f "$src/libs" ]; then libs=$(cat "$src/libs"); fi
echo "+ g++ --std=c++11 ${TUTORIAL_CXXFLAGS:-}${TUTORIAL_CXXFLAGS:+ }$prog -lpoplar${libs:+ }$libs -o prog"
# shellcheck disable=SC2086 # the flags are a word list
g++ --std=c++11 ${TUTORIAL_CXXFLAGS:-} "$prog" -lpoplar $libs -o prog
if [ -f "$src/prebuild.sh" ]; then sh "$src/prebuild.sh"; fi
./prog "$@" > output.txt 2>&1 || { cat output.txt; echo "FAIL: the program exited with an error"; exit 1; }
cat output.txt
"$support/expect_lines.sh" "$expected" output.txt
