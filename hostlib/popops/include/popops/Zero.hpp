// Setting every element of a tensor, or chosen regions of it, to zero: in a program or in a caller's compute set.
#ifndef POPOPS_ZERO_HPP
#define POPOPS_ZERO_HPP

#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>

#include "popops/Fill.hpp"

namespace popops {

/// Adds to `zeroCS` a vertex on `tile` that zeroes the elements of flattened `t` in `tileRegions`.
inline void zero(poplar::Graph &graph, poplar::Tensor t, const std::vector<poplar::Interval> &tileRegions,
                 unsigned tile, poplar::ComputeSet zeroCS) {
  fill(graph, t, tileRegions, tile, zeroCS, 0);
}

/// Adds to `zeroCS` a vertex on `tile` that zeroes every element of `t`.
inline void zero(poplar::Graph &graph, const poplar::Tensor &t, unsigned tile, poplar::ComputeSet zeroCS) {
  fill(graph, t, tile, zeroCS, 0);
}

/// Adds to `zeroCS` vertices that zero the regions of flattened `t` listed per tile in `mapping`.
inline void zero(poplar::Graph &graph, const poplar::Tensor &t,
                 const std::vector<std::vector<poplar::Interval> > &mapping, poplar::ComputeSet zeroCS) {
  fill(graph, t, mapping, zeroCS, 0);
}

/// Appends to `prog` a compute set that sets every element of `t` to 0.
inline void zero(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                 const poplar::DebugContext &debugContext = {}) {
  fill(graph, t, prog, 0, debugContext);
}

} // namespace popops

#endif // POPOPS_ZERO_HPP
