// popops/HostSliceTensor.hpp. A host copy moves the tensor in packets of 1 KiB, and every row of a sliceable
// tensor is its own run of packets (a row may be the only one transferred). Spreading the packets evenly, in
// order, over the tiles keeps each tile's part one contiguous region and lets the exchange blocks work in
// parallel: each tile takes the same count, and the remainder goes one packet each to tiles taken round the
// exchange blocks nearest first (block 0, 31, 1, 30, ...), so a small tensor lands on tile 0 and a one-packet
// transfer after `offset` bytes lands `offset` packets further on. A row's index lives where its first packet is.
#include "popops/HostSliceTensor.hpp"

#include <algorithm>
#include <map>
#include <string>

#include <poplar/Graph.hpp>

#include "poputil/exceptions.hpp"

#include "op_name.hpp"

namespace popops {

using poplar::Tensor;

namespace {

/// The bytes of one host exchange packet, the unit of `offset` and of the layout.
const std::size_t kPacketBytes = 1024;
/// Exchange blocks per IPU; a tile's block follows from its physical id.
const unsigned kExchangeBlocks = 32;

/// The order in which tiles take the packets left over after the even share: one tile per exchange block at a
/// time, blocks by closeness to the host link (0, 31, 1, 30, ...).
std::vector<unsigned> remainderOrder(const poplar::Graph &graph) {
  const unsigned tiles = graph.getTarget().getNumTiles();
  std::map<unsigned, std::pair<unsigned, std::vector<unsigned> > > byDistance; // distance -> (block, its tiles)
  for (unsigned t = 0; t < tiles; ++t) {
    const unsigned bits = graph.convertVirtualTileToPhysicalTile(t) % 64;
    const unsigned block = 2 * (bits >> 2) + bits % 2;
    const unsigned distance = block < kExchangeBlocks / 2 ? 2 * block : 2 * (kExchangeBlocks - 1 - block) + 1;
    byDistance[distance].first = block;
    byDistance[distance].second.push_back(t);
  }
  std::vector<std::vector<unsigned> > blocks;
  for (auto &e : byDistance) {
    // Odd blocks serve the other side of the column and are walked from the far end.
    if (e.second.first % 2 == 1)
      std::sort(e.second.second.rbegin(), e.second.second.rend());
    blocks.push_back(e.second.second);
  }
  std::vector<unsigned> order;
  for (std::size_t k = 0; order.size() < tiles; ++k)
    for (const auto &b : blocks)
      if (k < b.size())
        order.push_back(b[k]);
  return order;
}

IndicesAndTensor sliceable(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                           std::size_t offset, const std::string &name) {
  IndicesAndTensor r;
  r.tensor = graph.addVariable(type, shape, name + "/tensor");
  r.indices = graph.addVariable(poplar::UNSIGNED_INT, {shape[0]}, name + "/indices");
  const std::size_t perPacket = std::max<std::size_t>(1, kPacketBytes / graph.getTarget().getTypeSize(type));
  std::vector<std::pair<std::size_t, Tensor> > packets; // (row, elements)
  for (std::size_t i = 0; i < shape[0]; ++i)
    for (std::size_t b = 0; b < shape[1]; b += perPacket)
      packets.emplace_back(i, r.tensor[i].slice(b, std::min(shape[1], b + perPacket)));
  const unsigned tiles = graph.getTarget().getNumTiles();
  std::vector<std::size_t> count(tiles, packets.size() / tiles);
  const std::size_t extra = packets.size() % tiles, shift = (offset + kPacketBytes - 1) / kPacketBytes % tiles;
  if (extra) {
    const std::vector<unsigned> order = remainderOrder(graph);
    for (std::size_t i = 0; i < extra; ++i)
      ++count[(shift + order[i]) % tiles];
  }
  std::size_t p = 0, lastRow = ~std::size_t(0);
  for (unsigned tile = 0; tile < tiles; ++tile)
    for (std::size_t end = p + count[tile]; p < end; ++p) {
      graph.setTileMapping(packets[p].second, tile);
      if (packets[p].first != lastRow) {
        lastRow = packets[p].first;
        graph.setTileMapping(r.indices[lastRow], tile);
      }
    }
  for (std::size_t i = 0; i < shape[0]; ++i) // rows with no elements have no packet
    if (shape[1] == 0)
      graph.setTileMapping(r.indices[i], 0);
  return r;
}

} // namespace

IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool,
                                           const std::size_t offset, const poplar::DebugContext &debugContext) {
  const std::string name = opName(debugContext, "createHostSliceableTensor");
  if (shape.size() != 2)
    throw poputil::poplibs_error(name + ": the shape has " + std::to_string(shape.size()) +
                                 " dimensions; it must be [slice indices, stream elements]");
  return sliceable(graph, type, shape, offset, name);
}

IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const poplar::DebugContext &debugContext) {
  return createHostSliceableTensor(graph, type, shape, isRead, 0, debugContext);
}

Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                    const std::vector<std::size_t> &shape, bool, const std::size_t offset,
                                    const poplar::DebugContext &debugContext) {
  // One row holding every element, seen in the requested shape.
  std::size_t n = 1;
  for (std::size_t d : shape)
    n *= d;
  return sliceable(graph, type, {1, n}, offset, opName(debugContext, "createHostTransferableTensor"))
      .tensor.reshape(shape);
}

Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                    const std::vector<std::size_t> &shape, bool isRead,
                                    const poplar::DebugContext &debugContext) {
  return createHostTransferableTensor(graph, type, shape, isRead, 0, debugContext);
}

} // namespace popops
