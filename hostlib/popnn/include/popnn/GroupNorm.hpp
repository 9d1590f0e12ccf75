// Group normalisation (popnn::gn): the channels of activations [batch, channels, field...] fall into numGroups
// groups; each batch element's group is normalised over its channels and the field. By default the groups are
// strided (channel c is in group c % numGroups); the option groupNormStridedChannelGrouping=false makes them
// contiguous (channel c in group c / (channels / numGroups)). Statistics are [batch * numGroups] (batch-major);
// gamma and beta have one element per channel. Elements FLOAT or HALF (computed in float, rounded once);
// partials and statistics FLOAT. Layer norm (LayerNorm.hpp) is one group, instance norm (InstanceNorm.hpp) one
// group per channel.
//
// Options (every function's `options`; an unknown name or a bad value throws poplar::invalid_option):
//   groupNormStridedChannelGrouping  true (default) or false, as above; give the same value to every call of one
//                                    layer.
#ifndef POPNN_GROUPNORM_HPP
#define POPNN_GROUPNORM_HPP

#include <string>
#include <utility>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {
namespace gn {

/// {mean, 1 / sqrt(variance + eps)} of each (batch element, group) of `acts` (two FLOAT [batch * numGroups]
/// tensors); the variance divides by n - 1 when unbiasedVarEstimate. The statistics are always computed in two
/// passes (mean first), so stableAlgo changes nothing. Throws poputil::poplibs_error when numGroups does not
/// divide the channels, for acts of rank < 2 or neither FLOAT nor HALF, or a partialsType other than FLOAT.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormStatistics(poplar::Graph &graph, const poplar::Tensor acts, float eps, poplar::program::Sequence &prog,
                    unsigned numGroups, bool unbiasedVarEstimate, bool stableAlgo = false,
                    const poplar::Type &partialsType = poplar::FLOAT, const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = poplar::OptionFlags());

/// The older form without stableAlgo.
std::pair<poplar::Tensor, poplar::Tensor> groupNormStatistics(poplar::Graph &graph, const poplar::Tensor acts,
                                                              float eps, poplar::program::Sequence &prog,
                                                              unsigned numGroups, bool unbiasedVarEstimate,
                                                              const poplar::Type &partialsType,
                                                              const poplar::DebugContext &debugContext = {});

/// (acts - mean) * invStdDev per (batch element, group), as a new tensor mapped like acts.
poplar::Tensor groupNormWhiten(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
                               const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = poplar::OptionFlags());

/// {whitened * gamma + beta, whitened}, gamma and beta per channel.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormalise(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gamma,
               const poplar::Tensor &beta, const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
               poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = poplar::OptionFlags());

/// {gammaDelta, betaDelta} ([channels], FLOAT) from the activations, their statistics and the gradient at the
/// layer's output (the activations are whitened first).
std::pair<poplar::Tensor, poplar::Tensor>
groupNormParamGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                        const poplar::Tensor &mean, const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,
                        const poplar::Type &partialsType = poplar::FLOAT,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags());

/// {gammaDelta, betaDelta} ([channels]) from the whitened activations and the gradient at the layer's output.
std::pair<poplar::Tensor, poplar::Tensor>
groupNormParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,
                        poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags());

/// The gradient at the layer's input from the activations and their statistics (whitened first).
poplar::Tensor groupNormGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                                  const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = poplar::OptionFlags());

/// The gradient at the layer's input (through the statistics too), as a new tensor mapped like actsWhitened.
/// The number of groups is the statistics' size over the batch size.
poplar::Tensor groupNormGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                  const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = {},
                                  const poplar::OptionFlags &options = poplar::OptionFlags());

/// gamma += scale * gammaDelta and beta += scale * betaDelta (pass minus the learning rate for a descent step).
void groupNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          float scale, poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags());

/// As above with the scale a one-element FLOAT or HALF tensor.
void groupNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          const poplar::Tensor &scale, poplar::Tensor &gamma, poplar::Tensor &beta,
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                          const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace gn
} // namespace popnn

#endif // POPNN_GROUPNORM_HPP
