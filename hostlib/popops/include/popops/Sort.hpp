// Sorting along one dimension of a tensor, alone or as keys that permute a tensor of values.
#ifndef POPOPS_SORT_HPP
#define POPOPS_SORT_HPP

#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A copy of `t` (same shape and mapping) in which every 1-D slice along `dim` is in ascending order. Keys are
/// FLOAT, HALF, INT or UNSIGNED_INT. The sort is stable. A slice is sorted where it lives: on its tile, or, spread
/// over tiles, by pieces and merges of neighbouring pieces. Throws poputil::poplibs_error for a dimension out of
/// range or an unsupported type.
poplar::Tensor sort(poplar::Graph &graph, const poplar::Tensor &t, unsigned dim, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {});

/// Sorts every 1-D slice of `t` along `dim` in place (ascending, stable).
void sortInPlace(poplar::Graph &graph, const poplar::Tensor &t, unsigned dim, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext = {});

/// A copy of `v` permuted as sorting `k` (of v's shape) along `dim` ascending would permute k; equal keys keep
/// their order. Values are any type of 2 or 4 bytes (FLOAT, HALF, INT, UNSIGNED_INT, SHORT, UNSIGNED_SHORT). If k
/// and v alias the result is undefined.
poplar::Tensor sortKeyValue(poplar::Graph &graph, const poplar::Tensor &k, const poplar::Tensor &v, unsigned dim,
                            poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// Sorts `k` along `dim` in place and permutes `v` in place the same way.
void sortKeyValueInPlace(poplar::Graph &graph, const poplar::Tensor &k, const poplar::Tensor &v, unsigned dim,
                         poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_SORT_HPP
