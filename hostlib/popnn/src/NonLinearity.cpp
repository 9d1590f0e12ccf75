// popnn::nonLinearity and its input gradient. Element-wise types: one compute set of popnn::NonLinearity (or
// NonLinearityGrad) vertices, one per worker of each tile that holds the tensor, over that tile's runs. The softmax
// family: the tensor viewed as [rows, innermost], with popops' reduce for the row maxima and sums and popops'
// map for the element-wise steps, so rows spread over the tiles as the tensor does. HALF tensors: the element-wise
// vertices compute in float and round each result once; the softmax family keeps its row sums and dot products in
// FLOAT and rounds each output once (the exponentials and the max shift are rounded to half as stored).
#include "popnn/NonLinearity.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include "log.hpp"
#include "poplibs_support.hpp"
#include "popnn/LogSoftmax.hpp"
#include "poputil/exceptions.hpp"
#include "vertices.hpp"

namespace popnn {

using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;
namespace pe = popops::expr;

namespace {

// The factor SOFTMAX_SCALED multiplies its outputs by: large enough to keep small probabilities representable in
// low precision, small enough that 1 * scale stays finite in half.
const float kSoftmaxScaling = 10000.0f;

// `e` (of a FLOAT or HALF operand) as FLOAT, so that sums and products keep float precision (no-op for FLOAT).
pe::Cast asFloat(const pe::Expr &e) { return pe::Cast(e, poplar::FLOAT); }

bool isSoftmax(NonLinearityType t) {
  return t == NonLinearityType::SOFTMAX || t == NonLinearityType::SOFTMAX_STABLE ||
         t == NonLinearityType::SOFTMAX_SCALED;
}

std::string nameOf(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("popnn::") + fn : debugPrefix;
}

void checkType(NonLinearityType type, const std::string &name) {
  if (unsigned(type) > unsigned(NonLinearityType::SOFTMAX_SCALED))
    throw poplibs_error(name + ": unknown non-linearity type " + std::to_string(unsigned(type)) +
                        "; use a popnn::NonLinearityType value");
}

void checkSoftmaxInCs(NonLinearityType type, const std::string &name) {
  if (isSoftmax(type))
    throw poplibs_error(name + ": " + asString(type) + " needs several compute sets (row maxima and sums); use the "
                               "form that takes a program::Sequence");
}

// Adds the vertices of element-wise non-linearity `type` on t (in place) to cs.
void elementwiseInPlace(poplar::Graph &graph, NonLinearityType type, const Tensor &t, poplar::ComputeSet &cs,
                        const std::string &name) {
  detail::checkFloatOrHalf(t, name, "the tensor");
  if (!t.isParallelWriteable())
    throw poplibs_error(name + ": the tensor has aliased elements (a broadcast view?); apply the non-linearity to "
                               "a tensor whose elements are distinct");
  const poplar::TileToTensorMapping mapping = detail::completeMapping(graph, t, name);
  const Tensor flat = t.flatten();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  std::size_t vertices = 0;
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &runs : poplibs_support::splitForWorkers(mapping[tile], workers)) {
      poplar::VertexRef v = graph.addVertex(cs, detail::vertexFor("popnn::NonLinearity", t.elementType()));
      graph.setTileMapping(v, tile);
      graph.setInitialValue(v["nl"], unsigned(type));
      graph.setFieldSize(v["data"], runs.size());
      for (std::size_t r = 0; r < runs.size(); ++r)
        graph.connect(v["data"][r], flat.slice(runs[r].begin(), runs[r].end()));
      ++vertices;
    }
  if (poputil::detail::logEnabled(poputil::detail::LogLevel::Debug))
    poputil::detail::log(poputil::detail::LogLevel::Debug,
                         name + ": " + asString(type) + " of " + std::to_string(t.numElements()) + " elements, " +
                             std::to_string(vertices) + " vertices");
}

// Adds the vertices computing the input gradient of element-wise `type` into a new tensor to cs.
Tensor elementwiseGradient(poplar::Graph &graph, NonLinearityType type, const Tensor &act, const Tensor &outGrad,
                           poplar::ComputeSet &cs, const std::string &name) {
  const poplar::TileToTensorMapping mapping = detail::completeMapping(graph, act, name);
  Tensor inGrad = graph.clone(act, name + "/inGrad");
  const Tensor a = act.flatten(), g = outGrad.flatten(), o = inGrad.flatten();
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &runs : poplibs_support::splitForWorkers(mapping[tile], workers)) {
      poplar::VertexRef v = graph.addVertex(cs, detail::vertexFor("popnn::NonLinearityGrad", act.elementType()));
      graph.setTileMapping(v, tile);
      graph.setInitialValue(v["nl"], unsigned(type));
      for (const char *field : {"act", "outGrad", "inGrad"})
        graph.setFieldSize(v[field], runs.size());
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const std::size_t b = runs[r].begin(), e = runs[r].end();
        graph.connect(v["act"][r], a.slice(b, e));
        graph.connect(v["outGrad"][r], g.slice(b, e));
        graph.connect(v["inGrad"][r], o.slice(b, e));
      }
    }
  return inGrad;
}

// t viewed as [rows, innermost].
Tensor rows(const Tensor &t, const std::string &name) {
  if (t.rank() == 0)
    throw poplibs_error(name + ": softmax needs a tensor of rank 1 or more (it works along the innermost "
                               "dimension); reshape the scalar to {1}");
  const std::size_t inner = t.dim(t.rank() - 1);
  return t.reshape({inner == 0 ? 0 : t.numElements() / inner, inner});
}

// Softmax of t (in place) along the innermost dimension; `stable` subtracts each row's maximum first.
void softmaxInPlace(poplar::Graph &graph, const Tensor &t, bool stable, float scale, Sequence &prog,
                    const std::string &name) {
  detail::checkFloatOrHalf(t, name, "the tensor");
  const Tensor x = rows(t, name);
  if (x.numElements() == 0)
    return;
  if (!x.isParallelWriteable())
    throw poplibs_error(name + ": the tensor has aliased elements (a broadcast view?); apply softmax to a tensor "
                               "whose elements are distinct");
  const std::size_t n = x.dim(0);
  if (stable) {
    Tensor max = popops::reduce(graph, x, {1}, popops::Operation::MAX, prog, name + "/max");
    popops::mapInPlace(graph, pe::Exp(pe::_1 - pe::_2), {x, max.reshape({n, 1})}, prog, name + "/exp");
  } else {
    popops::mapInPlace(graph, pe::Exp(pe::_1), {x}, prog, name + "/exp");
  }
  Tensor sum = popops::reduce(graph, x, poplar::FLOAT, {1}, popops::Operation::ADD, prog, name + "/sum");
  popops::mapInPlace(graph, pe::Cast(asFloat(pe::_1) * pe::Const(scale) / pe::_2, x.elementType()),
                     {x, sum.reshape({n, 1})}, prog, name + "/norm");
}

Tensor softmaxGradient(poplar::Graph &graph, float scale, const Tensor &act, const Tensor &outGrad, Sequence &prog,
                       const std::string &name) {
  // With y = scale * softmax(x): dx_j = y_j (g_j - sum_k(y_k g_k) / scale).
  const Tensor y = rows(act, name), g = rows(outGrad, name);
  Tensor inGrad = graph.clone(act, name + "/inGrad");
  if (y.numElements() == 0)
    return inGrad;
  const std::size_t n = y.dim(0);
  Tensor yg = popops::map(graph, asFloat(pe::_1) * asFloat(pe::_2), {y, g}, prog, name + "/yg");
  Tensor dot = popops::reduce(graph, yg, {1}, popops::Operation::ADD, prog, name + "/dot");
  popops::mapWithOutput(graph,
                        pe::Cast(asFloat(pe::_1) * (asFloat(pe::_2) - pe::_3 / pe::Const(scale)), act.elementType()),
                        {y, g, dot.reshape({n, 1})}, rows(inGrad, name), prog, name + "/grad");
  return inGrad;
}

void checkGradientOperands(const Tensor &act, const Tensor &outGradient, const std::string &name) {
  detail::checkFloatOrHalf(act, name, "act");
  detail::checkFloatOrHalf(outGradient, name, "outGradient");
  if (act.elementType() != outGradient.elementType())
    throw poplibs_error(name + ": act holds " + act.elementType().toString() + " but outGradient holds " +
                        outGradient.elementType().toString() + "; pass both of one type");
  if (act.shape() != outGradient.shape())
    throw poplibs_error(name + ": act has shape " + act.shapeToString() + " but outGradient has shape " +
                        outGradient.shapeToString() + "; pass the gradient of the non-linearity's output");
}

} // namespace

const char *asString(NonLinearityType type) {
  switch (type) {
  case NonLinearityType::SIGMOID: return "sigmoid";
  case NonLinearityType::HARD_SIGMOID: return "hard sigmoid";
  case NonLinearityType::RELU: return "relu";
  case NonLinearityType::TANH: return "tanh";
  case NonLinearityType::GELU: return "gelu";
  case NonLinearityType::GELU_ERF: return "gelu_erf";
  case NonLinearityType::SWISH: return "swish";
  case NonLinearityType::SOFTMAX: return "softmax";
  case NonLinearityType::SOFTMAX_STABLE: return "softmax (stable)";
  case NonLinearityType::SOFTMAX_SCALED: return "softmax (scaled, stable)";
  }
  return "unknown non-linearity";
}

void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType type, Tensor t, float &nonLinearityScaling,
                         Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "nonLinearityInPlace");
  checkType(type, name);
  nonLinearityScaling = type == NonLinearityType::SOFTMAX_SCALED ? kSoftmaxScaling : 1.0f;
  if (isSoftmax(type)) {
    softmaxInPlace(graph, t, type != NonLinearityType::SOFTMAX, nonLinearityScaling, prog, name);
    return;
  }
  poplar::ComputeSet cs = graph.addComputeSet(name);
  elementwiseInPlace(graph, type, t, cs, name);
  prog.add(poplar::program::Execute(cs, name));
}

void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType type, Tensor t, Sequence &prog,
                         const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  float scaling;
  nonLinearityInPlace(graph, type, t, scaling, prog, debugPrefix);
}

void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType type, Tensor t, float &nonLinearityScaling,
                         poplar::ComputeSet &cs, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "nonLinearityInPlace");
  checkType(type, name);
  checkSoftmaxInCs(type, name);
  nonLinearityScaling = 1.0f;
  elementwiseInPlace(graph, type, t, cs, name);
}

void nonLinearityInPlace(poplar::Graph &graph, NonLinearityType type, Tensor t, poplar::ComputeSet &cs,
                         const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  float scaling;
  nonLinearityInPlace(graph, type, t, scaling, cs, debugPrefix);
}

Tensor nonLinearity(poplar::Graph &graph, NonLinearityType type, Tensor t, float &nonLinearityScaling,
                    Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "nonLinearity");
  checkType(type, name);
  detail::checkFloatOrHalf(t, name, "the tensor");
  detail::completeMapping(graph, t, name);
  Tensor out = graph.clone(t, name + "/out");
  prog.add(poplar::program::Copy(t, out));
  nonLinearityInPlace(graph, type, out, nonLinearityScaling, prog, name);
  return out;
}

Tensor nonLinearity(poplar::Graph &graph, NonLinearityType type, Tensor t, Sequence &prog,
                    const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  float scaling;
  return nonLinearity(graph, type, t, scaling, prog, debugPrefix);
}

Tensor nonLinearityInputGradient(poplar::Graph &graph, NonLinearityType type, Tensor act, Tensor outGradient,
                                 Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "nonLinearityInputGradient");
  checkType(type, name);
  checkGradientOperands(act, outGradient, name);
  if (isSoftmax(type))
    return softmaxGradient(graph, type == NonLinearityType::SOFTMAX_SCALED ? kSoftmaxScaling : 1.0f, act,
                           outGradient, prog, name);
  poplar::ComputeSet cs = graph.addComputeSet(name);
  Tensor inGrad = elementwiseGradient(graph, type, act, outGradient, cs, name);
  prog.add(poplar::program::Execute(cs, name));
  return inGrad;
}

Tensor nonLinearityInputGradient(poplar::Graph &graph, NonLinearityType type, Tensor act, Tensor outGradient,
                                 poplar::ComputeSet &cs, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "nonLinearityInputGradient");
  checkType(type, name);
  checkSoftmaxInCs(type, name);
  checkGradientOperands(act, outGradient, name);
  return elementwiseGradient(graph, type, act, outGradient, cs, name);
}

void logSoftmaxInPlace(poplar::Graph &graph, Tensor t, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "logSoftmaxInPlace");
  detail::checkFloatOrHalf(t, name, "the tensor");
  const Tensor x = rows(t, name);
  if (x.numElements() == 0)
    return;
  if (!x.isParallelWriteable())
    throw poplibs_error(name + ": the tensor has aliased elements (a broadcast view?); apply log-softmax to a "
                               "tensor whose elements are distinct");
  const std::size_t n = x.dim(0);
  Tensor max = popops::reduce(graph, x, {1}, popops::Operation::MAX, prog, name + "/max").reshape({n, 1});
  popops::mapInPlace(graph, pe::_1 - pe::_2, {x, max}, prog, name + "/shift");
  Tensor e = popops::map(graph, pe::Exp(asFloat(pe::_1)), {x}, prog, name + "/exp");
  Tensor sum = popops::reduce(graph, e, {1}, popops::Operation::ADD, prog, name + "/sum");
  popops::mapInPlace(graph, pe::Cast(asFloat(pe::_1) - pe::Log(pe::_2), x.elementType()), {x, sum.reshape({n, 1})},
                     prog, name + "/log");
}

Tensor logSoftmax(poplar::Graph &graph, Tensor t, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "logSoftmax");
  detail::checkFloatOrHalf(t, name, "the tensor");
  detail::completeMapping(graph, t, name);
  Tensor out = graph.clone(t, name + "/out");
  prog.add(poplar::program::Copy(t, out));
  logSoftmaxInPlace(graph, out, prog, name);
  return out;
}

} // namespace popnn
