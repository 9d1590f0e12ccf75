// The vanilla recurrent layer of popnn/Recurrent.hpp on poplin's matMul and popops' maps. The recurrence is
// unrolled (one feedback matMul, one map and the non-linearity per step), as the step count is known when the
// graph is built; HALF non-linearity gradients go through FLOAT because popnn's gradient vertices are FLOAT only.
#include "popnn/Recurrent.hpp"

#include <string>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poplin/FullyConnected.hpp>

#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace popnn {
namespace rnn {

namespace pe = popops::expr;
using poplar::Tensor;
using poplar::program::Sequence;
using poputil::poplibs_error;

namespace {

std::string nameOf(const poplar::DebugContext &dc, const char *fn) {
  return poplibs_support::debugName(dc, "popnn::rnn::", fn);
}

// matMul options for one pass of the layer (partialsType as the caller gives it).
poplar::OptionFlags mmOptions(const poplar::Type &partialsType, const char *pass) {
  if (partialsType != poplar::FLOAT && partialsType != poplar::HALF)
    throw poplibs_error("popnn::rnn: partialsType " + partialsType.toString() + " is not FLOAT or HALF");
  return poplar::OptionFlags{{"partialsType", partialsType.toString()}, {"fullyConnectedPass", pass}};
}

const char *fwdPass(bool inferenceOnly) { return inferenceOnly ? "INFERENCE_FWD" : "TRAINING_FWD"; }

void checkRank(const Tensor &t, unsigned rank, const std::string &fn, const char *what, const char *shape) {
  if (!t.valid() || t.rank() != rank)
    throw poplibs_error(fn + ": " + what + " has shape " + (t.valid() ? t.shapeToString() : std::string("(none)")) +
                        "; it must be " + shape);
}

void checkDim(const Tensor &t, unsigned dim, std::size_t want, const std::string &fn, const char *what,
              const char *shape) {
  if (t.dim(dim) != want)
    throw poplibs_error(fn + ": " + what + " has shape " + t.shapeToString() + "; it must be " + shape + " with " +
                        std::to_string(want) + " in dimension " + std::to_string(dim));
}

// Rank and every dimension of `t`: `want` in the layout `shape` names.
void checkShape(const Tensor &t, const std::vector<std::size_t> &want, const std::string &fn, const char *what,
                const char *shape) {
  checkRank(t, unsigned(want.size()), fn, what, shape);
  for (unsigned d = 0; d < want.size(); ++d)
    checkDim(t, d, want[d], fn, what, shape);
}

void checkType(const Tensor &t, const poplar::Type &type, const std::string &fn, const char *what) {
  if (t.elementType() != type)
    throw poplibs_error(fn + ": " + what + " is " + t.elementType().toString() + " where the layer's data are " +
                        type.toString() + "; give every tensor of the layer one type");
  if (type != poplar::FLOAT && type != poplar::HALF)
    throw poplibs_error(fn + ": " + what + " is " + type.toString() + "; the layer takes FLOAT or HALF");
}

void checkSizes(unsigned a, unsigned b, unsigned c, const std::string &fn) {
  if (a == 0 || b == 0 || c == 0)
    throw poplibs_error(fn + ": a size is 0; the steps, batch, input and output sizes must be at least 1");
}

// The gradient at a non-linearity's input from its output `act` and the gradient at its output.
Tensor nonLinearityGradient(poplar::Graph &graph, NonLinearityType nl, const Tensor &act, const Tensor &grad,
                            Sequence &prog, const std::string &name) {
  if (act.elementType() == poplar::FLOAT)
    return nonLinearityInputGradient(graph, nl, act, grad, prog, {name});
  const Tensor g = nonLinearityInputGradient(graph, nl, popops::cast(graph, act, poplar::FLOAT, prog, name + "/act"),
                                             popops::cast(graph, grad, poplar::FLOAT, prog, name + "/grad"), prog,
                                             {name});
  return popops::cast(graph, g, act.elementType(), prog, name + "/toHalf");
}

// The checks shared by both backwardGradientStep forms.
void checkBwdStep(const Tensor &nextLayerGrad, const Tensor &bwdState, const Tensor &actOut,
                  const Tensor &weightsFeedback, const std::string &fn) {
  checkRank(bwdState, 2, fn, "bwdState", "[batch, output]");
  const std::size_t out = bwdState.dim(1);
  checkRank(nextLayerGrad, 2, fn, "nextLayerGrad", "[batch, output]");
  checkRank(actOut, 2, fn, "actOut", "[batch, output]");
  checkRank(weightsFeedback, 2, fn, "weightsFeedback", "[output, output]");
  if (nextLayerGrad.shape() != bwdState.shape() || actOut.shape() != bwdState.shape())
    throw poplibs_error(fn + ": nextLayerGrad " + nextLayerGrad.shapeToString() + ", bwdState " +
                        bwdState.shapeToString() + " and actOut " + actOut.shapeToString() +
                        " must all be [batch, output]");
  checkDim(weightsFeedback, 0, out, fn, "weightsFeedback", "[output, output]");
  checkDim(weightsFeedback, 1, out, fn, "weightsFeedback", "[output, output]");
  const poplar::Type type = bwdState.elementType();
  checkType(nextLayerGrad, type, fn, "nextLayerGrad");
  checkType(actOut, type, fn, "actOut");
  checkType(weightsFeedback, type, fn, "weightsFeedback");
}

// The new backward state of one step: (nextLayerGrad + bwdState * Wfb^T) through the non-linearity's gradient.
Tensor bwdStateStep(poplar::Graph &graph, const Tensor &nextLayerGrad, const Tensor &bwdState, const Tensor &actOut,
                    const Tensor &weightsFeedback, Sequence &prog, NonLinearityType nl,
                    const poplar::Type &partialsType, const std::string &name, poplin::PlanningCache *cache) {
  Tensor g = poplin::matMul(graph, bwdState, weightsFeedback.transpose(), prog, {name + "/feedback"},
                            mmOptions(partialsType, "TRAINING_BWD"), cache);
  popops::mapInPlace(graph, pe::_1 + pe::_2, {g, nextLayerGrad}, prog, {name + "/addOutGrad"});
  return nonLinearityGradient(graph, nl, actOut, g, prog, name + "/nonLinearity");
}

// A [rows, cols] tensor laid out as one side of the product [a0, a1] x [a1, b1].
Tensor operand(poplar::Graph &graph, const poplar::Type &type, bool lhs, std::size_t a0, std::size_t a1,
               std::size_t b1, const poplar::Type &partialsType, const char *pass, const std::string &name,
               poplin::PlanningCache *cache) {
  const poplar::OptionFlags o = mmOptions(partialsType, pass);
  return lhs ? poplin::createMatMulInputLHS(graph, type, {a0, a1}, {a1, b1}, {name}, o, cache)
             : poplin::createMatMulInputRHS(graph, type, {a0, a1}, {a1, b1}, {name}, o, cache);
}

} // namespace

std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags> >
getMatMulPrePlanParameters(std::size_t numSteps, std::size_t batchSize, std::size_t inputSize,
                           std::size_t outputSize, const poplar::Type &dType, const poplar::Type &partialsType,
                           bool inferenceOnly, bool hasFeedforwardWeights) {
  const poplar::OptionFlags o{{"partialsType", partialsType.toString()}};
  std::vector<std::pair<poplin::MatMulParams, poplar::OptionFlags> > out;
  // forwardWeightInput weights all the steps at once: numSteps * batchSize rows.
  if (hasFeedforwardWeights)
    out = poplin::fc::getMatMulPrePlanParameters({1, numSteps * batchSize, inputSize, outputSize}, o, dType,
                                                 inferenceOnly);
  const auto fb = poplin::fc::getMatMulPrePlanParameters({1, batchSize, outputSize, outputSize}, o, dType,
                                                         inferenceOnly);
  out.insert(out.end(), fb.begin(), fb.end());
  return out;
}

namespace {
// Multiplies and adds of a product [m, k] x [k, n].
uint64_t productFlops(uint64_t m, uint64_t k, uint64_t n) { return m * n * k + m * n * (k - 1); }
} // namespace

uint64_t getFwdFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize, unsigned outputSize,
                     bool weightInput) {
  const uint64_t steps = sequenceSize;
  uint64_t flops = steps * (productFlops(batchSize, outputSize, outputSize) + 2ull * batchSize * outputSize);
  if (weightInput)
    flops += steps * productFlops(batchSize, inputSize, outputSize);
  return flops;
}

uint64_t getBwdFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize, unsigned outputSize,
                     bool calcInputGrad) {
  const uint64_t steps = sequenceSize;
  uint64_t flops = steps * (productFlops(batchSize, outputSize, outputSize) + uint64_t(batchSize) * outputSize);
  if (calcInputGrad)
    flops += steps * productFlops(batchSize, outputSize, inputSize);
  return flops;
}

uint64_t getWuFlops(unsigned sequenceSize, unsigned batchSize, unsigned inputSize, unsigned outputSize) {
  // Over steps * batch rows: the two weight delta products, the bias sum, and one add per parameter to apply.
  const uint64_t rows = uint64_t(sequenceSize) * batchSize;
  const uint64_t params = uint64_t(inputSize) * outputSize + uint64_t(outputSize) * outputSize + outputSize;
  return productFlops(inputSize, rows, outputSize) + productFlops(outputSize, rows, outputSize) +
         (rows - 1) * outputSize + params;
}

Tensor createInput(poplar::Graph &graph, unsigned numSteps, unsigned batchSize, unsigned inputSize,
                   unsigned outputSize, const poplar::Type &dType, const poplar::Type &partialsType,
                   bool inferenceOnly, const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "createInput");
  checkSizes(numSteps, batchSize, inputSize, name);
  checkSizes(numSteps, batchSize, outputSize, name);
  // One left operand for all the steps' rows, as forwardWeightInput multiplies them at once.
  return operand(graph, dType, true, std::size_t(numSteps) * batchSize, inputSize, outputSize, partialsType,
                 fwdPass(inferenceOnly), name, cache)
      .reshape({numSteps, batchSize, inputSize});
}

Tensor createFwdState(poplar::Graph &graph, const poplar::Type &dType, unsigned batchSize, unsigned outputSize,
                      Sequence &prog, bool initState, bool inferenceOnly, const poplar::DebugContext &debugContext,
                      poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "createFwdState");
  checkSizes(1, batchSize, outputSize, name);
  Tensor state = operand(graph, dType, true, batchSize, outputSize, outputSize, poplar::FLOAT,
                         fwdPass(inferenceOnly), name, cache);
  if (initState)
    popops::zero(graph, state, prog, {name + "/zero"});
  return state;
}

Tensor getOutputFromFwdState(const Tensor &fwdState) { return fwdState; }

Tensor createWeightsInput(poplar::Graph &graph, unsigned sequenceSize, unsigned batchSize, unsigned inputSize,
                          unsigned outputSize, const poplar::Type &dType, const poplar::Type &partialsType,
                          bool inferenceOnly, const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "createWeightsInput");
  checkSizes(sequenceSize, batchSize, inputSize, name);
  checkSizes(sequenceSize, batchSize, outputSize, name);
  return operand(graph, dType, false, std::size_t(sequenceSize) * batchSize, inputSize, outputSize, partialsType,
                 fwdPass(inferenceOnly), name, cache);
}

Tensor createWeightsFeedback(poplar::Graph &graph, unsigned batchSize, unsigned outputSize, const poplar::Type &dType,
                             const poplar::Type &partialsType, bool inferenceOnly,
                             const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "createWeightsFeedback");
  checkSizes(1, batchSize, outputSize, name);
  return operand(graph, dType, false, batchSize, outputSize, outputSize, partialsType, fwdPass(inferenceOnly), name,
                 cache);
}

Tensor forwardWeightInput(poplar::Graph &graph, const Tensor &actIn, const Tensor &weights, Sequence &prog,
                          const poplar::Type &partialsType, bool inferenceOnly,
                          const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "forwardWeightInput");
  checkRank(actIn, 3, name, "actIn", "[steps, batch, input]");
  checkRank(weights, 2, name, "weights", "[input, output]");
  checkDim(weights, 0, actIn.dim(2), name, "weights", "[input, output]");
  checkType(weights, actIn.elementType(), name, "weights");
  const std::size_t steps = actIn.dim(0), batch = actIn.dim(1);
  const Tensor rows = actIn.reshape({steps * batch, actIn.dim(2)});
  return poplin::matMul(graph, rows, weights, prog, {name}, mmOptions(partialsType, fwdPass(inferenceOnly)), cache)
      .reshape({steps, batch, weights.dim(1)});
}

Tensor forwardIterate(poplar::Graph &graph, const Tensor &feedFwdIn, const Tensor &initState,
                      const Tensor &feedbackWeights, const Tensor &biases, Sequence &prog,
                      NonLinearityType nonLinearityType, const poplar::Type &partialsType, bool inferenceOnly,
                      const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "forwardIterate");
  checkRank(feedFwdIn, 3, name, "feedFwdIn", "[steps, batch, output]");
  const std::size_t steps = feedFwdIn.dim(0), batch = feedFwdIn.dim(1), out = feedFwdIn.dim(2);
  checkShape(initState, {batch, out}, name, "initState", "[batch, output]");
  checkShape(feedbackWeights, {out, out}, name, "feedbackWeights", "[output, output]");
  checkShape(biases, {out}, name, "biases", "[output]");
  const poplar::Type type = feedFwdIn.elementType();
  checkType(feedFwdIn, type, name, "feedFwdIn");
  checkType(initState, type, name, "initState");
  checkType(feedbackWeights, type, name, "feedbackWeights");
  checkType(biases, type, name, "biases");
  if (steps == 0)
    throw poplibs_error(name + ": feedFwdIn has no steps; give at least one");
  const poplar::OptionFlags o = mmOptions(partialsType, fwdPass(inferenceOnly));
  std::vector<Tensor> outputs;
  Tensor prev = initState;
  for (std::size_t s = 0; s != steps; ++s) {
    const std::string step = name + "/step" + std::to_string(s);
    Tensor y = poplin::matMul(graph, prev, feedbackWeights, prog, {step + "/feedback"}, o, cache);
    popops::mapInPlace(graph, pe::_1 + pe::_2 + pe::_3, {y, feedFwdIn[s], biases}, prog, {step + "/sum"});
    nonLinearityInPlace(graph, nonLinearityType, y, prog, {step});
    outputs.push_back(y.expand({0}));
    prev = y;
  }
  return poplar::concat(outputs);
}

Tensor createBwdState(poplar::Graph &graph, const poplar::Type &dType, unsigned batchSize, unsigned outputSize,
                      Sequence &prog, const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "createBwdState");
  checkSizes(1, batchSize, outputSize, name);
  Tensor state = operand(graph, dType, true, batchSize, outputSize, outputSize, poplar::FLOAT, "TRAINING_BWD", name,
                         cache);
  popops::zero(graph, state, prog, {name + "/zero"});
  return state;
}

std::pair<Tensor, Tensor> backwardGradientStep(poplar::Graph &graph, const Tensor &nextLayerGrad,
                                               const Tensor &bwdState, const Tensor &actOut,
                                               const Tensor &weightsInput, const Tensor &weightsFeedback,
                                               Sequence &prog, NonLinearityType nonLinearityType,
                                               const poplar::Type &partialsType,
                                               const poplar::DebugContext &debugContext,
                                               poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "backwardGradientStep");
  checkBwdStep(nextLayerGrad, bwdState, actOut, weightsFeedback, name);
  checkRank(weightsInput, 2, name, "weightsInput", "[input, output]");
  checkDim(weightsInput, 1, bwdState.dim(1), name, "weightsInput", "[input, output]");
  checkType(weightsInput, bwdState.elementType(), name, "weightsInput");
  const Tensor state = bwdStateStep(graph, nextLayerGrad, bwdState, actOut, weightsFeedback, prog, nonLinearityType,
                                    partialsType, name, cache);
  const Tensor gradIn = poplin::matMul(graph, state, weightsInput.transpose(), prog, {name + "/input"},
                                       mmOptions(partialsType, "TRAINING_BWD"), cache);
  return std::make_pair(gradIn, state);
}

Tensor backwardGradientStep(poplar::Graph &graph, const Tensor &nextLayerGrad, const Tensor &bwdState,
                            const Tensor &actOut, const Tensor &weightsFeedback, Sequence &prog,
                            NonLinearityType nonLinearityType, const poplar::Type &partialsType,
                            const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "backwardGradientStep");
  checkBwdStep(nextLayerGrad, bwdState, actOut, weightsFeedback, name);
  return bwdStateStep(graph, nextLayerGrad, bwdState, actOut, weightsFeedback, prog, nonLinearityType, partialsType,
                      name, cache);
}

void paramDeltaUpdate(poplar::Graph &graph, const Tensor &bwdState, const Tensor &actIn, const Tensor &prevOut,
                      Tensor &weightsInputDeltasAcc, Tensor &weightsFeedbackDeltasAcc, Tensor &biasDeltasAcc,
                      Sequence &prog, const poplar::Type &partialsType, const poplar::DebugContext &debugContext,
                      poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "paramDeltaUpdate");
  checkRank(bwdState, 2, name, "bwdState", "[batch, output]");
  const std::size_t batch = bwdState.dim(0), out = bwdState.dim(1);
  checkRank(actIn, 2, name, "actIn", "[batch, input]");
  checkDim(actIn, 0, batch, name, "actIn", "[batch, input]");
  checkShape(prevOut, {batch, out}, name, "prevOut", "[batch, output]");
  checkShape(weightsInputDeltasAcc, {actIn.dim(1), out}, name, "weightsInputDeltasAcc", "[input, output]");
  checkShape(weightsFeedbackDeltasAcc, {out, out}, name, "weightsFeedbackDeltasAcc", "[output, output]");
  checkShape(biasDeltasAcc, {out}, name, "biasDeltasAcc", "[output]");
  const poplar::Type type = bwdState.elementType();
  checkType(actIn, type, name, "actIn");
  checkType(prevOut, type, name, "prevOut");
  checkType(weightsInputDeltasAcc, type, name, "weightsInputDeltasAcc");
  checkType(weightsFeedbackDeltasAcc, type, name, "weightsFeedbackDeltasAcc");
  checkType(biasDeltasAcc, type, name, "biasDeltasAcc");
  const poplar::OptionFlags o = mmOptions(partialsType, "TRAINING_WU");
  poplin::matMulAcc(graph, weightsInputDeltasAcc, 1.0f, actIn.transpose(), bwdState, prog, {name + "/input"}, o,
                    cache);
  poplin::matMulAcc(graph, weightsFeedbackDeltasAcc, 1.0f, prevOut.transpose(), bwdState, prog,
                    {name + "/feedback"}, o, cache);
  popops::reduceWithOutput(graph, bwdState, biasDeltasAcc, {0}, popops::ReduceParams(popops::Operation::ADD, true),
                           prog, {name + "/bias"});
}

Tensor rnnFwdSequence(poplar::Graph &graph, Sequence &prog, const Tensor &fwdStateInit, const Tensor *weightedIn,
                      const Tensor &biases, const Tensor &feedFwdWeights, const Tensor &feedbackWeights,
                      const Tensor &prevLayerActs, const NonLinearityType &nonLinearityType,
                      const poplar::Type &partialsType, bool inferenceOnly, const poplar::DebugContext &debugContext,
                      poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "rnnFwdSequence");
  checkRank(prevLayerActs, 3, name, "prevLayerActs", "[steps, batch, input]");
  Tensor weighted;
  if (weightedIn) {
    checkRank(*weightedIn, 3, name, "*weightedIn", "[steps, batch, output]");
    checkDim(*weightedIn, 0, prevLayerActs.dim(0), name, "*weightedIn", "[steps, batch, output]");
    weighted = *weightedIn;
  } else {
    weighted = forwardWeightInput(graph, prevLayerActs, feedFwdWeights, prog, partialsType, inferenceOnly, {name},
                                  cache);
  }
  return forwardIterate(graph, weighted, fwdStateInit, feedbackWeights, biases, prog, nonLinearityType, partialsType,
                        inferenceOnly, {name}, cache);
}

std::tuple<Tensor, Tensor, Tensor, Tensor>
rnnBwdSequence(poplar::Graph &graph, bool doWU, bool ignoreInputGradientCalc, Sequence &prog,
               const Tensor &fwdStateInit, const Tensor &fwdState, const Tensor &biases, const Tensor &feedFwdWeights,
               const Tensor &feedbackWeights, const Tensor &outGradient, const Tensor &actIn,
               const NonLinearityType &nonLinearityType, const poplar::Type &partialsType,
               const poplar::DebugContext &debugContext, poplin::PlanningCache *cache) {
  const std::string name = nameOf(debugContext, "rnnBwdSequence");
  checkRank(actIn, 3, name, "actIn", "[steps, batch, input]");
  const std::size_t steps = actIn.dim(0), batch = actIn.dim(1), in = actIn.dim(2);
  checkRank(fwdState, 3, name, "fwdState", "[steps, batch, output]");
  const std::size_t out = fwdState.dim(2);
  checkDim(fwdState, 0, steps, name, "fwdState", "[steps, batch, output]");
  checkDim(fwdState, 1, batch, name, "fwdState", "[steps, batch, output]");
  checkRank(outGradient, 3, name, "outGradient", "[steps, batch, output]");
  if (outGradient.shape() != fwdState.shape())
    throw poplibs_error(name + ": outGradient has shape " + outGradient.shapeToString() + "; it must be fwdState's " +
                        fwdState.shapeToString() + " ([steps, batch, output])");
  checkShape(fwdStateInit, {batch, out}, name, "fwdStateInit", "[batch, output]");
  checkShape(feedFwdWeights, {in, out}, name, "feedFwdWeights", "[input, output]");
  checkShape(biases, {out}, name, "biases", "[output]");
  if (steps == 0)
    throw poplibs_error(name + ": actIn has no steps; give at least one");
  const poplar::Type type = actIn.elementType();
  Tensor wffAcc, wfbAcc, biasAcc;
  if (doWU) {
    wffAcc = graph.clone(feedFwdWeights, {name + "/feedFwdWeightsDeltas"});
    wfbAcc = graph.clone(feedbackWeights, {name + "/feedbackWeightsDeltas"});
    biasAcc = graph.clone(biases, {name + "/biasDeltas"});
    for (const Tensor &t : {wffAcc, wfbAcc, biasAcc})
      popops::zero(graph, t, prog, {name + "/zeroDeltas"});
  }
  Tensor state = createBwdState(graph, type, unsigned(batch), unsigned(out), prog, {name}, cache);
  std::vector<Tensor> grads(steps);
  for (std::size_t s = steps; s-- != 0;) {
    const std::string step = name + "/step" + std::to_string(s);
    const Tensor y = fwdState[s];
    if (ignoreInputGradientCalc) {
      state = backwardGradientStep(graph, outGradient[s], state, y, feedbackWeights, prog, nonLinearityType,
                                   partialsType, {step}, cache);
      grads[s] = state.expand({0});
    } else {
      const auto g = backwardGradientStep(graph, outGradient[s], state, y, feedFwdWeights, feedbackWeights, prog,
                                          nonLinearityType, partialsType, {step}, cache);
      grads[s] = g.first.expand({0});
      state = g.second;
    }
    if (doWU) {
      const Tensor prev = s == 0 ? fwdStateInit : fwdState[s - 1];
      paramDeltaUpdate(graph, state, actIn[s], prev, wffAcc, wfbAcc, biasAcc, prog, partialsType, {step}, cache);
    }
  }
  return std::make_tuple(poplar::concat(grads), wffAcc, wfbAcc, biasAcc);
}

} // namespace rnn
} // namespace popnn
