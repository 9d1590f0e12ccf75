// popnn::pooling. Every operation runs one kernel position at a time: for kernel offset k, the outputs whose
// window position k falls inside the input form a box of the output, and the inputs they read form a strided
// box of the input, both plain views. The forward combines each view pair into the output with popops' map
// (max or add, in place), the backward adds each output-gradient view into the matching input-gradient view
// (distinct elements for one k, so in place is safe). A kernel of K positions costs K compute sets, each spread
// over the tiles of the tensor written; no padded copy of the input is ever made. HALF: max is exact; sums,
// averages and gradients accumulate in a FLOAT tensor and are rounded once to the HALF result.
#include "popnn/Pooling.hpp"

#include <limits>
#include <sstream>

#include <poplar/exceptions.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include "log.hpp"
#include "poputil/exceptions.hpp"
#include "vertices.hpp"

namespace popnn {
namespace pooling {

using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;
namespace pe = popops::expr;
namespace plog = poputil::detail;

namespace {

std::string nameOf(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("popnn::pooling::") + fn : debugPrefix;
}

template <typename T> std::string listOf(const std::vector<T> &v) {
  std::ostringstream s;
  s << "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    s << (i ? "," : "") << v[i];
  s << "}";
  return s.str();
}

void checkParams(const PoolParams &p, const std::string &name) {
  const std::size_t n = p.getNumFieldDims();
  if (p.kernelShape.size() != n || p.stride.size() != n || p.inputTruncationOrPaddingLower.size() != n ||
      p.inputTruncationOrPaddingUpper.size() != n) {
    std::ostringstream s;
    s << name << ": the parameters have " << n << " field dimensions but kernelShape has " << p.kernelShape.size()
      << ", stride " << p.stride.size() << ", inputTruncationOrPaddingLower "
      << p.inputTruncationOrPaddingLower.size() << " and inputTruncationOrPaddingUpper "
      << p.inputTruncationOrPaddingUpper.size() << " entries; give one entry per field dimension";
    throw poplibs_error(s.str());
  }
  if (n == 0)
    throw poplibs_error(name + ": no field dimension; pool over at least one (inputFieldShape is empty)");
  if (p.poolingType != PoolingType::MAX && p.poolingType != PoolingType::AVG && p.poolingType != PoolingType::SUM)
    throw poplibs_error(name + ": unknown pooling type " + std::to_string(int(p.poolingType)) +
                        "; use PoolingType::MAX, AVG or SUM");
  for (std::size_t d = 0; d < n; ++d) {
    if (p.kernelShape[d] == 0 || p.stride[d] == 0)
      throw poplibs_error(name + ": field dimension " + std::to_string(d) + " has kernel size " +
                          std::to_string(p.kernelShape[d]) + " and stride " + std::to_string(p.stride[d]) +
                          "; both must be at least 1");
    const long long padded = (long long)p.inputFieldShape[d] + p.inputTruncationOrPaddingLower[d] +
                             p.inputTruncationOrPaddingUpper[d];
    if (p.inputTruncationOrPaddingLower[d] < -(long long)p.inputFieldShape[d] ||
        p.inputTruncationOrPaddingUpper[d] < -(long long)p.inputFieldShape[d] || padded < 0)
      throw poplibs_error(name + ": field dimension " + std::to_string(d) + " of size " +
                          std::to_string(p.inputFieldShape[d]) + " is truncated by more than its size (lower " +
                          std::to_string(p.inputTruncationOrPaddingLower[d]) + ", upper " +
                          std::to_string(p.inputTruncationOrPaddingUpper[d]) + "); reduce the truncation");
  }
  if (p.dType != poplar::FLOAT && p.dType != poplar::HALF)
    throw poplibs_error(name + ": dType is " + p.dType.toString() + "; only FLOAT and HALF are supported");
}

void checkOptions(const poplar::OptionFlags &options, const std::string &name) {
  for (const auto &o : options) {
    if (o.first != "poolUseIntrospectiveMapping")
      throw poplar::invalid_option(name + ": unknown option '" + o.first +
                                   "'; pooling takes poolUseIntrospectiveMapping");
    if (o.second != "true" && o.second != "false")
      throw poplar::invalid_option(name + ": option poolUseIntrospectiveMapping is '" + o.second +
                                   "'; use true or false");
  }
}

std::vector<std::size_t> fullShape(const PoolParams &p, const std::vector<std::size_t> &field) {
  std::vector<std::size_t> s = {p.batchSize, p.numChannels};
  s.insert(s.end(), field.begin(), field.end());
  return s;
}

void checkTensor(const Tensor &t, const PoolParams &p, const std::vector<std::size_t> &field, const char *role,
                 const std::string &name) {
  if (!t.valid())
    throw poplibs_error(name + ": " + role + " is an invalid (default-constructed) tensor");
  if (t.elementType() != p.dType)
    throw poplibs_error(name + ": " + role + " holds " + t.elementType().toString() + " but params.dType is " +
                        p.dType.toString() + "; cast it or change the parameters");
  const std::vector<std::size_t> want = fullShape(p, field);
  if (t.shape() != want)
    throw poplibs_error(name + ": " + role + " has shape " + t.shapeToString() + " but the parameters give " +
                        listOf(want) + " ([batchSize, numChannels, field...]); fix the tensor or the parameters");
}

// Along one field dimension, for one kernel offset: the outputs [oBegin, oEnd) whose window position reads the
// input, the first input they read and the stride between inputs.
struct AxisRange {
  std::size_t oBegin, oEnd, iBegin, stride;
};

// The inputs a window may read along dimension d: [lo, hi) (truncation removes some).
std::pair<long long, long long> readable(const PoolParams &p, std::size_t d) {
  const long long in = (long long)p.inputFieldShape[d];
  return {std::max(0LL, -(long long)p.inputTruncationOrPaddingLower[d]),
          std::min(in, in + p.inputTruncationOrPaddingUpper[d])};
}

AxisRange axisRange(const PoolParams &p, std::size_t d, std::size_t k, std::size_t outSize) {
  const auto [lo, hi] = readable(p, d);
  const long long s = p.stride[d], shift = (long long)k - p.inputTruncationOrPaddingLower[d];
  // Input of output o: o * s + shift; it must lie in [lo, hi).
  auto ceilDiv = [](long long a, long long b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); };
  long long oBegin = std::max(0LL, ceilDiv(lo - shift, s));
  long long oEnd = std::min((long long)outSize, hi - shift <= 0 ? 0 : ceilDiv(hi - shift, s));
  if (oEnd < oBegin)
    oEnd = oBegin;
  return {std::size_t(oBegin), std::size_t(oEnd), std::size_t(oBegin * s + shift), std::size_t(s)};
}

// The output and input views of one kernel offset (field multi-index `k`), or false when no output reads the
// input there.
bool views(const PoolParams &p, const std::vector<std::size_t> &outField, const std::vector<std::size_t> &k,
           Tensor out, Tensor in, Tensor &outView, Tensor &inView) {
  for (std::size_t d = 0; d < k.size(); ++d) {
    const AxisRange r = axisRange(p, d, k[d], outField[d]);
    if (r.oEnd == r.oBegin)
      return false;
    const unsigned dim = unsigned(2 + d);
    out = out.slice(r.oBegin, r.oEnd, dim);
    const std::size_t n = r.oEnd - r.oBegin;
    in = in.slice(r.iBegin, r.iBegin + (n - 1) * r.stride + 1, dim).subSample(unsigned(r.stride), dim);
  }
  outView = out;
  inView = in;
  return true;
}

// Every kernel offset, in row-major order.
std::vector<std::vector<std::size_t> > kernelOffsets(const PoolParams &p) {
  std::vector<std::vector<std::size_t> > all;
  std::vector<std::size_t> k(p.getNumFieldDims(), 0);
  for (;;) {
    all.push_back(k);
    std::size_t d = k.size();
    while (d > 0 && ++k[d - 1] == p.kernelShape[d - 1])
      k[--d] = 0;
    if (d == 0)
      return all;
  }
}

// How many window positions of output o along dimension d read the input.
std::size_t windowCount(const PoolParams &p, std::size_t d, std::size_t o) {
  const auto [lo, hi] = readable(p, d);
  const long long first = (long long)o * p.stride[d] - p.inputTruncationOrPaddingLower[d];
  const long long a = std::max(first, lo), b = std::min(first + (long long)p.kernelShape[d], hi);
  return b > a ? std::size_t(b - a) : 0;
}

// Per output field position, the number of window elements inside the input.
std::vector<std::size_t> windowCounts(const PoolParams &p, const std::vector<std::size_t> &outField) {
  std::size_t total = 1;
  for (std::size_t s : outField)
    total *= s;
  std::vector<std::size_t> counts(total, 1);
  for (std::size_t i = 0; i < total; ++i) {
    std::size_t rest = i;
    for (std::size_t d = outField.size(); d-- > 0;) {
      counts[i] *= windowCount(p, d, rest % outField[d]);
      rest /= outField[d];
    }
  }
  return counts;
}

// 1 / (window elements inside the input) per output field position (0 for a window wholly in the padding), as a
// constant of the output field's shape spread over the tiles.
Tensor averageScale(poplar::Graph &graph, const PoolParams &p, const std::vector<std::size_t> &outField,
                    const std::string &name) {
  std::vector<float> scale;
  for (std::size_t c : windowCounts(p, outField))
    scale.push_back(c ? 1.0f / float(c) : 0.0f);
  Tensor t = graph.addConstant(poplar::FLOAT, outField, scale, name + "/avgScale");
  poputil::mapTensorLinearly(graph, t);
  return t;
}

std::uint64_t windowElements(const PoolParams &p) {
  std::uint64_t n = 0;
  for (std::size_t c : windowCounts(p, getOutputFieldShape(p)))
    n += c;
  return n * p.batchSize * p.numChannels;
}

std::uint64_t outputs(const PoolParams &p) {
  std::uint64_t n = p.batchSize * p.numChannels;
  for (std::size_t s : getOutputFieldShape(p))
    n *= s;
  return n;
}

void logOp(const std::string &name, const PoolParams &p) {
  if (plog::logEnabled(plog::LogLevel::Debug)) {
    std::ostringstream s;
    s << name << ": " << p << ", " << kernelOffsets(p).size() << " kernel positions (one compute set each)";
    plog::log(plog::LogLevel::Debug, s.str());
  }
}

pe::Cast asFloat(const pe::Expr &e) { return pe::Cast(e, poplar::FLOAT); }

// Where sums of `result` (FLOAT or HALF) accumulate: result itself for FLOAT, else a FLOAT tensor mapped like it.
Tensor accumulatorFor(poplar::Graph &graph, const Tensor &result, const std::string &name) {
  if (result.elementType() == poplar::FLOAT)
    return result;
  Tensor acc = graph.addVariable(poplar::FLOAT, result.shape(), name + "/acc");
  graph.setTileMapping(acc, graph.getTileMapping(result));
  return acc;
}

// result = acc (times `scale` when given), rounded once; nothing when acc is result.
void finishAccumulator(poplar::Graph &graph, const Tensor &acc, const Tensor &result, const Tensor *scale,
                       Sequence &prog, const std::string &name) {
  if (result.numElements() == 0)
    return;
  if (scale) {
    if (acc == result)
      popops::mapInPlace(graph, pe::_1 * pe::_2, {result, *scale}, prog, name + "/average");
    else
      popops::mapWithOutput(graph, pe::Cast(pe::_1 * pe::_2, result.elementType()), {acc, *scale}, result, prog,
                            name + "/average");
    return;
  }
  if (!(acc == result))
    popops::mapWithOutput(graph, pe::Cast(pe::_1, result.elementType()), {acc}, result, prog, name + "/round");
}

// Adds the gradient `g` (output-shaped) of each output to the input positions its window reads, into the new
// tensor `inGrad` (zeroed first; sums in float for HALF). For MAX only where the input equals the pooled value
// (in, pooled given).
void scatterGradient(poplar::Graph &graph, const PoolParams &p, const std::vector<std::size_t> &outField,
                     const Tensor &g, const Tensor &result, const Tensor *in, const Tensor *pooled, Sequence &prog,
                     const std::string &name) {
  const Tensor inGrad = accumulatorFor(graph, result, name);
  popops::zero(graph, inGrad, prog, name + "/zero");
  std::size_t step = 0;
  for (const auto &k : kernelOffsets(p)) {
    Tensor gView, inGradView;
    if (!views(p, outField, k, g, inGrad, gView, inGradView))
      continue;
    const std::string stepName = name + "/k" + std::to_string(step++);
    if (in) {
      Tensor pooledView, inView;
      views(p, outField, k, *pooled, *in, pooledView, inView);
      popops::mapInPlace(graph, pe::_1 + pe::Select(asFloat(pe::_2), pe::Const(0.0f), pe::_3 == pe::_4),
                         {inGradView, gView, inView, pooledView}, prog, stepName);
    } else {
      popops::mapInPlace(graph, pe::_1 + asFloat(pe::_2), {inGradView, gView}, prog, stepName);
    }
  }
  finishAccumulator(graph, inGrad, result, nullptr, prog, name);
}

} // namespace

std::vector<std::size_t> PoolParams::getOutputFieldShape() const { return pooling::getOutputFieldShape(*this); }

std::ostream &operator<<(std::ostream &o, const PoolParams &p) {
  o << asString(p.poolingType) << " pooling: batch " << p.batchSize << ", channels " << p.numChannels
    << ", field " << listOf(p.inputFieldShape) << ", kernel " << listOf(p.kernelShape) << ", stride "
    << listOf(p.stride) << ", padding lower " << listOf(p.inputTruncationOrPaddingLower) << " upper "
    << listOf(p.inputTruncationOrPaddingUpper) << ", " << p.dType.toString();
  return o;
}

const char *asString(const PoolingType &method) {
  switch (method) {
  case PoolingType::MAX: return "max";
  case PoolingType::AVG: return "avg";
  case PoolingType::SUM: return "sum";
  }
  return "unknown pooling";
}

std::vector<std::size_t> getOutputFieldShape(const PoolParams &p) {
  const std::size_t n = p.getNumFieldDims();
  if (p.kernelShape.size() != n || p.stride.size() != n || p.inputTruncationOrPaddingLower.size() != n ||
      p.inputTruncationOrPaddingUpper.size() != n)
    checkParams(p, "popnn::pooling::getOutputFieldShape"); // throws, naming the sizes
  std::vector<std::size_t> out(n);
  for (std::size_t d = 0; d < n; ++d) {
    if (p.kernelShape[d] == 0 || p.stride[d] == 0)
      checkParams(p, "popnn::pooling::getOutputFieldShape");
    const long long padded = (long long)p.inputFieldShape[d] + p.inputTruncationOrPaddingLower[d] +
                             p.inputTruncationOrPaddingUpper[d];
    out[d] = padded < (long long)p.kernelShape[d] ? 0
                                                  : std::size_t((padded - p.kernelShape[d]) / p.stride[d] + 1);
  }
  return out;
}

std::uint64_t getFwdFlops(const PoolParams &p) {
  return windowElements(p) + (p.poolingType == PoolingType::AVG ? outputs(p) : 0);
}

std::uint64_t getBwdFlops(const PoolParams &p) {
  return windowElements(p) * (p.poolingType == PoolingType::MAX ? 2 : 1) +
         (p.poolingType == PoolingType::AVG ? outputs(p) : 0);
}

static double perfectCycles(const poplar::Graph &graph, const PoolParams &p, std::uint64_t flops) {
  const poplar::Target &t = graph.getTarget();
  return double(flops) / (double(t.getNumTiles()) * t.getNumWorkerContexts() * t.getVectorWidth(p.dType));
}

double getFwdPerfectCycleCount(const poplar::Graph &graph, const PoolParams &p) {
  return perfectCycles(graph, p, getFwdFlops(p));
}

double getBwdPerfectCycleCount(const poplar::Graph &graph, const PoolParams &p) {
  return perfectCycles(graph, p, getBwdFlops(p));
}

Tensor pool(poplar::Graph &graph, const PoolParams &p, const Tensor &in, Sequence &prog,
            const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "pool");
  checkParams(p, name);
  checkOptions(options, name);
  checkTensor(in, p, p.inputFieldShape, "the input", name);
  detail::completeMapping(graph, in, name);
  logOp(name, p);
  const std::vector<std::size_t> outField = getOutputFieldShape(p);
  Tensor out = graph.addVariable(p.dType, fullShape(p, outField), name + "/out");
  poputil::mapTensorLinearly(graph, out);
  const bool max = p.poolingType == PoolingType::MAX;
  // The maximum is exact in any type; sums accumulate in float.
  const Tensor acc = max ? out : accumulatorFor(graph, out, name);
  popops::fill(graph, acc, max ? -std::numeric_limits<float>::infinity() : 0.0f, prog, name + "/init");
  std::size_t step = 0;
  for (const auto &k : kernelOffsets(p)) {
    Tensor outView, inView;
    if (!views(p, outField, k, acc, in, outView, inView))
      continue;
    const std::string stepName = name + "/k" + std::to_string(step++);
    if (max)
      popops::mapInPlace(graph, pe::Max(pe::_1, pe::_2), {outView, inView}, prog, stepName);
    else
      popops::mapInPlace(graph, pe::_1 + asFloat(pe::_2), {outView, inView}, prog, stepName);
  }
  if (p.poolingType == PoolingType::AVG && out.numElements() > 0) {
    const Tensor scale = averageScale(graph, p, outField, name);
    finishAccumulator(graph, acc, out, &scale, prog, name);
  } else {
    finishAccumulator(graph, acc, out, nullptr, prog, name);
  }
  return out;
}

Tensor poolInputGradient(poplar::Graph &graph, const PoolParams &p, const Tensor &in, const Tensor &pooled,
                         const Tensor &pooledGradient, bool useScaledGradient, Sequence &prog,
                         const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "poolInputGradient");
  checkParams(p, name);
  checkOptions(options, name);
  const std::vector<std::size_t> outField = getOutputFieldShape(p);
  checkTensor(pooledGradient, p, outField, "pooledGradient", name);
  if (p.poolingType != PoolingType::MAX)
    return poolInputGradient(graph, p, 1, pooledGradient, prog, debugPrefix, options);
  checkTensor(in, p, p.inputFieldShape, "in", name);
  checkTensor(pooled, p, outField, "pooled", name);
  detail::completeMapping(graph, in, name);
  logOp(name, p);
  Tensor g = pooledGradient;
  if (useScaledGradient && g.numElements() > 0) {
    // Share each output's gradient among the window positions that hold its maximum.
    Tensor count = graph.clone(pooled, name + "/matches");
    popops::zero(graph, count, prog, name + "/zeroMatches");
    std::size_t step = 0;
    for (const auto &k : kernelOffsets(p)) {
      Tensor countView, pooledView, inView;
      if (!views(p, outField, k, count, in, countView, inView))
        continue;
      views(p, outField, k, pooled, in, pooledView, inView);
      popops::mapInPlace(graph, pe::_1 + pe::Cast(pe::_2 == pe::_3, count.elementType()),
                         {countView, inView, pooledView}, prog, name + "/match" + std::to_string(step++));
    }
    // In float: the shares are summed into the input gradient before the one rounding.
    g = popops::map(graph, asFloat(pe::_1) / pe::Max(asFloat(pe::_2), pe::Const(1.0f)), {pooledGradient, count},
                    prog, name + "/share");
  }
  Tensor inGrad = graph.clone(in, name + "/inGrad");
  scatterGradient(graph, p, outField, g, inGrad, &in, &pooled, prog, name);
  return inGrad;
}

Tensor poolInputGradient(poplar::Graph &graph, const PoolParams &p, const unsigned fwdChansPerGroup,
                         const Tensor &pooledGradient, Sequence &prog, const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &options) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "poolInputGradient");
  checkParams(p, name);
  checkOptions(options, name);
  if (p.poolingType == PoolingType::MAX)
    throw poplibs_error(name + ": MAX pooling's gradient needs the forward input and output; use the form that "
                               "takes in and pooled");
  const unsigned group = fwdChansPerGroup ? fwdChansPerGroup : 1;
  if (p.numChannels % group != 0)
    throw poplibs_error(name + ": fwdChansPerGroup " + std::to_string(group) + " does not divide the " +
                        std::to_string(p.numChannels) + " channels; pass a divisor (or 0)");
  const std::vector<std::size_t> outField = getOutputFieldShape(p);
  checkTensor(pooledGradient, p, outField, "pooledGradient", name);
  logOp(name, p);
  Tensor g = pooledGradient;
  if (p.poolingType == PoolingType::AVG && g.numElements() > 0)
    g = popops::map(graph, asFloat(pe::_1) * pe::_2, {pooledGradient, averageScale(graph, p, outField, name)},
                    prog, name + "/average");
  Tensor inGrad = graph.addVariable(p.dType, fullShape(p, p.inputFieldShape), name + "/inGrad");
  poputil::mapTensorLinearly(graph, inGrad);
  scatterGradient(graph, p, outField, g, inGrad, nullptr, nullptr, prog, name);
  return inGrad;
}

} // namespace pooling
} // namespace popnn
