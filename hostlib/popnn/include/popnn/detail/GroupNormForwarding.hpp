// The functions layer norm (LayerNorm.hpp) and instance norm (InstanceNorm.hpp) forward unchanged to group norm
// (GroupNorm.hpp): whiten, normalise, the parameter gradients, the input gradients and the parameter update. Only
// their statistics differ (one group, or one group per channel), so each header writes its statistics function and
// expands this once with its prefix ("layer", "instance") instead of a copy of the same eight forwarding functions.
// A macro, because the public names differ by that prefix and each must keep its default arguments.
#ifndef POPNN_DETAIL_GROUPNORMFORWARDING_HPP
#define POPNN_DETAIL_GROUPNORMFORWARDING_HPP

#include "popnn/GroupNorm.hpp"

/// Defines PREFIX##NormWhiten, PREFIX##Normalise, PREFIX##NormParamGradients (from the statistics and from the
/// whitened activations), PREFIX##NormGradients (both forms) and PREFIX##NormParamUpdate (float and tensor scale),
/// each the popnn::gn function of the same form with the same arguments.
#define POPNN_DETAIL_GROUP_NORM_FORWARDING(PREFIX)                                                                   \
  inline poplar::Tensor PREFIX##NormWhiten(                                                                          \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean, const poplar::Tensor &invStdDev, \
      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = poplar::DebugContext(),          \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    return gn::groupNormWhiten(graph, acts, mean, invStdDev, prog, debugContext, options);                         \
  }                                                                                                                  \
  inline std::pair<poplar::Tensor, poplar::Tensor> PREFIX##Normalise(                                               \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gamma, const poplar::Tensor &beta,    \
      const poplar::Tensor &mean, const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,                 \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    return gn::groupNormalise(graph, acts, gamma, beta, mean, invStdDev, prog, debugContext, options);             \
  }                                                                                                                  \
  inline std::pair<poplar::Tensor, poplar::Tensor> PREFIX##NormParamGradients(                                      \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn, const poplar::Tensor &mean,  \
      const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,                                               \
      const poplar::Type &partialsType = poplar::FLOAT,                                                              \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    return gn::groupNormParamGradients(graph, acts, gradsIn, mean, iStdDev, prog, partialsType, debugContext,       \
                                       options);                                                                    \
  }                                                                                                                  \
  inline std::pair<poplar::Tensor, poplar::Tensor> PREFIX##NormParamGradients(                                      \
      poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,                      \
      poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,                            \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    return gn::groupNormParamGradients(graph, actsWhitened, gradsIn, prog, partialsType, debugContext, options);    \
  }                                                                                                                  \
  inline poplar::Tensor PREFIX##NormGradients(                                                                       \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn, const poplar::Tensor &mean,  \
      const poplar::Tensor &invStdDev, const poplar::Tensor &gamma, poplar::program::Sequence &prog,                \
      const poplar::Type &partialsType = poplar::FLOAT,                                                              \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    return gn::groupNormGradients(graph, acts, gradsIn, mean, invStdDev, gamma, prog, partialsType, debugContext,   \
                                  options);                                                                         \
  }                                                                                                                  \
  inline poplar::Tensor PREFIX##NormGradients(                                                                       \
      poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,                      \
      const poplar::Tensor &invStdDev, const poplar::Tensor &gamma, poplar::program::Sequence &prog,                \
      const poplar::Type &partialsType = poplar::FLOAT,                                                              \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    return gn::groupNormGradients(graph, actsWhitened, gradsIn, invStdDev, gamma, prog, partialsType, debugContext, \
                                  options);                                                                         \
  }                                                                                                                  \
  inline void PREFIX##NormParamUpdate(                                                                               \
      poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta, float scale,         \
      poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,                                 \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    gn::groupNormParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, debugContext, options);        \
  }                                                                                                                  \
  inline void PREFIX##NormParamUpdate(                                                                               \
      poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,                      \
      const poplar::Tensor &scale, poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,    \
      const poplar::DebugContext &debugContext = poplar::DebugContext(),                                            \
      const poplar::OptionFlags &options = poplar::OptionFlags()) {                                                 \
    gn::groupNormParamUpdate(graph, gammaDelta, betaDelta, scale, gamma, beta, prog, debugContext, options);        \
  }

#endif // POPNN_DETAIL_GROUPNORMFORWARDING_HPP
