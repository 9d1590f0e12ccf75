// popnn::rnn's vanilla recurrent layer, built from its parts: y_t = nl(x_t * Wff + y_{t-1} * Wfb + b) for x_t
// [batch, input], y_t [batch, output], the input weights Wff [input, output], the feedback weights Wfb
// [output, output] and biases b [output]. The input products of many steps are one matMul (forwardWeightInput);
// the recurrence runs a step at a time (forwardIterate). The backward pass goes a step at a time from the last
// (backwardGradientStep), the weight deltas accumulate per step (paramDeltaUpdate); rnnFwdSequence and
// rnnBwdSequence run a whole sequence. Sequence tensors are [steps, batch, size]. Every function throws
// poputil::poplibs_error naming the argument when a shape or type does not fit.
#ifndef POPNN_RECURRENT_HPP
#define POPNN_RECURRENT_HPP

#include <cstddef>
#include <stdint.h>
#include <tuple>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>

namespace popnn {
namespace rnn {

/// The products the layer makes, with their matMul options, for poplin::preplan: the input weighting of
/// numSteps steps at once (when hasFeedforwardWeights) and the feedback product of one step, each with its
/// backward and weight-update products unless inferenceOnly (poplin::fc::getMatMulPrePlanParameters).
std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags> >
getMatMulPrePlanParameters(std::size_t numSteps, std::size_t batchSize, std::size_t inputSize,
                           std::size_t outputSize, const poplar::Type &dType,
                           const poplar::Type &partialsType = poplar::FLOAT, bool inferenceOnly = false,
                           bool hasFeedforwardWeights = true);

/// Floating-point operations of the forward pass over sequenceSize steps: each product [m, k] x [k, n] counts
/// m*n*k multiplies and m*n*(k-1) adds; each step adds the input product and the bias (2 per output element).
/// weightInput false leaves out the input products.
uint64_t getFwdFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize, unsigned outputSize,
                     bool weightInput = true);
/// The backward pass: per step the feedback product of the gradient and its add, and, when calcInputGrad, the
/// product giving the gradient at the input.
uint64_t getBwdFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize, unsigned outputSize,
                     bool calcInputGrad = true);
/// The weight update: the input and feedback weight deltas and the bias deltas summed over steps and batch.
uint64_t getWuFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize, unsigned outputSize);

/// A [numSteps, batchSize, inputSize] input laid out as the left operand of the input weighting of numSteps
/// steps at once (forwardWeightInput).
poplar::Tensor createInput(poplar::Graph &graph, unsigned numSteps, unsigned batchSize, unsigned inputSize,
                           unsigned outputSize, const poplar::Type &dType,
                           const poplar::Type &partialsType = poplar::FLOAT, bool inferenceOnly = false,
                           const poplar::DebugContext &debugContext = {},
                           poplin::PlanningCache *planningCache = 0);

/// The forward state [batchSize, outputSize] (the previous step's output), laid out as the feedback product's
/// left operand; `prog` zeroes it when initState.
poplar::Tensor createFwdState(poplar::Graph &graph, const poplar::Type &dType, unsigned batchSize,
                              unsigned outputSize, poplar::program::Sequence &prog, bool initState,
                              bool inferenceOnly, const poplar::DebugContext &debugContext = {},
                              poplin::PlanningCache *planningCache = 0);

/// The output held in a forward state: the state itself (a view, so writing it sets the state).
poplar::Tensor getOutputFromFwdState(const poplar::Tensor &fwdState);

/// Input weights Wff [inputSize, outputSize], laid out as the right operand of the input weighting of
/// sequenceSize steps of batchSize.
poplar::Tensor createWeightsInput(poplar::Graph &graph, unsigned sequenceSize, unsigned batchSize,
                                  unsigned inputSize, unsigned outputSize, const poplar::Type &dType,
                                  const poplar::Type &partialsType = poplar::FLOAT, bool inferenceOnly = false,
                                  const poplar::DebugContext &debugContext = {},
                                  poplin::PlanningCache *planningCache = 0);

/// Feedback weights Wfb [outputSize, outputSize], laid out as the right operand of one step's feedback product.
poplar::Tensor createWeightsFeedback(poplar::Graph &graph, unsigned batchSize, unsigned outputSize,
                                     const poplar::Type &dType, const poplar::Type &partialsType = poplar::FLOAT,
                                     bool inferenceOnly = false, const poplar::DebugContext &debugContext = {},
                                     poplin::PlanningCache *planningCache = 0);

/// The input weighting of every step at once: actIn [numSteps, batchSize, inputSize] times weights
/// [inputSize, outputSize], giving [numSteps, batchSize, outputSize] (feed it to forwardIterate).
poplar::Tensor forwardWeightInput(poplar::Graph &graph, const poplar::Tensor &actIn, const poplar::Tensor &weights,
                                  poplar::program::Sequence &prog,
                                  const poplar::Type &partialsType = poplar::FLOAT, bool inferenceOnly = false,
                                  const poplar::DebugContext &debugContext = {},
                                  poplin::PlanningCache *planningCache = 0);

/// The recurrence over feedFwdIn's steps: y_t = nl(feedFwdIn[t] + y_{t-1} * feedbackWeights + biases) with
/// y_{-1} = initState [batchSize, outputSize]; returns every y_t, [numSteps, batchSize, outputSize].
poplar::Tensor forwardIterate(poplar::Graph &graph, const poplar::Tensor &feedFwdIn, const poplar::Tensor &initState,
                              const poplar::Tensor &feedbackWeights, const poplar::Tensor &biases,
                              poplar::program::Sequence &prog, popnn::NonLinearityType nonLinearityType,
                              const poplar::Type &partialsType = poplar::FLOAT, bool inferenceOnly = false,
                              const poplar::DebugContext &debugContext = {},
                              poplin::PlanningCache *planningCache = 0);

/// The backward state [batchSize, outputSize] (the gradient at the adder of the step after), zeroed by `prog`.
poplar::Tensor createBwdState(poplar::Graph &graph, const poplar::Type &dType, unsigned batchSize,
                              unsigned outputSize, poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              poplin::PlanningCache *planningCache = 0);

/// One backward step for step t: with g = nextLayerGrad + bwdState * Wfb^T (the gradient at y_t) and actOut = y_t,
/// the new backward state is g times the non-linearity's derivative at y_t (the gradient at the adder), and the
/// gradient at the step's input is that state times Wff^T. Returns {gradient at the input [batch, input],
/// new backward state [batch, output]}.
std::pair<poplar::Tensor, poplar::Tensor>
backwardGradientStep(poplar::Graph &graph, const poplar::Tensor &nextLayerGrad, const poplar::Tensor &bwdState,
                     const poplar::Tensor &actOut, const poplar::Tensor &weightsInput,
                     const poplar::Tensor &weightsFeedback, poplar::program::Sequence &prog,
                     popnn::NonLinearityType nonLinearityType, const poplar::Type &partialsType = poplar::FLOAT,
                     const poplar::DebugContext &debugContext = {}, poplin::PlanningCache *planningCache = 0);

/// As above without the gradient at the input: returns the new backward state only.
poplar::Tensor backwardGradientStep(poplar::Graph &graph, const poplar::Tensor &nextLayerGrad,
                                    const poplar::Tensor &bwdState, const poplar::Tensor &actOut,
                                    const poplar::Tensor &weightsFeedback, poplar::program::Sequence &prog,
                                    popnn::NonLinearityType nonLinearityType,
                                    const poplar::Type &partialsType = poplar::FLOAT,
                                    const poplar::DebugContext &debugContext = {},
                                    poplin::PlanningCache *planningCache = 0);

/// Adds one step's parameter deltas to the accumulators: actIn^T * bwdState to weightsInputDeltasAcc
/// [input, output], prevOut^T * bwdState to weightsFeedbackDeltasAcc [output, output] and bwdState summed over the
/// batch to biasDeltasAcc [output]. prevOut is the previous step's output y_{t-1}. Zero the accumulators first.
void paramDeltaUpdate(poplar::Graph &graph, const poplar::Tensor &bwdState, const poplar::Tensor &actIn,
                      const poplar::Tensor &prevOut, poplar::Tensor &weightsInputDeltasAcc,
                      poplar::Tensor &weightsFeedbackDeltasAcc, poplar::Tensor &biasDeltasAcc,
                      poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,
                      const poplar::DebugContext &debugContext = {}, poplin::PlanningCache *planningCache = 0);

/// The forward pass over prevLayerActs' steps [numSteps, batch, input] from fwdStateInit [batch, output]: the
/// input weighting with feedFwdWeights (or, when weightedIn is not null, *weightedIn [numSteps, batch, output] as
/// already weighted), then the recurrence. Returns the forward state of every step, [numSteps, batch, output].
poplar::Tensor rnnFwdSequence(poplar::Graph &graph, poplar::program::Sequence &prog,
                              const poplar::Tensor &fwdStateInit, const poplar::Tensor *weightedIn,
                              const poplar::Tensor &biases, const poplar::Tensor &feedFwdWeights,
                              const poplar::Tensor &feedbackWeights, const poplar::Tensor &prevLayerActs,
                              const popnn::NonLinearityType &nonLinearityType, const poplar::Type &partialsType,
                              bool inferenceOnly, const poplar::DebugContext &debugContext = {},
                              poplin::PlanningCache *planningCache = 0);

/// The backward pass over a sequence, from its last step to its first: fwdStateInit and fwdState (from
/// rnnFwdSequence), outGradient [numSteps, batch, output] (the loss gradient at each step's output) and actIn
/// [numSteps, batch, input] (the layer's inputs). Returns {the gradient at the inputs [numSteps, batch, input] or,
/// when ignoreInputGradientCalc, the gradient at each step's adder [numSteps, batch, output]; and when doWU the
/// input weight, feedback weight and bias deltas summed over the steps (else empty tensors)}.
std::tuple<poplar::Tensor, poplar::Tensor, poplar::Tensor, poplar::Tensor>
rnnBwdSequence(poplar::Graph &graph, bool doWU, bool ignoreInputGradientCalc, poplar::program::Sequence &prog,
               const poplar::Tensor &fwdStateInit, const poplar::Tensor &fwdState, const poplar::Tensor &biases,
               const poplar::Tensor &feedFwdWeights, const poplar::Tensor &feedbackWeights,
               const poplar::Tensor &outGradient, const poplar::Tensor &actIn,
               const popnn::NonLinearityType &nonLinearityType, const poplar::Type &partialsType,
               const poplar::DebugContext &debugContext = {}, poplin::PlanningCache *planningCache = 0);

} // namespace rnn
} // namespace popnn

#endif // POPNN_RECURRENT_HPP
