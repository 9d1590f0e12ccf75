// Padding of a tensor in any of its dimensions: with a constant (a new constant tensor, or views of a
// one-element tensor), or numpy-style from the tensor's own elements (EDGE, REFLECT, as views, no copy).
// Negative padding removes elements from that end (a slice).
#ifndef POPOPS_PAD_HPP
#define POPOPS_PAD_HPP

#include <cstddef>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

namespace popops {
namespace padding {

/// numpy.pad modes that take their values from the tensor.
enum class Type {
  EDGE,   ///< each new element repeats the nearest element on the tensor's edge
  REFLECT ///< the tensor mirrored about its edge element (which is not repeated)
};

/// Where new constant padding elements live.
enum class MappingMethod {
  NONE, ///< not mapped: the caller maps them
  ZERO, ///< tile 0
  EDGE  ///< the tile of the nearest element on the tensor's edge (the tensor must be non-empty and mapped)
};

} // namespace padding

/// `t` with paddingLower[d] elements of value `val` added before and paddingUpper[d] after dimension d (one
/// entry per dimension; negative entries remove elements). The padding is a new constant of t's type.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// The same with an integer value.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// The same with the value of the one-element tensor `val` (of t's type): the padding elements are views of it,
/// so the mapping method is not used.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, const poplar::Tensor &val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// Constant padding of dimension `dim` only.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, float val = 0.0f,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// Constant padding of dimension `dim` only, with an integer value.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, int val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);
/// Constant padding of dimension `dim` only, with the value of a one-element tensor.
poplar::Tensor pad(poplar::Graph &graph, const poplar::Tensor &t, std::ptrdiff_t paddingLower,
                   std::ptrdiff_t paddingUpper, unsigned dim, const poplar::Tensor &val,
                   padding::MappingMethod mappingMethod = padding::MappingMethod::ZERO);

/// numpy-style padding of every dimension with elements of `t` itself (views: no graph needed). REFLECT needs
/// padding smaller than the dimension, EDGE a non-empty dimension.
poplar::Tensor pad(const poplar::Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
                   const std::vector<std::ptrdiff_t> &paddingUpper, padding::Type type);
/// numpy-style padding of dimension `dim` only.
poplar::Tensor pad(const poplar::Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper, unsigned dim,
                   padding::Type type);

} // namespace popops

#endif // POPOPS_PAD_HPP
