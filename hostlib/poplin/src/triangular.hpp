// Internal: the pieces shared by the triangular solver and the Cholesky factorization, on matrices with their
// leading dimensions flattened into one group dimension ([G, N, N]).
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include "poplin/MatMul.hpp"

namespace poplin::detail {

/// The solver's options: the block size and the matMul options of its block products.
struct SolveOptions {
  std::size_t blockSize = 64;
  poplar::OptionFlags matMulOptions;
};
/// Splits "blockSize" (an integer > 0) from the matMul options, which are checked; `what` names the caller.
SolveOptions parseSolveOptions(const poplar::OptionFlags &options, const std::string &what);

/// The blocks [begin, end) of n rows by blocks of `blockSize` (one block when n <= blockSize).
std::vector<std::pair<std::size_t, std::size_t>> solveBlocks(std::size_t n, std::size_t blockSize);

/// The product of all but the last two dimensions of `shape` (at least 2-D; `what` names the caller).
std::size_t groupsOf(const std::vector<std::size_t> &shape, const std::string &what, const char *operand);

/// triangularMask on a [G, N, N] view: a new tensor.
poplar::Tensor maskGrouped(poplar::Graph &graph, const poplar::Tensor &a, bool lower, bool unitDiagonal,
                           poplar::program::Sequence &prog, const std::string &name);

/// Solves A X = B in place in x [G, N, K] for `a` [G, N, N] already masked (zero outside its triangle).
void solveLeftInPlace(poplar::Graph &graph, const poplar::Tensor &a, const poplar::Tensor &x, bool lower,
                      bool unitDiagonal, const SolveOptions &o, poplar::program::Sequence &prog,
                      matmul::PlanningCache *cache, const std::string &name);

} // namespace poplin::detail
