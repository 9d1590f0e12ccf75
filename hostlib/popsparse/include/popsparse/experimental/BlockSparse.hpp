// Block-sparse softmax and its gradient (Graphcore's popsparse/experimental/BlockSparse.hpp).
//
// A block-sparse tensor is a 2-D tensor of its non-zero blocks, [non-zero blocks, blockSize[0] x blockSize[1]]:
// each row one block in row-major order, the blocks in the row-major order of the sparsity mask. The softmax of a
// dense row runs over that row's elements in non-zero blocks only: a zero block takes no part (as if it held minus
// infinity).
#ifndef POPSPARSE_EXPERIMENTAL_BLOCK_SPARSE_HPP
#define POPSPARSE_EXPERIMENTAL_BLOCK_SPARSE_HPP

#include <array>
#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace popsparse {
namespace experimental {

/// A mask on the elements of the dense matrix, applied inside the non-zero blocks: the elements of the triangle
/// it names are excluded (and zero in the result). The diagonal is kept. With groups, the rows of the dense matrix
/// are split into that many equal groups and each group is masked as a matrix of its own.
enum class SubBlockMask {
  None,              ///< No element is masked.
  ZeroUpperTriangle, ///< Elements above the diagonal (column > row) are masked.
  ZeroLowerTriangle  ///< Elements below the diagonal (column < row) are masked.
};

/// Softmax along the rows of a block-sparse matrix; returns a new block-sparse tensor of the same shape and layout.
/// \param sparseTensor The non-zero blocks, [non-zero blocks, blockSize[0] * blockSize[1]], HALF or FLOAT.
/// \param dim          Rows and columns of the dense matrix (multiples of the block size).
/// \param blockSize    Rows and columns of a block.
/// \param sparsity     (dim[0] / blockSize[0]) x (dim[1] / blockSize[1]) mask, row-major, non-zero = a stored block.
/// \param subBlockMaskType Elements excluded from the softmax (zero in the result).
/// \param numGroups    Number of groups the dense rows are split into for the sub-block mask (1: none).
/// \param prog         The program the operation is appended to.
poplar::Tensor bsSoftmax(poplar::Graph &graph, poplar::Tensor sparseTensor, const std::array<int, 2> &dim,
                         const std::array<int, 2> &blockSize, const std::vector<unsigned char> &sparsity,
                         SubBlockMask subBlockMaskType, unsigned numGroups, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

/// As bsSoftmax, writing the result over `sparseTensor`.
void bsSoftmaxInPlace(poplar::Graph &graph, poplar::Tensor sparseTensor, const std::array<int, 2> &dim,
                      const std::array<int, 2> &blockSize, const std::vector<unsigned char> &sparsity,
                      SubBlockMask subBlockMaskType, unsigned numGroups, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// The gradient of bsSoftmax: given its output y (`sparseOut`) and the gradient dy of the loss with respect to y
/// (`sparseOutGrad`), both block-sparse with the same layout, returns dx = y * (dy - sum over the row of y * dy), a
/// new block-sparse tensor of that layout. The arguments are those of bsSoftmax.
poplar::Tensor bsSoftmaxGrad(poplar::Graph &graph, poplar::Tensor sparseOut, poplar::Tensor sparseOutGrad,
                             const std::array<int, 2> &dim, const std::array<int, 2> &blockSize,
                             const std::vector<unsigned char> &sparsity, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {});

} // namespace experimental
} // namespace popsparse

#endif // POPSPARSE_EXPERIMENTAL_BLOCK_SPARSE_HPP
