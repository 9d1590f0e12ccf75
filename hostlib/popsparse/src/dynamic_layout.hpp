// How a dynamic::SparseTensor maps onto the dense weights, shared by the fully connected layer, the embedding and
// the partitioner. The weights of all groups are a grid of blocks, numbered row-major: group, block row, block
// column. metaInfo holds one UNSIGNED_INT per slot: the number of the block stored there, or the grid's size for an
// unused slot (popops' multiUpdateAdd leaves such a row alone and multiSlice reads it as zeros, so an unused slot
// never reaches the dense weights and its gradient is 0).
#pragma once

#include <cstddef>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/SparseTensor.hpp>

#include "poplibs_support.hpp"

namespace popsparse {
namespace dynamic {
namespace detail {

/// The debug name of dynamic operation `fn`: under the caller's path, or "popsparse::dynamic::<fn>".
inline std::string opName(const poplar::DebugContext &debugContext, const char *fn) {
  return poplibs_support::debugName(debugContext, "popsparse::dynamic::", fn);
}

/// The grid of one FullyConnectedParams.
struct Grid {
  std::size_t groups, outPerGroup, inPerGroup; // channels
  std::size_t br, bc;                          // block rows, block columns
  std::size_t slots;                           // non-zero blocks the weights have room for
  std::size_t blockRows() const { return outPerGroup / br; }
  std::size_t blockCols() const { return inPerGroup / bc; }
  std::size_t blocks() const { return groups * blockRows() * blockCols(); }
  std::size_t area() const { return br * bc; }
};
Grid gridOf(const FullyConnectedParams &params);

/// Checks that `t` holds the tensors createFullyConnectedWeights makes for `params`; `name` starts the error.
void checkWeights(const SparseTensor &t, const Grid &grid, const std::string &name);

/// The dense weights [groups, outPerGroup, inPerGroup] of `t`, built in `prog`.
poplar::Tensor densify(poplar::Graph &graph, const SparseTensor &t, const Grid &grid, poplar::program::Sequence &prog,
                       const std::string &name);

/// The values of dense [groups, outPerGroup, inPerGroup] at the blocks metaInfo names, as the weights' values are
/// laid out (0 in unused slots).
poplar::Tensor gather(poplar::Graph &graph, const poplar::Tensor &dense, const poplar::Tensor &metaInfo,
                      const Grid &grid, poplar::program::Sequence &prog, const std::string &name);

} // namespace detail
} // namespace dynamic
} // namespace popsparse
