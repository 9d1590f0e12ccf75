// Collectives across instances (gcl/Collectives.hpp): popdist's layout and the MPI round trip at a collective.
//
// The round trip is two library streams (poplar/LibraryStreams.hpp) that every Engine connects by itself: the
// device-to-host copy parks each local replica's bytes in a host buffer; the host-to-device copy that follows
// runs MPI_Allgather once (for local replica 0) and hands every local replica all rows. Every instance builds the
// same graph, so its collectives meet MPI in the same order.
#include "instances.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include <mpi.h>
#include <popdist/popdist_poplar.hpp>
#include <poplar/LibraryStreams.hpp>
#include <poputil/exceptions.hpp>

namespace gcl::detail {

namespace {

void finalizeMpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

/// MPI, initialised once for the process unless the program did it (then the program also finalises it).
void ensureMpi() {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (initialized)
    return;
  int provided = 0;
  // Stream callbacks may run on a runtime thread, one at a time: serialized calls are what gcl needs.
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS)
    throw poputil::poplibs_error("gcl: MPI_Init_thread failed; run the program through poprun (mpirun)");
  std::atexit(finalizeMpi);
}

void checkMpi(int rc, const char *call) {
  if (rc != MPI_SUCCESS)
    throw std::runtime_error(std::string("gcl: ") + call + " failed across instances (MPI error " +
                             std::to_string(rc) + "); check that every instance runs the same program");
}

/// The host side of one gather: local replicas' bytes in, all instances' rows out.
struct Exchange {
  std::size_t rowBytes = 0;
  unsigned local = 1, total = 1;
  std::vector<std::uint8_t> sent;     ///< local x rowBytes, filled by the device-to-host copy
  std::vector<std::uint8_t> gathered; ///< total x rowBytes, filled by MPI_Allgather
};

std::string uniqueHandle(const std::string &what) {
  static std::atomic<unsigned> next{0};
  return "__gcl/" + std::to_string(next++) + "/" + what;
}

} // namespace

ReplicaLayout replicaLayout(const poplar::Graph &graph, const char *what) {
  ReplicaLayout l;
  l.local = graph.getReplicationFactor();
  l.total = l.local;
  if (!popdist::isPopdistEnvSet())
    return l;
  if (popdist::getNumLocalReplicas() != l.local)
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the graph has " + std::to_string(l.local) +
                                 " replica(s) but poprun gave this instance " +
                                 std::to_string(popdist::getNumLocalReplicas()) +
                                 "; build the graph with replication_factor(popdist::getNumLocalReplicas())");
  l.total = popdist::getNumTotalReplicas();
  l.offset = popdist::getReplicaIndexOffset();
  l.instances = popdist::getNumInstances();
  return l;
}

void gatherAcrossInstances(poplar::Graph &graph, const poplar::Tensor &data, const poplar::Tensor &rows,
                           const ReplicaLayout &layout, poplar::program::Sequence &prog, const std::string &debug) {
  ensureMpi();
  int size = 0;
  checkMpi(MPI_Comm_size(MPI_COMM_WORLD, &size), "MPI_Comm_size");
  if (unsigned(size) != layout.instances)
    throw poputil::poplibs_error("gcl: MPI has " + std::to_string(size) + " rank(s) but POPDIST_NUM_INSTANCES is " +
                                 std::to_string(layout.instances) + "; start the program with poprun");
  auto x = std::make_shared<Exchange>();
  x->rowBytes = data.numElements() * graph.getTarget().getTypeSize(data.elementType());
  x->local = layout.local;
  if (x->rowBytes * x->local > std::size_t(0x7fffffff))
    throw poputil::poplibs_error("gcl: " + std::to_string(x->rowBytes * x->local) + " bytes per instance exceed one "
                                 "MPI message (2 GiB); split the collective into smaller tensors");
  x->total = layout.total;
  x->sent.resize(x->rowBytes * x->local);
  x->gathered.resize(x->rowBytes * x->total);
  const std::string out = uniqueHandle("send"), in = uniqueHandle("recv");
  poplar::DataStream toHost = graph.addDeviceToHostFIFO(out, data.elementType(), data.numElements());
  poplar::DataStream toDevice = graph.addHostToDeviceFIFO(in, data.elementType(), rows.numElements());
  poplar::registerLibraryStream(out, [x](unsigned replica, void *p) {
    std::memcpy(x->sent.data() + replica * x->rowBytes, p, x->rowBytes);
  });
  poplar::registerLibraryStream(in, [x](unsigned replica, void *p) {
    if (replica == 0) {
      const int bytes = int(x->rowBytes * x->local);
      checkMpi(MPI_Allgather(x->sent.data(), bytes, MPI_BYTE, x->gathered.data(), bytes, MPI_BYTE, MPI_COMM_WORLD),
               "MPI_Allgather");
    }
    std::memcpy(p, x->gathered.data(), x->gathered.size());
  });
  prog.add(poplar::program::Copy(data, toHost, false, debug + "/toHost"));
  prog.add(poplar::program::Copy(toDevice, rows, false, debug + "/fromHost"));
}

} // namespace gcl::detail
