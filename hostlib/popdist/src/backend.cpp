// popdist's backend registry (popdist/backend.hpp): one backend per process, registered before it starts, and the
// synchronised Engine run. The transports themselves are in mpi_backend.cpp and local_backend.cpp.
#include "popdist/backend.hpp"

#include <mutex>
#include <set>

#include <poplar/Engine.hpp>

#include "backends.hpp"

namespace popdist {

Backend::~Backend() = default;

namespace {

struct Registry {
  std::mutex lock;
  std::shared_ptr<Backend> registered; ///< what initializeBackend() starts; null: the default
  std::shared_ptr<Backend> running;    ///< the started backend, until finalizeBackend()
};

Registry &registry() {
  static Registry r;
  return r;
}

void refuseWhileRunning(const Registry &r, const char *what) {
  if (r.running)
    throw popdist_error(std::string("popdist::") + what + ": the " + r.running->name() +
                        " backend is already initialized; register a backend before initializeBackend() or after "
                        "finalizeBackend()");
}

} // namespace

void registerDefaultBackend() {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  refuseWhileRunning(r, "registerDefaultBackend");
  r.registered = nullptr;
}

void registerBackend(std::shared_ptr<Backend> backend) {
  if (!backend)
    throw popdist_error("popdist::registerBackend: the backend is null; pass a Backend object");
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  refuseWhileRunning(r, "registerBackend");
  r.registered = std::move(backend);
}

void initializeBackend() {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  if (r.running)
    return;
  std::shared_ptr<Backend> b = r.registered ? r.registered : detail::makeDefaultBackend();
  b->initialize();
  r.running = std::move(b);
}

bool isBackendInitialized() {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  return r.running != nullptr;
}

void finalizeBackend() {
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  if (!r.running)
    return;
  std::shared_ptr<Backend> b = std::move(r.running);
  b->finalize();
}

CommunicatorId defaultCommunicatorId() { return 0; }

CommunicatorId registerCommunicator(const std::vector<unsigned> &instanceIndices) {
  Backend &b = detail::backend();
  const unsigned n = b.size(defaultCommunicatorId());
  if (instanceIndices.empty())
    throw popdist_error("popdist::registerCommunicator: the list of instances is empty; list at least one");
  std::set<unsigned> seen;
  for (unsigned i : instanceIndices) {
    if (i >= n)
      throw popdist_error("popdist::registerCommunicator: instance " + std::to_string(i) + " does not exist; the run "
                          "has " + std::to_string(n) + " instance(s)");
    if (!seen.insert(i).second)
      throw popdist_error("popdist::registerCommunicator: instance " + std::to_string(i) +
                          " is listed twice; list each instance once");
  }
  return b.createCommunicator(instanceIndices);
}

void run(poplar::Engine &engine, unsigned programId, const std::string &debugName) {
  Backend &b = detail::backend();
  if (b.size(defaultCommunicatorId()) > 1)
    b.barrier(defaultCommunicatorId());
  engine.run(programId, debugName);
}

namespace detail {

Backend &backend() {
  initializeBackend();
  Registry &r = registry();
  std::lock_guard<std::mutex> g(r.lock);
  if (!r.running)
    throw popdist_error("popdist: the backend was finalized while in use; call initializeBackend() again");
  return *r.running;
}

} // namespace detail
} // namespace popdist
