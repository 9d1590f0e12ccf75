// Dynamic sparse fully connected layers: the weights are made dense on the device from their values and
// meta-information (dynamic_layout.hpp), then each group is one product of poplin's grouped matMul, so the
// products are planned, mapped and run like any matmul. The weight gradient is the dense product read back at the
// stored blocks.
#include "popsparse/FullyConnected.hpp"

#include <string>

#include <poplin/MatMul.hpp>
#include <poputil/TileMapping.hpp>

#include "dynamic_layout.hpp"
#include "poputil/exceptions.hpp"

namespace popsparse {
namespace dynamic {

using poplar::Tensor;

namespace {

// [batch, groups * channels] as [groups, batch, channels], checking the shape.
Tensor byGroup(const Tensor &t, std::size_t batch, std::size_t groups, std::size_t channels, const std::string &name,
               const char *what) {
  if (!t.valid() || t.rank() != 2 || t.dim(0) != batch || t.dim(1) != groups * channels)
    throw poputil::poplibs_error(name + ": " + what + " is " + (t.valid() ? t.shapeToString() : "invalid") +
                                 "; the parameters make it [" + std::to_string(batch) + ", " +
                                 std::to_string(groups * channels) + "]");
  return t.reshape({batch, groups, channels}).dimShuffle({1, 0, 2});
}

// [groups, batch, channels] back to [batch, groups * channels].
Tensor ungroup(const Tensor &t) { return t.dimShuffle({1, 0, 2}).reshape({t.dim(1), t.dim(0) * t.dim(2)}); }

} // namespace

SparseTensor createFullyConnectedWeights(poplar::Graph &graph, const poplar::Type &inputType,
                                         const FullyConnectedParams &params, const poplar::DebugContext &debugContext,
                                         const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "createFullyConnectedWeights");
  return detail::createSparse(graph, inputType, detail::gridOf(params), name);
}

Tensor createFullyConnectedInput(poplar::Graph &graph, const poplar::Type &inputType,
                                 const FullyConnectedParams &params, const poplar::DebugContext &debugContext,
                                 const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "createFullyConnectedInput");
  // The layout a matmul wants for its left operand, per group.
  const Tensor lhs = poplin::createMatMulGroupedInputLHS(
      graph, inputType, inputType, {params.getNumGroups(), params.getBatchSize(), params.getInputChannelsPerGroup()},
      {params.getNumGroups(), params.getInputChannelsPerGroup(), params.getOutputChannelsPerGroup()}, name);
  return ungroup(lhs);
}

Tensor fullyConnectedFwd(poplar::Graph &graph, const SparseTensor &weights, const Tensor &activations,
                         const FullyConnectedParams &fcParams, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext, const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "fullyConnectedFwd");
  const detail::Grid grid = detail::gridOf(fcParams);
  detail::checkWeights(weights, grid, name);
  const Tensor x = byGroup(activations, fcParams.getBatchSize(), grid.groups, grid.inPerGroup, name, "activations");
  const Tensor w = detail::densify(graph, weights, grid, prog, name);
  return ungroup(poplin::matMulGrouped(graph, x, w.dimShuffle({0, 2, 1}), prog, activations.elementType(), name));
}

Tensor fullyConnectedGradA(poplar::Graph &graph, const SparseTensor &weights, const Tensor &gradients,
                           const FullyConnectedParams &fcParams, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext, const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "fullyConnectedGradA");
  const detail::Grid grid = detail::gridOf(fcParams);
  detail::checkWeights(weights, grid, name);
  const Tensor dy = byGroup(gradients, fcParams.getBatchSize(), grid.groups, grid.outPerGroup, name, "gradients");
  const Tensor w = detail::densify(graph, weights, grid, prog, name);
  return ungroup(poplin::matMulGrouped(graph, dy, w, prog, gradients.elementType(), name));
}

Tensor fullyConnectedSparseGradW(poplar::Graph &graph, const Tensor sparsityMetaInfo, const Tensor &gradA,
                                 const Tensor &activations, const FullyConnectedParams &fcParams,
                                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                                 const poplar::OptionFlags &, PlanningCache *) {
  const std::string name = detail::opName(debugContext, "fullyConnectedSparseGradW");
  const detail::Grid grid = detail::gridOf(fcParams);
  if (!sparsityMetaInfo.valid() || sparsityMetaInfo.numElements() != grid.slots)
    throw poputil::poplibs_error(name + ": the meta-information has " +
                                 std::to_string(sparsityMetaInfo.valid() ? sparsityMetaInfo.numElements() : 0) +
                                 " elements; the parameters make " + std::to_string(grid.slots));
  const std::size_t batch = fcParams.getBatchSize();
  const Tensor dy = byGroup(gradA, batch, grid.groups, grid.outPerGroup, name, "gradA");
  const Tensor x = byGroup(activations, batch, grid.groups, grid.inPerGroup, name, "activations");
  // dW_g = dY_g^T X_g: [groups, out, in].
  const Tensor dw = poplin::matMulGrouped(graph, dy.dimShuffle({0, 2, 1}), x, prog, activations.elementType(), name);
  return detail::gather(graph, dw, sparsityMetaInfo, grid, prog, name);
}

std::tuple<unsigned, unsigned, unsigned> fullyConnectedDenseGradWSerialSplits(const poplar::Graph &,
                                                                              const poplar::Type &,
                                                                              const FullyConnectedParams &,
                                                                              const poplar::OptionFlags &,
                                                                              PlanningCache *) {
  return std::make_tuple(1u, 1u, 1u);
}

} // namespace dynamic
} // namespace popsparse
