// Dynamic sparse fully connected layers (Graphcore's popsparse/FullyConnected.hpp): the weights are sparse with a
// pattern the host sets when the program runs (see SparsePartitioner.hpp); the activations are dense.
// Shapes: activations [batchSize, inputChannels], outputs [batchSize, outputChannels] (channels of all groups).
#ifndef POPSPARSE_FULLY_CONNECTED_HPP
#define POPSPARSE_FULLY_CONNECTED_HPP

#include <tuple>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/PlanningCache.hpp>
#include <popsparse/SparseTensor.hpp>

namespace popsparse {
namespace dynamic {

/// The sparse weights: room for params.getNumNonZeroValues() values of inputType and their meta-information.
SparseTensor createFullyConnectedWeights(poplar::Graph &graph, const poplar::Type &inputType,
                                         const FullyConnectedParams &params,
                                         const poplar::DebugContext &debugContext = {},
                                         const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// Dense activations [batchSize, inputChannels] laid out for fullyConnectedFwd.
poplar::Tensor createFullyConnectedInput(poplar::Graph &graph, const poplar::Type &inputType,
                                         const FullyConnectedParams &params,
                                         const poplar::DebugContext &debugContext = {},
                                         const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// out[b][g*O + o] = sum_i W_g[o][i] x activations[b][g*I + i]: [batchSize, outputChannels].
poplar::Tensor fullyConnectedFwd(poplar::Graph &graph, const SparseTensor &weights,
                                 const poplar::Tensor &activations, const FullyConnectedParams &fcParams,
                                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// The gradient of the activations: gradA[b][g*I + i] = sum_o W_g[o][i] x gradients[b][g*O + o].
poplar::Tensor fullyConnectedGradA(poplar::Graph &graph, const SparseTensor &weights,
                                   const poplar::Tensor &gradients, const FullyConnectedParams &fcParams,
                                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                                   const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// The gradient of the weights' non-zero values (shaped as the weights' values; 0 in unused slots):
/// sum_b gradA[b][g*O + o] x activations[b][g*I + i] at each non-zero (o, i) of sparsityMetaInfo.
poplar::Tensor fullyConnectedSparseGradW(poplar::Graph &graph, const poplar::Tensor sparsityMetaInfo,
                                         const poplar::Tensor &gradA, const poplar::Tensor &activations,
                                         const FullyConnectedParams &fcParams, poplar::program::Sequence &prog,
                                         const poplar::DebugContext &debugContext = {},
                                         const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// The serial splits of the dense weight gradient (input channels, output channels, batch): always {1, 1, 1}, as
/// ipu-emu computes it in one product.
std::tuple<unsigned, unsigned, unsigned>
fullyConnectedDenseGradWSerialSplits(const poplar::Graph &graph, const poplar::Type &inputType,
                                     const FullyConnectedParams &fcParams, const poplar::OptionFlags &options_ = {},
                                     PlanningCache *cache = nullptr);

} // namespace dynamic
} // namespace popsparse

#endif
