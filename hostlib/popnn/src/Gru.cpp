// The GRU forward pass, unrolled: one matMul for every step's input products (X {T*B, in} times the input weights
// as {in, 3*out}), then per step the recurrent matMuls (h by the reset and update gates' output weights and
// (r * h) by the candidate's; with resetAfter one matMul of h by all three), maps adding the input products and
// biases, the non-linearities in place, and one map for h' = c + u * (h - c) (u scaled by 1 - a for the
// attention GRU, h' masked by realTimeSteps). For training each step writes its gates into the intermediates.
#include "popnn/Gru.hpp"

#include <algorithm>

#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>

#include "gru_detail.hpp"
#include "lstm_detail.hpp"
#include "popnn/NonLinearity.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace gru {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;
// The LSTM's flop counting serves the GRU too.
using lstm::detail::gateProductFlops;
using lstm::detail::stepElements;

namespace detail {

std::string nameOf(const poplar::DebugContext &dc, const char *fn) {
  return poplibs_support::debugName(dc, "popnn::gru::", fn);
}

void checkParams(const GruParams &p, const std::string &what) {
  checkSizesAndType(p.rnn, what);
  std::vector<BasicGruCellUnit> order = p.cellOrder;
  std::sort(order.begin(), order.end());
  if (order != std::vector<BasicGruCellUnit>{BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE,
                                             BASIC_GRU_CELL_CANDIDATE})
    throw poplibs_error(what + ": cellOrder is not a permutation of the three units");
}

Layer checkLayer(const GruParams &p, const GruWeights &w, const std::string &what) {
  checkParams(p, what);
  Layer l;
  l.T = p.rnn.timeSteps;
  l.B = p.rnn.batchSize;
  l.I = p.rnn.layerSizes[0];
  l.O = p.rnn.layerSizes[1];
  l.type = p.rnn.dataType;
  l.resetAfter = p.resetAfter;
  l.fullSequence = p.outputFullSequence;
  for (std::size_t k = 0; k < BASIC_GRU_CELL_NUM_UNITS; ++k)
    l.slot[p.cellOrder[k]] = k;
  l.fwdSlots = 3;
  l.outputSlot = l.fullSequence ? 0 : l.fwdSlots++;
  l.candidateRecurrentSlot = l.resetAfter ? l.fwdSlots++ : 0;
  checkShape(w.inputWeights, {3, l.I, l.O}, l.type, what, "the input weights");
  checkShape(w.outputWeights, {3, l.O, l.O}, l.type, what, "the output weights");
  if (l.resetAfter)
    checkShape(w.biases, {3, 2, l.O}, l.type, what, "the biases (resetAfter)");
  else
    checkShape(w.biases, {3, l.O}, l.type, what, "the biases");
  return l;
}

void checkRealTimeSteps(const Layer &l, const Tensor &steps, const std::string &what) {
  if (!l.fullSequence)
    throw poplibs_error(what + ": a run-time step count (realTimeSteps, or GruParams' timeSteps tensor) needs "
                        "params.outputFullSequence = true");
  const poplar::Type t = steps.valid() ? steps.elementType() : poplar::INT;
  if (!steps.valid() || steps.shape() != std::vector<std::size_t>{l.B} ||
      (t != poplar::INT && t != poplar::UNSIGNED_INT && t != poplar::SHORT && t != poplar::UNSIGNED_SHORT))
    throw poplibs_error(what + ": realTimeSteps must be int or unsigned int {" + std::to_string(l.B) + "}, not " +
                        (steps.valid() ? t.toString() + " " + steps.shapeToString() : "invalid"));
}

const Tensor *stepCounts(const GruParams &p, const Tensor *given, Tensor &store) {
  if (given || !p.rnn.variableTimeSteps())
    return given;
  const Tensor &v = p.rnn.varTimeSteps;
  store = v.numElements() == 1 ? v.reshape({1}).broadcast(unsigned(p.rnn.batchSize), 0) : v;
  return &store;
}

Tensor stepMasks(poplar::Graph &graph, const Layer &l, const Tensor &steps, poplar::program::Sequence &prog,
                 const std::string &name) {
  std::vector<int> index(l.T * l.B);
  for (std::size_t i = 0; i < index.size(); ++i)
    index[i] = int(i / l.B);
  const Tensor t = graph.addConstant(poplar::INT, {l.T, l.B}, index.data(), name + "/stepIndex");
  poputil::mapTensorLinearly(graph, t);
  return popops::map(graph, pe::Cast(pe::_1 < pe::Cast(pe::_2, poplar::INT), l.type),
                     {t, steps.expand({0}).broadcast(l.T, 0)}, prog, name + "/stepMasks");
}

Tensor perOutput(const Tensor &byBatchAndStep, std::size_t t, std::size_t O) {
  return byBatchAndStep.slice(t, t + 1, 1).broadcast(O, 1);
}

} // namespace detail

using namespace detail;

namespace {

// The forward pass of every overload; realTimeSteps and attention may be null.
Tensor forward(poplar::Graph &graph, const GruParams &params, const Tensor &stateInit, const Tensor &in,
               const GruWeights &weights, Tensor *intermediates, const Tensor *realTimeSteps, const Tensor *attention,
               poplar::program::Sequence &prog, const std::string &name, const poplar::OptionFlags &options) {
  Tensor countsOfParams;
  realTimeSteps = stepCounts(params, realTimeSteps, countsOfParams);
  const Layer l = checkLayer(params, weights, name);
  poplar::OptionFlags mm = matMulOptions(options, name);
  const std::size_t B = l.B, T = l.T, I = l.I, O = l.O;
  const poplar::Type type = l.type;
  checkShape(in, {T, B, I}, type, name, "the input");
  checkShape(stateInit, {B, O}, type, name, "the initial state");
  if (attention)
    checkShape(*attention, {B, T}, type, name, "the attention scores");
  Tensor masks;
  if (realTimeSteps) {
    checkRealTimeSteps(l, *realTimeSteps, name);
    masks = stepMasks(graph, l, *realTimeSteps, prog, name).transpose();
  }
  const std::size_t r = l.slot[BASIC_GRU_CELL_RESET_GATE], u = l.slot[BASIC_GRU_CELL_UPDATE_GATE],
                    c = l.slot[BASIC_GRU_CELL_CANDIDATE];

  // Every step's input products at once: {T, B, 3, out} in gate slots.
  const Tensor xw =
      poplin::matMul(graph, in.reshape({T * B, I}), weights.inputWeights.dimShuffle({1, 0, 2}).reshape({I, 3 * O}),
                     prog, name + "/inputProducts", mm)
          .reshape({T, B, 3, O});
  const Tensor wo = weights.outputWeights;
  // Bias k as {1, out}: the only one, or with resetAfter the input (0) or recurrent (1) one.
  auto bias = [&](std::size_t k, std::size_t which) {
    return (l.resetAfter ? weights.biases[k][which] : weights.biases[k]).reshape({1, O});
  };

  // The steps write their gates into the intermediates when training, else into a scratch {S, B, out} each.
  Tensor inter;
  if (intermediates)
    inter = linear(graph, type, {T, l.fwdSlots, B, O}, name + "/intermediates");
  Tensor outSeq = intermediates && !l.fullSequence
                      ? inter.slice(l.outputSlot, l.outputSlot + 1, 1).reshape({T, B, O})
                      : linear(graph, type, {T, B, O}, name + "/output");
  Tensor h = stateInit;
  for (std::size_t t = 0; t < T; ++t) {
    const std::string step = name + "/step" + std::to_string(t);
    const Tensor st = intermediates ? inter[t] : linear(graph, type, {l.fwdSlots, B, O}, step + "/gates");
    auto inputOf = [&](std::size_t s) { return xw[t].slice(s, s + 1, 1).reshape({B, O}); };
    const Tensor gates = poplar::concat(st[FWD_RESET], st[FWD_UPDATE], 1);
    const Tensor gateInputs = poplar::concat(inputOf(r), inputOf(u), 1);
    const Tensor cand = st[FWD_CANDIDATE];
    if (!l.resetAfter) {
      Tensor p = poplin::matMul(graph, h, poplar::concat(wo[r], wo[u], 1), prog, step + "/gateProducts", mm);
      popops::mapWithOutput(graph, pe::_1 + pe::_2 + pe::_3,
                            {p, gateInputs, poplar::concat(bias(r, 0), bias(u, 0), 1)}, gates, prog,
                            step + "/gateSum");
      nonLinearityInPlace(graph, params.recurrentActivation, gates, prog, step + "/gates");
      Tensor resetOutput = popops::mul(graph, st[FWD_RESET], h, prog, step + "/resetOutput");
      Tensor q = poplin::matMul(graph, resetOutput, wo[c], prog, step + "/candidateProduct", mm);
      popops::mapWithOutput(graph, pe::_1 + pe::_2 + pe::_3, {q, inputOf(c), bias(c, 0)}, cand, prog,
                            step + "/candidateSum");
    } else {
      // One product of h by all three recurrent weights; the reset gate then scales the candidate's part.
      Tensor p = poplin::matMul(graph, h, wo.dimShuffle({1, 0, 2}).reshape({O, 3 * O}), prog,
                                step + "/recurrentProducts", mm);
      auto rec = [&](std::size_t s) { return p.slice(s * O, (s + 1) * O, 1); };
      popops::mapWithOutput(graph, pe::_1 + pe::_2 + pe::_3 + pe::_4,
                            {poplar::concat(rec(r), rec(u), 1), gateInputs,
                             poplar::concat(bias(r, 0), bias(u, 0), 1), poplar::concat(bias(r, 1), bias(u, 1), 1)},
                            gates, prog, step + "/gateSum");
      nonLinearityInPlace(graph, params.recurrentActivation, gates, prog, step + "/gates");
      const Tensor candRec =
          intermediates ? st[l.candidateRecurrentSlot] : linear(graph, type, {B, O}, step + "/candidateRecurrent");
      popops::mapWithOutput(graph, pe::_1 + pe::_2, {rec(c), bias(c, 1)}, candRec, prog,
                            step + "/candidateRecurrent");
      popops::mapWithOutput(graph, pe::_1 + pe::_2 + pe::_3 * pe::_4,
                            {inputOf(c), bias(c, 0), st[FWD_RESET], candRec}, cand, prog, step + "/candidateSum");
    }
    nonLinearityInPlace(graph, params.activation, cand, prog, step + "/candidate");
    // h' = c + u * (h - c), with u scaled by 1 - a (attention) and h' by the step's mask (realTimeSteps).
    std::vector<Tensor> ops = {cand, st[FWD_UPDATE], h};
    std::unique_ptr<pe::Expr> update(pe::_2.clone());
    if (attention) {
      ops.push_back(perOutput(*attention, t, O));
      update = (pe::_2 * (pe::Const(1.0f) - pe::_4)).clone();
    }
    std::unique_ptr<pe::Expr> next((pe::_1 + *update * (pe::_3 - pe::_1)).clone());
    if (realTimeSteps) {
      ops.push_back(perOutput(masks, t, O));
      next = (*next * pe::PlaceHolder(unsigned(ops.size()))).clone();
    }
    popops::mapWithOutput(graph, *next, ops, outSeq[t], prog, step + "/output");
    h = outSeq[t];
  }
  if (intermediates)
    *intermediates = inter;
  return l.fullSequence ? outSeq : outSeq[T - 1];
}

} // namespace

uint64_t getBasicGruCellFwdFlops(const GruParams &p) {
  // r * h, then h' = c + u * (h - c): two multiplications, an addition and a subtraction per element.
  return gateProductFlops(p.rnn, 3, true) + 4 * stepElements(p.rnn);
}

uint64_t getBasicGruCellBwdFlops(const GruParams &p) {
  return gateProductFlops(p.rnn, 3, p.calcInputGradients) + 8 * stepElements(p.rnn);
}

uint64_t getBasicGruCellWuFlops(const GruParams &p) {
  // Both weight deltas take every step's products; the three biases sum their gate gradients.
  return gateProductFlops(p.rnn, 3, true) + 3 * stepElements(p.rnn);
}

const std::vector<BasicGruCellUnit> getDefaultBasicGruCellOrder() {
  return {BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE, BASIC_GRU_CELL_CANDIDATE};
}

GruParams::GruParams(poplar::Type type, std::size_t batch, std::size_t steps, std::vector<std::size_t> sizes,
                     NonLinearityType act, NonLinearityType recurrentAct)
    : rnn(type, batch, steps, sizes), dataType(type), batchSize(batch), timeSteps(steps), layerSizes(sizes),
      outputFullSequence(true), calcInputGradients(true), cellOrder(getDefaultBasicGruCellOrder()),
      resetAfter(false), activation(act), recurrentActivation(recurrentAct) {}

GruParams::GruParams(poplar::Type type, std::size_t batch, std::size_t maxSteps, const Tensor &steps,
                     std::vector<std::size_t> sizes, NonLinearityType act, NonLinearityType recurrentAct)
    : rnn(type, batch, maxSteps, steps, sizes), dataType(type), batchSize(batch), timeSteps(maxSteps),
      layerSizes(sizes), outputFullSequence(true), calcInputGradients(true), cellOrder(getDefaultBasicGruCellOrder()),
      resetAfter(false), activation(act), recurrentActivation(recurrentAct) {}

Tensor createInput(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createInput");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {params.rnn.timeSteps, params.rnn.batchSize, params.rnn.layerSizes[0]},
                name);
}

Tensor createInitialState(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createInitialState");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {params.rnn.batchSize, params.rnn.layerSizes[1]}, name);
}

std::pair<Tensor, Tensor> createWeightsKernel(poplar::Graph &graph, const GruParams &params,
                                              const poplar::DebugContext &debugContext,
                                              const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createWeightsKernel");
  checkParams(params, name);
  return lstm::detail::createGateWeights(graph, params.rnn, 3, name, matMulOptions(options, name));
}

Tensor createWeightsBiases(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "createWeightsBiases");
  checkParams(params, name);
  matMulOptions(options, name);
  if (params.resetAfter)
    return linear(graph, params.rnn.dataType, {3, 2, params.rnn.layerSizes[1]}, name);
  return linear(graph, params.rnn.dataType, {3, params.rnn.layerSizes[1]}, name);
}

GruWeights createWeights(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &options, poplin::PlanningCache *cache) {
  GruWeights w;
  std::pair<Tensor, Tensor> k = createWeightsKernel(graph, params, debugContext, options, cache);
  w.inputWeights = k.first;
  w.outputWeights = k.second;
  w.biases = createWeightsBiases(graph, params, debugContext, options, cache);
  return w;
}

Tensor createAttention(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                       const poplar::OptionFlags &options) {
  const std::string name = nameOf(debugContext, "createAttention");
  checkParams(params, name);
  matMulOptions(options, name);
  return linear(graph, params.rnn.dataType, {params.rnn.batchSize, params.rnn.timeSteps}, name);
}

Tensor gruFwd(poplar::Graph &graph, const GruParams &params, const Tensor &stateInit, const Tensor &in,
              const GruWeights &weights, Tensor *intermediates, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return forward(graph, params, stateInit, in, weights, intermediates, 0, 0, prog, nameOf(debugContext, "gruFwd"),
                 options);
}

Tensor gruFwd(poplar::Graph &graph, const GruParams &params, const Tensor &stateInit, const Tensor &in,
              const Tensor &realTimeSteps, const GruWeights &weights, Tensor *intermediates,
              poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
              const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return forward(graph, params, stateInit, in, weights, intermediates, &realTimeSteps, 0, prog,
                 nameOf(debugContext, "gruFwd"), options);
}

Tensor auGruFwd(poplar::Graph &graph, const GruParams &params, const Tensor &stateInit, const Tensor &in,
                const GruWeights &weights, Tensor *intermediates, const Tensor &attScores,
                poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return forward(graph, params, stateInit, in, weights, intermediates, 0, &attScores, prog,
                 nameOf(debugContext, "auGruFwd"), options);
}

Tensor auGruFwd(poplar::Graph &graph, const GruParams &params, const Tensor &stateInit, const Tensor &in,
                const Tensor &realTimeSteps, const GruWeights &weights, Tensor *intermediates,
                const Tensor &attScores, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return forward(graph, params, stateInit, in, weights, intermediates, &realTimeSteps, &attScores, prog,
                 nameOf(debugContext, "auGruFwd"), options);
}

} // namespace gru
} // namespace popnn
