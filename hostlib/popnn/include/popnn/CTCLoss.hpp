// The Connectionist Temporal Classification (CTC) loss: -log p(label | data) summed over every alignment of the
// label (with blanks and repeats) to the data's time steps, and its gradient, for a batch of sequences.
#ifndef POPNN_CTCLOSS_HPP
#define POPNN_CTCLOSS_HPP

#include <cstddef>
#include <utility>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/CTCPlan.hpp>

namespace popnn {
namespace ctc {

/// A plan for the CTC loss of `batchSize` sequences of up to `maxTime` steps over `numClasses` classes (blank
/// included) with labels of up to `maxLabelLength` symbols; `inType` is the data's type (FLOAT or HALF) and
/// `outType` the gradient's. Each sequence's whole recursion runs on one tile; the plan spreads the sequences over
/// the tiles. Options:
///  - `partialsType` (float; half is accepted and computed in float): the type of the internal results;
///  - `availableMemoryProportion` (0 to 1, default 0.6): the share of a tile's memory the operation may use;
///  - `planConstraints` (JSON, e.g. {"parallel": {"batch": 2}}): `parallel.batch` is the number of tiles the
///    sequences are spread over (1 to min(batchSize, tiles)); `parallel.time`, `parallel.label` and
///    `parallel.alphabet` must be 1 (this implementation does not split one sequence).
/// Throws poputil::poplibs_error when no plan fits the memory or the constraints, or on an unknown constraint;
/// poplar::invalid_option on an unknown option or a bad value.
Plan plan(const poplar::Graph &graph, const poplar::Type &inType, const poplar::Type &outType, unsigned batchSize,
          unsigned maxTime, unsigned maxLabelLength, unsigned numClasses, const poplar::OptionFlags &options = {});

/// A new data tensor [maxTime, batchSize, numClasses] of `type`, each sequence on the tile the loss plan gives
/// it. Throws poputil::poplibs_error when `plan` is not a loss plan or the sizes differ from it.
poplar::Tensor createDataInput(poplar::Graph &graph, const poplar::Type &type, const std::size_t batchSize,
                               const std::size_t maxTime, const std::size_t numClasses, const Plan &plan,
                               const poplar::DebugContext &debugContext = {});

/// A new labels tensor [batchSize, maxLabelLength] of `type` (UNSIGNED_INT or INT), each label on its
/// sequence's tile. Throws as createDataInput does.
poplar::Tensor createLabelsInput(poplar::Graph &graph, const poplar::Type &type, const std::size_t batchSize,
                                 const std::size_t maxLabelLength, const Plan &plan,
                                 const poplar::DebugContext &debugContext = {});

/// The loss and its gradient for log probabilities `logProbs` [maxTime, batchSize, numClasses] (FLOAT or HALF,
/// each time step a log-softmax), `labels` [batchSize, maxLabelLength], and the valid lengths `dataLengths` and
/// `labelLengths` [batchSize] (labels and lengths UNSIGNED_INT or INT); `blankClass` is the blank's class.
/// Returns (loss [batchSize], gradient [maxTime, batchSize, numClasses]), both of `outType`: loss[b] =
/// -log p(label b | data b), and gradient[t][b][k] = exp(logProbs[t][b][k]) - (the posterior probability of
/// class k at step t), the gradient with respect to the logits under the log-softmax; steps at or beyond
/// dataLengths[b] get exp(logProbs) alone. A label that no alignment fits gives a loss of about 65504 (PopLibs'
/// log of zero is -65504). Options:
///  - `includeSoftmaxGradient` (true only; false throws, as in PopLibs);
///  - `zeroInfinity` (false): such impossible losses and all their sequence's gradients are set to 0;
///  - `zeroInfinityRelTolerance` (0.01): a loss within this relative distance of 65504 counts as impossible.
/// Computed on the device in float, one vertex per sequence. Throws poputil::poplibs_error when `plan` is not a
/// loss plan or on wrong shapes or types.
std::pair<poplar::Tensor, poplar::Tensor> calcLossAndGradientLogProbabilities(
    poplar::Graph &graph, const poplar::Type &outType, const poplar::Tensor &logProbs, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths, poplar::program::Sequence &prog,
    const unsigned blankClass, const Plan &plan, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// calcLossAndGradientLogProbabilities of popnn::logSoftmax(logits) (the logits are not changed).
std::pair<poplar::Tensor, poplar::Tensor> calcLossAndGradientLogits(
    poplar::Graph &graph, const poplar::Type &outType, const poplar::Tensor &logits, const poplar::Tensor &labels,
    const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths, poplar::program::Sequence &prog,
    const unsigned blankClass, const Plan &plan, const poplar::DebugContext &debugContext = {},
    const poplar::OptionFlags &options = {});

/// The loss alone of calcLossAndGradientLogProbabilities (no gradient is computed).
poplar::Tensor calcCTCLossLogProbabilities(poplar::Graph &graph, const poplar::Type &outType,
                                           const poplar::Tensor &logProbs, const poplar::Tensor &labels,
                                           const poplar::Tensor &dataLengths, const poplar::Tensor &labelLengths,
                                           poplar::program::Sequence &prog, const unsigned blankClass,
                                           const Plan &plan, const poplar::DebugContext &debugContext = {},
                                           const poplar::OptionFlags &options = {});

/// The loss alone of calcLossAndGradientLogits.
poplar::Tensor calcCTCLossLogits(poplar::Graph &graph, const poplar::Type &outType, const poplar::Tensor &logits,
                                 const poplar::Tensor &labels, const poplar::Tensor &dataLengths,
                                 const poplar::Tensor &labelLengths, poplar::program::Sequence &prog,
                                 const unsigned blankClass, const Plan &plan,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

} // namespace ctc
} // namespace popnn

#endif // POPNN_CTCLOSS_HPP
