// How a static_::SparseTensor maps onto the sparse matrix: its values are the non-zero blocks in row-major order of
// the matrix (groups stacked by rows), each block row-major. The pattern is fixed when the graph is built, so it
// rides in the tensor's metadata and the places of the values in the dense matrix are known when the graph is
// built: one Copy puts them there.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <popsparse/MatMulParams.hpp>
#include <popsparse/SparseStorageFormats.hpp>
#include <popsparse/SparseTensor.hpp>

#include "host_blocks.hpp"
#include "tensor_metadata.hpp"

namespace popsparse {
namespace static_ {
namespace detail {

/// The sparse matrix [groups x rows, cols] of params in br x bc blocks: rows x cols is m x k for a sparse x dense
/// product, k x m for a dense x sparse one; `name` starts the error when the blocks do not divide it.
popsparse::detail::HostShape shapeOf(const MatMulParams &params, std::size_t br, std::size_t bc,
                                     const std::string &name);

/// What a static sparse operand carries: the product it was made for and its non-zero blocks' numbers in the
/// row-major grid of the matrix, ascending (block i of the values is block blockNumbers[i]).
struct MatMulLayout final : poputil::TensorMetaDataBase {
  MatMulParams params;
  popsparse::detail::HostShape shape;
  std::vector<std::size_t> blockNumbers;
  std::unique_ptr<poputil::TensorMetaDataBase> clone() const override {
    return std::unique_ptr<poputil::TensorMetaDataBase>(new MatMulLayout(*this));
  }
};

/// The layout of `csr` for params; `name` starts the errors (a matrix whose blocks do not divide the matrix or lie
/// off it).
template <typename T>
MatMulLayout layoutOf(const MatMulParams &params, const CSRMatrix<T> &csr, const std::string &name);

/// A new static sparse operand of `type` (FLOAT or HALF) for `layout`, its values mapped linearly.
SparseTensor createSparse(poplar::Graph &graph, const poplar::Type &type, const MatMulLayout &layout,
                          const std::string &name);

/// The layout a sparse operand carries, checked against its values; refuses operands the static_ create functions
/// did not make, or made for the other side of the product (`transposed`: dense x sparse).
const MatMulLayout &layoutOf(const SparseTensor &t, bool transposed, const std::string &name);

/// The dense [groups, rows, cols] matrix of t, made in `prog` (zeroed, then the values copied to their places).
poplar::Tensor densify(poplar::Graph &graph, const SparseTensor &t, const MatMulLayout &layout,
                       poplar::program::Sequence &prog, const std::string &name);

} // namespace detail
} // namespace static_
} // namespace popsparse
