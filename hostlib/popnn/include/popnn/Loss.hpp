// Losses, their gradients and classification accuracy (popnn::calcLoss, calcAccuracy), and the per-row argMax,
// argMin and topK they are built on. Model outputs are FLOAT or HALF [batch, classes]; the expected values are
// either one label per batch entry (INT or UNSIGNED_INT [batch]) or one-hot rows (the model outputs' type and
// shape). HALF outputs are computed in float and each result rounded once. A label
// outside [0, classes), such as popops' MASKED_LABEL_CODE (-1), masks its batch entry: zero loss, zero deltas,
// never counted correct.
#ifndef POPNN_LOSS_HPP
#define POPNN_LOSS_HPP

namespace popnn {

/// How calcLoss measures the loss of one batch entry (row) of model outputs p against expected one-hot y.
enum LossType {
  /// loss = sum_i 0.5 (p_i - y_i)^2; deltas = p - y (the gradient with respect to p).
  SUM_SQUARED_LOSS,
  /// loss = -sum_i y_i log(p_i / s), p being softmax probabilities scaled by s (modelOutputScaling, 1 by
  /// default); deltas = (p - s y) * deltasScale / s, the gradient with respect to the softmax's input.
  CROSS_ENTROPY_LOSS
};

} // namespace popnn

#ifndef __POPC__
#include <string>
#include <utility>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

/// A program writing the loss of each row of `modelOutputs` (FLOAT or HALF [batch, classes]) against `expected`
/// into `loss` (FLOAT or HALF [batch]) and its gradient into `deltas` (modelOutputs' type and shape).
/// `deltasScale` and `modelOutputScaling` are one-element FLOAT or HALF tensors used by CROSS_ENTROPY_LOSS (see
/// LossType). Throws
/// poputil::poplibs_error naming the operand for a shape or type that does not fit, an unmapped output or an
/// unknown lossType.
poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, const poplar::Tensor &deltasScale,
                                  const poplar::Tensor &modelOutputScaling, LossType lossType,
                                  const poplar::DebugContext &debugContext = {});
/// As above with deltasScale and modelOutputScaling 1.
poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, LossType lossType,
                                  const poplar::DebugContext &debugContext = {});
/// As the first form, also adding the number of correctly classified rows to `numCorrect` (UNSIGNED_INT, one
/// element): calcLoss followed by calcAccuracy.
poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, const poplar::Tensor &deltasScale,
                                  const poplar::Tensor &modelOutputScaling, const poplar::Tensor &numCorrect,
                                  LossType lossType, const poplar::DebugContext &debugContext = {});
/// As above with deltasScale and modelOutputScaling 1.
poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, const poplar::Tensor &numCorrect,
                                  LossType lossType, const poplar::DebugContext &debugContext = {});

/// A program adding to `numCorrect` (UNSIGNED_INT, one element) how many rows of `modelOutputs` have their
/// largest element (the first of equal ones) at the expected class (the label, or the one-hot row's argMax). As in
/// PopLibs the count accumulates: zero numCorrect before the first batch. A batch of 0 rows adds nothing.
poplar::program::Program calcAccuracy(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                      const poplar::Tensor &expected, const poplar::Tensor &numCorrect,
                                      const poplar::DebugContext &debugContext = {});

/// The index (UNSIGNED_INT [rows]) of the largest element of each row of 2-D `input` (FLOAT, HALF, INT or
/// UNSIGNED_INT), the first one when several are equal.
poplar::Tensor argMax(poplar::Graph &graph, const poplar::Tensor &input, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});
/// {the largest element of each row (input's type), its index as argMax gives it}.
std::pair<poplar::Tensor, poplar::Tensor> maxAndArgMax(poplar::Graph &graph, const poplar::Tensor &input,
                                                       poplar::program::Sequence &prog,
                                                       const poplar::DebugContext &debugContext = {});
/// The index of the smallest element of each row, the first one when several are equal.
poplar::Tensor argMin(poplar::Graph &graph, const poplar::Tensor &input, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});
/// {the smallest element of each row, its index as argMin gives it}.
std::pair<poplar::Tensor, poplar::Tensor> minAndArgMin(poplar::Graph &graph, const poplar::Tensor &input,
                                                       poplar::program::Sequence &prog,
                                                       const poplar::DebugContext &debugContext = {});
/// The `K` largest elements of each row of 2-D `input` (FLOAT, HALF, INT, UNSIGNED_INT or BOOL [batch, n]) as
/// [batch, 1, K], in descending order (whatever `sort` says: the selection finds them in that order), with their
/// indices (UNSIGNED_INT [batch, 1, K]) assigned to `indices`; the singleton dimension is PopLibs'. Equal elements
/// come in index order. A batch of 0 gives empty results. Throws poputil::poplibs_error when K exceeds n.
poplar::Tensor topK(poplar::Graph &graph, const poplar::Tensor &input, poplar::Tensor &indices, unsigned K,
                    bool sort, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // !__POPC__

#endif // POPNN_LOSS_HPP
