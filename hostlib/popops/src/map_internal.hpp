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

/// The tile mapping of `out`, which an operation writes on the tiles that hold it; throws poplibs_error when some
/// of its elements are unmapped.
poplar::TileToTensorMapping outputMapping(const poplar::Graph &graph, const poplar::Tensor &out,
                                          const std::string &name);

/// Maps the new tensor `out` as the first of `operands` of its shape that is fully mapped, else linearly (the
/// mapping of an operation's new output).
void mapLike(poplar::Graph &graph, const poplar::Tensor &out, const std::vector<poplar::Tensor> &operands);

/// `regions` (intervals of flattened `out` per tile) without its empty intervals; throws poplibs_error for a tile
/// the graph lacks or an interval outside `out`.
poplar::TileToTensorMapping checkedRegions(const poplar::Graph &graph, const poplar::Tensor &out,
                                           const poplar::TileToTensorMapping &regions, const std::string &name);

/// Adds to `cs` popops::Fill vertices (one per tile) that set the elements of flattened `out` (an integral type of
/// 1, 2 or 8 bytes or QUARTER, which the map interpreter has no code for) that `regions` lists per tile to the value
/// whose bits, in out's width, are the low bits of `bits`.
void fillNarrowRegions(poplar::Graph &graph, const poplar::Tensor &out, const poplar::TileToTensorMapping &regions,
                       poplar::ComputeSet cs, unsigned long long bits, const std::string &name);

/// Whether fillNarrowRegions, not map, writes `t`'s type.
bool filledByBits(const poplar::Type &t);

} // namespace popops::detail
