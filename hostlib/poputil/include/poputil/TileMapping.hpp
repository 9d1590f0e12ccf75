// Tile mappings: spreading a tensor's elements over the tiles in order, and operands shaped after another tensor.
#ifndef POPUTIL_TILEMAPPING_HPP
#define POPUTIL_TILEMAPPING_HPP

#include <cstddef>
#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace poputil {

/// A mapping of `shape`'s elements (row-major) in order over the graph's tiles: runs of whole grains of
/// `grainSize` elements, at least `minElementsPerTile` per used tile, as evenly as the grains allow. Tiles past
/// the last run get no interval. Throws poplibs_error when grainSize is 0.
std::vector<std::vector<poplar::Interval> > calcLinearTileMapping(const poplar::Graph &graph,
                                                                  std::vector<std::size_t> shape,
                                                                  unsigned minElementsPerTile, unsigned grainSize);
/// The same for `t`'s shape, with the defaults of mapTensorLinearly(graph, t).
std::vector<std::vector<poplar::Interval> > calcLinearTileMapping(const poplar::Graph &graph, const poplar::Tensor &t);
/// As above, starting at tile `offset` (wrapping past the last tile), in ascending or descending tile order.
std::vector<std::vector<poplar::Interval> > calcLinearTileMappingWithOffset(
    const poplar::Graph &graph, std::vector<std::size_t> shape, unsigned minElementsPerTile, unsigned grainSize,
    unsigned offset, bool ascendingOrder = true);

/// Maps `t` with calcLinearTileMapping(graph, t.shape(), minElementsPerTile, grainSize).
void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                       unsigned grainSize);
/// Maps `t` linearly with the target's defaults: grains of one vector (Target::getVectorWidth) and at least
/// 128 bytes per tile.
void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t);
/// Maps `t` linearly starting at tile `offset`.
void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                                 unsigned grainSize, unsigned offset, bool ascendingOrder = true);

/// The number of tiles that hold at least one element in `mapping`.
unsigned getNumTilesUsed(const std::vector<std::vector<poplar::Interval> > &mapping);

/// A new one-dimensional variable of `type` with `fullTensor.dim(dim)` elements, for an operand broadcast along
/// every other dimension of fullTensor: element j is mapped to the tile that holds the first element of
/// fullTensor's slice j along `dim` (ditherMapping is accepted and has no effect). Throws poplibs_error when `dim` is not a dimension of fullTensor.
poplar::Tensor createBroadcastOperand(poplar::Graph &graph, const poplar::Tensor &fullTensor, const poplar::Type &type,
                                      unsigned dim, bool ditherMapping = false, const std::string &debugName = "");

} // namespace poputil

#endif // POPUTIL_TILEMAPPING_HPP
