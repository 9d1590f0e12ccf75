// Block-sparse matrix multiplication (Graphcore's popsparse/experimental/BlockSparseMatMul.hpp).
//
// Block-sparse operands and results are held as their non-zero blocks (see BlockSparse.hpp). Shapes, with
// dim = {M, K, N} and blockSize = {bM, bK, bN}:
//   - dense x sparse: LHS dense [M, K]; RHS the non-zero blocks of a K x N matrix, [nz, bK * bN] (or, with
//     rhsNeedTranspose, of the N x K matrix whose transpose is multiplied, [nz, bN * bK], mask and blocks in that
//     matrix's own order); result dense [M, N];
//   - dense x dense = sparse: LHS [M, K], RHS [K, N]; result the non-zero blocks of the M x N product, [nz, bM * bN].
// With G groups, G such products are done at once: the dense operands and the results are the groups' tensors
// concatenated along dimension 0, and the sparsity mask is the groups' masks concatenated.
#ifndef POPSPARSE_EXPERIMENTAL_BLOCK_SPARSE_MATMUL_HPP
#define POPSPARSE_EXPERIMENTAL_BLOCK_SPARSE_MATMUL_HPP

#include <array>
#include <memory>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include "BlockSparse.hpp"

namespace popsparse {
namespace experimental {

class BSMatMulImpl;

/// The shape, block size, sparsity and types of a block-sparse matrix product: what the graph depends on, so one
/// object serves every product of that structure whatever the data.
class BSMatMulParams {
public:
  /// Dense (left) x block-sparse (right).
  /// \param dim       {rows of the LHS, columns of the LHS, columns of the result}.
  /// \param blockSize {block rows of the LHS, block columns of the LHS (= block rows of the RHS), block columns of
  ///                  the result}.
  /// \param rhsSparsity The mask of the right-hand matrix, row-major, non-zero = a stored block; with
  ///                  rhsNeedTranspose it is the mask of the stored (untransposed) N x K matrix.
  /// \param rhsNeedTranspose The stored right-hand matrix is N x K and its transpose is multiplied (dim and
  ///                  blockSize still describe the product).
  /// \param inDataType, outDataType, partialDataType Types of the operands (HALF or FLOAT), of the result and of
  ///                  the partial sums.
  /// \param numGroupsIn Number of products done together (1: no groups).
  BSMatMulParams(const std::array<int, 3> &dim, const std::array<int, 3> &blockSize,
                 const std::vector<unsigned char> &rhsSparsity, bool rhsNeedTranspose, poplar::Type inDataType,
                 poplar::Type outDataType, poplar::Type partialDataType, unsigned numGroupsIn = 1);

  /// Dense x dense, of which only the blocks of `resSparsity` (the result's mask, row-major) are computed; the
  /// result is block-sparse. `subBlockMask` zeroes a triangle of the result (see SubBlockMask). Other arguments
  /// as above.
  BSMatMulParams(const std::array<int, 3> &dim, const std::array<int, 3> &blockSize,
                 const std::vector<unsigned char> &resSparsity, poplar::Type inDataType, poplar::Type outDataType,
                 poplar::Type partialDataType, SubBlockMask subBlockMask = SubBlockMask::None,
                 unsigned numGroupsIn = 1);

  BSMatMulParams(BSMatMulParams &&other);

  ~BSMatMulParams();

  /// The description (its definition is private to the library).
  std::unique_ptr<BSMatMulImpl> impl;
};

/// A new tensor for the left operand of bsMatMul, mapped to tiles: the dense [G * M, K] matrix.
/// `options` are those of bsMatMul.
poplar::Tensor createBSMatMulInputLHS(poplar::Graph &graph, const BSMatMulParams &bsMatMul,
                                      const poplar::DebugContext &debugContext,
                                      const poplar::OptionFlags &options = {});

/// A new tensor for the right operand of bsMatMul, mapped to tiles: the non-zero blocks [nz, block elements] of
/// the sparse right-hand matrix (dense x sparse), or the dense [G * K, N] matrix (dense x dense = sparse).
poplar::Tensor createBSMatMulInputRHS(poplar::Graph &graph, const BSMatMulParams &bsMatMul,
                                      const poplar::DebugContext &debugContext,
                                      const poplar::OptionFlags &options = {});

/// Appends to `prog` the product lhsMatrix x rhsMatrix described by `bsMatMulParams` and returns the new result
/// tensor, mapped to tiles (shapes in the file comment).
///
/// Options: `numberOfPass` (integer >= 1, default 1), accepted for compatibility (the products are already split
/// by block column); `partitionMethod` (block, block-naive, strip) and `memoryCycleRatio`, accepted and unused.
poplar::Tensor bsMatMul(poplar::Graph &graph, const BSMatMulParams &bsMatMulParams, poplar::program::Sequence &prog,
                        const poplar::Tensor &lhsMatrix, const poplar::Tensor &rhsMatrix,
                        const poplar::OptionFlags &options = {}, const poplar::DebugContext &debugContext = {});

} // namespace experimental
} // namespace popsparse

#endif // POPSPARSE_EXPERIMENTAL_BLOCK_SPARSE_MATMUL_HPP
