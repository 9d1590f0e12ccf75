// Layer normalisation (popnn::ln): group normalisation (GroupNorm.hpp) with a single group, so each batch
// element of activations [batch, channels, field...] is normalised over all its channels and its field;
// statistics [batch], gamma and beta per channel. Every function forwards to its
// popnn::gn counterpart (the others through detail/GroupNormForwarding.hpp), whose types, options and errors apply.
#ifndef POPNN_LAYERNORM_HPP
#define POPNN_LAYERNORM_HPP

#include "popnn/GroupNorm.hpp"
#include "popnn/detail/GroupNormForwarding.hpp"

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

// layerNormWhiten, layerNormalise, layerNormParamGradients, layerNormGradients and
// layerNormParamUpdate: the gn functions of the same forms (whiten with these statistics; {whitened * gamma + beta,
// whitened}; {gammaDelta, betaDelta} from the statistics or the whitened activations; the input gradient;
// gamma += scale * gammaDelta, beta += scale * betaDelta).
POPNN_DETAIL_GROUP_NORM_FORWARDING(layer)

} // namespace ln
} // namespace popnn

#endif // POPNN_LAYERNORM_HPP
