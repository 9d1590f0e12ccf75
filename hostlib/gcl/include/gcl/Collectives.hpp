// Collectives across the replicas of a replicated graph (GCL-style): all-reduce, all-gather, reduce-scatter and
// broadcast. In one process they are built from program::CrossReplicaCopy and popops reductions; under poprun
// (popdist/popdist_poplar.hpp) they span every replica of every instance, the instances' part through MPI.
//
// Replica indices are global: local replica r of an instance is replica getReplicaIndexOffset() + r of the run.
// Every reduction combines the replicas in the same fixed order (by global replica index), so every replica gets
// the same bits, and N instances give the bits of one instance with the same total replicas, float sums included.
// Under poprun the graph's replication factor must be popdist::getNumLocalReplicas().
//
// Options (every function's `options`; an unknown name or a malformed value throws poplar::invalid_option):
//   useSynclessCollectives  "auto", "true", "false" or "hybrid"
//   maxBytesPerTile         a whole number of bytes >= 1
//   collectiveImplementation, topology  a non-empty name
// They choose how the hardware's collectives are scheduled over its IPU-Links and sync network; the emulated
// collectives are built one way whatever they say, so they are checked and otherwise have no effect.
#ifndef GCL_COLLECTIVES_HPP
#define GCL_COLLECTIVES_HPP

#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <gcl/TileAllocation.hpp>

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

/// How the replicas are split into groups that communicate among themselves (Graphcore's GCL names).
enum class CommGroupType {
  ALL,         ///< one group of every replica (the group size is ignored)
  CONSECUTIVE, ///< groups of replicaGroupSize consecutive replicas: {0..k-1}, {k..2k-1}, ...
  ORTHOGONAL   ///< replicaGroupSize replicas spaced total/k apart: {0, n, 2n, ...}, {1, n+1, ...} with n = total / k
};

/// A replica group: the type and the number of replicas in each group (which must divide the replica count).
struct CommGroup {
  CommGroupType type;
  unsigned replicaGroupSize;
  CommGroup() : type(CommGroupType::ALL), replicaGroupSize(0) {}
  CommGroup(const CommGroupType &groupType, unsigned groupSize) : type(groupType), replicaGroupSize(groupSize) {}
};

/// `op` over the `data` of the replicas of each group, as a new tensor of data's shape in every member. Throws
/// poputil::poplibs_error when the group size does not divide the replica count.
poplar::Tensor allReduceCrossReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                     poplar::program::Sequence &prog, const CommGroup &group,
                                     const poplar::DebugContext &debugContext = {},
                                     const poplar::OptionFlags &options = poplar::OptionFlags());
/// allReduceCrossReplica over one group of every replica.
poplar::Tensor allReduceCrossReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                     const poplar::OptionFlags &options = poplar::OptionFlags());
/// As allReduceCrossReplica, into `destination` (data's shape and type).
void allReduceToDestinationCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                        const poplar::Tensor &destination, CollectiveOperator op,
                                        poplar::program::Sequence &prog, const CommGroup &group,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags());
void allReduceToDestinationCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                        const poplar::Tensor &destination, CollectiveOperator op,
                                        poplar::program::Sequence &prog,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags());
/// As allReduceCrossReplica, into `data` itself.
void allReduceInPlaceCrossReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                  poplar::program::Sequence &prog, const CommGroup &group,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = poplar::OptionFlags());
void allReduceInPlaceCrossReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                  poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = poplar::OptionFlags());
/// A new [group size, data's shape] tensor whose row i is the `data` of the i-th member of the replica's group.
poplar::Tensor allGatherCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                     poplar::program::Sequence &prog, const CommGroup &group,
                                     const poplar::DebugContext &debugContext = {},
                                     const poplar::OptionFlags &options = poplar::OptionFlags());
poplar::Tensor allGatherCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                     const poplar::OptionFlags &options = poplar::OptionFlags());
/// As allGatherCrossReplica, into `destination` ([group size, data's shape], data's type).
void allGatherToDestinationCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                        const poplar::Tensor &destination, poplar::program::Sequence &prog,
                                        const CommGroup &group, const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags());
void allGatherToDestinationCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                        const poplar::Tensor &destination, poplar::program::Sequence &prog,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = poplar::OptionFlags());
/// `op` over the group's `data` (flattened), scattered: the i-th member of a group gets elements [i * k, (i+1) * k)
/// of the result as a new 1-D tensor, k = ceil(numElements / group size), zero past the end of the data.
poplar::Tensor reduceScatterCrossReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                         poplar::program::Sequence &prog, const CommGroup &group,
                                         const poplar::DebugContext &debugContext = {},
                                         const poplar::OptionFlags &options = poplar::OptionFlags());
poplar::Tensor reduceScatterCrossReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                         poplar::program::Sequence &prog,
                                         const poplar::DebugContext &debugContext = {},
                                         const poplar::OptionFlags &options = poplar::OptionFlags());
/// As reduceScatterCrossReplica, into `destination` (k elements of data's type).
void reduceScatterToDestinationCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                            const poplar::Tensor &destination, CollectiveOperator op,
                                            poplar::program::Sequence &prog, const CommGroup &group,
                                            const poplar::DebugContext &debugContext = {},
                                            const poplar::OptionFlags &options = poplar::OptionFlags());
void reduceScatterToDestinationCrossReplica(poplar::Graph &graph, const poplar::Tensor &data,
                                            const poplar::Tensor &destination, CollectiveOperator op,
                                            poplar::program::Sequence &prog,
                                            const poplar::DebugContext &debugContext = {},
                                            const poplar::OptionFlags &options = poplar::OptionFlags());

/// Reduces over the IPUs of one replica: `data` has one row per IPU of the graph (dimension 0, row i living on
/// IPU i, as popart and TensorFlow build it by concatenating per-IPU tensors), and the result, of the same shape
/// and mapping, holds in every row the reduction of all rows with `op` (MEAN divides by the rows; LOCAL keeps
/// each row). The rows are folded in row order, so every row gets the same bits. Throws poputil::poplibs_error
/// when dimension 0 is not the graph's IPU count.
poplar::Tensor allReduceWithinReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                      const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace gcl

#endif // GCL_COLLECTIVES_HPP
