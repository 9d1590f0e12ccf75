// popnn::bn: batch normalisation on the shared normalisation code (norms.hpp) with one group per channel and
// statistics over the batch.
#include "popnn/BatchNorm.hpp"

#include <poplar/exceptions.hpp>

#include "norms.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace bn {

using poplar::Tensor;
using poplar::program::Sequence;

namespace {

std::string nameOf(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("popnn::bn::") + fn : debugPrefix;
}

void noOptions(const poplar::OptionFlags &options, const std::string &what) {
  for (const auto &kv : options)
    throw poplar::invalid_option(what + ": unknown option '" + kv.first + "' (batch norm takes no options)");
}

} // namespace

std::pair<Tensor, Tensor> batchNormStatistics(poplar::Graph &graph, const Tensor acts, float eps, Sequence &prog,
                                              bool unbiasedVarEstimate, bool stableAlgo,
                                              const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "batchNormStatistics");
  detail::checkPartials(partialsType, name);
  const detail::NormLayout l = detail::normLayout(acts, 0, name);
  return detail::normStatistics(graph, l, acts, eps, unbiasedVarEstimate, stableAlgo, prog);
}

Tensor batchNormWhiten(poplar::Graph &graph, const Tensor &acts, const Tensor &mean, const Tensor &invStdDev,
                       Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const detail::NormLayout l = detail::normLayout(acts, 0, nameOf(debugPrefix, "batchNormWhiten"));
  return detail::normWhiten(graph, l, acts, mean, invStdDev, prog);
}

std::pair<Tensor, Tensor> batchNormalise(poplar::Graph &graph, const Tensor &acts, const Tensor &gamma,
                                         const Tensor &beta, const Tensor &mean, const Tensor &invStdDev,
                                         Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const detail::NormLayout l = detail::normLayout(acts, 0, nameOf(debugPrefix, "batchNormalise"));
  l.checkChannels(gamma, "gamma");
  l.checkChannels(beta, "beta");
  Tensor whitened = detail::normWhiten(graph, l, acts, mean, invStdDev, prog);
  return {detail::normScaleShift(graph, l, whitened, gamma, beta, prog, "normalise"), whitened};
}

Tensor batchNormalise(poplar::Graph &graph, const Tensor &acts, const Tensor &combinedMultiplicand,
                      const Tensor &addend, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const detail::NormLayout l = detail::normLayout(acts, 0, nameOf(debugPrefix, "batchNormalise"));
  return detail::normScaleShift(graph, l, acts, combinedMultiplicand, addend, prog, "combined");
}

std::pair<Tensor, Tensor> batchNormParamGradients(poplar::Graph &graph, const Tensor &acts, const Tensor &gradsIn,
                                                  const Tensor &mean, const Tensor &iStdDev, Sequence &prog,
                                                  const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "batchNormParamGradients");
  detail::checkPartials(partialsType, name);
  const detail::NormLayout l = detail::normLayout(acts, 0, name);
  Tensor whitened = detail::normWhiten(graph, l, acts, mean, iStdDev, prog);
  return detail::normParamGradients(graph, l, whitened, gradsIn, prog);
}

std::pair<Tensor, Tensor> batchNormParamGradients(poplar::Graph &graph, const Tensor &actsWhitened,
                                                  const Tensor &gradsIn, Sequence &prog,
                                                  const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "batchNormParamGradients");
  detail::checkPartials(partialsType, name);
  const detail::NormLayout l = detail::normLayout(actsWhitened, 0, name);
  return detail::normParamGradients(graph, l, actsWhitened, gradsIn, prog);
}

Tensor batchNormGradients(poplar::Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,
                          const Tensor &invStdDev, const Tensor &gamma, Sequence &prog,
                          const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "batchNormGradients");
  detail::checkPartials(partialsType, name);
  const detail::NormLayout l = detail::normLayout(acts, 0, name);
  Tensor whitened = detail::normWhiten(graph, l, acts, mean, invStdDev, prog);
  return detail::normGradients(graph, l, whitened, gradsIn, invStdDev, gamma, prog);
}

Tensor batchNormGradients(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                          const Tensor &invStdDev, const Tensor &gamma, Sequence &prog,
                          const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "batchNormGradients");
  detail::checkPartials(partialsType, name);
  const detail::NormLayout l = detail::normLayout(actsWhitened, 0, name);
  return detail::normGradients(graph, l, actsWhitened, gradsIn, invStdDev, gamma, prog);
}

void batchNormParamUpdate(poplar::Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta, float scale,
                          Tensor &gamma, Tensor &beta, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  detail::normParamUpdate(graph, gammaDelta, betaDelta, scale, Tensor(), gamma, beta, prog,
                          nameOf(debugPrefix, "batchNormParamUpdate"));
}

void batchNormParamUpdate(poplar::Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta,
                          const Tensor &scale, Tensor &gamma, Tensor &beta, Sequence &prog,
                          const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "batchNormParamUpdate");
  if (!scale.valid())
    throw poputil::poplibs_error(name + ": scale is an invalid (default-constructed) tensor; pass a one-element "
                                        "FLOAT tensor or a float");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, 0.0f, scale, gamma, beta, prog, name);
}

std::pair<Tensor, Tensor> distributedBatchNormStatistics(poplar::Graph &replicatedGraph, const Tensor acts, float eps,
                                                         Sequence &prog, bool unbiasedVarEstimate,
                                                         poplin::DistributedNormReduceCallback reduceCallback,
                                                         unsigned normBatchSize, bool stableAlgo,
                                                         const poplar::Type &partialsType,
                                                         const poplar::DebugContext &debugContext,
                                                         const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "distributedBatchNormStatistics");
  noOptions(options, name);
  detail::checkPartials(partialsType, name);
  detail::normLayout(acts, 0, name);
  return poplin::distributedNormStatistics(replicatedGraph, acts, eps, prog, unbiasedVarEstimate, reduceCallback,
                                           normBatchSize, stableAlgo, partialsType, {name});
}

Tensor distributedBatchNormGradients(poplar::Graph &replicatedGraph, const Tensor &actsWhitened,
                                     const Tensor &gradsIn, const Tensor &invStdDev, const Tensor &gamma,
                                     Sequence &prog, poplin::DistributedNormReduceCallback reduceCallback,
                                     unsigned normBatchSize, const poplar::Type &partialsType,
                                     const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "distributedBatchNormGradients");
  noOptions(options, name);
  detail::checkPartials(partialsType, name);
  detail::normLayout(actsWhitened, 0, name);
  // The gradient at the whitened activations (times gamma), then through the statistics over every replica.
  const Tensor gradsWhitened = poplin::normGradients(replicatedGraph, gradsIn, gamma, prog, {name + "/gamma"});
  return poplin::distributedNormStatisticsGradients(replicatedGraph, actsWhitened, gradsWhitened, invStdDev, prog,
                                                    reduceCallback, normBatchSize, partialsType, {name});
}

Tensor distributedBatchNormGradients(poplar::Graph &replicatedGraph, const Tensor &acts, const Tensor &gradsIn,
                                     const Tensor &mean, const Tensor &invStdDev, const Tensor &gamma,
                                     Sequence &prog, poplin::DistributedNormReduceCallback reduceCallback,
                                     unsigned normBatchSize, const poplar::Type &partialsType,
                                     const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "distributedBatchNormGradients");
  noOptions(options, name);
  const Tensor whitened = poplin::normWhiten(replicatedGraph, acts, mean, invStdDev, prog, {name + "/whiten"});
  return distributedBatchNormGradients(replicatedGraph, whitened, gradsIn, invStdDev, gamma, prog, reduceCallback,
                                       normBatchSize, partialsType, {name}, options);
}

} // namespace bn
} // namespace popnn
