// Internal: see norms.hpp.
#include "norms.hpp"

#include <cmath>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>

#include "log.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"
#include "vertices.hpp"

namespace popnn::detail {

using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;
namespace pe = popops::expr;
namespace plog = poputil::detail;

namespace {
// `e` as FLOAT (no-op for FLOAT operands): HALF activations are computed in float and rounded once.
pe::Cast asFloat(const pe::Expr &e) { return pe::Cast(e, poplar::FLOAT); }
} // namespace

Tensor NormLayout::view(const Tensor &t) const { return t.reshape({batch, channels / groups, groups, field}); }

Tensor NormLayout::statsView(const Tensor &s) const {
  return perBatch ? s.reshape({batch, 1, groups, 1}) : s.reshape({1, 1, groups, 1});
}

Tensor NormLayout::channelView(const Tensor &c) const { return c.reshape({1, channels / groups, groups, 1}); }

std::vector<std::size_t> NormLayout::reduceDims() const {
  return perBatch ? std::vector<std::size_t>{1, 3} : std::vector<std::size_t>{0, 1, 3};
}

void NormLayout::checkStats(const Tensor &s, const char *role) const {
  checkFloatOrHalf(s, name, role);
  if (s.numElements() != statsSize())
    throw poplibs_error(name + ": " + role + " has shape " + s.shapeToString() + " but the activations need " +
                        std::to_string(statsSize()) + " statistics; pass the tensors the statistics function made");
}

void NormLayout::checkChannels(const Tensor &c, const char *role) const {
  checkFloatOrHalf(c, name, role);
  if (c.numElements() != channels)
    throw poplibs_error(name + ": " + role + " has shape " + c.shapeToString() + " but the activations have " +
                        std::to_string(channels) + " channels; pass one element per channel");
}

void NormLayout::checkLikeActs(const Tensor &t, const std::vector<std::size_t> &shape, const char *role) const {
  checkFloatOrHalf(t, name, role);
  if (t.shape() != shape) {
    std::string want = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
      want += (i ? "," : "") + std::to_string(shape[i]);
    throw poplibs_error(name + ": " + role + " has shape " + t.shapeToString() + " but the activations have " +
                        want + "}; pass tensors of the same shape");
  }
}

NormLayout normLayout(const Tensor &acts, unsigned groups, const std::string &name, bool allowEmpty) {
  checkFloatOrHalf(acts, name, "the activations");
  if (acts.rank() < 2)
    throw poplibs_error(name + ": the activations have shape " + acts.shapeToString() +
                        "; pass [batch, channels, field...] (rank 2 or more)");
  NormLayout l;
  l.name = name;
  l.batch = acts.dim(0);
  l.channels = acts.dim(1);
  l.field = acts.rank() == 2 ? 1 : acts.numElements() / std::max<std::size_t>(1, l.batch * l.channels);
  if (acts.numElements() == 0 && !allowEmpty)
    throw poplibs_error(name + ": the activations " + acts.shapeToString() + " are empty; pass at least one element");
  l.perBatch = groups != 0;
  l.groups = groups ? groups : l.channels;
  if (l.channels % l.groups != 0)
    throw poplibs_error(name + ": " + std::to_string(groups) + " groups do not divide the " +
                        std::to_string(l.channels) + " channels; use a divisor of the channel count");
  return l;
}

void checkPartials(const poplar::Type &partialsType, const std::string &name) {
  if (partialsType != poplar::FLOAT)
    throw poplibs_error(name + ": partialsType " + partialsType.toString() + " is not supported; use FLOAT");
}

std::pair<Tensor, Tensor> normStatistics(poplar::Graph &graph, const NormLayout &l, const Tensor &acts, float eps,
                                         bool unbiased, bool stable, Sequence &prog) {
  if (l.count() == 0) {
    // No element in a group (an empty channel or field dimension): the mean and the variance are taken as 0, so
    // invStdDev is 1/sqrt(eps), which is what Graphcore's NormStatisticsTest expects of groupNormStatistics; an
    // empty batch gives empty statistics.
    Tensor mean = graph.addVariable(poplar::FLOAT, {l.statsSize()}, l.name + "/mean");
    Tensor invStdDev = graph.addVariable(poplar::FLOAT, {l.statsSize()}, l.name + "/invStdDev");
    poputil::mapTensorLinearly(graph, mean);
    poputil::mapTensorLinearly(graph, invStdDev);
    popops::fill(graph, mean, prog, 0.0f, l.name + "/mean");
    popops::fill(graph, invStdDev, prog, 1.0f / std::sqrt(eps), l.name + "/invStdDev");
    return {mean, invStdDev};
  }
  completeMapping(graph, acts, l.name);
  const Tensor x = l.view(acts);
  const float n = float(l.count());
  const float varDivisor = unbiased && l.count() > 1 ? n - 1 : n;
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, l.name + ": " + std::to_string(l.statsSize()) + " statistics of " +
                                         std::to_string(l.count()) + " elements each" +
                                         (stable ? " (two passes)" : " (one pass)"));
  // The statistics are FLOAT (the partials type) whatever the activations' type.
  Tensor mean =
      popops::reduce(graph, x, poplar::FLOAT, l.reduceDims(), popops::Operation::ADD, prog, l.name + "/sum").flatten();
  popops::mapInPlace(graph, pe::_1 * pe::Const(1.0f / n), {mean}, prog, l.name + "/mean");
  Tensor var;
  if (stable) {
    Tensor sq =
        popops::map(graph, pe::Square(asFloat(pe::_1) - pe::_2), {x, l.statsView(mean)}, prog, l.name + "/centred");
    var = popops::reduce(graph, sq, l.reduceDims(), popops::Operation::ADD, prog, l.name + "/sumSq").flatten();
    popops::mapInPlace(graph, pe::_1 * pe::Const(1.0f / varDivisor), {var}, prog, l.name + "/var");
  } else {
    var = popops::reduce(graph, x, poplar::FLOAT, l.reduceDims(), popops::Operation::SQUARE_ADD, prog,
                         l.name + "/sumSq")
              .flatten();
    // E[x^2] - E[x]^2, clamped at 0 against rounding, rescaled for the unbiased estimate.
    popops::mapInPlace(graph,
                       pe::Max(pe::_1 * pe::Const(1.0f / n) - pe::Square(pe::_2), pe::Const(0.0f)) *
                           pe::Const(n / varDivisor),
                       {var, mean}, prog, l.name + "/var");
  }
  popops::mapInPlace(graph, pe::Rsqrt(pe::_1 + pe::Const(eps)), {var}, prog, l.name + "/invStdDev");
  return {mean, var};
}

Tensor normWhiten(poplar::Graph &graph, const NormLayout &l, const Tensor &acts, const Tensor &mean,
                  const Tensor &invStdDev, Sequence &prog) {
  l.checkStats(mean, "mean");
  l.checkStats(invStdDev, "invStdDev");
  completeMapping(graph, acts, l.name);
  return popops::map(graph, pe::Cast((asFloat(pe::_1) - asFloat(pe::_2)) * asFloat(pe::_3), acts.elementType()),
                     {l.view(acts), l.statsView(mean), l.statsView(invStdDev)}, prog, l.name + "/whiten")
      .reshape(acts.shape());
}

Tensor normScaleShift(poplar::Graph &graph, const NormLayout &l, const Tensor &t, const Tensor &multiplicand,
                      const Tensor &addend, Sequence &prog, const std::string &what) {
  l.checkChannels(multiplicand, what == "normalise" ? "gamma" : "combinedMultiplicand");
  l.checkChannels(addend, what == "normalise" ? "beta" : "addend");
  completeMapping(graph, t, l.name);
  return popops::map(graph, pe::Cast(asFloat(pe::_1) * asFloat(pe::_2) + asFloat(pe::_3), t.elementType()),
                     {l.view(t), l.channelView(multiplicand), l.channelView(addend)}, prog, l.name + "/" + what)
      .reshape(t.shape());
}

std::pair<Tensor, Tensor> normParamGradients(poplar::Graph &graph, const NormLayout &l, const Tensor &whitened,
                                             const Tensor &gradsIn, Sequence &prog) {
  l.checkLikeActs(gradsIn, whitened.shape(), "gradsIn");
  const Tensor g = l.view(gradsIn);
  Tensor gw = popops::map(graph, asFloat(pe::_1) * asFloat(pe::_2), {g, l.view(whitened)}, prog,
                          l.name + "/gradsTimesWhitened");
  Tensor gammaDelta = popops::reduce(graph, gw, {0, 3}, popops::Operation::ADD, prog, l.name + "/gammaDelta");
  Tensor betaDelta =
      popops::reduce(graph, g, poplar::FLOAT, {0, 3}, popops::Operation::ADD, prog, l.name + "/betaDelta");
  return {gammaDelta.flatten(), betaDelta.flatten()};
}

Tensor normGradients(poplar::Graph &graph, const NormLayout &l, const Tensor &whitened, const Tensor &gradsIn,
                     const Tensor &invStdDev, const Tensor &gamma, Sequence &prog) {
  l.checkLikeActs(gradsIn, whitened.shape(), "gradsIn");
  l.checkStats(invStdDev, "invStdDev");
  l.checkChannels(gamma, "gamma");
  completeMapping(graph, whitened, l.name);
  // With xhat the whitened input and d = gradsIn * gamma (the gradient at xhat), the gradient at the input is
  // invStdDev * (d - mean(d) - xhat * mean(d * xhat)), the means over each statistic's elements.
  const Tensor w = l.view(whitened);
  Tensor d = popops::map(graph, asFloat(pe::_1) * asFloat(pe::_2), {l.view(gradsIn), l.channelView(gamma)}, prog,
                         l.name + "/dWhite");
  Tensor dw = popops::map(graph, pe::_1 * asFloat(pe::_2), {d, w}, prog, l.name + "/dTimesWhitened");
  Tensor sumD = popops::reduce(graph, d, l.reduceDims(), popops::Operation::ADD, prog, l.name + "/sumD").flatten();
  Tensor sumDw = popops::reduce(graph, dw, l.reduceDims(), popops::Operation::ADD, prog, l.name + "/sumDw").flatten();
  const float inv = 1.0f / float(l.count());
  return popops::map(graph,
                     pe::Cast(asFloat(pe::_4) * (pe::_1 - pe::_2 * pe::Const(inv) -
                                                 asFloat(pe::_3) * pe::_5 * pe::Const(inv)),
                              gradsIn.elementType()),
                     {d, l.statsView(sumD), w, l.statsView(invStdDev), l.statsView(sumDw)}, prog,
                     l.name + "/inputGradient")
      .reshape(whitened.shape());
}

void normParamUpdate(poplar::Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta, float scale,
                     const Tensor &scaleTensor, const Tensor &gamma, const Tensor &beta, Sequence &prog,
                     const std::string &name) {
  checkFloatOrHalf(gamma, name, "gamma");
  checkFloatOrHalf(beta, name, "beta");
  checkFloatOrHalf(gammaDelta, name, "gammaDelta");
  checkFloatOrHalf(betaDelta, name, "betaDelta");
  if (gammaDelta.numElements() != gamma.numElements() || betaDelta.numElements() != beta.numElements() ||
      gamma.numElements() != beta.numElements())
    throw poplibs_error(name + ": gamma " + gamma.shapeToString() + ", beta " + beta.shapeToString() +
                        ", gammaDelta " + gammaDelta.shapeToString() + " and betaDelta " + betaDelta.shapeToString() +
                        " differ in size; pass one element per channel in each");
  // Deltas of another type (FLOAT deltas of HALF parameters) are cast to the parameters' type first.
  const Tensor gd = gammaDelta.elementType() == gamma.elementType()
                        ? gammaDelta
                        : popops::cast(graph, gammaDelta, gamma.elementType(), prog, name + "/castGammaDelta");
  const Tensor bd = betaDelta.elementType() == beta.elementType()
                        ? betaDelta
                        : popops::cast(graph, betaDelta, beta.elementType(), prog, name + "/castBetaDelta");
  if (scaleTensor.valid()) {
    checkFloatOrHalf(scaleTensor, name, "scale");
    if (scaleTensor.numElements() != 1)
      throw poplibs_error(name + ": scale has shape " + scaleTensor.shapeToString() + "; pass a one-element tensor");
    popops::scaledAddTo(graph, gamma.flatten(), gd.flatten(), scaleTensor.reshape({}), prog, name + "/gamma");
    popops::scaledAddTo(graph, beta.flatten(), bd.flatten(), scaleTensor.reshape({}), prog, name + "/beta");
  } else {
    popops::scaledAddTo(graph, gamma.flatten(), gd.flatten(), scale, prog, name + "/gamma");
    popops::scaledAddTo(graph, beta.flatten(), bd.flatten(), scale, prog, name + "/beta");
  }
}

} // namespace popnn::detail
