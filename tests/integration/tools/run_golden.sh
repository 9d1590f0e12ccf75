#!/bin/bash
# Runs one gc tool and compares its normalised output with a golden file.
# Usage: run_golden.sh GOLDEN EXPECTED_EXIT [--hold PCI_SLOT] [--range KEY MIN MAX]... -- TOOL ARGS...
# --range checks that the number printed for KEY ("KEY: n" or "\"KEY\": n")
# lies in [MIN, MAX]: figures that vary are checked for range, not equality.
# The output is stdout, then "[stderr]" and stderr when there is any, then
# "[exit N]". PIDs, timings and column padding are normalised so that the
# goldens are stable; the build's version ($IPU_EMU_VERSION, the CMake
# project version) becomes <version>, so a tool printing any other version
# fails. UPDATE_GOLDENS=1 rewrites the golden instead. The tools see the `tiny` card unless IPU_EMU_DEVICES
# names others; GOLDEN_DEFAULT_DEVICES=1 leaves it unset, so that the driver's default cards are seen.
set -u
golden=$1 expected=$2
shift 2
hold=""
ranges=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
    --hold) hold=$2; shift 2 ;;
    --range) ranges+=("$2 $3 $4"); shift 4 ;;
    *) echo "run_golden.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
[ "${1:-}" = "--" ] && shift

work=$(mktemp -d /tmp/ipu-golden-XXXXXX)
trap 'kill "$holder" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"' EXIT
holder=""
export IPU_EMU_LOCK_DIR=$work/locks IPU_EMU_PCI_ROOT=/nonexistent IPU_EMU_DEVICES=${IPU_EMU_DEVICES:-tiny}
[ "${GOLDEN_DEFAULT_DEVICES:-0}" = 1 ] && unset IPU_EMU_DEVICES
mkdir -p "$IPU_EMU_LOCK_DIR"

if [ -n "$hold" ]; then
    # Another process attached to a shared card, as libipudrv records it: a
    # flock on the card's lock file, which holds "PID command". Simulated
    # cards are private to their process and have no lock, so the held card
    # is a PCI card at slot $hold in a fake sysfs tree, and the only device
    # (id 0).
    mkdir -p "$work/pci/$hold"
    echo 0x1234 > "$work/pci/$hold/vendor"
    echo 0x11e9 > "$work/pci/$hold/device"
    export IPU_EMU_PCI_ROOT=$work/pci IPU_EMU_DEVICES=
    lock=$IPU_EMU_LOCK_DIR/pci-$hold.lock
    exec 9>"$lock"
    flock 9
    (exec -a holder sleep 30) 9>&- &
    holder=$!
    echo "$holder holder" > "$lock"
    # Hand the lock to the sleeping process: it inherits nothing, so keep
    # ours open instead until the test ends.
fi

"$@" > "$work/out" 2> "$work/err"
rc=$?
{
    cat "$work/out"
    if [ -s "$work/err" ]; then
        echo "[stderr]"
        cat "$work/err"
    fi
    echo "[exit $rc]"
} | sed -E \
    -e "s#$work#<tmp>#g" \
    ${IPU_EMU_VERSION:+-e "s/([ \"])${IPU_EMU_VERSION//./\\.}\\b/\\1<version>/g"} \
    ${holder:+-e "s/\\b$holder\\b/<pid>/g"} \
    -e 's/PID [0-9]+/PID <pid>/g' \
    -e '/version|ipu-emu/!s/[0-9]+\.[0-9]+/<x>/g' \
    -e "${hold:+s/([^ ])  +/\\1  /g}" \
    -e '/<x>/s/([^ ])  +/\1  /g' > "$work/actual"

range_failed=0
for spec in "${ranges[@]}"; do
    read -r key lo hi <<< "$spec"
    value=$(sed -nE "s/^ *\"?$key\"?: ([-0-9.e+]+),?\$/\1/p" "$work/out" | head -n 1)
    if [ -z "$value" ] || ! awk -v v="$value" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(v >= lo && v <= hi) }'; then
        echo "FAIL: $key is '${value:-missing}', expected $lo..$hi" >&2
        range_failed=1
    fi
done

if [ "${UPDATE_GOLDENS:-0}" = 1 ]; then
    cp "$work/actual" "$golden"
    echo "updated $golden"
    exit 0
fi
if ! diff -u "$golden" "$work/actual"; then
    echo "FAIL: output differs from $golden (UPDATE_GOLDENS=1 to accept)" >&2
    exit 1
fi
if [ "$rc" != "$expected" ]; then
    echo "FAIL: exit code $rc, expected $expected" >&2
    exit 1
fi
[ "$range_failed" = 0 ] || exit 1
exit 0
