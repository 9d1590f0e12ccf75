// poplin's normalisation blocks: activations viewed as [N, C, F] (F the flattened field), statistics reduced over
// dimensions {0, 2} in FLOAT, everything else element-wise popops maps against [1, C, 1] views of the per-channel
// tensors. The distributed forms divide their partial sums by the global element count before the callback sums
// them, so the callback's result is already the global mean.
#include "poplin/Norms.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>

#include "op_name.hpp"
#include "poputil/exceptions.hpp"

namespace poplin {

namespace pe = popops::expr;
using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;

namespace {

void checkFloatOrHalf(const Tensor &t, const std::string &name, const char *role) {
  if (!t.valid())
    throw poplibs_error(name + ": " + role + " is an invalid tensor");
  if (t.elementType() != poplar::FLOAT && t.elementType() != poplar::HALF)
    throw poplibs_error(name + ": " + role + " holds " + t.elementType().toString() + "; only FLOAT and HALF");
}

void checkPartials(const poplar::Type &partialsType, const std::string &name) {
  if (partialsType != poplar::FLOAT)
    throw poplibs_error(name + ": partialsType " + partialsType.toString() + " is not supported; use FLOAT");
}

// The [N, C, F] view of activations.
struct Chans {
  std::size_t n, c, f;
  std::string name;
  Tensor view(const Tensor &t) const { return t.reshape({n, c, f}); }
  Tensor perChannel(const Tensor &s, const char *role) const {
    checkFloatOrHalf(s, name, role);
    if (s.numElements() != c)
      throw poplibs_error(name + ": " + role + " has shape " + s.shapeToString() + " but the activations have " +
                          std::to_string(c) + " channels; pass one element per channel");
    return s.reshape({1, c, 1});
  }
  void likeActs(const Tensor &t, const Tensor &acts, const char *role) const {
    checkFloatOrHalf(t, name, role);
    if (t.shape() != acts.shape())
      throw poplibs_error(name + ": " + role + " has shape " + t.shapeToString() + " but the activations have " +
                          acts.shapeToString() + "; pass tensors of the same shape");
  }
  std::size_t count() const { return n * f; }
};

Chans chansOf(const Tensor &acts, const std::string &name) {
  checkFloatOrHalf(acts, name, "the activations");
  if (acts.rank() < 2)
    throw poplibs_error(name + ": the activations have shape " + acts.shapeToString() +
                        "; pass [N, C, field...] (rank 2 or more)");
  if (acts.numElements() == 0)
    throw poplibs_error(name + ": the activations " + acts.shapeToString() + " are empty");
  return {acts.dim(0), acts.dim(1), acts.numElements() / (acts.dim(0) * acts.dim(1)), name};
}

pe::Cast asFloat(const pe::Expr &e) { return pe::Cast(e, poplar::FLOAT); }

// How many replicas the callback sums over (1: no callback needed).
std::size_t replicasOf(unsigned normSize, std::size_t n, bool haveCallback, const std::string &name) {
  if (!haveCallback || normSize <= n || n == 0)
    return 1;
  if (normSize % n != 0)
    throw poplibs_error(name + ": normSize " + std::to_string(normSize) + " is not a multiple of the " +
                        std::to_string(n) + " batch elements on each replica");
  return normSize / n;
}

// The sums `parts` turned into global means: divided by `count` elements per replica times `replicas`, then
// summed across replicas by the callback.
std::vector<Tensor> globalMeans(poplar::Graph &graph, std::vector<Tensor> parts, double count, std::size_t replicas,
                                const DistributedNormReduceCallback &callback, Sequence &prog,
                                const std::string &name) {
  for (auto &p : parts)
    popops::mapInPlace(graph, pe::_1 * pe::Const(float(1.0 / (count * double(replicas)))), {p}, prog,
                       name + "/scale");
  if (replicas <= 1)
    return parts;
  std::vector<Tensor> summed = callback(graph, parts, prog, unsigned(replicas), {name + "/reduce"}, {});
  if (summed.size() != parts.size())
    throw poplibs_error(name + ": the reduce callback returned " + std::to_string(summed.size()) + " tensors for " +
                        std::to_string(parts.size()) + " inputs");
  for (auto &s : summed)
    s = s.flatten();
  return summed;
}

std::pair<Tensor, Tensor> statistics(poplar::Graph &graph, const Tensor &acts, float eps, Sequence &prog,
                                     bool unbiased, const DistributedNormReduceCallback &callback, unsigned normSize,
                                     bool stable, const poplar::Type &partialsType, const std::string &name) {
  checkPartials(partialsType, name);
  const Chans ch = chansOf(acts, name);
  const std::size_t replicas = replicasOf(normSize, ch.n, bool(callback), name);
  const Tensor x = ch.view(acts);
  const double n = double(ch.count()) * double(replicas);
  const std::vector<std::size_t> dims{0, 2};
  Tensor sum = popops::reduce(graph, x, poplar::FLOAT, dims, popops::Operation::ADD, prog, name + "/sum");
  Tensor var;
  const float rescale = unbiased && n > 1 ? float(n / (n - 1)) : 1.0f;
  if (stable) {
    Tensor mean = globalMeans(graph, {sum}, double(ch.count()), replicas, callback, prog, name + "/mean")[0];
    Tensor sq = popops::map(graph, pe::Square(asFloat(pe::_1) - pe::_2), {x, mean.reshape({1, ch.c, 1})}, prog,
                            name + "/centred");
    Tensor sumSq = popops::reduce(graph, sq, dims, popops::Operation::ADD, prog, name + "/sumSq");
    var = globalMeans(graph, {sumSq}, double(ch.count()), replicas, callback, prog, name + "/var")[0];
    popops::mapInPlace(graph, pe::Rsqrt(pe::_1 * pe::Const(rescale) + pe::Const(eps)), {var}, prog,
                       name + "/invStdDev");
    return {mean, var};
  }
  Tensor sumSq = popops::reduce(graph, x, poplar::FLOAT, dims, popops::Operation::SQUARE_ADD, prog, name + "/sumSq");
  auto means = globalMeans(graph, {sum, sumSq}, double(ch.count()), replicas, callback, prog, name + "/moments");
  // E[x^2] - E[x]^2, clamped at 0 against rounding.
  popops::mapInPlace(graph,
                     pe::Rsqrt(pe::Max(pe::_1 - pe::Square(pe::_2), pe::Const(0.0f)) * pe::Const(rescale) +
                               pe::Const(eps)),
                     {means[1], means[0]}, prog, name + "/invStdDev");
  return {means[0], means[1]};
}

Tensor statisticsGradients(poplar::Graph &graph, const Tensor &w, const Tensor &g, const Tensor &invStdDev,
                           Sequence &prog, const DistributedNormReduceCallback &callback, unsigned normSize,
                           const poplar::Type &partialsType, const std::string &name) {
  checkPartials(partialsType, name);
  const Chans ch = chansOf(w, name);
  ch.likeActs(g, w, "gradsIn");
  const Tensor istd = ch.perChannel(invStdDev, "invStdDev");
  const std::size_t replicas = replicasOf(normSize, ch.n, bool(callback), name);
  const Tensor wv = ch.view(w), gv = ch.view(g);
  Tensor gw = popops::map(graph, asFloat(pe::_1) * asFloat(pe::_2), {gv, wv}, prog, name + "/gradsTimesWhitened");
  Tensor sumGw = popops::reduce(graph, gw, {0, 2}, popops::Operation::ADD, prog, name + "/sumGw");
  Tensor sumG = popops::reduce(graph, gv, poplar::FLOAT, {0, 2}, popops::Operation::ADD, prog, name + "/sumG");
  auto means = globalMeans(graph, {sumG, sumGw}, double(ch.count()), replicas, callback, prog, name + "/means");
  return popops::map(graph,
                     pe::Cast(asFloat(pe::_5) * (asFloat(pe::_1) - pe::_2 - asFloat(pe::_3) * pe::_4),
                              g.elementType()),
                     {gv, means[0].reshape({1, ch.c, 1}), wv, means[1].reshape({1, ch.c, 1}), istd}, prog,
                     name + "/inputGradient")
      .reshape(w.shape());
}

Tensor createParam(poplar::Graph &graph, const Tensor &acts, const poplar::Type &type,
                   const poplar::DebugContext &debugContext, const char *fn) {
  const std::string name = opName(debugContext, fn);
  const Chans ch = chansOf(acts, name);
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poplibs_error(name + ": type " + type.toString() + " is not FLOAT or HALF");
  Tensor t = graph.addVariable(type, {ch.c}, name);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

} // namespace

Tensor createNormGamma(poplar::Graph &graph, const Tensor &acts, const poplar::Type &type,
                       const poplar::DebugContext &debugContext) {
  return createParam(graph, acts, type, debugContext, "createNormGamma");
}

Tensor createNormGamma(poplar::Graph &graph, const Tensor &acts, const poplar::DebugContext &debugContext) {
  return createParam(graph, acts, acts.valid() ? acts.elementType() : poplar::FLOAT, debugContext,
                     "createNormGamma");
}

Tensor createNormBeta(poplar::Graph &graph, const Tensor &acts, const poplar::Type &type,
                      const poplar::DebugContext &debugContext) {
  return createParam(graph, acts, type, debugContext, "createNormBeta");
}

Tensor createNormBeta(poplar::Graph &graph, const Tensor &acts, const poplar::DebugContext &debugContext) {
  return createParam(graph, acts, acts.valid() ? acts.elementType() : poplar::FLOAT, debugContext,
                     "createNormBeta");
}

std::pair<Tensor, Tensor> createNormParams(poplar::Graph &graph, const Tensor &acts,
                                           const poplar::DebugContext &debugContext) {
  return {createNormGamma(graph, acts, debugContext), createNormBeta(graph, acts, debugContext)};
}

std::pair<Tensor, Tensor> normStatistics(poplar::Graph &graph, const Tensor &acts, float eps, Sequence &prog,
                                         bool unbiasedVarEstimate, bool stableAlgo, const poplar::Type &partialsType,
                                         const poplar::DebugContext &debugContext) {
  return statistics(graph, acts, eps, prog, unbiasedVarEstimate, {}, 0, stableAlgo, partialsType,
                    opName(debugContext, "normStatistics"));
}

std::pair<Tensor, Tensor> distributedNormStatistics(poplar::Graph &graph, const Tensor &acts, float eps,
                                                    Sequence &prog, bool unbiasedVarEstimate,
                                                    DistributedNormReduceCallback allReduceCallback,
                                                    unsigned normSize, bool stableAlgo,
                                                    const poplar::Type &partialsType,
                                                    const poplar::DebugContext &debugContext) {
  return statistics(graph, acts, eps, prog, unbiasedVarEstimate, allReduceCallback, normSize, stableAlgo,
                    partialsType, opName(debugContext, "distributedNormStatistics"));
}

Tensor normWhiten(poplar::Graph &graph, const Tensor &acts, const Tensor &mean, const Tensor &iStdDev,
                  Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "normWhiten");
  const Chans ch = chansOf(acts, name);
  return popops::map(graph, pe::Cast((asFloat(pe::_1) - asFloat(pe::_2)) * asFloat(pe::_3), acts.elementType()),
                     {ch.view(acts), ch.perChannel(mean, "mean"), ch.perChannel(iStdDev, "iStdDev")}, prog,
                     name + "/whiten")
      .reshape(acts.shape());
}

Tensor normalise(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gamma, const Tensor &beta,
                 Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "normalise");
  const Chans ch = chansOf(actsWhitened, name);
  return popops::map(graph,
                     pe::Cast(asFloat(pe::_1) * asFloat(pe::_2) + asFloat(pe::_3), actsWhitened.elementType()),
                     {ch.view(actsWhitened), ch.perChannel(gamma, "gamma"), ch.perChannel(beta, "beta")}, prog,
                     name + "/scaleShift")
      .reshape(actsWhitened.shape());
}

std::pair<Tensor, Tensor> normParamGradients(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                                             Sequence &prog, const poplar::Type &partialsType,
                                             const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "normParamGradients");
  checkPartials(partialsType, name);
  const Chans ch = chansOf(actsWhitened, name);
  ch.likeActs(gradsIn, actsWhitened, "gradsIn");
  const Tensor g = ch.view(gradsIn);
  Tensor gw = popops::map(graph, asFloat(pe::_1) * asFloat(pe::_2), {g, ch.view(actsWhitened)}, prog,
                          name + "/gradsTimesWhitened");
  return {popops::reduce(graph, gw, {0, 2}, popops::Operation::ADD, prog, name + "/gammaDelta"),
          popops::reduce(graph, g, poplar::FLOAT, {0, 2}, popops::Operation::ADD, prog, name + "/betaDelta")};
}

Tensor normGradients(poplar::Graph &graph, const Tensor &gradsIn, const Tensor &gamma, Sequence &prog,
                     const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "normGradients");
  const Chans ch = chansOf(gradsIn, name);
  return popops::map(graph, pe::Cast(asFloat(pe::_1) * asFloat(pe::_2), gradsIn.elementType()),
                     {ch.view(gradsIn), ch.perChannel(gamma, "gamma")}, prog, name + "/gradsTimesGamma")
      .reshape(gradsIn.shape());
}

Tensor normStatisticsGradients(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                               const Tensor &invStdDev, Sequence &prog, const poplar::Type &partialsType,
                               const poplar::DebugContext &debugContext) {
  return statisticsGradients(graph, actsWhitened, gradsIn, invStdDev, prog, {}, 0, partialsType,
                             opName(debugContext, "normStatisticsGradients"));
}

Tensor distributedNormStatisticsGradients(poplar::Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,
                                          const Tensor &invStdDev, Sequence &prog,
                                          DistributedNormReduceCallback reduceCallback, unsigned normSize,
                                          const poplar::Type &partialsType,
                                          const poplar::DebugContext &debugContext) {
  return statisticsGradients(graph, actsWhitened, gradsIn, invStdDev, prog, reduceCallback, normSize, partialsType,
                             opName(debugContext, "distributedNormStatisticsGradients"));
}

} // namespace poplin
