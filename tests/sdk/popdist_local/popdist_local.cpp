// popdist outside poprun: one instance, whose collectives are copies and whose backend never starts MPI; and a
// backend of the program's own (registerBackend) that carries the collectives instead of the default one.
#include <cstring>
#include <memory>
#include <vector>

#include <popdist/backend.hpp>
#include <popdist/collectives.hpp>
#include <popdist/context.hpp>

#include "sdk_check.hpp"

template <typename F> static bool throwsPopdistError(F f) {
  try {
    f();
  } catch (const popdist::popdist_error &) {
    return true;
  }
  return false;
}

/// A one-instance transport that counts what it is asked to carry.
class CountingBackend : public popdist::Backend {
public:
  unsigned gathers = 0, broadcasts = 0, barriers = 0;
  bool started = false, stopped = false;
  std::string name() const override { return "counting"; }
  void initialize() override { started = true; }
  void finalize() override { stopped = true; }
  unsigned size(popdist::CommunicatorId) const override { return 1; }
  unsigned rank(popdist::CommunicatorId) const override { return 0; }
  popdist::CommunicatorId createCommunicator(const std::vector<unsigned> &) override { return 1; }
  void allGatherBytes(const void *send, void *recv, std::size_t bytes, popdist::CommunicatorId) override {
    ++gathers;
    std::memmove(recv, send, bytes);
  }
  void broadcastBytes(void *, std::size_t, unsigned, popdist::CommunicatorId) { ++broadcasts; }
  void barrier(popdist::CommunicatorId) { ++barriers; }
};

int main() {
  check(!popdist::isPopdistEnvSet(), "not under poprun");
  check(popdist::getNumInstances() == 1 && popdist::getInstanceIndex() == 0, "one instance, index 0");
  check(popdist::getNumLocalInstances() == 1 && popdist::getLocalInstanceIndex() == 0, "one local instance");
  check(popdist::getNumTotalReplicas() == 1 && popdist::getNumLocalReplicas() == 1, "one replica");
  popdist::checkNumIpusPerReplica(4);
  check(throwsPopdistError([] { popdist::checkNumIpusPerReplica(0); }), "0 IPUs per replica refused");

  // The default backend: a single instance.
  std::vector<float> v = {1.5f, -2.0f};
  popdist::collectives::allReduceSum(v.data(), v.size(), poplar::FLOAT, "v");
  check(popdist::isBackendInitialized(), "the first collective initialized the backend");
  check(v[0] == 1.5f && v[1] == -2.0f, "the sum over one instance is the data");
  int in[2] = {7, 8}, out[2] = {0, 0};
  popdist::collectives::sequential::allGather(in, out, 2, poplar::INT);
  check(out[0] == 7 && out[1] == 8, "the gather over one instance is a copy");
  check(throwsPopdistError([&] { popdist::collectives::broadcast(in, 2, poplar::INT, 1); }),
        "broadcast from rank 1 of 1 refused");
  check(popdist::registerCommunicator({0}) != popdist::defaultCommunicatorId(), "a communicator of instance 0");
  check(throwsPopdistError([] { popdist::registerCommunicator({1}); }), "instance 1 does not exist");
  check(throwsPopdistError([&] { popdist::collectives::allGather(in, nullptr, 2, poplar::INT); }),
        "a null output refused");
  check(throwsPopdistError([&] { popdist::collectives::allGather(in, out, 2, poplar::QUARTER); }),
        "an unsupported type refused");
  popdist::finalizeBackend();

  // A backend of the program's own carries the next collectives.
  std::shared_ptr<CountingBackend> mine = std::make_shared<CountingBackend>();
  popdist::registerBackend(mine);
  popdist::initializeBackend();
  check(mine->started, "the registered backend was started");
  popdist::collectives::allReduceSum(v.data(), v.size(), poplar::FLOAT, "again");
  popdist::collectives::broadcast(v.data(), v.size(), poplar::FLOAT, 0, "b");
  // Each collective first gathers every instance's call, then moves the data: 2 gathers for the sum, 1 for the
  // broadcast's check plus its broadcast.
  check(mine->gathers == 3 && mine->broadcasts == 1, "the collectives went through it");
  popdist::finalizeBackend();
  check(mine->stopped && !popdist::isBackendInitialized(), "finalizeBackend stopped it");
  return checksDone("all checks passed");
}
