// What every popnn normalisation layer shares: its parameters gamma and beta (one per channel of activations
// [batch, channels, field...]) and the floating-point operation counts of its passes, for estimates.
#ifndef POPNN_NORMS_HPP
#define POPNN_NORMS_HPP

#include <cstddef>
#include <cstdint>
#include <utility>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

/// Operations of a forward pass over numActsElements activations with statisticsSize statistics: scaling and
/// shifting (2 per element) and, when computeStats, the sums of the elements and of their squares (2 per element),
/// whitening (2 per element) and turning the sums into statistics (5 per statistic).
std::uint64_t getNormFwdFlops(std::size_t statisticsSize, std::size_t numActsElements, bool computeStats = true);

/// Operations of the backward pass: the gradient through gamma (1 per element) and through the statistics (7 per
/// element, 2 per statistic).
std::uint64_t getNormBwdFlops(std::size_t statisticsSize, std::size_t numActsElements);

/// Operations of the parameter gradients and update: 3 per element, 4 per parameter.
std::uint64_t getNormWuFlops(std::size_t paramsSize, std::size_t numActsElements);

/// A new [channels] tensor of the activations' type for gamma, mapped over the tiles (contents uninitialised).
/// Throws poputil::poplibs_error for activations of rank < 2 or neither FLOAT nor HALF.
poplar::Tensor createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                               const poplar::DebugContext &debugContext = poplar::DebugContext());

/// A new [channels] tensor of the activations' type for beta.
poplar::Tensor createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
                              const poplar::DebugContext &debugContext = poplar::DebugContext());

/// {createNormGamma, createNormBeta}.
std::pair<poplar::Tensor, poplar::Tensor> createNormParams(poplar::Graph &graph, const poplar::Tensor acts,
                                                           const poplar::DebugContext &debugContext =
                                                               poplar::DebugContext());

} // namespace popnn

#endif // POPNN_NORMS_HPP
