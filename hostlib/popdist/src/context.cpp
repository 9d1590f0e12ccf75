// popdist's environment reader (see popdist/context.hpp). Values are checked when read: a malformed or
// inconsistent POPDIST_* variable is a launcher bug or a hand-made environment, and a wrong replica count would
// silently give wrong collectives, so it throws popdist_error naming the variable.
#include "popdist/context.hpp"

#include <cerrno>
#include <cstdlib>
#include <string>

#include <poplar/Device.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/Target.hpp>

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
    throw popdist_error(std::string("popdist: ") + name + "='" + v +
                             "' is not a number; run the program through poprun, which sets it");
  return unsigned(n);
}

/// As number(), for a count that must be at least 1.
unsigned count(const char *name) {
  unsigned n = number(name, 1);
  if (n == 0)
    throw popdist_error(std::string("popdist: ") + name + "=0; it must be at least 1 (run through poprun)");
  return n;
}

} // namespace

bool isPopdistEnvSet() { return std::getenv("POPDIST_NUM_TOTAL_REPLICAS") != nullptr; }

unsigned getNumInstances() { return count("POPDIST_NUM_INSTANCES"); }

unsigned getInstanceIndex() {
  unsigned i = number("POPDIST_INSTANCE_INDEX", 0);
  if (i >= getNumInstances())
    throw popdist_error("popdist: POPDIST_INSTANCE_INDEX=" + std::to_string(i) + " is not below " +
                             "POPDIST_NUM_INSTANCES=" + std::to_string(getNumInstances()));
  return i;
}

unsigned getNumTotalReplicas() { return count("POPDIST_NUM_TOTAL_REPLICAS"); }

unsigned getNumLocalReplicas() {
  unsigned local = count("POPDIST_NUM_LOCAL_REPLICAS");
  if (local * getNumInstances() != getNumTotalReplicas())
    throw popdist_error("popdist: POPDIST_NUM_LOCAL_REPLICAS=" + std::to_string(local) + " times " +
                             "POPDIST_NUM_INSTANCES=" + std::to_string(getNumInstances()) + " is not " +
                             "POPDIST_NUM_TOTAL_REPLICAS=" + std::to_string(getNumTotalReplicas()));
  return local;
}

unsigned getReplicaIndexOffset() {
  unsigned offset = number("POPDIST_REPLICA_INDEX_OFFSET", 0);
  if (offset + getNumLocalReplicas() > getNumTotalReplicas())
    throw popdist_error("popdist: POPDIST_REPLICA_INDEX_OFFSET=" + std::to_string(offset) +
                             " leaves no room for this instance's replicas in POPDIST_NUM_TOTAL_REPLICAS=" +
                             std::to_string(getNumTotalReplicas()));
  return offset;
}

unsigned getNumIpusPerReplica() { return count("POPDIST_NUM_IPUS_PER_REPLICA"); }

// Open MPI's mpirun exports these to every rank; poprun runs the instances under it.
unsigned getNumLocalInstances() { return isPopdistEnvSet() ? count("OMPI_COMM_WORLD_LOCAL_SIZE") : 1; }

unsigned getLocalInstanceIndex() {
  if (!isPopdistEnvSet())
    return 0;
  unsigned i = number("OMPI_COMM_WORLD_LOCAL_RANK", 0);
  if (i >= getNumLocalInstances())
    throw popdist_error("popdist: OMPI_COMM_WORLD_LOCAL_RANK=" + std::to_string(i) + " is not below " +
                        "OMPI_COMM_WORLD_LOCAL_SIZE=" + std::to_string(getNumLocalInstances()) +
                        "; run the program through poprun");
  return i;
}

void checkNumIpusPerReplica(unsigned numIpusPerReplica) {
  if (numIpusPerReplica == 0)
    throw popdist_error("popdist::checkNumIpusPerReplica: 0 IPUs per replica; a replica spans at least 1 IPU");
  if (isPopdistEnvSet() && numIpusPerReplica != getNumIpusPerReplica())
    throw popdist_error("popdist::checkNumIpusPerReplica: the program uses " + std::to_string(numIpusPerReplica) +
                        " IPU(s) per replica but poprun was given --ipus-per-replica " +
                        std::to_string(getNumIpusPerReplica()) + "; give poprun the program's count");
}

unsigned getDeviceId(unsigned numIpusPerReplica) {
  if (numIpusPerReplica == 0)
    numIpusPerReplica = getNumIpusPerReplica();
  const unsigned want = getNumLocalReplicas() * numIpusPerReplica;
  std::string have;
  for (const poplar::Device &d : poplar::DeviceManager::createDeviceManager().getDevices()) {
    const unsigned ipus = d.getTarget().getNumIPUs();
    if (ipus == want)
      return d.getId();
    have += (have.empty() ? "" : ", ") + std::to_string(ipus);
  }
  throw popdist_error("popdist::getDeviceId: no device has " + std::to_string(want) + " IPU(s) (" +
                      std::to_string(getNumLocalReplicas()) + " local replica(s) x " +
                      std::to_string(numIpusPerReplica) + " IPU(s) each); the devices have " +
                      (have.empty() ? std::string("none") : have) +
                      " IPU(s): choose a replica count that fits or name a board in IPU_EMU_DEVICES");
}

} // namespace popdist
