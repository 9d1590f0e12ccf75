// popnn's shared normalisation parameters (created by poplin, which owns the per-channel layout) and the
// operation counts of Norms.hpp and InstanceNorm.hpp.
#include "popnn/Norms.hpp"

#include <poplin/Norms.hpp>

#include "popnn/InstanceNorm.hpp"

namespace popnn {

std::uint64_t getNormFwdFlops(std::size_t statisticsSize, std::size_t numActsElements, bool computeStats) {
  const std::uint64_t n = numActsElements, s = statisticsSize;
  const std::uint64_t scaleShift = 2 * n;
  if (!computeStats)
    return scaleShift;
  const std::uint64_t sums = 2 * n, toStatistics = 5 * s, whiten = 2 * n;
  return sums + toStatistics + whiten + scaleShift;
}

std::uint64_t getNormBwdFlops(std::size_t statisticsSize, std::size_t numActsElements) {
  const std::uint64_t n = numActsElements, s = statisticsSize;
  return n + (7 * n + 2 * s);
}

std::uint64_t getNormWuFlops(std::size_t paramsSize, std::size_t numActsElements) {
  return 3 * std::uint64_t(numActsElements) + 4 * std::uint64_t(paramsSize);
}

poplar::Tensor createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                               const poplar::DebugContext &debugContext) {
  return poplin::createNormGamma(graph, acts, poplar::DebugContext(debugContext, "gamma"));
}

poplar::Tensor createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
                              const poplar::DebugContext &debugContext) {
  return poplin::createNormBeta(graph, acts, poplar::DebugContext(debugContext, "beta"));
}

std::pair<poplar::Tensor, poplar::Tensor> createNormParams(poplar::Graph &graph, const poplar::Tensor acts,
                                                           const poplar::DebugContext &debugContext) {
  return {createNormGamma(graph, acts, debugContext), createNormBeta(graph, acts, debugContext)};
}

namespace in {

// An instance norm has one statistic per (batch element, channel): numChannels here counts them all.
std::uint64_t getFwdFlops(std::uint64_t numChannels, std::uint64_t actsPerChannel, bool computeEstimates) {
  return getNormFwdFlops(std::size_t(numChannels), std::size_t(numChannels * actsPerChannel), computeEstimates);
}

std::uint64_t getBwdFlops(std::uint64_t numChannels, std::uint64_t actsPerChannel) {
  return getNormBwdFlops(std::size_t(numChannels), std::size_t(numChannels * actsPerChannel));
}

std::uint64_t getWuFlops(std::uint64_t numChannels, std::uint64_t actsPerChannel) {
  return getNormWuFlops(std::size_t(numChannels), std::size_t(numChannels * actsPerChannel));
}

} // namespace in
} // namespace popnn
