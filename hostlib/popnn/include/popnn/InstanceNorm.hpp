// Instance normalisation (popnn::in): group normalisation (GroupNorm.hpp) with one group per channel, so each
// (batch element, channel) of activations [batch, channels, field...] is normalised over its field; statistics
// [batch * channels], gamma and beta per channel. Every function forwards to its
// popnn::gn counterpart (the others through detail/GroupNormForwarding.hpp), whose types, options and errors apply.
#ifndef POPNN_INSTANCENORM_HPP
#define POPNN_INSTANCENORM_HPP

#include <cstdint>

#include "popnn/GroupNorm.hpp"
#include "popnn/detail/GroupNormForwarding.hpp"

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

// instanceNormWhiten, instanceNormalise, instanceNormParamGradients, instanceNormGradients and
// instanceNormParamUpdate: the gn functions of the same forms (whiten with these statistics; {whitened * gamma + beta,
// whitened}; {gammaDelta, betaDelta} from the statistics or the whitened activations; the input gradient;
// gamma += scale * gammaDelta, beta += scale * betaDelta).
POPNN_DETAIL_GROUP_NORM_FORWARDING(instance)

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
