// Tensor helpers: copies of a tensor with the same shape and tile mapping.
#ifndef POPUTIL_UTIL_HPP
#define POPUTIL_UTIL_HPP

#include <cstddef>
#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace poputil {

/// A new variable with `t`'s type, shape and tile mapping (element i on the tile of t's element i). Elements of
/// t that are unmapped are mapped linearly in the clone.
poplar::Tensor cloneToGraph(poplar::Graph &graph, const poplar::Tensor &t, const std::string &name = "");

/// A new variable like `src` (cloneToGraph) and a copy of src into it appended to `prog`.
poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                         const std::string &name = "");

/// `N` clones of `t` stacked in a new outer dimension: shape {N, t.shape()...}; clone i is mapped like t.
/// Throws poplibs_error when N is 0.
poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N, const std::string &name = "");

} // namespace poputil

#endif // POPUTIL_UTIL_HPP
