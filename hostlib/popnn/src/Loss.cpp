// popnn's losses, accuracy and per-row argMax/argMin/topK, built on popops' map and reduce so that the work runs
// where the operands live (map on the tiles of the output, reduce's two stages on the tiles of its input). Labels
// never become a one-hot tensor: the expressions compare each label with a constant row of class indices. HALF
// model outputs are computed in float (each expression casts its operands) and rounded once into the HALF deltas;
// the per-row loss sums float terms and is rounded once to the loss tensor's type.
#include "popnn/Loss.hpp"

#include <cmath>
#include <limits>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <popops/Reduce.hpp>
#include <poputil/TileMapping.hpp>

#include "log.hpp"
#include "poputil/exceptions.hpp"
#include "vertices.hpp"

namespace popnn {

using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;
namespace pe = popops::expr;
namespace plog = poputil::detail;

namespace {

// The smallest probability whose logarithm cross-entropy takes, so that a zero probability gives a large finite
// loss (-log(FLT_MIN) ~ 87) rather than infinity.
const float kMinProbability = std::numeric_limits<float>::min();

std::string nameOf(const poplar::DebugContext &debugContext, const char *fn) {
  const std::string debugPrefix = debugContext.getPathName();
  return debugPrefix.empty() ? std::string("popnn::") + fn : debugPrefix;
}

std::string shapeOf(const Tensor &t) { return t.shapeToString(); }

// 0, 1, ... n-1 as a constant of `type` (INT or UNSIGNED_INT), spread over the tiles.
Tensor classIndices(poplar::Graph &graph, const poplar::Type &type, std::size_t n, const std::string &name) {
  std::vector<unsigned> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = unsigned(i);
  Tensor c = graph.addConstant(type, {n}, v, name + "/classes");
  poputil::mapTensorLinearly(graph, c);
  return c;
}

// A one-element FLOAT constant 1 on tile 0 (the default scalings).
Tensor one(poplar::Graph &graph, const std::string &name) {
  Tensor c = graph.addConstant(poplar::FLOAT, {1}, 1.0f, name + "/one");
  graph.setTileMapping(c, 0);
  return c;
}

void checkMapped(const poplar::Graph &graph, const Tensor &t, const std::string &name, const char *role) {
  detail::completeMapping(graph, t, name + " (" + role + ")");
}

void checkOneFloat(const Tensor &t, const std::string &name, const char *role) {
  detail::checkFloatOrHalf(t, name, role);
  if (t.numElements() != 1)
    throw poplibs_error(name + ": " + role + " has shape " + shapeOf(t) + "; pass a one-element tensor");
}

void checkModelOutputs(const Tensor &p, const std::string &name) {
  detail::checkFloatOrHalf(p, name, "modelOutputs");
  if (p.rank() != 2)
    throw poplibs_error(name + ": modelOutputs has shape " + shapeOf(p) +
                        "; pass a 2-D tensor [batch, classes] (reshape other shapes)");
}

// True when `expected` holds labels, false when it holds one-hot rows; throws when it is neither for `p`.
bool checkExpected(const Tensor &p, const Tensor &expected, const std::string &name) {
  if (!expected.valid())
    throw poplibs_error(name + ": expected is an invalid (default-constructed) tensor");
  const poplar::Type t = expected.elementType();
  if (t == poplar::INT || t == poplar::UNSIGNED_INT) {
    if (expected.rank() != 1 || expected.dim(0) != p.dim(0))
      throw poplibs_error(name + ": the labels have shape " + shapeOf(expected) + " but modelOutputs has shape " +
                          shapeOf(p) + "; pass one label per row: shape [" + std::to_string(p.dim(0)) + "]");
    return true;
  }
  if (t == p.elementType()) {
    if (expected.shape() != p.shape())
      throw poplibs_error(name + ": the one-hot expected values have shape " + shapeOf(expected) +
                          " but modelOutputs has shape " + shapeOf(p) + "; pass the same shape (or labels)");
    return false;
  }
  throw poplibs_error(name + ": expected holds " + t.toString() +
                      "; pass labels (INT or UNSIGNED_INT [batch]) or one-hot rows (" + p.elementType().toString() +
                      " [batch, classes], the modelOutputs' type)");
}

void checkNumCorrect(const poplar::Graph &graph, const Tensor &numCorrect, const std::string &name) {
  if (!numCorrect.valid())
    throw poplibs_error(name + ": numCorrect is an invalid (default-constructed) tensor");
  if (numCorrect.elementType() != poplar::UNSIGNED_INT || numCorrect.numElements() != 1)
    throw poplibs_error(name + ": numCorrect is " + numCorrect.elementType().toString() + " " +
                        shapeOf(numCorrect) + "; pass a one-element UNSIGNED_INT tensor");
  checkMapped(graph, numCorrect, name, "numCorrect");
}

void checkArgInput(const Tensor &input, const std::string &name) {
  if (!input.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  const poplar::Type t = input.elementType();
  if (t != poplar::FLOAT && t != poplar::HALF && t != poplar::INT && t != poplar::UNSIGNED_INT)
    throw poplibs_error(name + ": the input holds " + t.toString() +
                        "; FLOAT, HALF, INT and UNSIGNED_INT are supported (cast it with popops::cast)");
  if (input.rank() != 2)
    throw poplibs_error(name + ": the input has shape " + shapeOf(input) + "; pass a 2-D tensor [rows, values]");
  if (input.dim(1) == 0)
    throw poplibs_error(name + ": the rows of the input are empty (shape " + shapeOf(input) +
                        "); pass at least one value per row");
}

// The extreme (max or min) of each row of `input` and the first index holding it.
std::pair<Tensor, Tensor> extremeAndIndex(poplar::Graph &graph, const Tensor &input, bool max, Sequence &prog,
                                          const std::string &name) {
  checkArgInput(input, name);
  const std::size_t rows = input.dim(0), cols = input.dim(1);
  Tensor best = popops::reduce(graph, input, {1}, max ? popops::Operation::MAX : popops::Operation::MIN, prog,
                               name + "/value");
  // Each element's index where it equals its row's extreme, else `cols`; the smallest of those is the answer.
  Tensor classes = classIndices(graph, poplar::UNSIGNED_INT, cols, name);
  Tensor where = popops::map(graph, pe::Select(pe::_3, pe::Const(unsigned(cols)), pe::_1 == pe::_2),
                             {input, best.reshape({rows, 1}), classes}, prog, name + "/where");
  Tensor index = popops::reduce(graph, where, {1}, popops::Operation::MIN, prog, name + "/index");
  return {best, index};
}

// `e` as FLOAT (no-op for a FLOAT operand).
pe::Cast asFloat(const pe::Expr &e) { return pe::Cast(e, poplar::FLOAT); }

// The deltas and loss of `type` for modelOutputs _1 against y (a FLOAT expression of the placeholders) with row
// mask `valid` (1 or 0 per row); _4 is modelOutputScaling and _5 deltasScale. Everything is computed in float; the
// deltas are rounded once to their type, the loss once after the row sum.
void lossAndDeltas(poplar::Graph &graph, LossType type, const std::vector<Tensor> &operands, const pe::Expr &y,
                   const pe::Expr &valid, const Tensor &loss, const Tensor &deltas, Sequence &prog,
                   const std::string &name) {
  const pe::Cast p = asFloat(pe::_1), s = asFloat(pe::_4), ds = asFloat(pe::_5);
  const poplar::Type dt = deltas.elementType();
  if (type == SUM_SQUARED_LOSS) {
    popops::mapWithOutput(graph, pe::Cast((p - y) * valid, dt), operands, deltas, prog, name + "/deltas");
    Tensor perElement =
        popops::map(graph, pe::Const(0.5f) * pe::Square((p - y) * valid), operands, prog, name + "/square");
    popops::reduceWithOutput(graph, perElement, loss, {1}, popops::Operation::ADD, prog, name + "/loss");
    return;
  }
  popops::mapWithOutput(graph, pe::Cast((p - y * s) * (ds / s) * valid, dt), operands, deltas, prog,
                        name + "/deltas");
  Tensor perElement =
      popops::map(graph, pe::Select(-y * pe::Log(pe::Max(p / s, pe::Const(kMinProbability))), pe::Const(0.0f),
                                    y != pe::Const(0.0f)),
                  operands, prog, name + "/logLikelihood");
  popops::reduceWithOutput(graph, perElement, loss, {1}, popops::Operation::ADD, prog, name + "/loss");
}

Sequence calcLossImpl(poplar::Graph &graph, const Tensor &p, const Tensor &expected, const Tensor &loss,
                      const Tensor &deltas, Tensor deltasScale, Tensor modelOutputScaling, LossType type,
                      const std::string &name) {
  if (type != SUM_SQUARED_LOSS && type != CROSS_ENTROPY_LOSS)
    throw poplibs_error(name + ": unknown loss type " + std::to_string(int(type)) +
                        "; use SUM_SQUARED_LOSS or CROSS_ENTROPY_LOSS");
  checkModelOutputs(p, name);
  const bool labels = checkExpected(p, expected, name);
  detail::checkFloatOrHalf(loss, name, "loss");
  if (loss.rank() != 1 || loss.dim(0) != p.dim(0))
    throw poplibs_error(name + ": loss has shape " + shapeOf(loss) + "; pass one value per row: shape [" +
                        std::to_string(p.dim(0)) + "]");
  detail::checkFloatOrHalf(deltas, name, "deltas");
  if (deltas.elementType() != p.elementType())
    throw poplibs_error(name + ": deltas holds " + deltas.elementType().toString() + " but modelOutputs holds " +
                        p.elementType().toString() + "; pass deltas of the modelOutputs' type");
  if (deltas.shape() != p.shape())
    throw poplibs_error(name + ": deltas has shape " + shapeOf(deltas) + " but modelOutputs has shape " +
                        shapeOf(p) + "; pass a tensor of modelOutputs' shape");
  checkMapped(graph, loss, name, "loss");
  checkMapped(graph, deltas, name, "deltas");
  if (!deltasScale.valid())
    deltasScale = one(graph, name);
  if (!modelOutputScaling.valid())
    modelOutputScaling = one(graph, name);
  checkOneFloat(deltasScale, name, "deltasScale");
  checkOneFloat(modelOutputScaling, name, "modelOutputScaling");

  Sequence prog;
  const std::size_t rows = p.dim(0), cols = p.dim(1);
  if (plog::logEnabled(plog::LogLevel::Debug))
    plog::log(plog::LogLevel::Debug, name + ": " + (type == SUM_SQUARED_LOSS ? "sum-squared" : "cross-entropy") +
                                         " loss of " + std::to_string(rows) + " rows of " + std::to_string(cols) +
                                         (labels ? " against labels" : " against one-hot rows"));
  if (labels) {
    // _2: each row's label; _3: the class indices, both of the labels' type.
    const std::vector<Tensor> ops = {p, expected.reshape({rows, 1}),
                                     classIndices(graph, expected.elementType(), cols, name),
                                     modelOutputScaling.reshape({1}), deltasScale.reshape({1})};
    const pe::Cast y(pe::_2 == pe::_3, poplar::FLOAT);
    const pe::Cast valid(pe::_2 >= pe::Const(0) && pe::_2 < pe::Const(unsigned(cols)), poplar::FLOAT);
    lossAndDeltas(graph, type, ops, y, valid, loss, deltas, prog, name);
  } else {
    // _2: the one-hot rows; _3 unused but keeps the placeholders of both forms the same.
    const std::vector<Tensor> ops = {p, expected, expected, modelOutputScaling.reshape({1}),
                                     deltasScale.reshape({1})};
    lossAndDeltas(graph, type, ops, asFloat(pe::_2), pe::Const(1.0f), loss, deltas, prog, name);
  }
  return prog;
}

} // namespace

Tensor argMax(poplar::Graph &graph, const Tensor &input, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return extremeAndIndex(graph, input, true, prog, nameOf(debugPrefix, "argMax")).second;
}

std::pair<Tensor, Tensor> maxAndArgMax(poplar::Graph &graph, const Tensor &input, Sequence &prog,
                                       const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return extremeAndIndex(graph, input, true, prog, nameOf(debugPrefix, "maxAndArgMax"));
}

Tensor argMin(poplar::Graph &graph, const Tensor &input, Sequence &prog, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return extremeAndIndex(graph, input, false, prog, nameOf(debugPrefix, "argMin")).second;
}

std::pair<Tensor, Tensor> minAndArgMin(poplar::Graph &graph, const Tensor &input, Sequence &prog,
                                       const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return extremeAndIndex(graph, input, false, prog, nameOf(debugPrefix, "minAndArgMin"));
}

namespace {

// topK of FLOAT, HALF, INT or UNSIGNED_INT rows as [rows, K] values and indices (checked by the caller).
Tensor topKRows(poplar::Graph &graph, const Tensor &input, Tensor &indices, unsigned K, Sequence &prog,
                const std::string &name) {
  const std::size_t rows = input.dim(0), cols = input.dim(1);
  if (K == 0 || rows == 0) {
    // Nothing to select: empty results, mapped (they have no elements) so that callers may use them freely.
    indices = graph.addVariable(poplar::UNSIGNED_INT, {rows, K}, name + "/indices");
    Tensor values = graph.addVariable(input.elementType(), {rows, K}, name + "/values");
    graph.setTileMapping(indices, 0);
    graph.setTileMapping(values, 0);
    return values;
  }
  // Selection: take each row's largest, then mark it taken and lower it to the lowest value of the type, and
  // repeat. The mark keeps an element equal to that lowest value (0 of UNSIGNED_INT, false of BOOL) from being
  // taken twice.
  detail::completeMapping(graph, input, name);
  Tensor work = graph.clone(input, name + "/work");
  prog.add(poplar::program::Copy(input, work));
  Tensor taken = graph.addVariable(poplar::BOOL, {rows, cols}, name + "/taken");
  graph.setTileMapping(taken, graph.getTileMapping(input));
  popops::zero(graph, taken, prog, name + "/untaken");
  Tensor classes = classIndices(graph, poplar::UNSIGNED_INT, cols, name + "/select");
  const poplar::Type type = input.elementType();
  const bool floating = type == poplar::FLOAT || type == poplar::HALF;
  const pe::Const lowest = floating ? pe::Const(-std::numeric_limits<float>::infinity())
                           : type == poplar::INT ? pe::Const(std::numeric_limits<int>::min())
                                                 : pe::Const(0u);
  std::vector<Tensor> values, idx;
  for (unsigned k = 0; k < K; ++k) {
    const std::string step = name + "/" + std::to_string(k);
    Tensor best = popops::reduce(graph, work, {1}, popops::Operation::MAX, prog, step + "/value");
    // Each untaken element's index where it equals its row's largest, else `cols`; the smallest is the answer.
    Tensor where = popops::map(graph, pe::Select(pe::_3, pe::Const(unsigned(cols)), pe::_1 == pe::_2 && !pe::_4),
                               {work, best.reshape({rows, 1}), classes, taken}, prog, step + "/where");
    Tensor at = popops::reduce(graph, where, {1}, popops::Operation::MIN, prog, step + "/index");
    values.push_back(best.reshape({rows, 1}));
    idx.push_back(at.reshape({rows, 1}));
    if (k + 1 < K) {
      popops::mapInPlace(graph, pe::Select(lowest, pe::_1, pe::_2 == pe::_3), {work, classes, at.reshape({rows, 1})},
                         prog, step + "/remove");
      popops::mapInPlace(graph, pe::_1 || pe::_2 == pe::_3, {taken, classes, at.reshape({rows, 1})}, prog,
                         step + "/take");
    }
  }
  indices = poplar::concat(idx, 1);
  return poplar::concat(values, 1);
}

} // namespace

// PopLibs returns the values and the indices with a singleton dimension between the batch and K: [rows, 1, K].
Tensor topK(poplar::Graph &graph, const Tensor &input, Tensor &indices, unsigned K, bool, Sequence &prog,
            const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "topK");
  if (!input.valid())
    throw poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  if (input.rank() != 2)
    throw poplibs_error(name + ": the input has shape " + shapeOf(input) + "; pass a 2-D tensor [batch, values]");
  const std::size_t cols = input.dim(1);
  if (K > cols)
    throw poplibs_error(name + ": K is " + std::to_string(K) + " but the rows have " + std::to_string(cols) +
                        " values; pass K <= " + std::to_string(cols));
  const poplar::Type type = input.elementType();
  if (type != poplar::FLOAT && type != poplar::HALF && type != poplar::INT && type != poplar::UNSIGNED_INT &&
      type != poplar::BOOL)
    throw poplibs_error(name + ": the input holds " + type.toString() +
                        "; FLOAT, HALF, INT, UNSIGNED_INT and BOOL are supported (cast it with popops::cast)");
  Tensor values;
  if (type == poplar::BOOL && input.dim(0) > 0 && K > 0) {
    // BOOL rows are ranked as 0/1 and the values cast back.
    Tensor asInt = popops::cast(graph, input, poplar::UNSIGNED_INT, prog, name + "/toUnsigned");
    values = popops::cast(graph, topKRows(graph, asInt, indices, K, prog, name), poplar::BOOL, prog, name + "/toBool");
  } else {
    values = topKRows(graph, input, indices, K, prog, name);
  }
  indices = indices.expand({1});
  return values.expand({1});
}

poplar::program::Program calcAccuracy(poplar::Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                                      const Tensor &numCorrect, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "calcAccuracy");
  checkModelOutputs(modelOutputs, name);
  const bool labels = checkExpected(modelOutputs, expected, name);
  checkNumCorrect(graph, numCorrect, name);
  Sequence prog;
  // PopLibs adds this batch's count to numCorrect (a training loop sums it over batches); an empty batch adds 0.
  if (modelOutputs.dim(0) == 0)
    return prog;
  Tensor predicted = argMax(graph, modelOutputs, prog, name + "/predicted");
  Tensor wanted = labels ? expected : argMax(graph, expected, prog, name + "/expected");
  // An INT label of -1 (masked) becomes 0xffffffff, which no index equals.
  Tensor correct =
      popops::map(graph, pe::Cast(pe::_1 == pe::Cast(pe::_2, poplar::UNSIGNED_INT), poplar::UNSIGNED_INT),
                  {predicted, wanted}, prog, name + "/correct");
  popops::reduceWithOutput(graph, correct, numCorrect.flatten(), {0}, popops::ReduceParams(popops::Operation::ADD, true),
                           prog, name + "/count");
  return prog;
}

poplar::program::Program calcLoss(poplar::Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                                  const Tensor &loss, const Tensor &deltas, const Tensor &deltasScale,
                                  const Tensor &modelOutputScaling, LossType lossType,
                                  const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return calcLossImpl(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling, lossType,
                      nameOf(debugPrefix, "calcLoss"));
}

poplar::program::Program calcLoss(poplar::Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                                  const Tensor &loss, const Tensor &deltas, LossType lossType,
                                  const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return calcLossImpl(graph, modelOutputs, expected, loss, deltas, Tensor(), Tensor(), lossType,
                      nameOf(debugPrefix, "calcLoss"));
}

poplar::program::Program calcLoss(poplar::Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                                  const Tensor &loss, const Tensor &deltas, const Tensor &deltasScale,
                                  const Tensor &modelOutputScaling, const Tensor &numCorrect, LossType lossType,
                                  const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  const std::string name = nameOf(debugPrefix, "calcLoss");
  checkNumCorrect(graph, numCorrect, name);
  Sequence prog = calcLossImpl(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                               lossType, name);
  prog.add(calcAccuracy(graph, modelOutputs, expected, numCorrect, name + "/accuracy"));
  return prog;
}

poplar::program::Program calcLoss(poplar::Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                                  const Tensor &loss, const Tensor &deltas, const Tensor &numCorrect,
                                  LossType lossType, const poplar::DebugContext &debugContext) {
  const std::string debugPrefix = debugContext.getPathName();
  return calcLoss(graph, modelOutputs, expected, loss, deltas, Tensor(), Tensor(), numCorrect, lossType,
                  debugPrefix);
}

} // namespace popnn
