// Linear tile mappings and broadcast operands.
#include "poputil/TileMapping.hpp"

#include <algorithm>

#include "log.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

using poplar::Interval;

std::vector<std::vector<Interval> > calcLinearTileMapping(const poplar::Target &target, std::vector<std::size_t> shape,
                                                          unsigned minElementsPerTile, unsigned grainSize,
                                                          unsigned offset, bool ascendingOrder) {
  if (grainSize == 0)
    throw poplibs_error("calcLinearTileMapping: grainSize is 0; pass 1 or more elements per grain");
  const unsigned numTiles = target.getNumTiles();
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  std::vector<std::vector<Interval> > mapping(numTiles);
  if (n == 0)
    return mapping;
  // Whole grains per tile, spread evenly, but never fewer than minElementsPerTile (rounded up to grains).
  const std::size_t numGrains = (n + grainSize - 1) / grainSize;
  std::size_t grainsPerTile = (numGrains + numTiles - 1) / numTiles;
  const std::size_t minGrains = (std::size_t(minElementsPerTile) + grainSize - 1) / grainSize;
  grainsPerTile = std::max<std::size_t>({grainsPerTile, minGrains, 1});
  const std::size_t perTile = grainsPerTile * grainSize;
  for (std::size_t k = 0, begin = 0; begin < n; ++k, begin += perTile) {
    // PopLibs documents the descending order as a mirror image of the ascending one: its first tile is
    // numTiles - 1 - offset, not offset.
    const unsigned step = unsigned((offset + k) % numTiles);
    const unsigned tile = ascendingOrder ? step : numTiles - 1 - step;
    mapping[tile].push_back(Interval(begin, std::min(n, begin + perTile)));
  }
  return mapping;
}

std::vector<std::vector<Interval> > calcLinearTileMappingWithOffset(const poplar::Graph &graph,
                                                                   std::vector<std::size_t> shape,
                                                                   unsigned minElementsPerTile, unsigned grainSize,
                                                                   unsigned offset, bool ascendingOrder) {
  return calcLinearTileMapping(graph.getTarget(), shape, minElementsPerTile, grainSize, offset, ascendingOrder);
}

std::vector<std::vector<Interval> > calcLinearTileMapping(const poplar::Graph &graph, std::vector<std::size_t> shape,
                                                          unsigned minElementsPerTile, unsigned grainSize,
                                                          unsigned offset, bool ascendingOrder) {
  return calcLinearTileMapping(graph.getTarget(), shape, minElementsPerTile, grainSize, offset, ascendingOrder);
}

// The defaults: one grain is one vector of the data path, and at least 128 bytes go to each tile used.
static void defaults(const poplar::Target &target, const poplar::Type &type, unsigned &minElements, unsigned &grain) {
  unsigned size = unsigned(target.getTypeSize(type));
  grain = std::max(1u, target.getVectorWidth(type));
  minElements = std::max(1u, 128u / std::max(1u, size));
}

std::vector<std::vector<Interval> > calcLinearTileMapping(const poplar::Target &target,
                                                          const std::vector<std::size_t> shape,
                                                          poplar::Type elementType, unsigned offset,
                                                          bool ascendingOrder) {
  unsigned minElements = 0, grain = 0;
  defaults(target, elementType, minElements, grain);
  return calcLinearTileMapping(target, shape, minElements, grain, offset, ascendingOrder);
}

std::vector<std::vector<Interval> > calcLinearTileMapping(const poplar::Graph &graph, const poplar::Tensor &t,
                                                          unsigned offset, bool ascendingOrder) {
  return calcLinearTileMapping(graph.getTarget(), t.shape(), t.elementType(), offset, ascendingOrder);
}

std::pair<std::vector<std::vector<Interval> >, unsigned>
calcLinearTileMappingAndNewOffset(const poplar::Graph &graph, const poplar::Tensor &t, unsigned offset) {
  const unsigned numTiles = graph.getTarget().getNumTiles();
  if (offset >= numTiles)
    throw poplibs_error("calcLinearTileMappingAndNewOffset: offset " + std::to_string(offset) +
                        " is not a tile of a " + std::to_string(numTiles) + "-tile target");
  auto mapping = calcLinearTileMapping(graph, t, offset, true);
  // The tiles used run from `offset` on, wrapping; the next tensor starts after the last of them.
  unsigned used = 0;
  for (unsigned k = 0; k < numTiles; ++k)
    if (!mapping[(offset + k) % numTiles].empty())
      used = k + 1;
  return {mapping, (offset + used) % numTiles};
}

void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                                 unsigned grainSize, unsigned offset, bool ascendingOrder) {
  if (!t.valid())
    throw poplibs_error("mapTensorLinearly: the tensor is invalid (default-constructed); map a tensor from "
                        "Graph::addVariable");
  auto mapping = calcLinearTileMappingWithOffset(graph, t.shape(), minElementsPerTile, grainSize, offset,
                                                 ascendingOrder);
  if (detail::logEnabled(detail::LogLevel::Debug))
    detail::log(detail::LogLevel::Debug, "mapTensorLinearly: " + std::to_string(t.numElements()) + " elements over " +
                                             std::to_string(getNumTilesUsed(mapping)) + " tiles");
  graph.setTileMapping(t, mapping);
}

void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t, unsigned minElementsPerTile,
                       unsigned grainSize) {
  mapTensorLinearlyWithOffset(graph, t, minElementsPerTile, grainSize, 0, true);
}

void mapTensorLinearly(poplar::Graph &graph, const poplar::Tensor &t) {
  if (!t.valid())
    throw poplibs_error("mapTensorLinearly: the tensor is invalid (default-constructed); map a tensor from "
                        "Graph::addVariable");
  unsigned minElements = 0, grain = 0;
  defaults(graph.getTarget(), t.elementType(), minElements, grain);
  mapTensorLinearly(graph, t, minElements, grain);
}

void mapTensorLinearlyWithOffset(poplar::Graph &graph, const poplar::Tensor &t, unsigned offset,
                                 bool ascendingOrder) {
  if (!t.valid())
    throw poplibs_error("mapTensorLinearlyWithOffset: the tensor is invalid (default-constructed); map a tensor "
                        "from Graph::addVariable");
  graph.setTileMapping(t, calcLinearTileMapping(graph, t, offset, ascendingOrder));
}

unsigned getNumTilesUsed(const std::vector<std::vector<Interval> > &mapping) {
  unsigned used = 0;
  for (const auto &tile : mapping)
    for (const Interval &i : tile)
      if (i.size() != 0) {
        ++used;
        break;
      }
  return used;
}

poplar::Tensor createBroadcastOperand(poplar::Graph &graph, const poplar::Tensor &fullTensor, const poplar::Type &type,
                                      unsigned dim, bool ditherMapping, const poplar::DebugContext &debugContext) {
  (void)ditherMapping;
  if (dim >= fullTensor.rank())
    throw poplibs_error("createBroadcastOperand: dim " + std::to_string(dim) + " is not a dimension of a rank-" +
                        std::to_string(fullTensor.rank()) + " tensor; pass 0 .. " +
                        std::to_string(fullTensor.rank() == 0 ? 0 : fullTensor.rank() - 1));
  const std::size_t n = fullTensor.dim(dim);
  poplar::Tensor out = graph.addVariable(type, {n}, debugContext);
  const unsigned numTiles = graph.getTarget().getNumTiles();
  std::vector<std::vector<Interval> > mapping(numTiles);
  for (std::size_t j = 0; j < n; ++j) {
    auto m = graph.getTileMapping(fullTensor.slice(j, j + 1, dim), false);
    unsigned tile = 0;
    for (unsigned t = 0; t < m.size(); ++t)
      if (!m[t].empty() && m[t].front().begin() == 0) {
        tile = t;
        break;
      }
    if (!mapping[tile].empty() && mapping[tile].back().end() == j)
      mapping[tile].back() = Interval(mapping[tile].back().begin(), j + 1);
    else
      mapping[tile].push_back(Interval(j, j + 1));
  }
  graph.setTileMapping(out, mapping);
  return out;
}

} // namespace poputil
