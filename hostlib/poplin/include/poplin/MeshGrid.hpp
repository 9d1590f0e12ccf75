// Coordinate helpers: evenly spaced values (linspace) and the two coordinate grids of a pair of axes (meshgrid2d),
// as used by popnn::spatialSoftMax2D.
#ifndef POPLIN_MESHGRID_HPP
#define POPLIN_MESHGRID_HPP

#include <cstddef>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace poplin {

/// A constant vector {count} of `type` (FLOAT or HALF) holding `count` values evenly spaced over the closed range
/// [left, right]: element i is left + i * (right - left) / (count - 1) (just `left` when count is 1). It is mapped
/// over the tiles. Throws poputil::poplibs_error for another type.
poplar::Tensor linspace(poplar::Graph &graph, const poplar::Type &type, float left, float right, std::size_t count,
                        const poplar::DebugContext &debugContext = {});

/// The coordinate grids of axes `x` {nx} and `y` {ny} (both rank 1, of one type): two views of shape {ny, nx},
/// the first holding x[j] in every row j-th column, the second y[i] in every column's i-th row (numpy's
/// meshgrid with 'xy' indexing). Nothing is copied. Throws poputil::poplibs_error for other ranks or mixed types.
std::vector<poplar::Tensor> meshgrid2d(poplar::Graph &graph, poplar::Tensor x, poplar::Tensor y);

} // namespace poplin

#endif // POPLIN_MESHGRID_HPP
