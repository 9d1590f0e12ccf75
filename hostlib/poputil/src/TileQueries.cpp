// poputil/TileMapping.hpp: questions about mappings (imbalance, splits over tiles and IPUs), the tile order of
// offset mappings, and the hashed choice of a mapping offset (boost::hash_range, as the reference uses, so the
// offsets match Graphcore's for the same shapes).
#include <boost/container_hash/hash.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

using poplar::Interval;
using poplar::Tensor;

std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t> &shape, std::size_t seed) {
  if (numTiles == 0)
    throw poplibs_error("chooseMappingOffset: there are no tiles to choose an offset from");
  boost::hash_range(seed, shape.begin(), shape.end());
  return seed % numTiles;
}

std::size_t chooseMappingOffset(std::size_t numTiles, const std::vector<std::size_t> &shape) {
  return chooseMappingOffset(numTiles, shape, 0x9e3779b9UL); // the reference's default seed
}

unsigned getTileImbalance(const std::vector<std::vector<Interval> > &mapping, unsigned minElementsPerTile,
                          unsigned grainSize) {
  if (mapping.empty())
    return 0;
  std::size_t most = 0, total = 0;
  for (const auto &tile : mapping) {
    std::size_t n = 0;
    for (const Interval &i : tile)
      n += i.size();
    most = std::max(most, n);
    total += n;
  }
  std::size_t balanced = (total + mapping.size() - 1) / mapping.size();
  balanced = std::max<std::size_t>({balanced, minElementsPerTile, grainSize});
  return most > balanced ? unsigned(most - balanced) : 0u;
}

unsigned getTileImbalance(const poplar::Graph &graph, const Tensor &t, unsigned minElementsPerTile,
                          unsigned grainSize) {
  return getTileImbalance(graph.getTileMapping(t.flatten()), minElementsPerTile, grainSize);
}

bool dimIsSplitOverTiles(const poplar::Graph &graph, const Tensor &t, unsigned dimension) {
  if (dimension >= t.rank())
    throw poplibs_error("dimIsSplitOverTiles: dimension " + std::to_string(dimension) + " is beyond the rank " +
                        std::to_string(t.rank()));
  const std::size_t n = t.dim(dimension);
  if (n == 0)
    return false;
  const auto first = graph.getTileMapping(t.slice(0, 1, dimension).flatten());
  for (std::size_t i = 1; i < n; ++i)
    if (graph.getTileMapping(t.slice(i, i + 1, dimension).flatten()) != first)
      return true;
  return false;
}

bool dimIsSplitOverIPUs(const poplar::Graph &graph, const Tensor &t, unsigned dimension) {
  if (dimension >= t.rank())
    throw poplibs_error("dimIsSplitOverIPUs: dimension " + std::to_string(dimension) + " is beyond the rank " +
                        std::to_string(t.rank()));
  const poplar::Target &target = graph.getTarget();
  if (target.getNumIPUs() <= 1 || t.numElements() == 0)
    return false;
  // With the dimension innermost, each slice across it is one run of dim elements; it must lie on one IPU.
  const std::size_t n = t.dim(dimension);
  const auto mapping = graph.getTileMapping(t.dimRoll(dimension, t.rank() - 1));
  const unsigned tilesPerIPU = target.getTilesPerIPU();
  std::map<std::size_t, std::set<unsigned> > ipusOfSlice;
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const Interval &iv : mapping[tile])
      for (std::size_t s = iv.begin() / n; s * n < iv.end(); ++s)
        ipusOfSlice[s].insert(tile / tilesPerIPU);
  for (const auto &entry : ipusOfSlice)
    if (entry.second.size() > 1)
      return true;
  return false;
}

// In descending order the first tile is numTiles - 1 - offset (PopLibs' documented order, as calcLinearTileMapping).
unsigned transformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending) {
  return ascending ? (numTiles + tile - offset) % numTiles : (2 * numTiles - 1 - offset - tile) % numTiles;
}

unsigned invTransformTileIndex(unsigned tile, unsigned numTiles, unsigned offset, bool ascending) {
  return ascending ? (tile + offset) % numTiles : (2 * numTiles - 1 - offset - tile) % numTiles;
}

} // namespace poputil
