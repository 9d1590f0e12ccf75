// The k largest or smallest elements of each innermost row of a tensor, with their indices or a permuted tensor.
#ifndef POPOPS_TOPK_HPP
#define POPOPS_TOPK_HPP

#include <cstddef>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include "popops/SortOrder.hpp"

namespace popops {

/// Parameters of the topK functions.
struct TopKParams {
  /// How many elements each row gives (at most the innermost dimension).
  unsigned k;
  /// The k largest when true, else the k smallest.
  bool largest;
  /// The order of the k results. NONE gives them largest first (smallest first when !largest).
  SortOrder sortOrder;
  /// With an order, equal values keep their order in the input. Always the case here.
  bool stableSort;

  TopKParams(unsigned k, bool largest, SortOrder sortOrder, bool stableSort = false) noexcept;
};

/// Prints the parameters, e.g. "{k=3, largest=true, sortOrder=descending, stableSort=false}".
std::ostream &operator<<(std::ostream &os, const TopKParams &p);

/// A new tensor of `type` and `shape` laid out for topK with `params`: each innermost row on one tile, the rows
/// spread over the tiles.
poplar::Tensor createTopKInput(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                               const TopKParams &params, const poplar::DebugContext &debugContext = {});

/// The top k values of each innermost row of `t` (FLOAT, HALF, INT or UNSIGNED_INT): shape t's with the innermost
/// dimension k. Among equal values the one earlier in the row is taken first. Throws poputil::poplibs_error for a
/// scalar, k larger than the innermost dimension, or an unsupported type.
poplar::Tensor topK(poplar::Graph &graph, poplar::program::Sequence &prog, const poplar::Tensor &t,
                    const TopKParams &params, const poplar::DebugContext &debugContext = {});

/// The top k keys of each innermost row of `keys` and the elements of `values` (keys' shape, any type of 2 or 4
/// bytes) at their positions.
std::pair<poplar::Tensor, poplar::Tensor> topKKeyValue(poplar::Graph &graph, poplar::program::Sequence &prog,
                                                       const poplar::Tensor &keys, const poplar::Tensor &values,
                                                       const TopKParams &params,
                                                       const poplar::DebugContext &debugContext = {});

/// The top k values of each innermost row of `t` and their indices in the row (UNSIGNED_INT).
std::pair<poplar::Tensor, poplar::Tensor> topKWithPermutation(poplar::Graph &graph, poplar::program::Sequence &prog,
                                                              const poplar::Tensor &t, const TopKParams &params,
                                                              const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_TOPK_HPP
