// popops::createHostSliceableTensor and createHostTransferableTensor: tensors laid out for copies from and to
// the host (data streams and remote buffers).
#ifndef popops_HostSliceTensor_hpp_
#define popops_HostSliceTensor_hpp_

#include <cstddef>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

namespace poplar {
class Graph;
}

namespace popops {

/// What createHostSliceableTensor returns: the tensor and the indices of its rows for a sliced copy.
struct IndicesAndTensor {
  poplar::Tensor indices; ///< UNSIGNED_INT, shape {shape[0]}, mapped to tile 0
  poplar::Tensor tensor;  ///< the tensor of the requested type and shape
};

/// A tensor of `type` and `shape` (two dimensions: [number of slice indices (1 without a multi-index remote
/// buffer copy), the stream's or buffer's element count]) spread in contiguous blocks over the tiles, and the
/// UNSIGNED_INT index tensor of shape[0] elements for the copy. `isRead` (host reads the tensor) is a layout
/// hint that this implementation does not need. Throws poputil::poplibs_error unless the shape has two dimensions.
IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const poplar::DebugContext &debugContext = {});

/// As above, the blocks starting on tile (offset / 256) modulo the number of tiles: `offset` counts bytes
/// already sent by earlier copies, in packets of 256 bytes, so consecutive transfers use different tiles.
IndicesAndTensor createHostSliceableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, const bool isRead,
                                           const std::size_t offset, const poplar::DebugContext &debugContext = {});

/// A tensor of `type` and any `shape` spread in contiguous blocks over the tiles, for host copies. `isRead` is a
/// layout hint that this implementation does not need.
poplar::Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, bool isRead,
                                           const poplar::DebugContext &debugContext = {});

/// As above, the blocks starting on tile (offset / 256) modulo the number of tiles (see createHostSliceableTensor).
poplar::Tensor createHostTransferableTensor(poplar::Graph &graph, const poplar::Type &type,
                                           const std::vector<std::size_t> &shape, bool isRead,
                                           const std::size_t offset, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // popops_HostSliceTensor_hpp_
