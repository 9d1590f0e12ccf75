// Setting every element of a tensor to one value.
#ifndef POPOPS_FILL_HPP
#define POPOPS_FILL_HPP

#include <string>
#include <type_traits>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include "popops/ElementWise.hpp"

namespace popops {

/// Appends to `prog` a compute set that sets every element of `t` to `fillValue` (converted to t's type).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, FillValueType fillValue, poplar::program::Sequence &prog,
          const std::string &debugPrefix = "") {
  static_assert(std::is_arithmetic<FillValueType>::value, "popops::fill takes an arithmetic value");
  mapWithOutput(graph, expr::Cast(expr::Const(fillValue), t.elementType()), {}, t, prog, debugPrefix);
}

} // namespace popops

#endif // POPOPS_FILL_HPP
