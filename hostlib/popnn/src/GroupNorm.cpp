// popnn::gn: group normalisation on the shared normalisation code (norms.hpp) with strided channel groups and
// statistics per batch element.
#include "popnn/GroupNorm.hpp"

#include "norms.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace gn {

using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;

namespace {

std::string nameOf(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("popnn::gn::") + fn : debugPrefix;
}

// The layout of `acts` with the number of groups its statistics `stats` imply.
detail::NormLayout layoutFromStats(const Tensor &acts, const Tensor &stats, const std::string &name) {
  if (!stats.valid() || !acts.valid() || acts.rank() < 1 || acts.dim(0) == 0)
    return detail::normLayout(acts, 1, name); // throws naming the bad tensor
  const std::size_t batch = acts.dim(0);
  if (stats.numElements() == 0 || stats.numElements() % batch != 0)
    throw poplibs_error(name + ": the statistics have " + std::to_string(stats.numElements()) +
                        " elements, not a multiple of the batch size " + std::to_string(batch) +
                        "; pass the tensors groupNormStatistics made");
  return detail::normLayout(acts, unsigned(stats.numElements() / batch), name);
}

} // namespace

std::pair<Tensor, Tensor> groupNormStatistics(poplar::Graph &graph, const Tensor acts, float eps, Sequence &prog,
                                              unsigned numGroups, bool unbiasedVarEstimate,
                                              const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "groupNormStatistics");
  detail::checkPartials(partialsType, name);
  if (numGroups == 0)
    throw poplibs_error(name + ": numGroups is 0; pass at least one group");
  const detail::NormLayout l = detail::normLayout(acts, numGroups, name);
  // Two passes: group statistics cover few elements, where E[x^2] - E[x]^2 loses the most.
  return detail::normStatistics(graph, l, acts, eps, unbiasedVarEstimate, true, prog);
}

Tensor groupNormWhiten(poplar::Graph &graph, const Tensor &acts, const Tensor &mean, const Tensor &invStdDev,
                       Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const detail::NormLayout l = layoutFromStats(acts, mean, nameOf(debugPrefix, "groupNormWhiten"));
  return detail::normWhiten(graph, l, acts, mean, invStdDev, prog);
}

std::pair<Tensor, Tensor> groupNormalise(poplar::Graph &graph, const Tensor &acts, const Tensor &gamma,
                                         const Tensor &beta, const Tensor &mean, const Tensor &invStdDev,
                                         Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const detail::NormLayout l = layoutFromStats(acts, mean, nameOf(debugPrefix, "groupNormalise"));
  l.checkChannels(gamma, "gamma");
  l.checkChannels(beta, "beta");
  Tensor whitened = detail::normWhiten(graph, l, acts, mean, invStdDev, prog);
  return {detail::normScaleShift(graph, l, whitened, gamma, beta, prog, "normalise"), whitened};
}

std::pair<Tensor, Tensor> groupNormParamGradients(poplar::Graph &graph, const Tensor &actsWhitened,
                                                  const Tensor &gradsIn, Sequence &prog,
                                                  const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "groupNormParamGradients");
  detail::checkPartials(partialsType, name);
  // Per-channel sums do not depend on the grouping: one group will do.
  const detail::NormLayout l = detail::normLayout(actsWhitened, 1, name);
  return detail::normParamGradients(graph, l, actsWhitened, gradsIn, prog);
}

Tensor groupNormGradients(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                          const Tensor &invStdDev, const Tensor &gamma, Sequence &prog,
                          const poplar::Type &partialsType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "groupNormGradients");
  detail::checkPartials(partialsType, name);
  const detail::NormLayout l = layoutFromStats(actsWhitened, invStdDev, name);
  return detail::normGradients(graph, l, actsWhitened, gradsIn, invStdDev, gamma, prog);
}

void groupNormParamUpdate(poplar::Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta,
                          float learningRate, Tensor &gamma, Tensor &beta, Sequence &prog,
                          const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  detail::normParamUpdate(graph, gammaDelta, betaDelta, -learningRate, Tensor(), gamma, beta, prog,
                          nameOf(debugPrefix, "groupNormParamUpdate"));
}

} // namespace gn
} // namespace popnn
