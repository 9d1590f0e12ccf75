// The LSTM forward pass, unrolled: one matMul for every step's input products (X {T*B, in} times the input
// weights as {in, 4*out}), then per step one matMul of h by the output weights {out, 4*out}, one map adding the
// input products and biases, the gate non-linearities in place on their slots, and two maps for c' and h'.
#include "popnn/Lstm.hpp"

#include <algorithm>

#include <poplar/exceptions.hpp>
#include <poplin/FullyConnected.hpp>
#include <poplin/MatMul.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include "lstm_detail.hpp"
#include "popnn/NonLinearity.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace lstm {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;

namespace detail {

std::string nameOf(const poplar::DebugContext &dc, const char *fn) {
  return poplibs_support::debugName(dc, "popnn::lstm::", fn);
}

void checkSizesAndType(const rnn::RnnParams &rnn, const std::string &what) {
  if (rnn.layerSizes.size() != 2)
    throw poplibs_error(what + ": layerSizes has " + std::to_string(rnn.layerSizes.size()) +
                        " entries; give {input size, output size}");
  if (rnn.dataType != poplar::FLOAT && rnn.dataType != poplar::HALF)
    throw poplibs_error(what + ": dataType " + rnn.dataType.toString() + " is not FLOAT or HALF");
}

std::pair<Tensor, Tensor> createGateWeights(poplar::Graph &graph, const rnn::RnnParams &rnn, std::size_t gates,
                                            const std::string &name, const poplar::OptionFlags &mm) {
  const std::size_t B = rnn.batchSize, T = rnn.timeSteps, in = rnn.layerSizes[0], out = rnn.layerSizes[1];
  Tensor wi = poplin::createMatMulInputRHS(graph, rnn.dataType, {T * B, in}, {in, gates * out}, name + "/input", mm);
  Tensor wo = poplin::createMatMulInputRHS(graph, rnn.dataType, {B, out}, {out, gates * out}, name + "/output", mm);
  return {wi.reshape({in, gates, out}).dimShuffle({1, 0, 2}), wo.reshape({out, gates, out}).dimShuffle({1, 0, 2})};
}

void checkParams(const LstmParams &p, const std::string &what) {
  checkSizesAndType(p.rnn, what);
  std::vector<BasicLstmCellUnit> order = p.cellOrder;
  std::sort(order.begin(), order.end());
  if (order != std::vector<BasicLstmCellUnit>{BASIC_LSTM_CELL_FORGET_GATE, BASIC_LSTM_CELL_INPUT_GATE,
                                              BASIC_LSTM_CELL_CANDIDATE, BASIC_LSTM_CELL_OUTPUT_GATE})
    throw poplibs_error(what + ": cellOrder is not a permutation of the four units");
}

// The matMul options of the LSTM options.
poplar::OptionFlags matMulOptions(const poplar::OptionFlags &options, const std::string &what) {
  poplar::OptionFlags mm;
  for (const auto &o : options) {
    if (o.first == "availableMemoryProportion" || o.first == "partialsType") {
      mm.set(o.first, o.second);
    } else if (o.first == "inferenceOnly") {
      if (o.second != "true" && o.second != "false")
        throw poplar::invalid_option(what + ": option inferenceOnly='" + o.second + "' is not true or false");
    } else {
      throw poplar::invalid_option(what + ": unknown option '" + o.first +
                                   "' (known: availableMemoryProportion, partialsType, inferenceOnly)");
    }
  }
  poplin::matmulValidateOptions(mm);
  return mm;
}

Tensor linear(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
              const std::string &name) {
  Tensor t = graph.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph, t);
  return t;
}

void checkShape(const Tensor &t, const std::vector<std::size_t> &shape, const poplar::Type &type,
                const std::string &what, const char *operand) {
  if (!t.valid() || t.shape() != shape || t.elementType() != type) {
    std::string want = "{";
    for (std::size_t i = 0; i < shape.size(); ++i)
      want += (i ? ", " : "") + std::to_string(shape[i]);
    throw poplibs_error(what + ": " + operand + " must be " + type.toString() + " " + want + "}, not " +
                        (t.valid() ? t.elementType().toString() + " " + t.shapeToString() : "invalid"));
  }
}

std::vector<std::size_t> slotOf(const LstmParams &p) {
  std::vector<std::size_t> slot(BASIC_LSTM_CELL_NUM_UNITS);
  for (std::size_t k = 0; k < BASIC_LSTM_CELL_NUM_UNITS; ++k)
    slot[p.cellOrder[k]] = k;
  return slot;
}

// The derivative of non-linearity `nl` as a function of its output `y`.
std::unique_ptr<pe::Expr> derivative(NonLinearityType nl, const pe::Expr &y, const std::string &what) {
  switch (nl) {
  case NonLinearityType::SIGMOID:
    return (y * (pe::Const(1.0f) - y)).clone();
  case NonLinearityType::TANH:
    return (pe::Const(1.0f) - y * y).clone();
  case NonLinearityType::RELU:
    return pe::Select(pe::Const(1.0f), pe::Const(0.0f), y > pe::Const(0.0f)).clone();
  default:
    throw poplibs_error(what + ": the backward pass supports SIGMOID, TANH and RELU activations only");
  }
}

} // namespace detail

using namespace detail;

const std::vector<BasicLstmCellUnit> getDefaultBasicLstmCellOrder() {
  return {BASIC_LSTM_CELL_FORGET_GATE, BASIC_LSTM_CELL_INPUT_GATE, BASIC_LSTM_CELL_CANDIDATE,
          BASIC_LSTM_CELL_OUTPUT_GATE};
}

LstmParams::LstmParams(poplar::Type type, std::size_t batch, std::size_t steps, std::vector<std::size_t> sizes,
                       NonLinearityType act, NonLinearityType recurrentAct)
    : rnn(type, batch, steps, sizes), dataType(type), batchSize(batch), timeSteps(steps), layerSizes(sizes),
      outputFullSequence(true), doInputWeightCalc(true), calcInputGradients(true), preserveFinalState(false),
      cellOrder(getDefaultBasicLstmCellOrder()), activation(act), recurrentActivation(recurrentAct) {}

Tensor LstmState::getAsTensor() const { return poplar::concat(output.expand({0}), cellState.expand({0})); }

uint64_t detail::gateProductFlops(const rnn::RnnParams &rnn, std::size_t gates, bool withInput) {
  const uint64_t B = rnn.batchSize, T = rnn.maxTimeSteps, in = rnn.layerSizes.at(0), out = rnn.layerSizes.at(1);
  return 2 * gates * out * B * T * (out + (withInput ? in : 0));
}

uint64_t detail::stepElements(const rnn::RnnParams &rnn) {
  return uint64_t(rnn.batchSize) * rnn.maxTimeSteps * rnn.layerSizes.at(1);
}

uint64_t getBasicLstmCellFwdFlops(const LstmParams &p) {
  // c' = f * c + i * g and h' = o * act(c'): three multiplications and one addition per element.
  return gateProductFlops(p.rnn, 4, p.doInputWeightCalc) + 4 * stepElements(p.rnn);
}

uint64_t getBasicLstmCellBwdFlops(const LstmParams &p) {
  // The gradients at c and at the four gates, each a product and a sum per element.
  return gateProductFlops(p.rnn, 4, p.calcInputGradients) + 8 * stepElements(p.rnn);
}

uint64_t getBasicLstmCellWuFlops(const LstmParams &p) {
  // Both weight deltas take every step's products; the four biases sum their gate gradients.
  return gateProductFlops(p.rnn, 4, true) + 4 * stepElements(p.rnn);
}

std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags> >
getMatMulPrePlanParameters(LstmParams params, poplar::OptionFlags opts) {
  const std::string name = "popnn::lstm::getMatMulPrePlanParameters";
  checkParams(params, name);
  const poplar::OptionFlags mm = matMulOptions(opts, name);
  bool inferenceOnly = false;
  for (const auto &o : opts)
    if (o.first == "inferenceOnly")
      inferenceOnly = o.second == "true";
  const std::size_t B = params.rnn.batchSize, T = params.rnn.timeSteps, in = params.rnn.layerSizes[0],
                    out = params.rnn.layerSizes[1];
  std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags> > all;
  if (params.doInputWeightCalc)
    all = poplin::fc::getMatMulPrePlanParameters({1, T * B, in, 4 * out}, mm, params.rnn.dataType, inferenceOnly);
  const auto step = poplin::fc::getMatMulPrePlanParameters({1, B, out, 4 * out}, mm, params.rnn.dataType,
                                                           inferenceOnly);
  all.insert(all.end(), step.begin(), step.end());
  return all;
}

Tensor createInput(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createInput");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {params.rnn.timeSteps, params.rnn.batchSize, params.rnn.layerSizes[0]},
                name);
}

Tensor createInitialOutput(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createInitialOutput");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {params.rnn.batchSize, params.rnn.layerSizes[1]}, name);
}

Tensor createInitialCellState(poplar::Graph &graph, const LstmParams &params,
                              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                              poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createInitialCellState");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {params.rnn.batchSize, params.rnn.layerSizes[1]}, name);
}

LstmState createInitialState(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  LstmState s;
  s.output = createInitialOutput(graph, params, {debugContext, "output"}, options, cache);
  s.cellState = createInitialCellState(graph, params, {debugContext, "cellState"}, options, cache);
  return s;
}

void zeroInitialState(poplar::Graph &graph, const LstmState &initialState, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext) {
  const std::string name = nameOf(debugContext, "zeroInitialState");
  popops::zero(graph, initialState.output, prog, name + "/output");
  popops::zero(graph, initialState.cellState, prog, name + "/cellState");
}

std::pair<Tensor, Tensor> createWeightsKernel(poplar::Graph &graph, const LstmParams &params,
                                              const poplar::DebugContext &debugContext,
                                              const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createWeightsKernel");
  checkParams(params, name);
  return createGateWeights(graph, params.rnn, 4, name, matMulOptions(options, name));
}

Tensor createWeightsBiases(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createWeightsBiases");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {4, params.rnn.layerSizes[1]}, name);
}

LstmWeights createWeights(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  LstmWeights w;
  std::pair<Tensor, Tensor> k = createWeightsKernel(graph, params, debugContext, options, cache);
  w.inputWeights = k.first;
  w.outputWeights = k.second;
  w.biases = createWeightsBiases(graph, params, debugContext, options, cache);
  return w;
}

std::pair<Tensor, Tensor> lstmFwd(poplar::Graph &graph, const LstmParams &params, const LstmState &stateInit,
                                  const Tensor &in, const LstmWeights &weights, Tensor *intermediates,
                                  poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                                  const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "lstmFwd");
  checkParams(params, name);
  poplar::OptionFlags mm = matMulOptions(options, name);
  if (!params.doInputWeightCalc)
    throw poplibs_error(name + ": doInputWeightCalc = false is not supported");
  const std::size_t B = params.rnn.batchSize, T = params.rnn.timeSteps, I = params.rnn.layerSizes[0],
                    O = params.rnn.layerSizes[1];
  const poplar::Type type = params.rnn.dataType;
  checkShape(in, {T, B, I}, type, name, "the input");
  checkShape(stateInit.output, {B, O}, type, name, "the initial output");
  checkShape(stateInit.cellState, {B, O}, type, name, "the initial cell state");
  checkShape(weights.inputWeights, {4, I, O}, type, name, "the input weights");
  checkShape(weights.outputWeights, {4, O, O}, type, name, "the output weights");
  checkShape(weights.biases, {4, O}, type, name, "the biases");

  // Every step's input products at once: {T*B, 4*out}, gate slot-major within a row.
  Tensor xw = poplin::matMul(graph, in.reshape({T * B, I}), weights.inputWeights.dimShuffle({1, 0, 2}).reshape({I, 4 * O}),
                             prog, name + "/inputProducts", mm)
                  .reshape({T, B, 4 * O});
  const Tensor wo = weights.outputWeights.dimShuffle({1, 0, 2}).reshape({O, 4 * O});
  const Tensor bias = weights.biases.reshape({1, 4 * O});
  const std::vector<std::size_t> slot = slotOf(params);

  // For training every step's gates, act(c), c and h are kept in the intermediates, and the steps write their
  // results there; the output sequence is then a view of the h slots.
  Tensor inter;
  if (intermediates)
    inter = linear(graph, type, {T, FWD_SLOTS, B, O}, name + "/intermediates");
  Tensor outSeq = intermediates ? inter.slice(FWD_OUTPUT, FWD_OUTPUT + 1, 1).reshape({T, B, O})
                                : linear(graph, type, {T, B, O}, name + "/output");
  Tensor h = stateInit.output, c = stateInit.cellState;
  for (std::size_t t = 0; t < T; ++t) {
    const std::string step = name + "/step" + std::to_string(t);
    Tensor gates = poplin::matMul(graph, h, wo, prog, step + "/recurrentProducts", mm);
    if (intermediates) {
      Tensor kept = inter[t].slice(0, 4).dimShuffle({1, 0, 2}).reshape({B, 4 * O});
      popops::mapWithOutput(graph, pe::_1 + pe::_2 + pe::_3, {gates, xw[t], bias}, kept, prog, step + "/sum");
      gates = kept;
    } else {
      popops::mapInPlace(graph, pe::_1 + pe::_2 + pe::_3, {gates, xw[t], bias}, prog, step + "/sum");
    }
    Tensor g3 = gates.reshape({B, 4, O});
    auto unit = [&](BasicLstmCellUnit u) { return g3.slice(slot[u], slot[u] + 1, 1).reshape({B, O}); };
    for (BasicLstmCellUnit u : {BASIC_LSTM_CELL_FORGET_GATE, BASIC_LSTM_CELL_INPUT_GATE, BASIC_LSTM_CELL_OUTPUT_GATE})
      nonLinearityInPlace(graph, params.recurrentActivation, unit(u), prog, step + "/gate" + std::to_string(u));
    nonLinearityInPlace(graph, params.activation, unit(BASIC_LSTM_CELL_CANDIDATE), prog, step + "/candidate");
    const std::vector<Tensor> cellOps = {unit(BASIC_LSTM_CELL_FORGET_GATE), c, unit(BASIC_LSTM_CELL_INPUT_GATE),
                                         unit(BASIC_LSTM_CELL_CANDIDATE)};
    Tensor cNew;
    if (intermediates) {
      cNew = inter[t][FWD_CELL];
      popops::mapWithOutput(graph, pe::_1 * pe::_2 + pe::_3 * pe::_4, cellOps, cNew, prog, step + "/cellState");
    } else {
      cNew = popops::map(graph, pe::_1 * pe::_2 + pe::_3 * pe::_4, cellOps, prog, step + "/cellState");
    }
    Tensor act = nonLinearity(graph, params.activation, cNew, prog, step + "/activation");
    if (intermediates)
      prog.add(poplar::program::Copy(act, inter[t][FWD_ACT_CELL]));
    popops::mapWithOutput(graph, pe::_1 * pe::_2, {unit(BASIC_LSTM_CELL_OUTPUT_GATE), act}, outSeq[t], prog,
                          step + "/output");
    h = outSeq[t];
    c = cNew;
  }
  if (intermediates)
    *intermediates = inter;
  return {params.outputFullSequence ? outSeq : outSeq[T - 1], c};
}

} // namespace lstm
} // namespace popnn
