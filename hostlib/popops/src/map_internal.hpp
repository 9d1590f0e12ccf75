// Internal: element-wise maps added to a caller's compute set, so that other operations (reduce's scale and
// update) can share compute sets with their own vertices.
#pragma once

#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

#include "expr_compile.hpp"
#include "popops/Expr.hpp"

namespace popops::detail {

/// Checks `e` over `ts` into `out` as mapWithOutput does (shape, type, distinct output elements) and compiles it.
CompiledExpr checkMapWithOutput(const expr::Expr &e, const std::vector<poplar::Tensor> &ts,
                                const poplar::Tensor &out, const std::string &name);

/// Adds to `cs` the vertices that write `e` over `ts` into `out` (which may be ts[0], for an in-place update).
void mapIntoComputeSet(poplar::Graph &graph, const expr::Expr &e, const std::vector<poplar::Tensor> &ts,
                       const poplar::Tensor &out, poplar::ComputeSet cs, const std::string &name);

/// Adds to `cs` the vertices that write `e` (an expression of no operands, such as a constant) into the elements of
/// `out` that `regions` lists per tile (intervals of the flattened `out`), each on that tile whatever its mapping.
void mapRegionsIntoComputeSet(poplar::Graph &graph, const expr::Expr &e, const poplar::Tensor &out,
                              const poplar::TileToTensorMapping &regions, poplar::ComputeSet cs,
                              const std::string &name);

/// Adds to `cs` vertices that set the elements of flattened `out` (a 1- or 2-byte integral type, which the map
/// interpreter has no code for) that `regions` lists per tile to the value whose bits, in out's width, are `bits`.
void fillNarrowRegions(poplar::Graph &graph, const poplar::Tensor &out, const poplar::TileToTensorMapping &regions,
                       poplar::ComputeSet cs, unsigned bits, const std::string &name);

} // namespace popops::detail
