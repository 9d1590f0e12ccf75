// The single-instance backend: a program outside poprun is the whole run, so every collective is a copy or
// nothing, and no MPI library is started (a singleton MPI start spawns helper processes).
#include <cstring>

#include "backends.hpp"

namespace popdist::detail {

namespace {

class LocalBackend final : public Backend {
public:
  std::string name() const override { return "local"; }
  void initialize() override {}
  void finalize() override {}
  unsigned size(CommunicatorId comm) const override {
    check(comm);
    return 1;
  }
  unsigned rank(CommunicatorId comm) const override {
    check(comm);
    return 0;
  }
  CommunicatorId createCommunicator(const std::vector<unsigned> &) override { return ++communicators_; }
  void allGatherBytes(const void *send, void *recv, std::size_t bytes, CommunicatorId comm) override {
    check(comm);
    if (bytes)
      std::memmove(recv, send, bytes);
  }
  void broadcastBytes(void *, std::size_t, unsigned root, CommunicatorId comm) override {
    check(comm);
    if (root != 0)
      throw popdist_error("popdist: broadcast from rank " + std::to_string(root) +
                          ", but the run has one instance (rank 0)");
  }
  void barrier(CommunicatorId comm) override { check(comm); }

private:
  void check(CommunicatorId comm) const {
    if (comm > communicators_)
      throw popdist_error("popdist: communicator " + std::to_string(comm) +
                          " was not made by registerCommunicator; use defaultCommunicatorId() or a registered one");
  }
  CommunicatorId communicators_ = 0; ///< ids 1..communicators_ were registered (each holds this instance)
};

} // namespace

std::shared_ptr<Backend> makeLocalBackend() { return std::make_shared<LocalBackend>(); }

std::shared_ptr<Backend> makeDefaultBackend() {
  return isPopdistEnvSet() ? makeMpiBackend() : makeLocalBackend();
}

} // namespace popdist::detail
