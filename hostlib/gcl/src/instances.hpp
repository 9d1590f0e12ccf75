// Internal: where this process's replicas sit among all replicas of a run (one instance, or several under
// poprun), and the host round trip that gathers every instance's rows through MPI.
#pragma once

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace gcl::detail {

/// The replicas of the whole run as this process sees them.
struct ReplicaLayout {
  unsigned local = 1;     ///< replicas of this process's graph
  unsigned total = 1;     ///< replicas of all instances
  unsigned offset = 0;    ///< global index of local replica 0
  unsigned instances = 1; ///< processes of the run
};

/// The layout of `graph`'s replicas: popdist's numbers under poprun (checked against the graph's replication
/// factor), else one instance holding all of them. `what` names the collective in errors.
ReplicaLayout replicaLayout(const poplar::Graph &graph, const char *what);

/// Appends to `prog` the gather of every replica's `data` of every instance into `rows` (shape [total, ...]) of
/// every local replica, row g holding global replica g's data: a device-to-host copy of each local replica's data,
/// MPI_Allgather across the instances in rank order (= global replica order), and a host-to-device copy of all
/// rows. Initialises MPI on first use.
void gatherAcrossInstances(poplar::Graph &graph, const poplar::Tensor &data, const poplar::Tensor &rows,
                           const ReplicaLayout &layout, poplar::program::Sequence &prog, const std::string &debug);

} // namespace gcl::detail
