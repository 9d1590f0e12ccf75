// popops/HostSliceTensor.hpp. A host copy moves each tile's part of a tensor, so the layout that makes it fast is
// the whole tensor cut into equal contiguous blocks, one per tile; the offset rotates the first tile so that
// transfers made one after another start on different tiles.
#include "popops/HostSliceTensor.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <string>

#include <poplar/Graph.hpp>

#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;

namespace {

/// The bytes of one host exchange packet, the unit of `offset`.
const std::size_t kPacketBytes = 256;

std::string nameOf(const poplar::DebugContext &dc, const char *fn) {
  const std::string p = dc.getPathName();
  return p.empty() ? std::string("popops::") + fn : p;
}

Tensor transferable(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                    std::size_t offset, const std::string &name) {
  Tensor t = graph.addVariable(type, shape, name);
  const std::size_t n = t.numElements(), tiles = graph.getTarget().getNumTiles();
  const std::size_t first = (offset / kPacketBytes) % tiles;
  const std::size_t block = std::max<std::size_t>(1, (n + tiles - 1) / tiles);
  Tensor flat = t.flatten();
  for (std::size_t b = 0, k = 0; b < n; b += block, ++k)
    graph.setTileMapping(flat.slice(b, std::min(n, b + block)), unsigned((first + k) % tiles));
  return t;
}

} // namespace

IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const std::size_t offset, const poplar::DebugContext &debugContext) {
  const std::string name = nameOf(debugContext, "createHostSliceableTensor");
  if (shape.size() != 2)
    throw poputil::poplibs_error(name + ": the shape has " + std::to_string(shape.size()) +
                                 " dimensions; it must be [slice indices, stream elements]");
  IndicesAndTensor r;
  r.tensor = createHostTransferableTensor(graph, type, shape, isRead, offset, name + "/tensor");
  r.indices = graph.addVariable(poplar::UNSIGNED_INT, {shape[0]}, name + "/indices");
  graph.setTileMapping(r.indices, 0);
  return r;
}

IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const poplar::DebugContext &debugContext) {
  return createHostSliceableTensor(graph, type, shape, isRead, 0, debugContext);
}

Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                    const std::vector<std::size_t> &shape, bool, const std::size_t offset,
                                    const poplar::DebugContext &debugContext) {
  return transferable(graph, type, shape, offset, nameOf(debugContext, "createHostTransferableTensor"));
}

Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                    const std::vector<std::size_t> &shape, bool isRead,
                                    const poplar::DebugContext &debugContext) {
  return createHostTransferableTensor(graph, type, shape, isRead, 0, debugContext);
}

} // namespace popops
