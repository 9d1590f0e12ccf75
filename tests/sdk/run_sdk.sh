#!/bin/sh
# Builds one SDK-surface program as a user of Graphcore's SDK would (g++ --std=c++11 prog.cpp -lpoplar [-lpopops...])
# against an install tree, runs it with HOME set to an empty folder (nothing may come from the building user's
# cache; the program may keep its own compile cache in the running user's ~/.cache), and checks its exit status
# and that every expected line appears in its output.
# Usage: run_sdk.sh <install-prefix> <program-dir>
# The program folder <dir> holds <name>.cpp (name = the folder's name), expected.txt (lines that must appear,
# exactly), and optionally: libs (extra link flags, e.g. -lpopops), args (the program's arguments on one line),
# exit-status (the expected exit status, default 0), run-path (the PATH the program runs with), launcher (a command
# line the program runs under, e.g. poprun with its options, as a user starts a distributed program), cxxflags (extra
# compiler flags, e.g. -std=c++17 after the seed's --std=c++11), link-rpath (present: the program is linked with
# a RUNPATH to <prefix>/lib, as Ubuntu's g++ records -Wl,-rpath, and runs with no LD_LIBRARY_PATH, so only the
# RUNPATHs of the program and of the installed libraries find libraries), other *.cpp files (codelets) copied
# next to the program.
# SDK_KEEP_HOME=1 keeps HOME (only for developing a program before the install is self-contained).
set -eu
support=$(cd "$(dirname "$0")/../support" && pwd)
# The program folder as an absolute path: the program is built and run in a scratch folder.
prefix=$1 src=$(cd "$2" && pwd)
name=$(basename "$src")
work=$(mktemp -d "${TMPDIR:-/tmp}/poplar-sdk.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$src"/*.cpp "$work"/
# The shared helpers (common/sdk_check.hpp: checks; common/sdk_half.hpp: FLOAT/HALF host data) sit next to the
# program, as its own headers would.
cp "$(dirname "$0")"/common/*.hpp "$work"/
cd "$work"
if [ "${SDK_KEEP_HOME:-0}" != 1 ]; then
  mkdir home && export HOME="$work/home"
  unset XDG_CACHE_HOME IPU_EMU_CACHE IPU_BOARD_PATH
fi
export CPLUS_INCLUDE_PATH="$prefix/include" LIBRARY_PATH="$prefix/lib" LD_LIBRARY_PATH="$prefix/lib"
export PATH="$prefix/bin:$PATH"
libs=""
[ -f "$src/libs" ] && libs=$(cat "$src/libs")
args=""
[ -f "$src/args" ] && args=$(cat "$src/args")
cxxflags=""
[ -f "$src/cxxflags" ] && cxxflags=$(cat "$src/cxxflags")
if [ -f "$src/link-rpath" ]; then
  libs="$libs -Wl,--enable-new-dtags -Wl,-rpath,$prefix/lib"
  unset LD_LIBRARY_PATH
fi
launcher=""
[ -f "$src/launcher" ] && launcher=$(cat "$src/launcher")
want_status=0
[ -f "$src/exit-status" ] && want_status=$(cat "$src/exit-status")
# SDK_CXXFLAGS: extra flags the sanitizer build needs (its libpoplar carries the ASan runtime).
echo "+ g++ --std=c++11 ${SDK_CXXFLAGS:-}${SDK_CXXFLAGS:+ }$cxxflags${cxxflags:+ }$name.cpp -lpoplar $libs -o prog"
# shellcheck disable=SC2086 # word lists
g++ --std=c++11 ${SDK_CXXFLAGS:-} $cxxflags "$name.cpp" -lpoplar $libs -o prog
status=0
if [ -f "$src/run-path" ]; then
  # shellcheck disable=SC2086
  PATH=$(cat "$src/run-path") $launcher ./prog $args > output.txt 2>&1 || status=$?
else
  # shellcheck disable=SC2086
  $launcher ./prog $args > output.txt 2>&1 || status=$?
fi
cat output.txt
if [ "$status" != "$want_status" ]; then
  echo "FAIL: the program exited with status $status, expected $want_status"
  exit 1
fi
"$support/expect_lines.sh" "$src/expected.txt" output.txt
