// The GRU forward pass, unrolled: one matMul for every step's input products (X {T*B, in} times the input weights
// as {in, 3*out}), then per step a matMul of h by the reset and update gates' output weights {out, 2*out}, a map
// adding the input products and biases, the gates' non-linearity, r * h, the candidate's matMul, sum and
// non-linearity, and one map for h' = c + u * (h - c).
#include "popnn/Gru.hpp"

#include <algorithm>

#include <popops/ElementWise.hpp>

#include "lstm_detail.hpp"
#include "popnn/NonLinearity.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace gru {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;
// The LSTM's option parsing, shape checks and linear variables serve the GRU too.
using lstm::detail::checkShape;
using lstm::detail::gateProductFlops;
using lstm::detail::stepElements;
using lstm::detail::checkSizesAndType;
using lstm::detail::linear;
using lstm::detail::matMulOptions;

namespace {

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
  if (p.resetAfter)
    throw poplibs_error(what + ": resetAfter is not supported");
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

Tensor gruFwd(poplar::Graph &graph, const GruParams &params, const Tensor &stateInit, const Tensor &in,
              const GruWeights &weights, Tensor *intermediates, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options, poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "gruFwd");
  checkParams(params, name);
  poplar::OptionFlags mm = matMulOptions(options, name);
  if (intermediates)
    throw poplibs_error(name + ": intermediates for a backward pass are not supported (inference only); pass null");
  const std::size_t B = params.rnn.batchSize, T = params.rnn.timeSteps, I = params.rnn.layerSizes[0],
                    O = params.rnn.layerSizes[1];
  const poplar::Type type = params.rnn.dataType;
  checkShape(in, {T, B, I}, type, name, "the input");
  checkShape(stateInit, {B, O}, type, name, "the initial state");
  checkShape(weights.inputWeights, {3, I, O}, type, name, "the input weights");
  checkShape(weights.outputWeights, {3, O, O}, type, name, "the output weights");
  checkShape(weights.biases, {3, O}, type, name, "the biases");
  std::size_t slot[BASIC_GRU_CELL_NUM_UNITS];
  for (std::size_t k = 0; k < 3; ++k)
    slot[params.cellOrder[k]] = k;
  const std::size_t r = slot[BASIC_GRU_CELL_RESET_GATE], u = slot[BASIC_GRU_CELL_UPDATE_GATE],
                    c = slot[BASIC_GRU_CELL_CANDIDATE];

  // Every step's input products at once: {T, B, 3, out} in gate slots.
  const Tensor xw =
      poplin::matMul(graph, in.reshape({T * B, I}), weights.inputWeights.dimShuffle({1, 0, 2}).reshape({I, 3 * O}),
                     prog, name + "/inputProducts", mm)
          .reshape({T, B, 3, O});
  const Tensor wo = weights.outputWeights;
  // The reset and update gates' recurrent weights side by side {out, 2*out}, their inputs and biases alike.
  const Tensor woGates = poplar::concat(wo[r], wo[u], 1);
  const Tensor biasGates = poplar::concat(weights.biases[r], weights.biases[u]).reshape({1, 2 * O});
  const Tensor biasCand = weights.biases[c].reshape({1, O});

  Tensor outSeq = linear(graph, type, {T, B, O}, name + "/output");
  Tensor h = stateInit;
  for (std::size_t t = 0; t < T; ++t) {
    const std::string step = name + "/step" + std::to_string(t);
    auto inputOf = [&](std::size_t s) { return xw[t].slice(s, s + 1, 1).reshape({B, O}); };
    Tensor gates = poplin::matMul(graph, h, woGates, prog, step + "/gateProducts", mm);
    popops::mapInPlace(graph, pe::_1 + pe::_2 + pe::_3, {gates, poplar::concat(inputOf(r), inputOf(u), 1), biasGates},
                       prog, step + "/gateSum");
    nonLinearityInPlace(graph, params.recurrentActivation, gates, prog, step + "/gates");
    const Tensor resetGate = gates.slice(0, O, 1), updateGate = gates.slice(O, 2 * O, 1);
    Tensor resetOutput = popops::mul(graph, resetGate, h, prog, step + "/resetOutput");
    Tensor cand = poplin::matMul(graph, resetOutput, wo[c], prog, step + "/candidateProduct", mm);
    popops::mapInPlace(graph, pe::_1 + pe::_2 + pe::_3, {cand, inputOf(c), biasCand}, prog, step + "/candidateSum");
    nonLinearityInPlace(graph, params.activation, cand, prog, step + "/candidate");
    popops::mapWithOutput(graph, pe::_1 + pe::_2 * (pe::_3 - pe::_1), {cand, updateGate, h}, outSeq[t], prog,
                          step + "/output");
    h = outSeq[t];
  }
  return params.outputFullSequence ? outSeq : outSeq[T - 1];
}

} // namespace gru
} // namespace popnn
