// The Cholesky factor of symmetric positive definite matrices ([..., N, N]): L with A = L L^T (or U = L^T), by
// blocks: each block column factored by element-wise steps on the device (square root, column scaling, rank-1
// updates of the block), the rest of the matrix updated by one matMul per block.
//
// Options: every matMul option (see MatMul.hpp), used by the block products.
#ifndef POPLIN_CHOLESKY_HPP
#define POPLIN_CHOLESKY_HPP

#include <cstddef>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include "poplin/MatMul.hpp"

namespace poplin {

/// The block products cholesky builds for a matrix of `shape` and `type` with blocks of `blockSize` rows, each
/// with its matMul options: pass them to preplanMatMuls so that cholesky finds its plans in the cache.
/// blockSize 0 means 64.
std::vector<std::pair<MatMulParams, poplar::OptionFlags> >
getCholeskyMatMulPrePlanParameters(const poplar::Type &type, const std::vector<std::size_t> &shape, bool lower,
                                   std::size_t blockSize, poplar::OptionFlags options);

/// A new tensor of `type` (FLOAT or HALF) and `shape` ([..., N, N]) for cholesky's input, mapped linearly over
/// the tiles (the factorization works on its own copy). Throws poputil::poplibs_error for a shape that is not square.
poplar::Tensor createCholeskyInput(poplar::Graph &graph, const poplar::Type &type,
                                   const std::vector<std::size_t> &shape, bool lower, std::size_t blockSize,
                                   const poplar::DebugContext &debugContext,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   matmul::PlanningCache *cache = 0);

/// The Cholesky factor of `a` ([..., N, N], FLOAT or HALF, symmetric positive definite): a new tensor of a's shape
/// holding L (lower triangular, A = L L^T; only a's lower triangle is read) when `lower`, else U (upper, A = U^T U;
/// only a's upper triangle is read); the other triangle is zero. Blocks of `blockSize` rows (0 means 64). A matrix
/// that is not positive definite gives NaN. Throws poputil::poplibs_error for a shape or type that does not fit.
poplar::Tensor cholesky(poplar::Graph &graph, const poplar::Tensor &a, bool lower, std::size_t blockSize,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                        poplar::OptionFlags options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);

/// As cholesky, writing the factor into `a` (which must have no aliased elements).
void choleskyInPlace(poplar::Graph &graph, const poplar::Tensor &a, bool lower, std::size_t blockSize,
                     poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                     poplar::OptionFlags options = poplar::OptionFlags(), matmul::PlanningCache *cache = 0);

// The forms of Graphcore's current API: the block size comes from the "blockSize" option (default 64), and the
// cache is poplin's PlanningCache (MatMul.hpp), whose product plans the block products use.

class PlanningCache;

/// getCholeskyMatMulPrePlanParameters with the block size from options.
std::vector<std::pair<MatMulParams, poplar::OptionFlags> >
getCholeskyMatMulPrePlanParameters(const poplar::Type &type, const std::vector<std::size_t> &shape, bool lower,
                                   poplar::OptionFlags options);

/// createCholeskyInput with the block size from options.
poplar::Tensor createCholeskyInput(poplar::Graph &graph, const poplar::Type &type,
                                   const std::vector<std::size_t> &shape, bool lower,
                                   const poplar::DebugContext &debugContext,
                                   const poplar::OptionFlags &options = poplar::OptionFlags(),
                                   PlanningCache *cache = 0);

/// cholesky with the block size from options.
poplar::Tensor cholesky(poplar::Graph &graph, const poplar::Tensor &a, bool lower, poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {},
                        poplar::OptionFlags options = poplar::OptionFlags(), PlanningCache *cache = 0);

/// choleskyInPlace with the block size from options.
void choleskyInPlace(poplar::Graph &graph, const poplar::Tensor &a, bool lower, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {},
                     poplar::OptionFlags options = poplar::OptionFlags(), PlanningCache *cache = 0);

} // namespace poplin

#endif // POPLIN_CHOLESKY_HPP
