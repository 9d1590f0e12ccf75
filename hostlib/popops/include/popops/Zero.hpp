// Setting every element of a tensor to zero.
#ifndef POPOPS_ZERO_HPP
#define POPOPS_ZERO_HPP

#include <string>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include "popops/Fill.hpp"

namespace popops {

/// Appends to `prog` a compute set that sets every element of `t` to 0.
inline void zero(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                 const std::string &debugPrefix = "") {
  fill(graph, t, 0, prog, debugPrefix);
}

} // namespace popops

#endif // POPOPS_ZERO_HPP
