// Layer normalisation (popnn::ln): group normalisation (GroupNorm.hpp) with a single group, so each batch
// element of activations [batch, channels, field...] is normalised over all its channels and its field;
// statistics [batch], gamma and beta per channel. Every function forwards to its popnn::gn counterpart, whose
// types, options and errors apply.
#ifndef POPNN_LAYERNORM_HPP
#define POPNN_LAYERNORM_HPP

#include "popnn/GroupNorm.hpp"

namespace popnn {
namespace ln {

/// {mean, 1 / sqrt(variance + eps)} of each batch element over its channels and field: FLOAT [batch] tensors
/// (gn::groupNormStatistics with one group).
inline std::pair<poplar::Tensor, poplar::Tensor>
layerNormStatistics(poplar::Graph &graph, const poplar::Tensor acts, float eps, poplar::program::Sequence &prog,
                    bool unbiasedVarEstimate, bool stableAlgo = false,
                    const poplar::Type &partialsType = poplar::FLOAT,
                    const poplar::DebugContext &debugContext = poplar::DebugContext(),
                    const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormStatistics(graph, acts, eps, prog, 1u, unbiasedVarEstimate, stableAlgo,
                                 partialsType, debugContext, options);
}

/// (acts - mean) * invStdDev with the statistics of layerNormStatistics.
inline poplar::Tensor layerNormWhiten(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
                               const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = poplar::DebugContext(),
                               const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormWhiten(graph, acts, mean, invStdDev, prog, debugContext, options);
}

/// {whitened * gamma + beta, whitened}, gamma and beta per channel.
inline std::pair<poplar::Tensor, poplar::Tensor>
layerNormalise(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gamma, const poplar::Tensor &beta,
               const poplar::Tensor &mean, const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = poplar::DebugContext(),
               const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormalise(graph, acts, gamma, beta, mean, invStdDev, prog, debugContext, options);
}

/// {gammaDelta, betaDelta} from the activations and their statistics.
inline std::pair<poplar::Tensor, poplar::Tensor>
layerNormParamGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                        const poplar::Tensor &mean, const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,
                        const poplar::Type &partialsType = poplar::FLOAT,
                        const poplar::DebugContext &debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormParamGradients(graph, acts, gradsIn, mean, iStdDev, prog, partialsType, debugContext, options);
}

/// {gammaDelta, betaDelta} from the whitened activations.
inline std::pair<poplar::Tensor, poplar::Tensor>
layerNormParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,
                        poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,
                        const poplar::DebugContext &debugContext = poplar::DebugContext(),
                        const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, debugContext, options);
}

/// The gradient at the layer's input from the activations and their statistics.
inline poplar::Tensor layerNormGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                                  const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormGradients(graph, acts, gradsIn, mean, invStdDev, gamma, prog, partialsType, debugContext,
                                options);
}

/// The gradient at the layer's input from the whitened activations.
inline poplar::Tensor layerNormGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                  const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = poplar::DebugContext(),
                                  const poplar::OptionFlags &options = poplar::OptionFlags()) {
  return gn::groupNormGradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, partialsType, debugContext,
                                options);
}

/// gamma += scale * gammaDelta, beta += scale * betaDelta.
inline void layerNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          float scale, poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  gn::groupNormParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, debugContext, options);
}

/// As above with the scale a one-element tensor.
inline void layerNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          const poplar::Tensor &scale, poplar::Tensor &gamma, poplar::Tensor &beta,
                          poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = poplar::DebugContext(),
                          const poplar::OptionFlags &options = poplar::OptionFlags()) {
  gn::groupNormParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, debugContext, options);
}

} // namespace ln
} // namespace popnn

#endif // POPNN_LAYERNORM_HPP
