// Internal: the sort of popops::sort*, shared with popops::topK* (which also sorts descending).
#pragma once

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops::detail {

/// Sorts the last dimension of `keys` in place (stable; descending when asked), permuting `values` (of keys' shape)
/// with them when `values` is valid. `keys` and `values` must have distinct elements each.
void sortLastDim(poplar::Graph &graph, const poplar::Tensor &keys, const poplar::Tensor &values, bool descending,
                 poplar::program::Sequence &prog, const std::string &name);

} // namespace popops::detail
