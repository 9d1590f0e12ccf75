// The LSTM training passes (lstmBwd, lstmWU, lstmBwdWithWU), on the device with popops maps and poplin matMuls.
// Backward through step t (in reverse), with the forward's gates f, i, g, o (after their non-linearities),
// a = act(c_t) and c_{t-1} from the intermediates, dh the output's gradient (the step's outputGrad plus the
// recurrent gradient) and dc the cell state's gradient from step t+1:
//   dc_t = dc + dh * o * act'(a),   do^ = dh * a * sigma'(o),
//   df^ = dc_t * c_{t-1} * sigma'(f), di^ = dc_t * g * sigma'(i), dg^ = dc_t * i * act'(g),
//   dc_{t-1} = dc_t * f,            dh_{t-1} = [df^ di^ dg^ do^] Wo^T
// where ^ marks a gradient before the gate's non-linearity; the derivatives are written in terms of the
// non-linearity's output. The pre-activation gradients of all steps are the backward intermediates {T, 4, B, out};
// the weight update multiplies them by the inputs and the previous outputs, the input gradient by Wi^T.
#include <memory>

#include <poplin/MatMul.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include "lstm_detail.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace lstm {

namespace pe = popops::expr;
using poplar::Tensor;
using poputil::poplibs_error;
using namespace detail;

namespace {

// The shapes of the tensors every training pass is given.
struct Shapes {
  std::size_t T, B, I, O;
  poplar::Type type;
};

Shapes checkTraining(const LstmParams &params, const LstmState &fwdStateInit, const Tensor &fwdIntermediates,
                     const LstmWeights &weights, const Tensor &input, const Tensor &output, const std::string &name) {
  checkParams(params, name);
  if (!params.doInputWeightCalc)
    throw poplibs_error(name + ": doInputWeightCalc = false is not supported");
  Shapes s{params.rnn.timeSteps, params.rnn.batchSize, params.rnn.layerSizes[0], params.rnn.layerSizes[1],
           params.rnn.dataType};
  checkShape(fwdStateInit.output, {s.B, s.O}, s.type, name, "the initial output");
  checkShape(fwdStateInit.cellState, {s.B, s.O}, s.type, name, "the initial cell state");
  checkShape(fwdIntermediates, {s.T, FWD_SLOTS, s.B, s.O}, s.type, name,
             "the forward intermediates (lstmFwd's)");
  checkShape(weights.inputWeights, {4, s.I, s.O}, s.type, name, "the input weights");
  checkShape(weights.outputWeights, {4, s.O, s.O}, s.type, name, "the output weights");
  checkShape(weights.biases, {4, s.O}, s.type, name, "the biases");
  checkShape(input, {s.T, s.B, s.I}, s.type, name, "the input");
  if (params.outputFullSequence)
    checkShape(output, {s.T, s.B, s.O}, s.type, name, "the output");
  else
    checkShape(output, {s.B, s.O}, s.type, name, "the output");
  return s;
}

// {T, 4, B, out} as {T*B, 4*out}, gate slot-major within a row (the layout of the forward's products).
Tensor byRows(const Tensor &bwdIntermediates, const Shapes &s) {
  return bwdIntermediates.dimShuffle({0, 2, 1, 3}).reshape({s.T * s.B, 4 * s.O});
}

// The backward pass; lastOutputGrad and lastCellGrad may be null (no gradient).
LstmState backward(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                   const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const LstmWeights &weights,
                   const Tensor &input, const Tensor &output, const Tensor &outputGrad, const Tensor *lastOutputGrad,
                   const Tensor *lastCellGrad, Tensor *inputGrad, Tensor *bwdIntermediates, const std::string &name,
                   const poplar::OptionFlags &options) {
  poplar::OptionFlags mm = matMulOptions(options, name);
  const Shapes s = checkTraining(params, fwdStateInit, fwdIntermediates, weights, input, output, name);
  const std::size_t T = s.T, B = s.B, I = s.I, O = s.O;
  checkShape(outputGrad, params.outputFullSequence ? std::vector<std::size_t>{T, B, O} : std::vector<std::size_t>{B, O},
             s.type, name, "the output gradient");
  if (lastOutputGrad)
    checkShape(*lastOutputGrad, {B, O}, s.type, name, "the last step's output gradient");
  if (lastCellGrad)
    checkShape(*lastCellGrad, {B, O}, s.type, name, "the last step's cell state gradient");
  const std::vector<std::size_t> slot = slotOf(params);
  // The derivatives applied to operand 3 of the maps below.
  const std::unique_ptr<pe::Expr> dAct3 = derivative(params.activation, pe::_3, name),
                                  dSig3 = derivative(params.recurrentActivation, pe::_3, name);

  Tensor grads = linear(graph, s.type, {T, 4, B, O}, name + "/gateGradients");
  const Tensor woT = weights.outputWeights.dimShuffle({1, 0, 2}).reshape({O, 4 * O}).transpose();
  Tensor dh, dc;
  if (lastOutputGrad)
    dh = *lastOutputGrad;
  if (lastCellGrad)
    dc = *lastCellGrad;
  for (std::size_t n = 0; n < T; ++n) {
    const std::size_t t = T - 1 - n;
    const std::string step = name + "/step" + std::to_string(t);
    const Tensor fi = fwdIntermediates[t];
    auto gate = [&](BasicLstmCellUnit u) { return fi[slot[u]]; };
    auto gradOf = [&](BasicLstmCellUnit u) { return grads[t][slot[u]]; };
    const Tensor cPrev = t ? fwdIntermediates[t - 1][FWD_CELL] : fwdStateInit.cellState;
    // The step's output gradient: the outputGrad it is given plus what flows back from step t+1.
    Tensor stepGrad = params.outputFullSequence ? outputGrad[t] : (t == T - 1 ? outputGrad : Tensor());
    if (!dh.valid())
      dh = stepGrad;
    else if (stepGrad.valid())
      dh = popops::add(graph, dh, stepGrad, prog, step + "/outputGradient");
    // dc_t = dc + dh * o * act'(a); then the gate gradients before their non-linearities.
    const Tensor o = gate(BASIC_LSTM_CELL_OUTPUT_GATE), a = fi[FWD_ACT_CELL];
    Tensor dcT = dc.valid() ? popops::map(graph, pe::_4 + pe::_1 * pe::_2 * *dAct3, {dh, o, a, dc}, prog,
                                          step + "/cellGradient")
                            : popops::map(graph, pe::_1 * pe::_2 * *dAct3, {dh, o, a}, prog, step + "/cellGradient");
    popops::mapWithOutput(graph, pe::_1 * pe::_2 * *dSig3, {dh, a, o}, gradOf(BASIC_LSTM_CELL_OUTPUT_GATE), prog,
                          step + "/outputGate");
    popops::mapWithOutput(graph, pe::_1 * pe::_2 * *dSig3, {dcT, cPrev, gate(BASIC_LSTM_CELL_FORGET_GATE)},
                          gradOf(BASIC_LSTM_CELL_FORGET_GATE), prog, step + "/forgetGate");
    popops::mapWithOutput(graph, pe::_1 * pe::_2 * *dSig3,
                          {dcT, gate(BASIC_LSTM_CELL_CANDIDATE), gate(BASIC_LSTM_CELL_INPUT_GATE)},
                          gradOf(BASIC_LSTM_CELL_INPUT_GATE), prog, step + "/inputGate");
    popops::mapWithOutput(graph, pe::_1 * pe::_2 * *dAct3,
                          {dcT, gate(BASIC_LSTM_CELL_INPUT_GATE), gate(BASIC_LSTM_CELL_CANDIDATE)},
                          gradOf(BASIC_LSTM_CELL_CANDIDATE), prog, step + "/candidate");
    dc = popops::mul(graph, dcT, gate(BASIC_LSTM_CELL_FORGET_GATE), prog, step + "/previousCellGradient");
    const Tensor stepGates = grads[t].dimShuffle({1, 0, 2}).reshape({B, 4 * O});
    dh = poplin::matMul(graph, stepGates, woT, prog, step + "/previousOutputGradient", mm);
  }
  if (inputGrad) {
    const Tensor wiT = weights.inputWeights.dimShuffle({1, 0, 2}).reshape({I, 4 * O}).transpose();
    *inputGrad = poplin::matMul(graph, byRows(grads, s), wiT, prog, name + "/inputGradient", mm).reshape({T, B, I});
  }
  if (bwdIntermediates)
    *bwdIntermediates = grads;
  LstmState r;
  r.output = dh;
  r.cellState = dc;
  return r;
}

LstmWeights weightUpdate(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                         const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const Tensor &bwdIntermediates,
                         const LstmWeights &weights, const Tensor &input, const Tensor &output,
                         const std::string &name, const poplar::OptionFlags &options) {
  poplar::OptionFlags mm = matMulOptions(options, name);
  const Shapes s = checkTraining(params, fwdStateInit, fwdIntermediates, weights, input, output, name);
  const std::size_t T = s.T, B = s.B, I = s.I, O = s.O;
  checkShape(bwdIntermediates, {T, 4, B, O}, s.type, name, "the backward intermediates (lstmBwd's)");
  const Tensor g = byRows(bwdIntermediates, s);
  // The output each step's recurrent product read: the initial output, then the forward's h of steps 0..T-2.
  Tensor hPrev = fwdStateInit.output.expand({0});
  if (T > 1)
    hPrev = poplar::concat(
        hPrev, fwdIntermediates.slice(0, T - 1).slice(FWD_OUTPUT, FWD_OUTPUT + 1, 1).reshape({T - 1, B, O}));
  LstmWeights d;
  d.inputWeights = poplin::matMul(graph, input.reshape({T * B, I}).transpose(), g, prog, name + "/inputWeights", mm)
                       .reshape({I, 4, O})
                       .dimShuffle({1, 0, 2});
  d.outputWeights =
      poplin::matMul(graph, hPrev.reshape({T * B, O}).transpose(), g, prog, name + "/outputWeights", mm)
          .reshape({O, 4, O})
          .dimShuffle({1, 0, 2});
  d.biases = popops::reduce(graph, g, s.type, {0}, popops::ReduceParams(popops::Operation::ADD), prog,
                            name + "/biases")
                 .reshape({4, O});
  return d;
}

} // namespace

LstmState lstmBwd(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                  const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const LstmWeights &weights,
                  const Tensor &input, const Tensor &output, const Tensor &outputGrad,
                  const LstmState *lastStepStateGrad, Tensor *inputGrad, Tensor *bwdIntermediates,
                  const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                  poplin::PlanningCache *) {
  return backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output, outputGrad,
                  lastStepStateGrad ? &lastStepStateGrad->output : 0,
                  lastStepStateGrad ? &lastStepStateGrad->cellState : 0, inputGrad, bwdIntermediates,
                  nameOf(debugContext, "lstmBwd"), options);
}

LstmState lstmBwd(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                  const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const LstmWeights &weights,
                  const Tensor &input, const Tensor &output, const Tensor &outputGrad, const Tensor *lastCellStateGrad,
                  Tensor *inputGrad, Tensor *bwdIntermediates, const poplar::DebugContext &debugContext,
                  const poplar::OptionFlags &options, poplin::PlanningCache *) {
  return backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output, outputGrad, 0,
                  lastCellStateGrad, inputGrad, bwdIntermediates, nameOf(debugContext, "lstmBwd"), options);
}

LstmWeights lstmWU(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                   const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const Tensor &bwdIntermediates,
                   const LstmWeights &weights, const Tensor &input, const Tensor &output,
                   const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                   poplin::PlanningCache *) {
  return weightUpdate(graph, params, prog, fwdStateInit, fwdIntermediates, bwdIntermediates, weights, input, output,
                      nameOf(debugContext, "lstmWU"), options);
}

LstmState lstmBwdWithWU(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                        const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const LstmWeights &weights,
                        const Tensor &input, const Tensor &output, const Tensor &outputGrad,
                        const LstmState *lastStepStateGrad, Tensor *inputGrad, LstmWeights &weightsGrad,
                        const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                        poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "lstmBwdWithWU");
  Tensor bwdIntermediates;
  LstmState r = backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output, outputGrad,
                         lastStepStateGrad ? &lastStepStateGrad->output : 0,
                         lastStepStateGrad ? &lastStepStateGrad->cellState : 0, inputGrad, &bwdIntermediates, name,
                         options);
  weightsGrad = weightUpdate(graph, params, prog, fwdStateInit, fwdIntermediates, bwdIntermediates, weights, input,
                             output, name, options);
  return r;
}

LstmState lstmBwdWithWU(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                        const LstmState &fwdStateInit, const Tensor &fwdIntermediates, const LstmWeights &weights,
                        const Tensor &input, const Tensor &output, const Tensor &outputGrad,
                        const Tensor *lastCellStateGrad, Tensor *inputGrad, LstmWeights &weightsGrad,
                        const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                        poplin::PlanningCache *) {
  const std::string name = nameOf(debugContext, "lstmBwdWithWU");
  Tensor bwdIntermediates;
  LstmState r = backward(graph, params, prog, fwdStateInit, fwdIntermediates, weights, input, output, outputGrad, 0,
                         lastCellStateGrad, inputGrad, &bwdIntermediates, name, options);
  weightsGrad = weightUpdate(graph, params, prog, fwdStateInit, fwdIntermediates, bwdIntermediates, weights, input,
                             output, name, options);
  return r;
}

} // namespace lstm
} // namespace popnn
