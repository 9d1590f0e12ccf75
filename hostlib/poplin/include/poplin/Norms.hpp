// The building blocks of every normalisation layer (popnn's batch, group, layer and instance norms use them on
// suitably grouped views): per-channel statistics of activations [N, C, field...] over the batch and the field,
// whitening, scaling by gamma and shifting by beta, and the gradients for training, also with the batch spread
// over replicas (a callback sums the partial statistics across them). Activations FLOAT or HALF (computed in
// float, each result rounded once to the activations' type); statistics, partials and deltas FLOAT.
#ifndef POPLIN_NORMS_HPP
#define POPLIN_NORMS_HPP

#include <functional>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poplin {

/// A new [C] tensor of `type` for the multiplicative parameter of a norm of `acts` ([N, C, ...]), mapped over the
/// tiles; its contents are the caller's to initialise.
poplar::Tensor createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Type &type,
                               const poplar::DebugContext &debugContext = {});
/// As above with the activations' type.
poplar::Tensor createNormGamma(poplar::Graph &graph, const poplar::Tensor &acts,
                               const poplar::DebugContext &debugContext = {});
/// A new [C] tensor of `type` for the additive parameter of a norm of `acts`.
poplar::Tensor createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Type &type,
                              const poplar::DebugContext &debugContext = {});
/// As above with the activations' type.
poplar::Tensor createNormBeta(poplar::Graph &graph, const poplar::Tensor &acts,
                              const poplar::DebugContext &debugContext = {});
/// {createNormGamma, createNormBeta} of the activations' type.
std::pair<poplar::Tensor, poplar::Tensor> createNormParams(poplar::Graph &graph, const poplar::Tensor &acts,
                                                           const poplar::DebugContext &debugContext = {});

/// {mean, 1 / sqrt(variance + eps)} of each channel of actsUngrouped ([N, C, field...]) over N and the field, two
/// FLOAT [C] tensors. The variance divides by n - 1 when unbiasedVarEstimate, else n; stableAlgo subtracts the
/// mean before squaring (two passes) instead of using E[x^2] - E[x]^2. Throws poputil::poplibs_error for acts of
/// rank < 2, empty, neither FLOAT nor HALF, or a partialsType other than FLOAT.
std::pair<poplar::Tensor, poplar::Tensor> normStatistics(poplar::Graph &graph, const poplar::Tensor &actsUngrouped,
                                                         float eps, poplar::program::Sequence &prog,
                                                         bool unbiasedVarEstimate, bool stableAlgo = false,
                                                         const poplar::Type &partialsType = poplar::FLOAT,
                                                         const poplar::DebugContext &debugContext = {});

/// Sums each tensor of inputsToReduce element-wise over groups of `groupSize` adjacent replicas and returns the
/// sums in the same order (typically a cross-replica all-reduce).
typedef std::function<std::vector<poplar::Tensor>(
    poplar::Graph &replicatedGraph, const std::vector<poplar::Tensor> &inputsToReduce,
    poplar::program::Sequence &prog, unsigned groupSize, const poplar::DebugContext &debugContext,
    const poplar::OptionFlags &options)>
    DistributedNormReduceCallback;

/// normStatistics over `normSize` batch elements spread evenly over replicas, N of them on each: the callback sums
/// the per-replica partial statistics over normSize / N replicas. When normSize <= N or there is no callback, this
/// is normStatistics. Throws poputil::poplibs_error when normSize is not a multiple of N.
std::pair<poplar::Tensor, poplar::Tensor>
distributedNormStatistics(poplar::Graph &replicatedGraph, const poplar::Tensor &actsUngrouped, float eps,
                          poplar::program::Sequence &prog, bool unbiasedVarEstimate,
                          DistributedNormReduceCallback allReduceCallback, unsigned normSize, bool stableAlgo = false,
                          const poplar::Type &partialsType = poplar::FLOAT,
                          const poplar::DebugContext &debugContext = {});

/// (acts - mean) * iStdDev per channel, a new tensor of acts' shape and type mapped like acts.
poplar::Tensor normWhiten(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
                          const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});

/// actsWhitened * gamma + beta per channel, a new tensor of actsWhitened's shape and type.
poplar::Tensor normalise(poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gamma,
                         const poplar::Tensor &beta, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

/// {gammaDelta, betaDelta}: per channel, the sum of gradsIn * actsWhitened and the sum of gradsIn (FLOAT [C]).
std::pair<poplar::Tensor, poplar::Tensor> normParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                                             const poplar::Tensor &gradsIn,
                                                             poplar::program::Sequence &prog,
                                                             const poplar::Type &partialsType = poplar::FLOAT,
                                                             const poplar::DebugContext &debugContext = {});

/// gradsIn * gamma per channel: the gradient at the whitened activations.
poplar::Tensor normGradients(poplar::Graph &graph, const poplar::Tensor &gradsIn, const poplar::Tensor &gamma,
                             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// The gradient at the layer's input from gradsIn, the gradient at the whitened activations (normGradients'
/// result): invStdDev * (gradsIn - mean(gradsIn) - actsWhitened * mean(gradsIn * actsWhitened)), the means per
/// channel over N and the field.
poplar::Tensor normStatisticsGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                       const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                       poplar::program::Sequence &prog,
                                       const poplar::Type &partialsType = poplar::FLOAT,
                                       const poplar::DebugContext &debugContext = {});

/// normStatisticsGradients with the means over `normSize` batch elements spread over replicas (see
/// distributedNormStatistics).
poplar::Tensor distributedNormStatisticsGradients(poplar::Graph &replicatedGraph, const poplar::Tensor &actsWhitened,
                                                  const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                                  poplar::program::Sequence &prog,
                                                  DistributedNormReduceCallback reduceCallback, unsigned normSize,
                                                  const poplar::Type &partialsType = poplar::FLOAT,
                                                  const poplar::DebugContext &debugContext = {});

} // namespace poplin

#endif // POPLIN_NORMS_HPP
