// Internal: how popnn places its own vertices: one per worker of each tile that holds the elements written, each
// over a share of that tile's runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>

namespace popnn::detail {

/// The tile mapping of `t`, checked complete: throws poputil::poplibs_error naming `what` when some element of
/// `t` is not mapped.
poplar::TileToTensorMapping completeMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                                                   const std::string &what);

/// Throws poputil::poplibs_error naming `what` unless `t` is a valid FLOAT or HALF tensor.
void checkFloatOrHalf(const poplar::Tensor &t, const std::string &what, const char *role);

/// `vertex` for FLOAT tensors, `vertex` + "Half" for HALF ones (the codelets' naming of the two forms).
std::string vertexFor(const char *vertex, const poplar::Type &type);

} // namespace popnn::detail
