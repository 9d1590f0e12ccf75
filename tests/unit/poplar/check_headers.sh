#!/bin/sh
# Compiles every public poplar header alone as a C++11 user program would include it, warnings as errors; the
# detail/ headers too, since they are installed and other libraries (libpoprand, popvis) include them.
# Usage: check_headers.sh <c++ compiler> <poplar include dir> <other include dirs...>
set -eu
cxx=$1 inc=$2
shift 2
flags="-I$inc"
for d in "$@"; do flags="$flags -I$d"; done
n=0
for h in "$inc"/poplar/*.hpp "$inc"/poplar/detail/*.hpp; do
  name=${h#"$inc"/poplar/}
  echo "#include <poplar/$name>" | $cxx -std=c++11 -Wall -Wextra -Wshadow -Werror -fsyntax-only -x c++ $flags - ||
    { echo "poplar/$name does not compile as C++11"; exit 1; }
  n=$((n + 1))
done
echo "$n headers compile as C++11"
