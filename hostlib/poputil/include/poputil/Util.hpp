// Tensor helpers: copies of a tensor with the same shape and tile mapping, and flat/multi-dimensional indices.
#ifndef POPUTIL_UTIL_HPP
#define POPUTIL_UTIL_HPP

#include <cstddef>
#include <string>
#include <vector>

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

/// The index into each dimension of a tensor of `shape` of element `index` of its flattened form (row-major: the
/// last dimension varies fastest). `index` must be below the product of `shape`.
template <class T> std::vector<T> unflattenIndex(const std::vector<T> &shape, std::size_t index) {
  std::vector<T> coord(shape.size());
  for (std::size_t i = shape.size(); i > 0; --i) {
    coord[i - 1] = T(index % shape[i - 1]);
    index /= shape[i - 1];
  }
  return coord;
}

/// The index in the flattened form of a tensor of `shape` of the element at `indices` (one per dimension): the
/// inverse of unflattenIndex.
template <class T> std::size_t flattenIndex(const std::vector<T> &shape, const std::vector<T> &indices) {
  std::size_t index = 0;
  for (std::size_t i = 0; i < shape.size() && i < indices.size(); ++i)
    index = index * std::size_t(shape[i]) + std::size_t(indices[i]);
  return index;
}

} // namespace poputil

#endif // POPUTIL_UTIL_HPP
