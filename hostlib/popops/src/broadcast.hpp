// Internal: numpy-style broadcasting of operand shapes.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <poplar/Tensor.hpp>

namespace popops::detail {

/// The shape all `shapes` broadcast to (trailing dimensions equal or 1). Throws poplibs_error naming `what` and
/// the shapes when they do not broadcast.
std::vector<std::size_t> broadcastShape(const std::vector<std::vector<std::size_t> > &shapes, const std::string &what);

/// A view of `t` with `shape` (t's shape must broadcast to it): size-1 dimensions repeat their elements.
poplar::Tensor broadcastTo(const poplar::Tensor &t, const std::vector<std::size_t> &shape);

/// "[2,3]".
std::string shapeString(const std::vector<std::size_t> &shape);

} // namespace popops::detail
