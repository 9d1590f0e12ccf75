// Embedding lookups in dynamic sparse weights: a slice reads rows of the dense weights (dynamic_layout.hpp) with
// popops' multiSlice; an update adds the scaled slices into a zeroed dense matrix with multiUpdateAdd and adds that
// matrix, read at the stored blocks, to the values, so elements outside the pattern stay zero.
#include "popsparse/Embedding.hpp"

#include <string>

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include "dynamic_layout.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

using poplar::Tensor;

namespace {

// The grid of an embedding's weights (one group), checked.
detail::Grid embeddingGrid(const FullyConnectedParams &params, const std::string &name) {
  if (params.getNumGroups() != 1)
    throw poputil::poplibs_error(name + ": the parameters have " + std::to_string(params.getNumGroups()) +
                                 " groups; an embedding has one");
  return detail::gridOf(params);
}

// indices as the [n, 1] offsets multiSlice takes, checked.
Tensor offsetsOf(const Tensor &indices, const std::string &name) {
  if (!indices.valid() || (indices.elementType() != poplar::UNSIGNED_INT && indices.elementType() != poplar::INT))
    throw poputil::poplibs_error(name + ": the indices must be a valid UNSIGNED_INT or INT tensor");
  return indices.flatten().expand({1});
}

} // namespace

Tensor createIndicesTensor(poplar::Graph &graph, const FullyConnectedParams &, std::size_t numIndices,
                           const poplar::OptionFlags &, const poplar::DebugContext &debugContext) {
  Tensor t = graph.addVariable(poplar::UNSIGNED_INT, {numIndices}, detail::opName(debugContext, "indices"));
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor createSliceTensor(poplar::Graph &graph, const poplar::Type &dataType, const FullyConnectedParams &params,
                         std::size_t numIndices, const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &, PlanningCache *) {
  Tensor t = graph.addVariable(dataType, {numIndices, params.getInputChannels()},
                               detail::opName(debugContext, "slices"));
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor embeddingSlice(poplar::Graph &graph, const SparseTensor &t, const Tensor &indices,
                      poplar::program::Sequence &prog, const FullyConnectedParams &params,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "embeddingSlice");
  const detail::Grid grid = embeddingGrid(params, name);
  detail::checkWeights(t, grid, name);
  const Tensor offsets = offsetsOf(indices, name);
  const Tensor dense = detail::densify(graph, t, grid, prog, name)[0];
  return popops::multiSlice(graph, dense, offsets, {0}, {1}, prog, popops::SlicePlan(), poplar::OptionFlags(), name)
      .reshape({offsets.dim(0), grid.inPerGroup});
}

void embeddingUpdateAdd(poplar::Graph &graph, const SparseTensor &t, const Tensor &slices, const Tensor &indices,
                        const Tensor &scale, poplar::program::Sequence &prog, const FullyConnectedParams &params,
                        const poplar::DebugContext &debugContext, const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "embeddingUpdateAdd");
  const detail::Grid grid = embeddingGrid(params, name);
  detail::checkWeights(t, grid, name);
  const Tensor offsets = offsetsOf(indices, name);
  if (!slices.valid() || slices.rank() != 2 || slices.dim(0) != offsets.dim(0) || slices.dim(1) != grid.inPerGroup)
    throw poputil::poplibs_error(name + ": the slices are " + (slices.valid() ? slices.shapeToString() : "invalid") +
                                 "; want [" + std::to_string(offsets.dim(0)) + ", " +
                                 std::to_string(grid.inPerGroup) + "]");
  const Tensor &nz = t.getNzValuesTensor();
  Tensor delta = graph.addVariable(nz.elementType(), {grid.outPerGroup, grid.inPerGroup}, name + "/delta");
  poputil::mapTensorLinearly(graph, delta);
  popops::zero(graph, delta, prog, name + "/zero");
  popops::multiUpdateAdd(graph, delta, slices.expand({1}), offsets, scale, {0}, {1}, prog, popops::SlicePlan(),
                         poplar::OptionFlags(), name);
  const Tensor atBlocks = detail::gather(graph, delta.expand({0}), t.getMetaInfoTensor(), grid, prog, name);
  popops::addInPlace(graph, nz, atBlocks, prog, name + "/add");
}

} // namespace dynamic
} // namespace popsparse
