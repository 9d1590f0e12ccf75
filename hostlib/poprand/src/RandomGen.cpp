// poprand's distributions and generator state: argument checks and the Draw each call's vertices make.
#include "poprand/RandomGen.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "../codelets/params.h"
#include "generate.hpp"
#include "hw_state.hpp"
#include "poputil/exceptions.hpp"

namespace poprand {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

void checkType(const poplar::Type &type, std::initializer_list<poplar::Type> allowed, const std::string &name) {
  std::string list;
  for (const poplar::Type &t : allowed) {
    if (t == type)
      return;
    list += (list.empty() ? "" : ", ") + t.toString();
  }
  throw poplibs_error(name + ": output type " + type.toString() + " is not supported; use one of " + list);
}

void checkFinite(double v, const char *what, const std::string &name) {
  if (!std::isfinite(v))
    throw poplibs_error(name + ": " + what + " is not finite (" + std::to_string(v) + "); pass a finite value");
}

// Output, draw and compute set of one generator call.
Tensor run(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
           const poplar::Type &outType, const detail::Draw &draw, poplar::program::Sequence &prog,
           const std::string &name) {
  Tensor out = detail::cloneWithType(graph, reference, outType, name);
  detail::generate(graph, seed, seedModifier, out, nullptr, draw, prog, name);
  return out;
}

// The smallest (up) or largest (!up) value of `type` (FLOAT or HALF) at or beyond x in that direction (for HALF
// beyond 65504: infinity up, 65504 down).
double representable(double x, const poplar::Type &type, bool up) {
  if (x < 0)
    return -representable(-x, type, !up);
  if (type == poplar::FLOAT) {
    float f = float(x);
    if (up && double(f) < x)
      f = std::nextafter(f, std::numeric_limits<float>::infinity());
    if (!up && double(f) > x)
      f = std::nextafter(f, 0.0f);
    return f;
  }
  if (x == 0)
    return 0;
  int exp = 0;
  std::frexp(x, &exp); // x = m * 2^exp, m in [0.5, 1): half has 11 significant bits, subnormals step 2^-24
  const double ulp = std::max(std::ldexp(1.0, exp - 11), std::ldexp(1.0, -24));
  const double v = up ? std::ceil(x / ulp) * ulp : std::floor(x / ulp) * ulp;
  if (v > 65504.0) // beyond the largest finite half: no value at or above x
    return up ? std::numeric_limits<double>::infinity() : 65504.0;
  return v;
}

} // namespace

Tensor uniform(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
               const poplar::Type &outType, double minVal, double maxVal, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "uniform");
  checkType(outType, {poplar::FLOAT, poplar::HALF, poplar::INT}, name);
  detail::checkSeed(seed, name);
  checkFinite(minVal, "minVal", name);
  checkFinite(maxVal, "maxVal", name);
  if (maxVal < minVal)
    throw poplibs_error(name + ": maxVal (" + std::to_string(maxVal) + ") is below minVal (" +
                        std::to_string(minVal) + "); pass minVal <= maxVal");
  detail::Draw draw;
  if (outType == poplar::INT) {
    const double lo = std::numeric_limits<int>::min(), hi = std::numeric_limits<int>::max();
    if (std::floor(minVal) != minVal || std::floor(maxVal) != maxVal || minVal < lo || maxVal > hi)
      throw poplibs_error(name + ": an INT interval needs integer bounds in the int range, not [" +
                          std::to_string(minVal) + ", " + std::to_string(maxVal) + "]");
    const double range = maxVal - minVal + 1.0; // 1 .. 2^32
    draw.kind = dist::UNIFORM_INT;
    draw.u0 = unsigned(static_cast<long long>(minVal));
    draw.u1 = range >= 4294967296.0 ? 0u : unsigned(range);
  } else {
    // Values are kept inside the representable part of the interval, so rounding cannot leave it.
    const double lo = representable(minVal, outType, true), hi = representable(maxVal, outType, false);
    if (lo > hi)
      throw poplibs_error(name + ": [" + std::to_string(minVal) + ", " + std::to_string(maxVal) +
                          "] holds no value of type " + outType.toString() + "; widen the interval");
    draw.kind = dist::UNIFORM;
    draw.a = float(minVal);
    draw.b = float(maxVal - minVal);
    draw.c = float(hi);
    draw.d = float(lo);
  }
  return run(graph, seed, seedModifier, reference, outType, draw, prog, name);
}

Tensor logUniform(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
                  const poplar::Type &outType, double minVal, double maxVal, poplar::program::Sequence &prog,
                  double base, const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "logUniform");
  checkType(outType, {poplar::FLOAT, poplar::HALF, poplar::INT}, name);
  detail::checkSeed(seed, name);
  checkFinite(minVal, "minVal", name);
  checkFinite(maxVal, "maxVal", name);
  if (!(minVal >= 1.0))
    throw poplibs_error(name + ": minVal is " + std::to_string(minVal) + "; a log-uniform interval starts at 1 or "
                                                                         "above");
  if (!(maxVal > minVal))
    throw poplibs_error(name + ": maxVal (" + std::to_string(maxVal) + ") must be above minVal (" +
                        std::to_string(minVal) + ")");
  if (!(base > 1.0) || !std::isfinite(base))
    throw poplibs_error(name + ": base is " + std::to_string(base) + "; pass a finite base above 1");
  double lo, hi;
  if (outType == poplar::INT) {
    lo = std::ceil(minVal);
    hi = std::floor(maxVal);
    if (hi > double(std::numeric_limits<int>::max()))
      throw poplibs_error(name + ": maxVal is beyond the int range; pass at most 2147483647");
  } else {
    lo = representable(minVal, outType, true);
    hi = representable(maxVal, outType, false);
  }
  if (lo > hi)
    throw poplibs_error(name + ": [" + std::to_string(minVal) + ", " + std::to_string(maxVal) +
                        "] holds no value of type " + outType.toString() + "; widen the interval");
  detail::Draw draw;
  draw.kind = dist::LOG_UNIFORM;
  draw.a = float(std::log(lo));
  draw.b = float(std::log(hi) - std::log(lo));
  draw.c = float(lo);
  draw.d = float(hi);
  return run(graph, seed, seedModifier, reference, outType, draw, prog, name);
}

Tensor bernoulli(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
                 const poplar::Type &outType, double prob, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "bernoulli");
  checkType(outType, {poplar::FLOAT, poplar::HALF, poplar::INT}, name);
  detail::checkSeed(seed, name);
  detail::Draw draw;
  draw.kind = dist::BERNOULLI;
  detail::setKeepProbability(draw, prob, "prob", name);
  return run(graph, seed, seedModifier, reference, outType, draw, prog, name);
}

Tensor normal(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
              const poplar::Type &outType, double mean, double stdDev, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "normal");
  checkType(outType, {poplar::FLOAT, poplar::HALF}, name);
  detail::checkSeed(seed, name);
  checkFinite(mean, "mean", name);
  checkFinite(stdDev, "stdDev", name);
  if (stdDev < 0)
    throw poplibs_error(name + ": stdDev is " + std::to_string(stdDev) + "; pass a standard deviation >= 0");
  detail::Draw draw;
  draw.kind = dist::NORMAL;
  draw.a = float(mean);
  draw.b = float(stdDev);
  return run(graph, seed, seedModifier, reference, outType, draw, prog, name);
}

Tensor truncatedNormal(poplar::Graph &graph, const Tensor *seed, uint32_t seedModifier, const Tensor &reference,
                       const poplar::Type &outType, double mean, double stdDev, double alpha,
                       poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "truncatedNormal");
  checkType(outType, {poplar::FLOAT, poplar::HALF}, name);
  detail::checkSeed(seed, name);
  checkFinite(mean, "mean", name);
  checkFinite(stdDev, "stdDev", name);
  if (stdDev < 0)
    throw poplibs_error(name + ": stdDev is " + std::to_string(stdDev) + "; pass a standard deviation >= 0");
  if (!(alpha > 0) || !std::isfinite(alpha))
    throw poplibs_error(name + ": alpha is " + std::to_string(alpha) +
                        "; pass a finite alpha > 0 (the bounds are mean -/+ alpha * stdDev)");
  detail::Draw draw;
  draw.kind = dist::TRUNC_NORMAL;
  draw.a = float(mean);
  draw.b = float(stdDev);
  draw.c = float(alpha);
  return run(graph, seed, seedModifier, reference, outType, draw, prog, name);
}

void setSeed(poplar::Graph &graph, const Tensor &masterSeed, uint32_t seedModifier, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "setSeed");
  detail::checkSeed(&masterSeed, name);
  Tensor state = detail::hwState(graph, name);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  poplar::ComputeSet cs = graph.addComputeSet(name);
  for (unsigned tile = 0; tile < state.dim(0); ++tile) {
    poplar::VertexRef v = graph.addVertex(cs, "poprand::SetSeed");
    graph.setTileMapping(v, tile);
    graph.connect(v["seed"], masterSeed.flatten());
    graph.connect(v["state"], state[tile].flatten());
    graph.setInitialValue(v["modifierMix"], detail::modifierMix(seedModifier));
    graph.setInitialValue(v["firstStream"], tile * workers);
  }
  prog.add(poplar::program::Execute(cs, name));
}

Tensor getHwSeeds(poplar::Graph &graph, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "getHwSeeds");
  Tensor state = detail::hwState(graph, name);
  Tensor copy = graph.clone(state, name + "/seeds");
  prog.add(poplar::program::Copy(state, copy, false, name));
  return copy;
}

void setHwSeeds(poplar::Graph &graph, const Tensor &hwSeeds, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext) {
  const std::string name = detail::opName(debugContext, "setHwSeeds");
  Tensor state = detail::hwState(graph, name);
  if (!hwSeeds.valid() || hwSeeds.elementType() != poplar::UNSIGNED_INT || hwSeeds.shape() != state.shape())
    throw poplibs_error(name + ": the seeds must be UNSIGNED_INT of shape " + state.shapeToString() +
                        " (tiles, workers, 4), as getHwSeeds returns" +
                        (hwSeeds.valid() ? ", not " + hwSeeds.elementType().toString() + " of shape " +
                                               hwSeeds.shapeToString()
                                         : std::string(", not an invalid tensor")));
  prog.add(poplar::program::Copy(hwSeeds, state, false, name));
}

} // namespace poprand
