// How a dynamic::SparseTensor maps onto the dense weights, shared by the fully connected layer, the embedding and
// the partitioner. The weights of all groups are a grid of blocks, numbered row-major: group, block row, block
// column. metaInfo holds one UNSIGNED_INT per slot: the number of the block stored there, or the grid's size for an
// unused slot (popops' multiUpdateAdd leaves such a row alone and multiSlice reads it as zeros, so an unused slot
// never reaches the dense weights and its gradient is 0).
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popsparse/FullyConnectedParams.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparseTensor.hpp>

#include "poplibs_support.hpp"
#include "tensor_metadata.hpp"

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
/// The grid of a sparse x dense product: the sparse [m, k] of each group is the weights [out, in].
Grid gridOf(const MatMulParams &params);

/// What a sparse operand made for a sparse x dense product carries, as the product takes no parameters.
struct MatMulLayout final : poputil::TensorMetaDataBase {
  Grid grid;
  explicit MatMulLayout(const Grid &g) : grid(g) {}
  std::unique_ptr<poputil::TensorMetaDataBase> clone() const override {
    return std::unique_ptr<poputil::TensorMetaDataBase>(new MatMulLayout(*this));
  }
};

/// A new sparse operand of `grid` (its meta-information and values mapped linearly) carrying `opMetaData`;
/// `type` must be FLOAT or HALF.
SparseTensor createSparse(poplar::Graph &graph, const poplar::Type &type, const Grid &grid, const std::string &name,
                          const poputil::TensorMetaData &opMetaData = {});

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
