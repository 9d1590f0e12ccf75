#!/bin/bash
# poprun's argument checks (each bad launch exits 2 naming the problem), the mpirun command it builds (--dry-run:
# -np, --host, the POPDIST_* environment, the MPI pass-through arguments), and a real launch of 3 instances under
# mpirun with the per-instance numbers and --only-output-from-instance.
# Usage: test_poprun.sh <poprun>
set -u
poprun=$1
fails=0
check() { # check <description> <expected exit status> <text expected in the output> -- poprun args...
  local what=$1 status=$2 want=$3
  shift 4
  out=$("$poprun" "$@" 2>&1)
  rc=$?
  if [[ $rc != "$status" || $out != *"$want"* ]]; then
    echo "FAIL: $what: exit $rc (expected $status), output: $out"
    fails=$((fails + 1))
  else
    echo "ok: $what"
  fi
}
check "replicas not divisible" 2 "--num-replicas 3 is not divisible by --num-instances 2" -- \
  --num-instances 2 --num-replicas 3 true
check "zero instances" 2 "argument --num-instances: 0 is too small" -- --num-instances 0 true
check "non-numeric replicas" 2 "argument --num-replicas: 'x' is not a number" -- --num-replicas x true
check "instances past mpirun's int (issue 36)" 2 "argument --num-instances: 99999999999999999999 is out of range; give a whole number from 1 to 65535" -- \
  --num-instances 99999999999999999999 true
check "replicas out of range" 2 "argument --num-replicas: 65536 is out of range" -- --num-replicas 65536 true
check "output instance out of range" 2 "argument --only-output-from-instance: 99999999999999999999 is out of range" -- \
  --only-output-from-instance 99999999999999999999 true
check "zero ipus per replica" 2 "argument --ipus-per-replica: 0 is too small" -- --ipus-per-replica 0 true
check "output instance out of range" 2 "--only-output-from-instance 2 does not exist" -- \
  --num-instances 2 --only-output-from-instance 2 true
check "empty host" 2 "--host 'a,,b' has an empty host name" -- --host a,,b true
check "unbalanced quotes" 2 "--mpi-global-args '--tag \"x' cannot be split" -- --mpi-global-args '--tag "x' true
check "no program" 2 "the following arguments are required: program" --
check "dry run" 0 "-np 2 -x POPDIST_NUM_TOTAL_REPLICAS=4 -x POPDIST_NUM_INSTANCES=2 -x POPDIST_NUM_LOCAL_REPLICAS=2 -x POPDIST_NUM_IPUS_PER_REPLICA=2" -- \
  --dry-run --num-instances 2 --num-replicas 4 --ipus-per-replica 2 prog a b
check "host pass-through" 0 "--host h1,h2 --tag-output -np 2" -- --dry-run --num-instances 2 --host h1,h2 \
  --mpi-global-args=--tag-output prog
check "local args and program args" 0 "--bind-to none /" -- --dry-run --mpi-local-args "--bind-to none" prog --x
check "program args kept" 0 "--instance-wrapper -- prog --x 1" -- --dry-run prog --x 1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$("$poprun" --num-instances 3 --num-replicas 6 --mpi-global-args=--oversubscribe \
  sh -c 'echo "instance $POPDIST_INSTANCE_INDEX offset $POPDIST_REPLICA_INDEX_OFFSET local $POPDIST_NUM_LOCAL_REPLICAS"' 2>&1)
for i in 0 1 2; do
  if [[ $out != *"instance $i offset $((i * 2)) local 2"* ]]; then
    echo "FAIL: launch: no line for instance $i in: $out"
    fails=$((fails + 1))
  fi
done
out=$("$poprun" --num-instances 3 --only-output-from-instance 1 --mpi-global-args=--oversubscribe \
  sh -c 'echo "from $POPDIST_INSTANCE_INDEX"' 2>&1)
if [[ $out != *"from 1"* || $out == *"from 0"* || $out == *"from 2"* ]]; then
  echo "FAIL: --only-output-from-instance 1 printed: $out"
  fails=$((fails + 1))
fi
echo "$fails failure(s)"
[[ $fails == 0 ]]
