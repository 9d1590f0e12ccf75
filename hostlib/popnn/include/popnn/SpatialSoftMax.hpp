// The spatial softmax of 2-D fields: each field's expected (y, x) position under a softmax of its values, with
// the positions spanning [-1, 1] along each axis (as in learned keypoint models).
#ifndef POPNN_SPATIALSOFTMAX_HPP
#define POPNN_SPATIALSOFTMAX_HPP

#include <utility>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <popnn/NonLinearity.hpp>

namespace popnn {

/// For `fields` {F, H, W} (FLOAT or HALF): divides every value by a temperature, applies one softmax over all
/// F * H * W values together (unless `disableSoftmax`), and returns
///  - first: a new tensor {F, 2} whose row f is (sum over i, j of p[f][i][j] * y_i, sum of p[f][i][j] * x_j),
///    with y_i = -1 + 2i / (H - 1) and x_j = -1 + 2j / (W - 1) (linspace(-1, 1)), i.e. the expected y and x;
///  - second: the temperature, a new scalar variable of the fields' type that starts at `temperature` (a
///    trainable parameter the caller may write).
/// Computed on the device: a division, popnn's softmax and poplin's matMul of the fields {F, H*W} by the
/// coordinates {H*W, 2}; the graph needs popops', poplin's and popnn's codelets. Throws poputil::poplibs_error
/// when `fields` is not rank 3 or not FLOAT/HALF.
std::pair<poplar::Tensor, poplar::Tensor> spatialSoftMax2D(poplar::Graph &graph, poplar::program::Sequence &prog,
                                                           const poplar::Tensor &fields, float temperature,
                                                           bool disableSoftmax = false,
                                                           const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // POPNN_SPATIALSOFTMAX_HPP
