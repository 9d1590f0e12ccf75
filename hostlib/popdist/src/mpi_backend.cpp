// The Open MPI backend: the instances poprun started are MPI_COMM_WORLD's ranks. MPI is initialised here unless
// the program (or gcl) already did, and finalised at exit (never by finalizeBackend(): MPI cannot start twice in
// a process, and gcl may still need it).
#include <climits>
#include <cstdlib>
#include <vector>

#include <mpi.h>

#include "backends.hpp"

namespace popdist::detail {

namespace {

void finalizeMpiAtExit() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

void check(int rc, const char *call) {
  if (rc != MPI_SUCCESS)
    throw popdist_error(std::string("popdist: ") + call + " failed (MPI error " + std::to_string(rc) +
                        "); check that every instance runs the same program and calls the same collectives");
}

int mpiCount(std::size_t bytes) {
  if (bytes > std::size_t(INT_MAX))
    throw popdist_error("popdist: " + std::to_string(bytes) + " bytes exceed one MPI message (2 GiB); split the "
                        "collective into smaller pieces");
  return int(bytes);
}

class MpiBackend final : public Backend {
public:
  std::string name() const override { return "mpi"; }

  void initialize() override {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized) {
      int provided = 0;
      // Collectives may come from a stream callback's thread, one at a time: serialized is enough.
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
      std::atexit(finalizeMpiAtExit);
    }
    int size = 0;
    check(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
    if (unsigned(size) != getNumInstances())
      throw popdist_error("popdist: MPI has " + std::to_string(size) + " rank(s) but POPDIST_NUM_INSTANCES is " +
                          std::to_string(getNumInstances()) + "; start the program with poprun");
    comms_.assign(1, MPI_COMM_WORLD);
  }

  void finalize() override {
    int finalized = 0;
    MPI_Finalized(&finalized);
    for (std::size_t i = 1; i < comms_.size(); ++i)
      if (!finalized && comms_[i] != MPI_COMM_NULL)
        MPI_Comm_free(&comms_[i]);
    comms_.clear();
  }

  unsigned size(CommunicatorId comm) const override {
    int n = 0;
    check(MPI_Comm_size(get(comm), &n), "MPI_Comm_size");
    return unsigned(n);
  }

  unsigned rank(CommunicatorId comm) const override {
    int r = 0;
    check(MPI_Comm_rank(get(comm), &r), "MPI_Comm_rank");
    return unsigned(r);
  }

  CommunicatorId createCommunicator(const std::vector<unsigned> &instances) override {
    int me = 0;
    check(MPI_Comm_rank(MPI_COMM_WORLD, &me), "MPI_Comm_rank");
    int color = MPI_UNDEFINED, key = 0;
    for (std::size_t i = 0; i < instances.size(); ++i)
      if (instances[i] == unsigned(me)) {
        color = 0;
        key = int(i);
      }
    MPI_Comm c = MPI_COMM_NULL;
    check(MPI_Comm_split(MPI_COMM_WORLD, color, key, &c), "MPI_Comm_split");
    comms_.push_back(c);
    return CommunicatorId(comms_.size() - 1);
  }

  void allGatherBytes(const void *send, void *recv, std::size_t bytes, CommunicatorId comm) override {
    const int n = mpiCount(bytes);
    check(MPI_Allgather(send, n, MPI_BYTE, recv, n, MPI_BYTE, get(comm)), "MPI_Allgather");
  }

  void broadcastBytes(void *data, std::size_t bytes, unsigned root, CommunicatorId comm) override {
    if (root >= size(comm))
      throw popdist_error("popdist: broadcast from rank " + std::to_string(root) + ", but the communicator has " +
                          std::to_string(size(comm)) + " instance(s)");
    check(MPI_Bcast(data, mpiCount(bytes), MPI_BYTE, int(root), get(comm)), "MPI_Bcast");
  }

  void barrier(CommunicatorId comm) override { check(MPI_Barrier(get(comm)), "MPI_Barrier"); }

private:
  MPI_Comm get(CommunicatorId comm) const {
    if (comm >= comms_.size())
      throw popdist_error("popdist: communicator " + std::to_string(comm) +
                          " was not made by registerCommunicator; use defaultCommunicatorId() or a registered one");
    if (comms_[comm] == MPI_COMM_NULL)
      throw popdist_error("popdist: this instance is not a member of communicator " + std::to_string(comm) +
                          "; only the instances listed to registerCommunicator may use it");
    return comms_[comm];
  }

  std::vector<MPI_Comm> comms_; ///< index = CommunicatorId; 0 is MPI_COMM_WORLD, MPI_COMM_NULL where not a member
};

} // namespace

std::shared_ptr<Backend> makeMpiBackend() { return std::make_shared<MpiBackend>(); }

} // namespace popdist::detail
