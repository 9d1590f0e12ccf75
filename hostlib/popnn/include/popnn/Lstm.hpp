// A basic LSTM layer (popnn::lstm): the forward pass and the training passes: for each time step t, with the gates of the input
// x_t {B, in} and the previous output h {B, out},
//   f = sigma(x Wf + h Uf + bf), i = sigma(x Wi + h Ui + bi), g = act(x Wg + h Ug + bg), o = sigma(x Wo + h Uo + bo)
//   c' = f * c + i * g,  h' = o * act(c')
// with sigma the recurrent activation (SIGMOID by default) and act the activation (TANH by default). The input
// products of all steps are one matMul, each step's recurrent product another; the gates are popnn
// non-linearities and popops maps on the device, the steps unrolled into the program.
//
// The backward pass runs the steps in reverse with popops maps for the gate gradients and a matMul for the
// recurrent gradient; the weight update is three products over all steps at once (see LstmTraining.cpp).
//
// Not here yet: run-time time steps, doInputWeightCalc = false, and the planner's preplanning parameters.
//
// Options (an unknown name or bad value is a poplar::invalid_option): "availableMemoryProportion" and
// "partialsType" as for matMul (used by the products); "inferenceOnly" ("true"/"false"; accepted).
#ifndef POPNN_LSTM_HPP
#define POPNN_LSTM_HPP

#include <cstddef>
#include <stdint.h>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/LstmDef.hpp>
#include <popnn/NonLinearityDef.hpp>
#include <popnn/Rnn.hpp>

namespace popnn {
namespace lstm {

/// {FORGET_GATE, INPUT_GATE, CANDIDATE, OUTPUT_GATE}: the default order of the gate slots.
const std::vector<BasicLstmCellUnit> getDefaultBasicLstmCellOrder();

/// The layer: rnn (type, batch, steps, {input size, output size}) and how it runs.
struct LstmParams {
  rnn::RnnParams rnn;
  /// Copies of rnn's members, kept for source compatibility.
  poplar::Type dataType;
  std::size_t batchSize;
  std::size_t timeSteps;
  std::vector<std::size_t> layerSizes;
  /// Return every step's output {T, B, out} (true) or only the last {B, out}.
  bool outputFullSequence;
  /// Multiply the input by the input weights (must be true here).
  bool doInputWeightCalc;
  /// Training: lstmBwd computes the input gradient when given a non-null inputGrad.
  bool calcInputGradients;
  /// Training only (unused here).
  bool preserveFinalState;
  /// Which unit each gate slot of the weights and biases holds: a permutation of the four units.
  std::vector<BasicLstmCellUnit> cellOrder;
  NonLinearityType activation;
  NonLinearityType recurrentActivation;
  LstmParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
             std::vector<std::size_t> layerSizes, NonLinearityType activation = NonLinearityType::TANH,
             NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
};

/// The state between steps: the output h {B, out} and the cell state c {B, out}.
struct LstmState {
  poplar::Tensor output;
  poplar::Tensor cellState;
  /// {2, B, out}: output then cell state (a view).
  poplar::Tensor getAsTensor() const;
};

/// The layer's weights: inputWeights {4, in, out}, outputWeights {4, out, out}, biases {4, out}, gate slots in
/// LstmParams::cellOrder.
struct LstmWeights {
  poplar::Tensor inputWeights;
  poplar::Tensor outputWeights;
  poplar::Tensor biases;
};

/// Multiplications and additions of the forward pass (the products, 2 per multiply-accumulate, and the cell
/// update; non-linearities not counted).
uint64_t getBasicLstmCellFwdFlops(const LstmParams &params);
/// The same for the backward pass: the gate gradients times the output weights (and times the input weights when
/// calcInputGradients), and 8 element-wise operations per output element and step for the gate and cell gradients.
uint64_t getBasicLstmCellBwdFlops(const LstmParams &params);
/// The same for the weight update: the input and output weight deltas over every step and the bias sums.
uint64_t getBasicLstmCellWuFlops(const LstmParams &params);
/// The products the layer makes, with their matMul options (from `opts`: availableMemoryProportion,
/// partialsType; inferenceOnly "true" leaves out the training products), for poplin::preplan: the input weighting
/// of every step at once (when doInputWeightCalc) and one step's output weighting
/// (poplin::fc::getMatMulPrePlanParameters).
std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags> >
getMatMulPrePlanParameters(LstmParams params, poplar::OptionFlags opts);

/// The input {T, B, in}, mapped over the tiles. Throws poputil::poplibs_error for invalid params.
poplar::Tensor createInput(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                           poplin::PlanningCache *planningCache = 0);
/// The initial output h {B, out}.
poplar::Tensor createInitialOutput(poplar::Graph &graph, const LstmParams &params,
                                   const poplar::DebugContext &debugContext,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   poplin::PlanningCache *planningCache = 0);
/// The initial cell state c {B, out}.
poplar::Tensor createInitialCellState(poplar::Graph &graph, const LstmParams &params,
                                      const poplar::DebugContext &debugContext,
                                      const poplar::OptionFlags &options = poplar::OptionFlags(),
                                      poplin::PlanningCache *planningCache = 0);
/// Both initial tensors.
LstmState createInitialState(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                             poplin::PlanningCache *planningCache = 0);
/// Appends to `prog` the zeroing of both tensors of `initialState`.
void zeroInitialState(poplar::Graph &graph, const LstmState &initialState, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// The input and output weights ({4, in, out}, {4, out, out}), each stored as the right operand of its product.
std::pair<poplar::Tensor, poplar::Tensor>
createWeightsKernel(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = poplar::OptionFlags(), poplin::PlanningCache *planningCache = 0);
/// The biases {4, out}.
poplar::Tensor createWeightsBiases(poplar::Graph &graph, const LstmParams &params,
                                   const poplar::DebugContext &debugContext,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   poplin::PlanningCache *planningCache = 0);
/// All three.
LstmWeights createWeights(poplar::Graph &graph, const LstmParams &params, const poplar::DebugContext &debugContext,
                          const poplar::OptionFlags &options = poplar::OptionFlags(),
                          poplin::PlanningCache *planningCache = 0);

/// The forward pass over `in` {T, B, in} from `stateInit`: returns (the output, {T, B, out} or the last step's
/// {B, out} as params.outputFullSequence says; the final cell state {B, out}). With a non-null `intermediates`,
/// sets it to what the training passes need: {T, 7, B, out}, per step the four gate slots after their
/// non-linearities, act(c), c and h (the returned output is then a view of it). Throws poputil::poplibs_error for
/// shapes or types that do not match the params, doInputWeightCalc false or a cellOrder that is not a permutation.
std::pair<poplar::Tensor, poplar::Tensor> lstmFwd(poplar::Graph &graph, const LstmParams &params,
                                                  const LstmState &stateInit, const poplar::Tensor &in,
                                                  const LstmWeights &weights, poplar::Tensor *intermediates,
                                                  poplar::program::Sequence &fwdProg,
                                                  const poplar::DebugContext &debugContext = {},
                                                  const poplar::OptionFlags &options = poplar::OptionFlags(),
                                                  poplin::PlanningCache *planningCache = 0);

/// The backward pass over the steps of a forward pass (lstmFwd with `fwdIntermediates`) from `fwdStateInit`, with
/// `outputGrad` the gradient of its `output` ({T, B, out} or {B, out} as params.outputFullSequence says) and
/// `lastStepStateGrad` the gradients of the final output and cell state (null: none). Returns the gradients of the
/// initial state. Sets `*inputGrad` {T, B, in} when non-null, and `*bwdIntermediates` (the gate gradients before
/// their non-linearities, {T, 4, B, out}, for lstmWU) when non-null. The activations must be SIGMOID, TANH or
/// RELU. Throws poputil::poplibs_error for shapes or types that do not match the params.
LstmState lstmBwd(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                  const LstmState &fwdStateInit, const poplar::Tensor &fwdIntermediates, const LstmWeights &weights,
                  const poplar::Tensor &input, const poplar::Tensor &output, const poplar::Tensor &outputGrad,
                  const LstmState *lastStepStateGrad, poplar::Tensor *inputGrad, poplar::Tensor *bwdIntermediates,
                  const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = poplar::OptionFlags(),
                  poplin::PlanningCache *planningCache = 0);
/// Deprecated form: only the final cell state's gradient (`lastCellStateGrad`, may be null) is given.
LstmState lstmBwd(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                  const LstmState &fwdStateInit, const poplar::Tensor &fwdIntermediates, const LstmWeights &weights,
                  const poplar::Tensor &input, const poplar::Tensor &output, const poplar::Tensor &outputGrad,
                  const poplar::Tensor *lastCellStateGrad, poplar::Tensor *inputGrad,
                  poplar::Tensor *bwdIntermediates, const poplar::DebugContext &debugContext = {},
                  const poplar::OptionFlags &options = poplar::OptionFlags(),
                  poplin::PlanningCache *planningCache = 0);

/// The weight gradients (to be scaled and added to the weights by the caller) from the intermediates of lstmFwd
/// and lstmBwd: the sums over steps and batch of x^T d, h_{t-1}^T d and d, with d the gate gradients.
LstmWeights lstmWU(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                   const LstmState &fwdStateInit, const poplar::Tensor &fwdIntermediates,
                   const poplar::Tensor &bwdIntermediates, const LstmWeights &weights, const poplar::Tensor &input,
                   const poplar::Tensor &output, const poplar::DebugContext &debugContext = {},
                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                   poplin::PlanningCache *planningCache = 0);

/// lstmBwd then lstmWU: returns the initial state's gradients and sets `weightsGrad`.
LstmState lstmBwdWithWU(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                        const LstmState &fwdStateInit, const poplar::Tensor &fwdIntermediates,
                        const LstmWeights &weights, const poplar::Tensor &input, const poplar::Tensor &output,
                        const poplar::Tensor &outputGrad, const LstmState *lastStepStateGrad,
                        poplar::Tensor *inputGrad, LstmWeights &weightsGrad,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                        poplin::PlanningCache *planningCache = 0);
/// Deprecated form: only the final cell state's gradient (`lastCellStateGrad`, may be null) is given.
LstmState lstmBwdWithWU(poplar::Graph &graph, const LstmParams &params, poplar::program::Sequence &prog,
                        const LstmState &fwdStateInit, const poplar::Tensor &fwdIntermediates,
                        const LstmWeights &weights, const poplar::Tensor &input, const poplar::Tensor &output,
                        const poplar::Tensor &outputGrad, const poplar::Tensor *lastCellStateGrad,
                        poplar::Tensor *inputGrad, LstmWeights &weightsGrad,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                        poplin::PlanningCache *planningCache = 0);

} // namespace lstm
} // namespace popnn

#endif // POPNN_LSTM_HPP
