// popops::normaliseImage: scales and offsets each channel of a 3-channel image and pads it to 4 channels (the
// input layout convolutions prefer), with createNormaliseImageInput to make a suitably mapped input.
#ifndef popops_NormaliseImage_hpp
#define popops_NormaliseImage_hpp

#include <cstddef>

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// A variable of `type` (UNSIGNED_CHAR, HALF or FLOAT) and `shape` (innermost dimension 3, the channels) mapped
/// linearly over the tiles in whole pixels. Throws poputil::poplibs_error for another type or innermost size.
poplar::Tensor createNormaliseImageInput(poplar::Graph &graph, const poplar::Type &type,
                                         const poplar::ArrayRef<std::size_t> shape,
                                         const poplar::DebugContext &debugContext = {});

/// A new tensor of tIn's shape with 4 channels instead of 3, filled by `seq`: channel c < 3 of each pixel is
/// (tIn[c] * inScale - offsets[c]) * scales[c] and channel 3 is 0. The result is HALF for an UNSIGNED_CHAR tIn
/// (cast first) and tIn's type otherwise; offsets and scales are shape {3} tensors of that type. Each output pixel
/// lives on the tile of its input pixel. Throws poputil::poplibs_error for other types or shapes.
poplar::Tensor normaliseImage(poplar::Graph &graph, poplar::program::Sequence &seq, poplar::Tensor tIn,
                              float inScale, poplar::Tensor offsets, poplar::Tensor scales,
                              const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // popops_NormaliseImage_hpp
