// Group normalisation (popnn::gn): the channels of activations [batch, channels, field...] fall into numGroups
// groups, strided (channel c is in group c % numGroups); each batch element's group is normalised over its
// channels and the field. Statistics are [batch * numGroups] (batch-major); gamma and beta have one element per
// channel. Elements FLOAT or HALF (computed in float, rounded once); partials and statistics FLOAT.
#ifndef POPNN_GROUPNORM_HPP
#define POPNN_GROUPNORM_HPP

#include <string>
#include <utility>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {
namespace gn {

/// {mean, 1 / sqrt(variance + eps)} of each (batch element, group) of `acts` (two FLOAT [batch * numGroups]
/// tensors); the variance divides by n - 1 when unbiasedVarEstimate. Throws poputil::poplibs_error when numGroups
/// does not divide the channels, for acts of rank < 2 or a non-FLOAT tensor or partialsType.
std::pair<poplar::Tensor, poplar::Tensor> groupNormStatistics(poplar::Graph &graph, const poplar::Tensor acts,
                                                              float eps, poplar::program::Sequence &prog,
                                                              unsigned numGroups, bool unbiasedVarEstimate,
                                                              const poplar::Type &partialsType = poplar::FLOAT,
                                                              const poplar::DebugContext &debugContext = {});

/// (acts - mean) * invStdDev per (batch element, group), as a new tensor mapped like acts.
poplar::Tensor groupNormWhiten(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
                               const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});

/// {whitened * gamma + beta, whitened}, gamma and beta per channel.
std::pair<poplar::Tensor, poplar::Tensor> groupNormalise(poplar::Graph &graph, const poplar::Tensor &acts,
                                                         const poplar::Tensor &gamma, const poplar::Tensor &beta,
                                                         const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                                                         poplar::program::Sequence &prog,
                                                         const poplar::DebugContext &debugContext = {});

/// {gammaDelta, betaDelta} ([channels]) from the whitened activations and the gradient at the layer's output.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,
                        poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,
                        const poplar::DebugContext &debugContext = {});

/// The gradient at the layer's input (through the statistics too), as a new tensor mapped like actsWhitened.
/// The number of groups is the statistics' size over the batch size.
poplar::Tensor groupNormGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                  const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = {});

/// gamma -= learningRate * gammaDelta and beta -= learningRate * betaDelta.
void groupNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          float learningRate, poplar::Tensor &gamma, poplar::Tensor &beta,
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace gn
} // namespace popnn

#endif // POPNN_GROUPNORM_HPP
