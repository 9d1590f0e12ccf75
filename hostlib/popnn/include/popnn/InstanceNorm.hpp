// Instance normalisation (popnn::in): group normalisation (GroupNorm.hpp) with one group per channel, so each
// (batch element, channel) of activations [batch, channels, field...] is normalised over its field; statistics
// [batch * channels], gamma and beta per channel. Every function forwards to its popnn::gn counterpart, whose
// types, options and errors apply.
#ifndef POPNN_INSTANCENORM_HPP
#define POPNN_INSTANCENORM_HPP

#include <cstdint>

#include "popnn/GroupNorm.hpp"

namespace popnn {
namespace in {

/// {mean, 1 / sqrt(variance + eps)} of each (batch element, channel) over the field: FLOAT [batch * channels] tensors
/// (gn::groupNormStatistics with one group per channel).
inline std::pair<poplar::Tensor, poplar::Tensor>
instanceNormStatistics(poplar::Graph &graph, const poplar::Tensor acts, float eps, poplar::program::Sequence &prog,
                       bool unbiasedVarEstimate, bool stableAlgo,
                       const poplar::Type &partialsType = poplar::FLOAT,
                       const poplar::DebugContext &debugContext = poplar::DebugContext(),
                       const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormStatistics(graph, acts, eps, prog, unsigned(acts.rank() > 1 ? acts.dim(1) : 0), unbiasedVarEstimate, stableAlgo,
                                 partialsType, debugContext, options);
}

/// (acts - mean) * invStdDev with the statistics of instanceNormStatistics.
inline poplar::Tensor instanceNormWhiten(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
                                  const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
                                  const poplar::DebugContext &debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormWhiten(graph, acts, mean, invStdDev, prog, debugContext, options);
}

/// {whitened * gamma + beta, whitened}, gamma and beta per channel.
inline std::pair<poplar::Tensor, poplar::Tensor>
instanceNormalise(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gamma, const poplar::Tensor &beta,
                  const poplar::Tensor &mean, const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
                  const poplar::DebugContext &debugContext = poplar::DebugContext(),
                  const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormalise(graph, acts, gamma, beta, mean, invStdDev, prog, debugContext, options);
}

/// {gammaDelta, betaDelta} from the activations and their statistics.
inline std::pair<poplar::Tensor, poplar::Tensor>
instanceNormParamGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                           const poplar::Tensor &mean, const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,
                           const poplar::Type &partialsType = poplar::FLOAT,
                           const poplar::DebugContext &debugContext = poplar::DebugContext(),
                           const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormParamGradients(graph, acts, gradsIn, mean, iStdDev, prog, partialsType, debugContext, options);
}

/// {gammaDelta, betaDelta} from the whitened activations.
inline std::pair<poplar::Tensor, poplar::Tensor>
instanceNormParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,
                           poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,
                           const poplar::DebugContext &debugContext = poplar::DebugContext(),
                           const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, debugContext, options);
}

/// The gradient at the layer's input from the activations and their statistics.
inline poplar::Tensor instanceNormGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                                     const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                                     const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                     const poplar::Type &partialsType = poplar::FLOAT,
                                     const poplar::DebugContext &debugContext = poplar::DebugContext(),
                                     const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormGradients(graph, acts, gradsIn, mean, invStdDev, gamma, prog, partialsType, debugContext,
                                options);
}

/// The gradient at the layer's input from the whitened activations.
inline poplar::Tensor instanceNormGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                     const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                     const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                     const poplar::Type &partialsType = poplar::FLOAT,
                                     const poplar::DebugContext &debugContext = poplar::DebugContext(),
                                     const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormGradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, partialsType, debugContext,
                                options);
}

/// gamma += scale * gammaDelta, beta += scale * betaDelta.
inline void instanceNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                             float scale, poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = poplar::DebugContext(),
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {
  gn::groupNormParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, debugContext, options);
}

/// As above with the scale a one-element tensor.
inline void instanceNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                             const poplar::Tensor &scale, poplar::Tensor &gamma, poplar::Tensor &beta,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = poplar::DebugContext(),
                             const poplar::OptionFlags &options = poplar::OptionFlags()) {
  gn::groupNormParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, debugContext, options);
}

/// Floating-point operations of an instance norm's forward pass over numChannels channels (all batch elements)
/// of actsPerChannel elements each; computeEstimates adds the statistics and the whitening (as getNormFwdFlops).
std::uint64_t getFwdFlops(std::uint64_t numChannels, std::uint64_t actsPerChannel, bool computeEstimates);
/// Floating-point operations of the backward pass (as getNormBwdFlops).
std::uint64_t getBwdFlops(std::uint64_t numChannels, std::uint64_t actsPerChannel);
/// Floating-point operations of the parameter update (as getNormWuFlops).
std::uint64_t getWuFlops(std::uint64_t numChannels, std::uint64_t actsPerChannel);

} // namespace in
} // namespace popnn

#endif // POPNN_INSTANCENORM_HPP
