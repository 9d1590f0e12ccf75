// Internal to popops: the constant 0, 1, ..., n-1 spread over the tiles, which one-hot encoding, the scalar-in-rows
// operations and sequenceSlice compare against their indices (one copy of the helper instead of three).
#pragma once

#include <cstddef>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

namespace popops::detail {

/// A new UNSIGNED_INT constant of shape {n} whose element i is i, mapped linearly over the tiles; `name` names it.
poplar::Tensor countingConstant(poplar::Graph &graph, std::size_t n, const std::string &name);

} // namespace popops::detail
