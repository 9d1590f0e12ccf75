// Collectives across the replicas of a replicated graph (GCL-style): all-reduce, all-gather, reduce-scatter and
// broadcast. In one process they are built from program::CrossReplicaCopy and popops reductions; under poprun
// (popdist/popdist_poplar.hpp) they span every replica of every instance, the instances' part through MPI.
//
// Replica indices are global: local replica r of an instance is replica getReplicaIndexOffset() + r of the run.
// Every reduction combines the replicas in the same fixed order (by global replica index), so every replica gets
// the same bits, and N instances give the bits of one instance with the same total replicas, float sums included.
// Under poprun the graph's replication factor must be popdist::getNumLocalReplicas().
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

/// A new tensor of shape [total replicas, data's shape] whose row g is global replica g's `data`, in every replica.
poplar::Tensor allGatherWithOutput(poplar::Graph &graph, const poplar::Tensor &data, poplar::program::Sequence &prog,
                                   const std::string &debugPrefix = "",
                                   const poplar::OptionFlags &options = poplar::OptionFlags());

/// `op` over every replica's `data` (flattened), scattered: global replica r gets elements [r * k, (r + 1) * k) of the
/// result, k = ceil(numElements / total replicas), as a new 1-D tensor of k elements; the elements past the end of the
/// data (when the replica count does not divide it) are zero.
poplar::Tensor reduceScatterWithOutput(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                       poplar::program::Sequence &prog, const std::string &debugPrefix = "",
                                       const poplar::OptionFlags &options = poplar::OptionFlags());

/// A new tensor of data's shape holding global replica `rootReplica`'s `data`, in every replica.
poplar::Tensor broadcastWithOutput(poplar::Graph &graph, const poplar::Tensor &data, poplar::program::Sequence &prog,
                                   unsigned rootReplica = 0, const std::string &debugPrefix = "",
                                   const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace gcl

#endif // GCL_COLLECTIVES_HPP
