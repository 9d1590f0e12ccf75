// popdist's environment reader: the numbers outside poprun, the numbers poprun exports, and the errors for a
// malformed or inconsistent environment (each names the variable).
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "popdist/popdist_poplar.hpp"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
extern "C" {
#include <cmocka.h>
}

namespace {

const char *const kVars[] = {"POPDIST_NUM_TOTAL_REPLICAS", "POPDIST_NUM_INSTANCES", "POPDIST_NUM_LOCAL_REPLICAS",
                             "POPDIST_NUM_IPUS_PER_REPLICA", "POPDIST_INSTANCE_INDEX", "POPDIST_REPLICA_INDEX_OFFSET"};

int clearEnv(void **) {
  for (const char *v : kVars)
    unsetenv(v);
  return 0;
}

/// The message of what `f` throws, or "" when it returns.
template <typename F> std::string error(F f) {
  try {
    f();
  } catch (const std::runtime_error &e) {
    return e.what();
  }
  return "";
}

void test_outside_poprun(void **) {
  assert_false(popdist::isPopdistEnvSet());
  assert_int_equal(popdist::getNumInstances(), 1);
  assert_int_equal(popdist::getInstanceIndex(), 0);
  assert_int_equal(popdist::getNumTotalReplicas(), 1);
  assert_int_equal(popdist::getNumLocalReplicas(), 1);
  assert_int_equal(popdist::getReplicaIndexOffset(), 0);
  assert_int_equal(popdist::getNumIpusPerReplica(), 1);
}

void test_under_poprun(void **) {
  setenv("POPDIST_NUM_TOTAL_REPLICAS", "8", 1);
  setenv("POPDIST_NUM_INSTANCES", "4", 1);
  setenv("POPDIST_NUM_LOCAL_REPLICAS", "2", 1);
  setenv("POPDIST_NUM_IPUS_PER_REPLICA", "2", 1);
  setenv("POPDIST_INSTANCE_INDEX", "3", 1);
  setenv("POPDIST_REPLICA_INDEX_OFFSET", "6", 1);
  assert_true(popdist::isPopdistEnvSet());
  assert_int_equal(popdist::getNumInstances(), 4);
  assert_int_equal(popdist::getInstanceIndex(), 3);
  assert_int_equal(popdist::getNumTotalReplicas(), 8);
  assert_int_equal(popdist::getNumLocalReplicas(), 2);
  assert_int_equal(popdist::getReplicaIndexOffset(), 6);
  assert_int_equal(popdist::getNumIpusPerReplica(), 2);
}

void test_bad_environment(void **) {
  setenv("POPDIST_NUM_TOTAL_REPLICAS", "four", 1);
  assert_true(error([] { popdist::getNumTotalReplicas(); }).find("POPDIST_NUM_TOTAL_REPLICAS='four' is not a number") !=
              std::string::npos);
  setenv("POPDIST_NUM_TOTAL_REPLICAS", "4", 1);
  setenv("POPDIST_NUM_INSTANCES", "0", 1);
  assert_true(error([] { popdist::getNumInstances(); }).find("POPDIST_NUM_INSTANCES=0") != std::string::npos);
  setenv("POPDIST_NUM_INSTANCES", "2", 1);
  setenv("POPDIST_NUM_LOCAL_REPLICAS", "3", 1);
  assert_true(error([] { popdist::getNumLocalReplicas(); }).find("is not POPDIST_NUM_TOTAL_REPLICAS=4") !=
              std::string::npos);
  setenv("POPDIST_NUM_LOCAL_REPLICAS", "2", 1);
  setenv("POPDIST_INSTANCE_INDEX", "2", 1);
  assert_true(error([] { popdist::getInstanceIndex(); }).find("POPDIST_INSTANCE_INDEX=2 is not below") !=
              std::string::npos);
  setenv("POPDIST_REPLICA_INDEX_OFFSET", "3", 1);
  assert_true(error([] { popdist::getReplicaIndexOffset(); }).find("POPDIST_REPLICA_INDEX_OFFSET=3") !=
              std::string::npos);
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup(test_outside_poprun, clearEnv),
      cmocka_unit_test_setup(test_under_poprun, clearEnv),
      cmocka_unit_test_setup(test_bad_environment, clearEnv),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
