// Gathers: slices of a tensor at run-time offsets held in an indices tensor, stitched together. The simple form
// gathers along one axis (like numpy.take); the general form is XLA's Gather.
#ifndef POPOPS_GATHER_HPP
#define POPOPS_GATHER_HPP

#include <cstddef>
#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// Parameters of a gather.
struct GatherParams {
  /// Suggested maximum number of elements to place on a tile (accepted; the layout follows the input).
  std::size_t maxElementsPerTile = 65535;

  GatherParams() {}
  GatherParams(std::size_t maxElementsPerTile_) : maxElementsPerTile(maxElementsPerTile_) {}
};

/// A tensor of `operandShape` laid out for gather along `axis` (as createSliceableTensor lays it out).
poplar::Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                                 const std::vector<std::size_t> &operandShape, unsigned axis,
                                 GatherParams params = GatherParams(), const poplar::DebugContext &debugContext = {});

/// The slices of `input` at `indices` (UNSIGNED_INT or INT, any shape) along `axis`, as numpy.take: the result
/// has shape input.shape()[:axis] + indices.shape() + input.shape()[axis + 1:]. An index out of range gives
/// zeros, or the slice at index 0 with the option remapOutOfBoundIndices "true" (optionFlags are multiSlice's).
poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input, const poplar::Tensor &indices, unsigned axis,
                      poplar::program::Sequence &prog, GatherParams params,
                      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &optionFlags = {});

/// A tensor of `inputShape` laid out for the general gather with these slice sizes and start index map.
poplar::Tensor createGatherInput(poplar::Graph &graph, const poplar::Type &type,
                                 const std::vector<std::size_t> &inputShape, const std::vector<std::size_t> &sliceSizes,
                                 std::vector<unsigned> startIndexMap, const poplar::DebugContext &debugContext = {});

/// XLA's Gather: for each index vector of `indices` (along indexVectorDim; indexVectorDim == indices.rank()
/// means scalar indices), a slice of `sliceSizes` of `input` starting at the vector's entries in the dimensions
/// startIndexMap (clamped so that the slice fits, as in XLA) and at 0 in the others; the dimensions in
/// collapsedSliceDims (of size 1) are dropped and the rest appear at the output positions offsetDims, the batch
/// dimensions of `indices` in the remaining positions. With one start dimension this is one multiSlice; with
/// several, one dynamic slice per index vector (meant for few of them). optionFlags are multiSlice's; with
/// remapOutOfBoundIndices "true" a start whose slice does not fit reads from 0 instead of being clamped.
poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &input, const poplar::Tensor &indices,
                      std::size_t indexVectorDim, const std::vector<std::size_t> &offsetDims,
                      const std::vector<std::size_t> &sliceSizes, const std::vector<std::size_t> &collapsedSliceDims,
                      const std::vector<unsigned> &startIndexMap, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &optionFlags = {});

} // namespace popops

#endif // POPOPS_GATHER_HPP
