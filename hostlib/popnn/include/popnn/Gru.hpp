// A basic GRU layer, forward pass (popnn::gru): for each time step t, with the input x_t {B, in} and the previous
// output h {B, out},
//   r = sigma(x Wr + h Ur + br), u = sigma(x Wu + h Uu + bu), c = act(x Wc + (r * h) Uc + bc)
//   h' = u * h + (1 - u) * c
// with sigma the recurrent activation (SIGMOID by default) and act the activation (TANH by default). The input
// products of all steps are one matMul; each step has one matMul for the reset and update gates, one for the
// candidate, and popops maps and popnn non-linearities for the rest, unrolled into the program.
//
// Not here yet: resetAfter, run-time time steps, intermediates and the training passes, the attention GRU (auGru).
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
  /// Training only (unused here).
  bool calcInputGradients;
  /// Which unit each gate slot of the weights and biases holds: a permutation of the three units.
  std::vector<BasicGruCellUnit> cellOrder;
  /// Apply the reset gate after the candidate's recurrent product (must be false here).
  bool resetAfter;
  NonLinearityType activation;
  NonLinearityType recurrentActivation;
  GruParams(poplar::Type dataType, std::size_t batchSize, std::size_t timeSteps,
            std::vector<std::size_t> layerSizes, NonLinearityType activation = NonLinearityType::TANH,
            NonLinearityType recurrentActivation = NonLinearityType::SIGMOID);
};

/// The layer's weights: inputWeights {3, in, out}, outputWeights {3, out, out}, biases {3, out}, gate slots in
/// GruParams::cellOrder.
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
/// The biases {3, out}.
poplar::Tensor createWeightsBiases(poplar::Graph &graph, const GruParams &params,
                                   const poplar::DebugContext &debugContext,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   poplin::PlanningCache *planningCache = 0);
/// All three.
GruWeights createWeights(poplar::Graph &graph, const GruParams &params, const poplar::DebugContext &debugContext,
                         const poplar::OptionFlags &options = poplar::OptionFlags(),
                         poplin::PlanningCache *planningCache = 0);

/// The forward pass over `in` {T, B, in} from `stateInit` {B, out}: returns the output, {T, B, out} or the last
/// step's {B, out} as params.outputFullSequence says. `intermediates` must be null here. Throws
/// poputil::poplibs_error for shapes or types that do not match the params, a non-null `intermediates`,
/// resetAfter or a cellOrder that is not a permutation.
poplar::Tensor gruFwd(poplar::Graph &graph, const GruParams &params, const poplar::Tensor &stateInit,
                      const poplar::Tensor &in, const GruWeights &weights, poplar::Tensor *intermediates,
                      poplar::program::Sequence &fwdProg, const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = poplar::OptionFlags(),
                      poplin::PlanningCache *planningCache = 0);

} // namespace gru
} // namespace popnn

#endif // POPNN_GRU_HPP
