// numpy-style matching of tensor shapes: missing outer dimensions are added as 1, and dimensions of size 1 are
// broadcast (views, no copies) to the other side's size.
#ifndef POPUTIL_BROADCAST_HPP
#define POPUTIL_BROADCAST_HPP

#include <cstddef>
#include <vector>

#include <poplar/Tensor.hpp>

namespace poputil {

/// Adds outer dimensions of size 1 to the tensor of lower rank until both ranks are equal.
void expandToMatchRanks(poplar::Tensor &a, poplar::Tensor &b);

/// Makes `a` a view of `shape`: outer dimensions of size 1 added, each dimension of size 1 broadcast. Throws
/// poputil::poplibs_error, naming both shapes, when a dimension is neither 1 nor the wanted size or when `a` has
/// more dimensions than `shape`.
void broadcastToMatch(poplar::Tensor &a, const std::vector<std::size_t> &shape);

/// Broadcasts `a` and `b` to their common shape (each dimension equal, or 1 on one side). Throws
/// poputil::poplibs_error when they have no common shape.
void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b);

/// Broadcasts `a`, `b` and `c` to their common shape.
void broadcastToMatch(poplar::Tensor &a, poplar::Tensor &b, poplar::Tensor &c);

/// True when broadcastToMatch(a, b) would succeed.
bool canBroadcastToMatch(const poplar::Tensor &a, const poplar::Tensor &b);

} // namespace poputil

#endif // POPUTIL_BROADCAST_HPP
