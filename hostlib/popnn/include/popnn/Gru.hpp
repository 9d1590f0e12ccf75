// A basic GRU layer (popnn::gru): for each time step t, with the input x_t {B, in} and the previous output
// h {B, out},
//   r = sigma(x Wr + h Ur + br), u = sigma(x Wu + h Uu + bu), c = act(x Wc + (r * h) Uc + bc)
//   h' = u * h + (1 - u) * c
// with sigma the recurrent activation (SIGMOID by default) and act the activation (TANH by default). With
// resetAfter the reset gate multiplies the candidate's recurrent product instead, and every gate has a second
// (recurrent) bias: biases {3, 2, out}, [k][0] added to the input product, [k][1] to the recurrent one:
//   c = act(x Wc + bc0 + r * (h Uc + bc1)).
// The attention GRU (auGru*) takes a score a {B, T} per batch entry and step and uses u' = (1 - a) * u in place
// of u. realTimeSteps {B} (the deprecated overloads, or a GruParams made with a timeSteps tensor): steps at or
// after an entry's count give a zero output and pass no gradient back (outputFullSequence must be true).
// The input products of all steps are one matMul; the steps are unrolled into the program, each a matMul for the
// recurrent products and popops maps and popnn non-linearities for the rest. The training passes run the steps
// in reverse the same way and weight-update with one matMul per weight over every step.
//
// Forward intermediates {T, S, B, out}: the reset gate, update gate and candidate (after their non-linearities;
// the update gate before the attention), then the output when outputFullSequence is false, then the candidate's
// recurrent product h Uc + bc1 when resetAfter. Backward intermediates {T, 3, B, out}: the gradients before the
// non-linearities of the reset gate, update gate and candidate (in that order, not cellOrder's).
//
// Options (an unknown name or bad value is a poplar::invalid_option): "availableMemoryProportion" and
// "partialsType" as for matMul; "inferenceOnly" ("true"/"false"; accepted).
#ifndef POPNN_GRU_HPP
#define POPNN_GRU_HPP

#include <cstddef>
#include <stdint.h>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <popnn/GruDef.hpp>
#include <popnn/NonLinearityDef.hpp>
#include <popnn/Rnn.hpp>

namespace popnn {
namespace gru {

/// {RESET_GATE, UPDATE_GATE, CANDIDATE}: the default order of the gate slots.
const std::vector<BasicGruCellUnit> getDefaultBasicGruCellOrder();

/// The layer: rnn (type, batch, steps, {input size, output size}) and how it runs.
struct GruParams {
  rnn::RnnParams rnn;
  /// Copies of rnn's members, kept for source compatibility.
  poplar::Type dataType;
  std::size_t batchSize;
  std::size_t timeSteps;
  std::vector<std::size_t> layerSizes;
  /// Return every step's output {T, B, out} (true) or only the last {B, out}.
  bool outputFullSequence;
  /// The backward passes take an inputGrad pointer if and only if this is true.
  bool calcInputGradients;
  /// Which unit each gate slot of the weights and biases holds: a permutation of the three units.
  std::vector<BasicGruCellUnit> cellOrder;
  /// Apply the reset gate after the candidate's recurrent product (biases {3, 2, out}; see the top).
  bool resetAfter;
  NonLinearityType activation;
  NonLinearityType recurrentActivation;
  GruParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes, NonLinearityType activation = NonLinearityType::TANH,
            NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
  /// Up to maxTimeSteps steps, the count read at run time from timeSteps (unsigned, [1] or [batchSize]): the
  /// passes then work as the realTimeSteps overloads do (outputFullSequence must be true).
  GruParams(poplar::Type dataType, std::size_t batchSize, std::size_t maxTimeSteps, const poplar::Tensor &timeSteps,
            std::vector<std::size_t> layerSizes, NonLinearityType activation = NonLinearityType::TANH,
            NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
};

/// The layer's weights (or their gradients): inputWeights {3, in, out}, outputWeights {3, out, out}, biases
/// {3, out} ({3, 2, out} with resetAfter), gate slots in GruParams::cellOrder.
struct GruWeights {
  poplar::Tensor inputWeights;
  poplar::Tensor outputWeights;
  poplar::Tensor biases;
};


/// Multiplications and additions of the forward pass: the three gates' input and output products (2 per
/// multiply-accumulate) and 4 element-wise operations per output element and step (r * h and
/// h' = c + u * (h - c)); non-linearities not counted.
uint64_t getBasicGruCellFwdFlops(const GruParams &params);
/// The same for the backward pass: the gate gradients times the output weights (and times the input weights when
/// calcInputGradients) and 8 element-wise operations per output element and step.
uint64_t getBasicGruCellBwdFlops(const GruParams &params);
/// The same for the weight update: the input and output weight deltas over every step and the bias sums.
uint64_t getBasicGruCellWuFlops(const GruParams &params);
/// The input {T, B, in}, mapped over the tiles. Throws poputil::poplibs_error for invalid params.
poplar::Tensor createInput(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                           const poplar::OptionFlags &options = poplar::OptionFlags(),
                           poplin::PlanningCache *planningCache = 0);
/// The initial output h {B, out}.
poplar::Tensor createInitialState(poplar::Graph &graph, const GruParams &params,
                                  const poplar::DebugContext &debugContext, const poplar::OptionFlags &options,
                                  poplin::PlanningCache *cache);
/// The input and output weights ({3, in, out}, {3, out, out}), each stored as the right operand of its product.
std::pair<poplar::Tensor, poplar::Tensor>
createWeightsKernel(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                    const poplar::OptionFlags &options = poplar::OptionFlags(), poplin::PlanningCache *planningCache = 0);
/// The biases {3, out}, or {3, 2, out} with resetAfter.
poplar::Tensor createWeightsBiases(poplar::Graph &graph, const GruParams &params,
                                   const poplar::DebugContext &debugContext,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   poplin::PlanningCache *planningCache = 0);
/// All three.
GruWeights createWeights(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &options = poplar::OptionFlags(),
                         poplin::PlanningCache *planningCache = 0);

/// The attention scores {B, T} of the auGru functions.
poplar::Tensor createAttention(poplar::Graph &graph, const GruParams &params,
                               const poplar::DebugContext &debugContext,
                               const poplar::OptionFlags &options = poplar::OptionFlags());

/// The forward pass over `in` {T, B, in} from `stateInit` {B, out}: returns the output, {T, B, out} or the last
/// step's {B, out} as params.outputFullSequence says. With `intermediates` non-null it is set to the forward
/// intermediates the training passes take. Throws poputil::poplibs_error for shapes or types that do not match
/// the params (naming the tensor and the shape it must have) or a cellOrder that is not a permutation.
poplar::Tensor gruFwd(poplar::Graph &graph, const GruParams &params, const poplar::Tensor &stateInit,
                      const poplar::Tensor &in, const GruWeights &weights, poplar::Tensor *intermediates,
                      poplar::program::Sequence &fwdProg, const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags(),
                      poplin::PlanningCache *planningCache = 0);
/// Deprecated by Graphcore: as above with realTimeSteps {B} (an integer type), the steps each entry runs.
poplar::Tensor gruFwd(poplar::Graph &graph, const GruParams &params, const poplar::Tensor &stateInit,
                      const poplar::Tensor &in, const poplar::Tensor &realTimeSteps, const GruWeights &weights,
                      poplar::Tensor *intermediates, poplar::program::Sequence &fwdProg,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags(),
                      poplin::PlanningCache *planningCache = 0);
/// The attention GRU's forward pass: gruFwd with the scores attScores {B, T}.
poplar::Tensor auGruFwd(poplar::Graph &graph, const GruParams &params, const poplar::Tensor &stateInit,
                        const poplar::Tensor &in, const GruWeights &weights, poplar::Tensor *intermediates,
                        const poplar::Tensor &attScores, poplar::program::Sequence &fwdProg,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                        poplin::PlanningCache *planningCache = 0);
/// Deprecated by Graphcore: auGruFwd with realTimeSteps {B}.
poplar::Tensor auGruFwd(poplar::Graph &graph, const GruParams &params, const poplar::Tensor &stateInit,
                        const poplar::Tensor &in, const poplar::Tensor &realTimeSteps, const GruWeights &weights,
                        poplar::Tensor *intermediates, const poplar::Tensor &attScores,
                        poplar::program::Sequence &fwdProg, const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags(),
                        poplin::PlanningCache *planningCache = 0);

/// The backward pass, steps in reverse: from the forward's initial output, intermediates, input and output and
/// the output's gradient gradLayerNext (shaped as the output), returns the gradient of the initial output {B, out}.
/// inputGrad (non-null if and only if params.calcInputGradients) is set to the input's gradient {T, B, in};
/// bwdIntermediates, when non-null, to the backward intermediates for gruWU.
poplar::Tensor gruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                      const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediatesSeq,
                      const GruWeights &weights, const poplar::Tensor &fwdInputSeq, const poplar::Tensor &fwdOutput,
                      const poplar::Tensor &gradLayerNext, poplar::Tensor *inputGrad, poplar::Tensor *bwdIntermediates,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                      poplin::PlanningCache *planningCache);
/// Deprecated by Graphcore: gruBwd with the forward's realTimeSteps {B}.
poplar::Tensor gruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                      const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediatesSeq,
                      const GruWeights &weights, const poplar::Tensor &fwdInputSeq,
                      const poplar::Tensor &realTimeSteps, const poplar::Tensor &fwdOutput,
                      const poplar::Tensor &gradLayerNext, poplar::Tensor *inputGrad, poplar::Tensor *bwdIntermediates,
                      const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                      poplin::PlanningCache *planningCache);
/// The attention GRU's backward pass; attentionsGrad, when non-null, is set to the scores' gradient {B, T}.
poplar::Tensor auGruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                        const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediatesSeq,
                        const GruWeights &weights, const poplar::Tensor &fwdInputSeq,
                        const poplar::Tensor &fwdOutput, const poplar::Tensor &gradLayerNext,
                        poplar::Tensor *inputGrad, poplar::Tensor *bwdIntermediates,
                        const poplar::Tensor &attentions, poplar::Tensor *attentionsGrad,
                        const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                        poplin::PlanningCache *planningCache);
/// Deprecated by Graphcore: auGruBwd with the forward's realTimeSteps {B}.
poplar::Tensor auGruBwd(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                        const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediatesSeq,
                        const GruWeights &weights, const poplar::Tensor &fwdInputSeq,
                        const poplar::Tensor &realTimeSteps, const poplar::Tensor &fwdOutput,
                        const poplar::Tensor &gradLayerNext, poplar::Tensor *inputGrad,
                        poplar::Tensor *bwdIntermediates, const poplar::Tensor &attentions,
                        poplar::Tensor *attentionsGrad, const poplar::DebugContext &debugContext,
                        const poplar::OptionFlags &options_, poplin::PlanningCache *planningCache);

/// The weight update: the weights' gradients (GruWeights shapes) from the forward and backward intermediates.
GruWeights gruWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                 const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediates,
                 const poplar::Tensor &bwdIntermediates, const GruWeights &weights, const poplar::Tensor &input,
                 const poplar::Tensor &output, const poplar::DebugContext &debugContext,
                 const poplar::OptionFlags &options_, poplin::PlanningCache *planningCache);
/// The attention GRU's weight update (the same products: the attention is already in the backward
/// intermediates).
GruWeights auGruWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                   const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediates,
                   const poplar::Tensor &bwdIntermediates, const GruWeights &weights, const poplar::Tensor &input,
                   const poplar::Tensor &output, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options_, poplin::PlanningCache *planningCache);

/// gruBwd then gruWU: returns the initial output's gradient and sets weightsGrad.
poplar::Tensor gruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                            const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediates,
                            const GruWeights &weights, const poplar::Tensor &input, const poplar::Tensor &output,
                            const poplar::Tensor &outputGrad, poplar::Tensor *inputGrad, GruWeights &weightsGrad,
                            const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                            poplin::PlanningCache *planningCache);
/// Deprecated by Graphcore: gruBwdWithWU with the forward's realTimeSteps {B}.
poplar::Tensor gruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                            const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediates,
                            const GruWeights &weights, const poplar::Tensor &input,
                            const poplar::Tensor &realTimeSteps, const poplar::Tensor &output,
                            const poplar::Tensor &outputGrad, poplar::Tensor *inputGrad, GruWeights &weightsGrad,
                            const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                            poplin::PlanningCache *planningCache);
/// auGruBwd then auGruWU.
poplar::Tensor auGruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                              const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediates,
                              const GruWeights &weights, const poplar::Tensor &input, const poplar::Tensor &output,
                              const poplar::Tensor &outputGrad, poplar::Tensor *inputGrad, GruWeights &weightsGrad,
                              const poplar::Tensor &attentions, poplar::Tensor *attentionsGrad,
                              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                              poplin::PlanningCache *planningCache);
/// Deprecated by Graphcore: auGruBwdWithWU with the forward's realTimeSteps {B}.
poplar::Tensor auGruBwdWithWU(poplar::Graph &graph, const GruParams &params, poplar::program::Sequence &prog,
                              const poplar::Tensor &fwdOutputInit, const poplar::Tensor &fwdIntermediates,
                              const GruWeights &weights, const poplar::Tensor &input,
                              const poplar::Tensor &realTimeSteps, const poplar::Tensor &output,
                              const poplar::Tensor &outputGrad, poplar::Tensor *inputGrad, GruWeights &weightsGrad,
                              const poplar::Tensor &attentions, poplar::Tensor *attentionsGrad,
                              const poplar::DebugContext &debugContext, const poplar::OptionFlags &options_,
                              poplin::PlanningCache *planningCache);

} // namespace gru
} // namespace popnn

#endif // POPNN_GRU_HPP
