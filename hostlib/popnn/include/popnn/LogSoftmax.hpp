// Log-softmax over the innermost dimension: y = x - max(x) - log(sum(e^(x - max(x)))), computed stably.
#ifndef POPNN_LOGSOFTMAX_HPP
#define POPNN_LOGSOFTMAX_HPP

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {

/// The log-softmax of FLOAT `t` over its innermost dimension as a new tensor mapped like `t`. Throws
/// poputil::poplibs_error for a non-FLOAT or rank-0 tensor.
poplar::Tensor logSoftmax(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});
/// As above, writing the result into `t`.
void logSoftmaxInPlace(poplar::Graph &graph, poplar::Tensor t, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // POPNN_LOGSOFTMAX_HPP
