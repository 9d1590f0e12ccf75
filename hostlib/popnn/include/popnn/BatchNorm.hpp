// Batch normalisation (popnn::bn): per-channel statistics of activations [batch, channels, field...] (or
// [batch, channels]) over the batch and the field, whitening, scaling by gamma and offsetting by beta, and the
// gradients for training. Elements FLOAT or HALF (computed in float, each result rounded once to the activations'
// type); partials and the statistics FLOAT; gamma, beta and the deltas FLOAT or HALF.
#ifndef POPNN_BATCHNORM_HPP
#define POPNN_BATCHNORM_HPP

#include <string>
#include <utility>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/Norms.hpp>

namespace popnn {
namespace bn {

/// {mean, 1 / sqrt(variance + eps)} of each channel of `acts` (two FLOAT [channels] tensors). The variance divides
/// by n - 1 when unbiasedVarEstimate, else by n (n = batch x field elements per channel); stableAlgo subtracts the
/// mean before squaring instead of using E[x^2] - E[x]^2. Throws poputil::poplibs_error for acts of rank < 2, a
/// tensor neither FLOAT nor HALF, or a partialsType other than FLOAT.
std::pair<poplar::Tensor, poplar::Tensor> batchNormStatistics(poplar::Graph &graph, const poplar::Tensor acts,
                                                              float eps, poplar::program::Sequence &prog,
                                                              bool unbiasedVarEstimate, bool stableAlgo = false,
                                                              const poplar::Type &partialsType = poplar::FLOAT,
                                                              const poplar::DebugContext &debugContext = {});

/// (acts - mean) * invStdDev per channel, as a new tensor mapped like acts.
poplar::Tensor batchNormWhiten(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,
                               const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});

/// {whitened * gamma + beta, whitened}, the whitened activations as batchNormWhiten gives them; gamma and beta
/// have one element per channel.
std::pair<poplar::Tensor, poplar::Tensor> batchNormalise(poplar::Graph &graph, const poplar::Tensor &acts,
                                                         const poplar::Tensor &gamma, const poplar::Tensor &beta,
                                                         const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                                                         poplar::program::Sequence &prog,
                                                         const poplar::DebugContext &debugContext = {});

/// acts * combinedMultiplicand + addend per channel (combinedMultiplicand = gamma / stdDev and addend = beta -
/// gamma * mean / stdDev fold the normalisation for inference).
poplar::Tensor batchNormalise(poplar::Graph &graph, const poplar::Tensor &acts,
                              const poplar::Tensor &combinedMultiplicand, const poplar::Tensor &addend,
                              poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// {gammaDelta, betaDelta}: the gradients of the loss with respect to gamma and beta ([channels]) given the
/// gradient at the layer's output `gradsIn`, from the forward input and its statistics.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                        const poplar::Tensor &mean, const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,
                        const poplar::Type &partialsType = poplar::FLOAT, const poplar::DebugContext &debugContext = {});
/// As above from the whitened activations.
std::pair<poplar::Tensor, poplar::Tensor>
batchNormParamGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,
                        poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,
                        const poplar::DebugContext &debugContext = {});

/// The gradient at the layer's input (through the statistics too) given `gradsIn` at its output, from the forward
/// input and its statistics, as a new tensor mapped like acts.
poplar::Tensor batchNormGradients(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,
                                  const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = {});
/// As above from the whitened activations.
poplar::Tensor batchNormGradients(poplar::Graph &graph, const poplar::Tensor &actsWhitened,
                                  const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                  const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT,
                                  const poplar::DebugContext &debugContext = {});

/// gamma += scale * gammaDelta and beta += scale * betaDelta (pass minus the learning rate for SGD).
void batchNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          float scale, poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});
/// As above with the scale a one-element FLOAT tensor.
void batchNormParamUpdate(poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,
                          const poplar::Tensor &scale, poplar::Tensor &gamma, poplar::Tensor &beta,
                          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// batchNormStatistics over normBatchSize batch elements spread evenly over the replicas of `replicatedGraph`, N
/// of them in each replica's acts: reduceCallback sums the per-replica partial statistics over the normBatchSize /
/// N replicas (poplin::distributedNormStatistics). With normBatchSize N or no callback it is batchNormStatistics.
/// Throws poputil::poplibs_error when normBatchSize is not a multiple of N, poplar::invalid_option for any option
/// (none is known).
std::pair<poplar::Tensor, poplar::Tensor>
distributedBatchNormStatistics(poplar::Graph &replicatedGraph, const poplar::Tensor acts, float eps,
                               poplar::program::Sequence &prog, bool unbiasedVarEstimate,
                               poplin::DistributedNormReduceCallback reduceCallback, unsigned normBatchSize,
                               bool stableAlgo = false, const poplar::Type &partialsType = poplar::FLOAT,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = poplar::OptionFlags());

/// batchNormGradients (from the whitened activations) with the means over normBatchSize batch elements spread
/// over the replicas, as distributedBatchNormStatistics.
poplar::Tensor distributedBatchNormGradients(poplar::Graph &replicatedGraph, const poplar::Tensor &actsWhitened,
                                             const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                                             const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                                             poplin::DistributedNormReduceCallback reduceCallback,
                                             unsigned normBatchSize,
                                             const poplar::Type &partialsType = poplar::FLOAT,
                                             const poplar::DebugContext &debugContext = {},
                                             const poplar::OptionFlags &options = poplar::OptionFlags());

/// As above from the activations and their statistics (whitened first).
poplar::Tensor distributedBatchNormGradients(poplar::Graph &replicatedGraph, const poplar::Tensor &acts,
                                             const poplar::Tensor &gradsIn, const poplar::Tensor &mean,
                                             const poplar::Tensor &invStdDev, const poplar::Tensor &gamma,
                                             poplar::program::Sequence &prog,
                                             poplin::DistributedNormReduceCallback reduceCallback,
                                             unsigned normBatchSize,
                                             const poplar::Type &partialsType = poplar::FLOAT,
                                             const poplar::DebugContext &debugContext = {},
                                             const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace bn
} // namespace popnn

#endif // POPNN_BATCHNORM_HPP
