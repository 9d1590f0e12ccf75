// Setting every element of a tensor, or chosen regions of it, to one value: in a program or in a caller's compute
// set.
#ifndef POPOPS_FILL_HPP
#define POPOPS_FILL_HPP

#include <string>
#include <type_traits>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>

#include "popops/ElementWise.hpp"

namespace popops {

namespace detail {
/// Internal (called by the fill templates): adds to `cs` the vertices that write `value` (an expression of no
/// operands, of t's type) into the regions of flattened `t` listed per tile, each on its listed tile.
void fillRegions(poplar::Graph &graph, const poplar::Tensor &t,
                 const std::vector<std::vector<poplar::Interval> > &regions, poplar::ComputeSet cs,
                 const expr::Expr &value, const poplar::DebugContext &debugContext);

template <typename FillValueType> expr::Cast fillExpr(const poplar::Tensor &t, FillValueType fillValue) {
  static_assert(std::is_arithmetic<FillValueType>::value, "popops::fill takes an arithmetic value");
  return expr::Cast(expr::Const(fillValue), t.elementType());
}
} // namespace detail

/// Adds to `fillCS` a vertex on `tile` that sets the elements of flattened `t` in `tileRegions` to `fillValue`
/// (converted to t's type). Throws poputil::poplibs_error for a region outside t or a tile the graph lacks.
template <typename FillValueType>
void fill(poplar::Graph &graph, poplar::Tensor t, const std::vector<poplar::Interval> &tileRegions, unsigned tile,
          poplar::ComputeSet fillCS, FillValueType fillValue) {
  std::vector<std::vector<poplar::Interval> > regions(tile + 1);
  regions[tile] = tileRegions;
  detail::fillRegions(graph, t, regions, fillCS, detail::fillExpr(t, fillValue), "popops::fill");
}

/// Adds to `fillCS` a vertex on `tile` that sets every element of `t` to `fillValue`.
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, unsigned tile, poplar::ComputeSet fillCS,
          FillValueType fillValue) {
  fill(graph, t, std::vector<poplar::Interval>(1, poplar::Interval(0, t.numElements())), tile, fillCS, fillValue);
}

/// Adds to `fillCS` vertices that set the elements of flattened `t` to `fillValue`: mapping[tile] lists the
/// regions written on each tile (a tile mapping, e.g. graph.getTileMapping(t)).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, const std::vector<std::vector<poplar::Interval> > &mapping,
          poplar::ComputeSet fillCS, FillValueType fillValue) {
  detail::fillRegions(graph, t, mapping, fillCS, detail::fillExpr(t, fillValue), "popops::fill");
}

/// Appends to `prog` a compute set that sets every element of `t` (mapped) to `fillValue`, converted to t's type
/// (PopLibs' argument order).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog, FillValueType fillValue,
          const poplar::DebugContext &debugContext = {}) {
  const std::string path = debugContext.getPathName();
  mapWithOutput(graph, detail::fillExpr(t, fillValue), {}, t, prog, path.empty() ? std::string("popops::fill") : path);
}

/// The same with the value before the program (this library's earlier order, kept for existing callers).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, FillValueType fillValue, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {}) {
  fill(graph, t, prog, fillValue, debugContext);
}

} // namespace popops

#endif // POPOPS_FILL_HPP
