// gcl/TileAllocation.hpp: which tiles collective work may use on each IPU of a graph.
#ifndef GCL_TILEALLOCATION_HPP
#define GCL_TILEALLOCATION_HPP

#include <vector>

#include <poplar/Graph.hpp>

namespace gcl {

/// Tiles for collective work on every IPU of `graph`: `count` tiles from tile `offset` of each IPU (numbered in
/// `graph`), IPU by IPU. `sorted` orders them ascending (they already are); `tilePairs` is accepted for the SDK's
/// signature (the emulated tiles are not paired). Throws poputil::poplibs_error when [offset, offset + count)
/// does not fit an IPU.
std::vector<unsigned> perIPUTiles(const poplar::Graph &graph, unsigned offset, unsigned count, bool sorted = true,
                                  bool tilePairs = true);

} // namespace gcl

#endif // GCL_TILEALLOCATION_HPP
