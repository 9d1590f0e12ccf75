// gcl/CollectiveBalancedReorder.hpp: a tensor laid out for collectives that split it between replicas
// (reduce-scatter, all-gather). Each tile's elements of a reference tensor are shared out equally between the
// replicas, so every replica's part is balanced over the same tiles; the gathered ("collectives") tensor is the
// replicas' parts one after the other, each padded to the same length. CollectiveBalancedReorder makes such
// tensors in a graph and views one in the reference tensor's order; CollectiveBalancedHostRearrangement does the
// same reordering on host buffers (what a user does to data read from or written to a replica's part).
#ifndef GCL_COLLECTIVE_BALANCED_REORDER_HPP
#define GCL_COLLECTIVE_BALANCED_REORDER_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace gcl {

/// The host side of a CollectiveBalancedReorder: enough to reorder host buffers without the graph (it can be kept
/// with a serialized executable). Element i of the reference tensor's flattened order is element
/// gatheredToRefSlices[k].begin() + j of the gathered order, for the slice k and offset j that cover i when the
/// slices are laid end to end.
class CollectiveBalancedHostRearrangement {
public:
  /// The number of parts (replicas) the gathered order has.
  unsigned replicationFactor = 0;
  /// The length of each replica's part, padding included.
  std::size_t totalElementsPerReplica = 0;
  /// Slices of the gathered order that, one after the other, are the reference tensor's elements in order.
  std::vector<poplar::Interval> gatheredToRefSlices;

  /// replicationFactor x totalElementsPerReplica: the gathered order's size (at least the reference tensor's).
  std::size_t getNumRearrangedTensorElems() const;
  /// Copies `in` (the reference tensor's order) into `out` (the gathered order, getNumRearrangedTensorElems()
  /// elements of `elemByteSize` bytes); padding elements of `out` are left as they are.
  void rearrangeForCollective(const char *in, char *out, std::int64_t elemByteSize) const;
  /// The inverse: copies `in` (gathered order) into `out` (the reference tensor's order); padding is not read.
  void undoRearrangeForCollective(const char *in, char *out, std::int64_t elemByteSize) const;
  /// rearrangeForCollective when `refToGathered`, else undoRearrangeForCollective.
  void rearrange(const char *in, char *out, std::int64_t elemByteSize, bool refToGathered) const;
};

/// The device side: made from a reference tensor whose every element is mapped to a tile.
class CollectiveBalancedReorder {
public:
  /// Shares each tile's elements of `tensor` (in the order of its sorted contiguous regions) between
  /// `replicationFactor` replicas, in whole grains of `grainSize` elements, each tile's share padded up to a
  /// multiple of the grain. `allowElementReordering` lets the SDK pick another order within a tile; this layout
  /// keeps the tile's order either way. Throws poputil::poplibs_error for a replication factor or grain size of 0,
  /// an invalid tensor, or elements with no tile mapping.
  CollectiveBalancedReorder(poplar::Graph &graph, poplar::Tensor tensor, unsigned replicationFactor,
                            const poplar::DebugNameAndId &dnai = {}, bool allowElementReordering = false,
                            unsigned grainSize = 1);

  /// A new variable of `type` for one replica's part: totalElementsPerReplica elements, each tile's share on that
  /// tile.
  poplar::Tensor createReplicaSlice(const poplar::Type &type);
  /// A new variable of `type` in the gathered order: shape {replicationFactor, totalElementsPerReplica}, each row
  /// mapped as createReplicaSlice's.
  poplar::Tensor createCollectivesTensor(const poplar::Type &type, const std::string &debugPrefix);
  /// A view of `tensor` (a gathered-order tensor of getNumRearrangedTensorElems() elements) in the reference
  /// tensor's order and shape; writing the view writes `tensor`. Throws poputil::poplibs_error for another size.
  poplar::Tensor undoRearrangeForCollective(const poplar::Tensor &tensor) const;
  /// The host side of this reordering.
  const CollectiveBalancedHostRearrangement &getHostRearrangement() const { return host_; }
  /// The gathered order's size (getHostRearrangement().getNumRearrangedTensorElems()).
  std::size_t getNumRearrangedTensorElems() const { return host_.getNumRearrangedTensorElems(); }
  /// The reference tensor this reordering was made from.
  const poplar::Tensor &getReferenceTensor() const { return reference_; }

private:
  /// A new variable of one replica's part, each tile's share mapped to its tile.
  poplar::Tensor newPart(const poplar::Type &type, const std::string &name);
  poplar::Graph &graph_;
  poplar::Tensor reference_;
  poplar::DebugNameAndId dnai_;
  std::vector<std::pair<unsigned, std::size_t>> shares_; ///< (tile, elements of one replica's part on it)
  CollectiveBalancedHostRearrangement host_;
};

} // namespace gcl

#endif // GCL_COLLECTIVE_BALANCED_REORDER_HPP
