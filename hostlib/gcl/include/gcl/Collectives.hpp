// Collectives across the replicas of a replicated graph in one process (GCL-style): all-reduce, all-gather,
// reduce-scatter and broadcast, built from program::CrossReplicaCopy and popops reductions.
//
// Every replica computes a reduction over the same gathered data in the same order (replica 0 first), so all
// replicas get bit-identical results, also for floating-point sums. The data moves as one CrossReplicaCopy per
// (source, destination) pair of replicas: replicas^2 exchange steps, simple rather than bandwidth-optimal.
#ifndef GCL_COLLECTIVES_HPP
#define GCL_COLLECTIVES_HPP

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace gcl {

/// How a reduction across replicas combines the replicas' elements.
enum class CollectiveOperator {
  ADD,
  MEAN,        ///< the sum divided by the replica count (FLOAT and HALF only)
  MUL,
  MIN,
  MAX,
  LOGICAL_AND, ///< BOOL only
  LOGICAL_OR,  ///< BOOL only
  SQUARE_ADD,  ///< the sum of the squares
  LOCAL        ///< no reduction: each replica keeps its own data
};

/// A new tensor of data's shape holding `op` over every replica's `data`, the same in every replica. `graph` is
/// the replicated graph (Graph(target, replication_factor(n)) or createReplicatedGraph). Appends to `prog`.
poplar::Tensor allReduceWithOutput(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                   poplar::program::Sequence &prog, const std::string &debugPrefix = "",
                                   const poplar::OptionFlags &options = poplar::OptionFlags());

/// As allReduceWithOutput, into `destination` (data's shape and type).
void allReduceToDestination(poplar::Graph &graph, const poplar::Tensor &data, const poplar::Tensor &destination,
                            CollectiveOperator op, poplar::program::Sequence &prog,
                            const std::string &debugPrefix = "",
                            const poplar::OptionFlags &options = poplar::OptionFlags());

/// As allReduceWithOutput, into `data` itself.
void allReduceInPlace(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                      poplar::program::Sequence &prog, const std::string &debugPrefix = "",
                      const poplar::OptionFlags &options = poplar::OptionFlags());

/// A new tensor of shape [replicas, data's shape] whose row i is replica i's `data`, in every replica.
poplar::Tensor allGatherWithOutput(poplar::Graph &graph, const poplar::Tensor &data, poplar::program::Sequence &prog,
                                   const std::string &debugPrefix = "",
                                   const poplar::OptionFlags &options = poplar::OptionFlags());

/// `op` over every replica's `data` (flattened), scattered: replica r gets elements [r * k, (r + 1) * k) of the
/// result, k = ceil(numElements / replicas), as a new 1-D tensor of k elements; the elements past the end of the
/// data (when the replica count does not divide it) are zero.
poplar::Tensor reduceScatterWithOutput(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                       poplar::program::Sequence &prog, const std::string &debugPrefix = "",
                                       const poplar::OptionFlags &options = poplar::OptionFlags());

/// A new tensor of data's shape holding replica `rootReplica`'s `data`, in every replica.
poplar::Tensor broadcastWithOutput(poplar::Graph &graph, const poplar::Tensor &data, poplar::program::Sequence &prog,
                                   unsigned rootReplica = 0, const std::string &debugPrefix = "",
                                   const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace gcl

#endif // GCL_COLLECTIVES_HPP
