// Solving linear systems with triangular coefficients: A X = B or X A = B for A lower or upper triangular, over
// any leading (batch) dimensions, by blocks: each diagonal block by substitution (element-wise steps on the
// device), the rest of the right-hand side updated by one matMul per block.
//
// Options: "blockSize" (an integer > 0, default 64: the rows of a block; systems of at most this many unknowns
// are solved by substitution alone) and every matMul option (see MatMul.hpp), which the block products use.
#ifndef POPLIN_TRIANGULARSOLVE_HPP
#define POPLIN_TRIANGULARSOLVE_HPP

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

/// A new tensor of shape aShape ([..., N, N]) and `inputType` for the coefficients of a solve with right-hand
/// side of shape bShape ([..., N, K] when `leftSide`, [..., K, N] otherwise), laid out as the block products use
/// it. `outputType` is the solution's type (the operands' type here). Throws poputil::poplibs_error for shapes
/// that do not match.
poplar::Tensor createTriangularSolveInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                             const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                             const std::vector<std::size_t> &bShape, bool leftSide,
                                             const poplar::DebugContext &debugContext,
                                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                                             matmul::PlanningCache *cache = 0);
/// As above with the block size given (deprecated form: the "blockSize" option).
poplar::Tensor createTriangularSolveInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                             const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                             const std::vector<std::size_t> &bShape, bool leftSide,
                                             std::size_t blockSize, const poplar::DebugContext &debugContext,
                                             poplar::OptionFlags options = poplar::OptionFlags(),
                                             matmul::PlanningCache *cache = 0);
/// A new tensor of shape bShape for the right-hand side of the solve, laid out for the block products.
poplar::Tensor createTriangularSolveInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                             const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                             const std::vector<std::size_t> &bShape, bool leftSide,
                                             const poplar::DebugContext &debugContext,
                                             const poplar::OptionFlags &options = poplar::OptionFlags(),
                                             matmul::PlanningCache *cache = 0);
/// As above with the block size given (deprecated form).
poplar::Tensor createTriangularSolveInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                             const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                                             const std::vector<std::size_t> &bShape, bool leftSide,
                                             std::size_t blockSize, const poplar::DebugContext &debugContext,
                                             poplar::OptionFlags options, matmul::PlanningCache *cache = 0);

/// A new tensor holding `a` ([..., N, N], FLOAT or HALF) with the unused triangle set to zero: above the
/// diagonal when `lower`, below it otherwise; with `unitDiagonal` the diagonal is set to one as well. Computed on
/// the device by one select (so that values in the unused part, even NaN, never reach the result).
poplar::Tensor triangularMask(poplar::Graph &graph, const poplar::Tensor &a, bool lower, bool unitDiagonal,
                              poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// The solution X of A X = B (`leftSide`) or X A = B for `a` ([..., N, N], FLOAT or HALF) lower or upper
/// triangular (only that triangle is read) and `b` of the same type ([..., N, K] or [..., K, N], the same
/// leading dimensions): a new tensor of b's shape. With `unitDiagonal` the diagonal of A is taken as ones and not
/// read. Throws poputil::poplibs_error for shapes or types that do not match, poplar::invalid_option for a bad
/// option.
poplar::Tensor triangularSolve(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b, bool leftSide,
                               bool lower, bool unitDiagonal, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               const poplar::OptionFlags &options = poplar::OptionFlags(),
                               matmul::PlanningCache *cache = 0);
/// As above with the block size given (deprecated form).
poplar::Tensor triangularSolve(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &b, bool leftSide,
                               bool lower, bool unitDiagonal, std::size_t blockSize, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {},
                               poplar::OptionFlags options = poplar::OptionFlags(),
                               matmul::PlanningCache *cache = 0);

/// The block products triangularSolve of these shapes and options builds, each with the matMul options it uses:
/// pass them to preplanMatMuls (with the target) so that the solve finds its plans in the cache.
std::vector<std::pair<MatMulParams, poplar::OptionFlags> >
getTriangularSolveMatMulPrePlanParameters(const poplar::Type &inputType, const poplar::Type &outputType,
                                          const std::vector<std::size_t> &aShape,
                                          const std::vector<std::size_t> &bShape, bool leftSide, bool lower,
                                          const poplar::OptionFlags &options);
/// As above with the block size given (deprecated form).
std::vector<std::pair<MatMulParams, poplar::OptionFlags> >
getTriangularSolveMatMulPrePlanParameters(const poplar::Type &inputType, const poplar::Type &outputType,
                                          const std::vector<std::size_t> &aShape,
                                          const std::vector<std::size_t> &bShape, bool leftSide, bool lower,
                                          std::size_t blockSize, poplar::OptionFlags options);

} // namespace poplin

#endif // POPLIN_TRIANGULARSOLVE_HPP
