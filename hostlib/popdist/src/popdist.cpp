// popdist's environment reader (see popdist/popdist_poplar.hpp). Values are checked when read: a malformed or
// inconsistent POPDIST_* variable is a launcher bug or a hand-made environment, and a wrong replica count would
// silently give wrong collectives, so it throws naming the variable.
#include "popdist/popdist_poplar.hpp"

#include <cerrno>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace popdist {

namespace {

/// The unsigned value of environment variable `name`, or `fallback` when it is unset.
unsigned number(const char *name, unsigned fallback) {
  const char *v = std::getenv(name);
  if (!v)
    return fallback;
  char *end = nullptr;
  errno = 0;
  unsigned long n = std::strtoul(v, &end, 10);
  if (*v == '\0' || *end != '\0' || errno != 0 || n > 0xffffffffUL || v[0] == '-')
    throw std::runtime_error(std::string("popdist: ") + name + "='" + v +
                             "' is not a number; run the program through poprun, which sets it");
  return unsigned(n);
}

/// As number(), for a count that must be at least 1.
unsigned count(const char *name) {
  unsigned n = number(name, 1);
  if (n == 0)
    throw std::runtime_error(std::string("popdist: ") + name + "=0; it must be at least 1 (run through poprun)");
  return n;
}

} // namespace

bool isPopdistEnvSet() { return std::getenv("POPDIST_NUM_TOTAL_REPLICAS") != nullptr; }

unsigned getNumInstances() { return count("POPDIST_NUM_INSTANCES"); }

unsigned getInstanceIndex() {
  unsigned i = number("POPDIST_INSTANCE_INDEX", 0);
  if (i >= getNumInstances())
    throw std::runtime_error("popdist: POPDIST_INSTANCE_INDEX=" + std::to_string(i) + " is not below " +
                             "POPDIST_NUM_INSTANCES=" + std::to_string(getNumInstances()));
  return i;
}

unsigned getNumTotalReplicas() { return count("POPDIST_NUM_TOTAL_REPLICAS"); }

unsigned getNumLocalReplicas() {
  unsigned local = count("POPDIST_NUM_LOCAL_REPLICAS");
  if (local * getNumInstances() != getNumTotalReplicas())
    throw std::runtime_error("popdist: POPDIST_NUM_LOCAL_REPLICAS=" + std::to_string(local) + " times " +
                             "POPDIST_NUM_INSTANCES=" + std::to_string(getNumInstances()) + " is not " +
                             "POPDIST_NUM_TOTAL_REPLICAS=" + std::to_string(getNumTotalReplicas()));
  return local;
}

unsigned getReplicaIndexOffset() {
  unsigned offset = number("POPDIST_REPLICA_INDEX_OFFSET", 0);
  if (offset + getNumLocalReplicas() > getNumTotalReplicas())
    throw std::runtime_error("popdist: POPDIST_REPLICA_INDEX_OFFSET=" + std::to_string(offset) +
                             " leaves no room for this instance's replicas in POPDIST_NUM_TOTAL_REPLICAS=" +
                             std::to_string(getNumTotalReplicas()));
  return offset;
}

unsigned getNumIpusPerReplica() { return count("POPDIST_NUM_IPUS_PER_REPLICA"); }

} // namespace popdist
