// poplin::experimental::QRFactorization: A = Q R by Householder reflections, as PopLibs' experimental API.
#ifndef POPLIN_EXPERIMENTAL_QRFACTORIZATION_HPP
#define POPLIN_EXPERIMENTAL_QRFACTORIZATION_HPP

#include <array>
#include <cstddef>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poplin {
namespace experimental {

/// The two matrices QRFactorization() works on, mapped over the tiles: {A [m, n], Q [m, m]} of `type` (FLOAT or
/// HALF). Throws poputil::poplibs_error for another type or a zero size.
std::array<poplar::Tensor, 2> createQRFactorizationMatrices(poplar::Graph &graph, const poplar::Type &type,
                                                            const std::size_t m, const std::size_t n,
                                                            const poplar::DebugContext &debugContext);

/// Factors A [m, n] in place: on return A holds R (upper triangular, exact zeros below the diagonal) and Q is
/// multiplied on the right by the m × m orthogonal factor, so that with Q set to the identity beforehand the old
/// A equals Q R. Options: `rowsPerIteration` (a positive integer, a tuning hint of PopLibs that changes nothing
/// here). Throws poputil::poplibs_error on shapes or types that do not match; poplar::invalid_option on an unknown
/// option or a bad value.
void QRFactorization(poplar::Graph &graph, poplar::Tensor &A, poplar::Tensor &Q, poplar::program::Sequence &prog,
                     const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});

} // namespace experimental
} // namespace poplin

#endif // POPLIN_EXPERIMENTAL_QRFACTORIZATION_HPP
