// popnn::gn: group normalisation on the shared normalisation code (norms.hpp), which works with strided channel
// groups and statistics per batch element. Contiguous groups (groupNormStridedChannelGrouping=false) are the
// strided ones of a channel-permuted view: channel c = g * (C / G) + j of the caller is channel j * G + g of the
// view, so only views change, never data.
#include "popnn/GroupNorm.hpp"

#include <algorithm>

#include <poplar/exceptions.hpp>

#include "norms.hpp"
#include "poputil/exceptions.hpp"
#include "vertices.hpp"

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

// True for strided groups (the default).
bool stridedGrouping(const poplar::OptionFlags &options, const std::string &name) {
  bool strided = true;
  for (const auto &o : options) {
    if (o.first != "groupNormStridedChannelGrouping")
      throw poplar::invalid_option(name + ": unknown option '" + o.first +
                                   "' (known: groupNormStridedChannelGrouping)");
    if (o.second != "true" && o.second != "false")
      throw poplar::invalid_option(name + ": option groupNormStridedChannelGrouping='" + o.second +
                                   "' is not true or false");
    strided = o.second == "true";
  }
  return strided;
}

// Moves between the caller's channel order and the strided order for `groups` groups (identity when strided).
struct Grouping {
  bool strided;
  std::size_t groups;

  // acts-like [B, C, field...] into the strided view [B, C, F].
  Tensor toStrided(const Tensor &t) const {
    if (strided || groups <= 1 || t.rank() < 2)
      return t;
    const std::size_t B = t.dim(0), C = t.dim(1), F = t.numElements() / std::max<std::size_t>(1, B * C);
    return t.reshape({B, groups, C / groups, F}).dimShuffle({0, 2, 1, 3}).reshape({B, C, F});
  }
  // The strided view's result back in the caller's order and `shape`.
  Tensor fromStrided(const Tensor &t, const std::vector<std::size_t> &shape) const {
    if (strided || groups <= 1 || t.rank() < 2)
      return t.reshape(shape);
    const std::size_t B = shape[0], C = shape[1], F = t.numElements() / std::max<std::size_t>(1, B * C);
    return t.reshape({B, C / groups, groups, F}).dimShuffle({0, 2, 1, 3}).reshape(shape);
  }
  // A per-channel tensor [C] into the strided order.
  Tensor channelsToStrided(const Tensor &c) const {
    if (strided || groups <= 1 || !c.valid() || c.numElements() % groups != 0)
      return c;
    return c.flatten().reshape({groups, c.numElements() / groups}).dimShuffle({1, 0}).flatten();
  }
};

// The number of groups the statistics `stats` imply for `acts` (throws naming the bad tensor).
unsigned groupsFromStats(const Tensor &acts, const Tensor &stats, const std::string &name) {
  if (!stats.valid() || !acts.valid() || acts.rank() < 1 || acts.dim(0) == 0) {
    detail::normLayout(acts, 1, name); // throws naming the bad tensor
    detail::checkFloatOrHalf(stats, name, "the statistics");
  }
  const std::size_t batch = acts.dim(0);
  if (stats.numElements() == 0 || stats.numElements() % batch != 0)
    throw poplibs_error(name + ": the statistics have " + std::to_string(stats.numElements()) +
                        " elements, not a multiple of the batch size " + std::to_string(batch) +
                        "; pass the tensors groupNormStatistics made");
  return unsigned(stats.numElements() / batch);
}

Tensor whiten(poplar::Graph &graph, const Tensor &acts, const Tensor &mean, const Tensor &invStdDev, Sequence &prog,
              const std::string &name, const poplar::OptionFlags &options) {
  const Grouping g{stridedGrouping(options, name), groupsFromStats(acts, mean, name)};
  const detail::NormLayout l = detail::normLayout(acts, unsigned(g.groups), name);
  return g.fromStrided(detail::normWhiten(graph, l, g.toStrided(acts), mean, invStdDev, prog), acts.shape());
}

} // namespace

std::pair<Tensor, Tensor> groupNormStatistics(poplar::Graph &graph, const Tensor acts, float eps, Sequence &prog,
                                              unsigned numGroups, bool unbiasedVarEstimate, bool,
                                              const poplar::Type &partialsType,
                                              const poplar::DebugContext &debugContext,
                                              const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormStatistics");
  detail::checkPartials(partialsType, name);
  const Grouping g{stridedGrouping(options, name), numGroups};
  if (numGroups == 0)
    throw poplibs_error(name + ": numGroups is 0; pass at least one group");
  const detail::NormLayout l = detail::normLayout(acts, numGroups, name, true);
  // Two passes whatever stableAlgo says: group statistics cover few elements, where E[x^2] - E[x]^2 loses most.
  return detail::normStatistics(graph, l, g.toStrided(acts), eps, unbiasedVarEstimate, true, prog);
}

std::pair<Tensor, Tensor> groupNormStatistics(poplar::Graph &graph, const Tensor acts, float eps, Sequence &prog,
                                              unsigned numGroups, bool unbiasedVarEstimate,
                                              const poplar::Type &partialsType,
                                              const poplar::DebugContext &debugContext) {
  return groupNormStatistics(graph, acts, eps, prog, numGroups, unbiasedVarEstimate, true, partialsType,
                             debugContext);
}

Tensor groupNormWhiten(poplar::Graph &graph, const Tensor &acts, const Tensor &mean, const Tensor &invStdDev,
                       Sequence &prog, const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  return whiten(graph, acts, mean, invStdDev, prog, nameOf(debugContext, "groupNormWhiten"), options);
}

std::pair<Tensor, Tensor> groupNormalise(poplar::Graph &graph, const Tensor &acts, const Tensor &gamma,
                                         const Tensor &beta, const Tensor &mean, const Tensor &invStdDev,
                                         Sequence &prog, const poplar::DebugContext &debugContext,
                                         const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormalise");
  Tensor whitened = whiten(graph, acts, mean, invStdDev, prog, name, options);
  // Scaling and shifting are per channel: no grouping involved.
  const detail::NormLayout l = detail::normLayout(acts, 1, name);
  return {detail::normScaleShift(graph, l, whitened, gamma, beta, prog, "normalise"), whitened};
}

std::pair<Tensor, Tensor> groupNormParamGradients(poplar::Graph &graph, const Tensor &actsWhitened,
                                                  const Tensor &gradsIn, Sequence &prog,
                                                  const poplar::Type &partialsType,
                                                  const poplar::DebugContext &debugContext,
                                                  const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormParamGradients");
  detail::checkPartials(partialsType, name);
  stridedGrouping(options, name);
  // Per-channel sums do not depend on the grouping: one group will do.
  const detail::NormLayout l = detail::normLayout(actsWhitened, 1, name);
  return detail::normParamGradients(graph, l, actsWhitened, gradsIn, prog);
}

std::pair<Tensor, Tensor> groupNormParamGradients(poplar::Graph &graph, const Tensor &acts, const Tensor &gradsIn,
                                                  const Tensor &mean, const Tensor &iStdDev, Sequence &prog,
                                                  const poplar::Type &partialsType,
                                                  const poplar::DebugContext &debugContext,
                                                  const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormParamGradients");
  const Tensor whitened = whiten(graph, acts, mean, iStdDev, prog, name, options);
  return groupNormParamGradients(graph, whitened, gradsIn, prog, partialsType, debugContext, options);
}

Tensor groupNormGradients(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                          const Tensor &invStdDev, const Tensor &gamma, Sequence &prog,
                          const poplar::Type &partialsType, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormGradients");
  detail::checkPartials(partialsType, name);
  const Grouping g{stridedGrouping(options, name), groupsFromStats(actsWhitened, invStdDev, name)};
  const detail::NormLayout l = detail::normLayout(actsWhitened, unsigned(g.groups), name);
  l.checkLikeActs(gradsIn, actsWhitened.shape(), "gradsIn");
  l.checkChannels(gamma, "gamma");
  return g.fromStrided(detail::normGradients(graph, l, g.toStrided(actsWhitened), g.toStrided(gradsIn), invStdDev,
                                             g.channelsToStrided(gamma), prog),
                       actsWhitened.shape());
}

Tensor groupNormGradients(poplar::Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,
                          const Tensor &invStdDev, const Tensor &gamma, Sequence &prog,
                          const poplar::Type &partialsType, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormGradients");
  const Tensor whitened = whiten(graph, acts, mean, invStdDev, prog, name, options);
  return groupNormGradients(graph, whitened, gradsIn, invStdDev, gamma, prog, partialsType, debugContext, options);
}

void groupNormParamUpdate(poplar::Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta, float scale,
                          Tensor &gamma, Tensor &beta, Sequence &prog, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormParamUpdate");
  stridedGrouping(options, name);
  detail::normParamUpdate(graph, gammaDelta, betaDelta, scale, Tensor(), gamma, beta, prog, name);
}

void groupNormParamUpdate(poplar::Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta,
                          const Tensor &scale, Tensor &gamma, Tensor &beta, Sequence &prog,
                          const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "groupNormParamUpdate");
  stridedGrouping(options, name);
  if (!scale.valid())
    throw poplibs_error(name + ": scale is an invalid tensor; pass a one-element tensor");
  detail::normParamUpdate(graph, gammaDelta, betaDelta, 0.0f, scale, gamma, beta, prog, name);
}

} // namespace gn
} // namespace popnn
