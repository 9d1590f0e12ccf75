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
/// Internal: the fill value as the host converts it for the types the map interpreter lacks (integers of 1, 2 and 8
/// bytes, QUARTER): an integral value's bits modulo 2^64 (C++'s conversion, exact for 64-bit values), or a
/// floating value as a double.
struct FillScalar {
  bool integral;
  unsigned long long bits;
  double real;
};

template <typename T> unsigned long long fillBitsOf(T v, std::true_type) { return static_cast<unsigned long long>(v); }
template <typename T> unsigned long long fillBitsOf(T, std::false_type) { return 0; }

template <typename FillValueType> FillScalar fillScalar(FillValueType fillValue) {
  FillScalar s;
  s.integral = std::is_integral<FillValueType>::value;
  s.bits = fillBitsOf(fillValue, std::is_integral<FillValueType>());
  s.real = static_cast<double>(fillValue);
  return s;
}

/// Internal (called by the fill templates): adds to `cs` the vertices that write the fill value into the regions of
/// flattened `t` listed per tile, each on its listed tile. `value` is the value as an expression of no operands, of
/// t's type (map's vertices write it), `scalar` the same value for the types written by popops::Fill vertices.
void fillRegions(poplar::Graph &graph, const poplar::Tensor &t,
                 const std::vector<std::vector<poplar::Interval> > &regions, poplar::ComputeSet cs,
                 const expr::Expr &value, const FillScalar &scalar, const poplar::DebugContext &debugContext);

/// Internal: appends to `prog` one compute set that writes the fill value into every element of `t`, each on the
/// tile that holds it.
void fillProgram(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                 const expr::Expr &value, const FillScalar &scalar, const poplar::DebugContext &debugContext);

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
  detail::fillRegions(graph, t, regions, fillCS, detail::fillExpr(t, fillValue), detail::fillScalar(fillValue),
                      "popops::fill");
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
  detail::fillRegions(graph, t, mapping, fillCS, detail::fillExpr(t, fillValue), detail::fillScalar(fillValue),
                      "popops::fill");
}

/// Appends to `prog` a compute set that sets every element of `t` (mapped) to `fillValue`, converted to t's type
/// (PopLibs' argument order).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog, FillValueType fillValue,
          const poplar::DebugContext &debugContext = {}) {
  detail::fillProgram(graph, t, prog, detail::fillExpr(t, fillValue), detail::fillScalar(fillValue), debugContext);
}

/// The same with the value before the program (this library's earlier order, kept for existing callers).
template <typename FillValueType>
void fill(poplar::Graph &graph, const poplar::Tensor &t, FillValueType fillValue, poplar::program::Sequence &prog,
          const poplar::DebugContext &debugContext = {}) {
  fill(graph, t, prog, fillValue, debugContext);
}

} // namespace popops

#endif // POPOPS_FILL_HPP
