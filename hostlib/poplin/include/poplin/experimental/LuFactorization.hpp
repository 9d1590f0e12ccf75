// poplin::experimental::LUFactorization: A = L U without pivoting (Doolittle), as PopLibs' experimental API.
#ifndef POPLIN_EXPERIMENTAL_LUFACTORIZATION_HPP
#define POPLIN_EXPERIMENTAL_LUFACTORIZATION_HPP

#include <utility>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poplin {
namespace experimental {

/// Factors the matrix `input` [M, N] (FLOAT or HALF) into a unit lower-triangular L [M, M] and an upper-
/// triangular (row echelon) U [M, N] with L U = input, appending the work to `seq`; returns {L, U}, new tensors of
/// input's type. No rows are exchanged, so a zero pivot gives infinities or NaNs (as in PopLibs). `input` is not
/// changed. Throws poputil::poplibs_error when input is not a non-empty matrix of FLOAT or HALF.
std::pair<poplar::Tensor, poplar::Tensor> LUFactorization(poplar::Graph &graph, poplar::Tensor &input,
                                                          poplar::program::Sequence &seq,
                                                          const poplar::DebugContext &debugContext = {});

} // namespace experimental
} // namespace poplin

#endif // POPLIN_EXPERIMENTAL_LUFACTORIZATION_HPP
