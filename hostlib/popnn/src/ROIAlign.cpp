// popnn::experimental::roiAlignFwd / roiAlignInputGradient: the shapes checked here, the pooling on the device.
// The regions and their image indices are tensors, so which pixels a region reads is only known at run time:
//  - forward: one vertex per (region, channel), on the tile of that output block, reading the channel's map of
//    every image (the index picks one on the tile);
//  - gradient: one vertex per (image, channel), on the tile of that gradient map, reading every region's bins of
//    the channel and keeping those of its image; it accumulates in float scratch beside it.
#include "popnn/experimental/ROIAlign.hpp"

#include <string>
#include <vector>

#include <poputil/exceptions.hpp>

#include "poplibs_support.hpp"
#include "vertices.hpp"

namespace popnn {
namespace experimental {
namespace {

// Checks the feature map, regions, indices and parameters common to both directions.
void checkInputs(const std::string &name, const poplar::Tensor &data, const poplar::Tensor &rois,
                 const poplar::Tensor &index, const roiAlignParams &p) {
  detail::checkFloatOrHalf(data, name, "bottomData");
  if (data.rank() != 4)
    throw poputil::poplibs_error(name + ": bottomData has shape " + data.shapeToString() + "; give {N, C, H, W}");
  if (!rois.valid() || rois.rank() != 2 || rois.dim(1) != 4 || rois.elementType() != data.elementType())
    throw poputil::poplibs_error(name + ": bottomRois must be {numRois, 4} of bottomData's type " +
                                 data.elementType().toString());
  if (!index.valid() || index.rank() != 1 || index.dim(0) != rois.dim(0) || index.elementType() != poplar::INT)
    throw poputil::poplibs_error(name + ": bottomBatchIndex must be INT {numRois} (" +
                                 std::to_string(rois.dim(0)) + ")");
  if (p.alignedHeight_ == 0 || p.alignedWidth_ == 0)
    throw poputil::poplibs_error(name + ": alignedHeight_ and alignedWidth_ must be at least 1");
  if (data.dim(2) == 0 || data.dim(3) == 0)
    throw poputil::poplibs_error(name + ": bottomData has an empty feature map " + data.shapeToString());
}

// The fields both vertices share.
void setGeometry(poplar::Graph &graph, poplar::VertexRef v, const poplar::Tensor &data, const roiAlignParams &p) {
  graph.setInitialValue(v["height"], unsigned(data.dim(2)));
  graph.setInitialValue(v["width"], unsigned(data.dim(3)));
  graph.setInitialValue(v["poolH"], unsigned(p.alignedHeight_));
  graph.setInitialValue(v["poolW"], unsigned(p.alignedWidth_));
  graph.setInitialValue(v["ratio"], unsigned(p.samplingRatio_));
  graph.setInitialValue(v["scale"], p.spatialScale_);
  graph.setInitialValue(v["aligned"], unsigned(p.aligned_ ? 1 : 0));
}

// A new tensor of `shape` whose blocks (its first two dimensions) each lie whole on one tile, spread evenly.
poplar::Tensor blockMapped(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                           const std::string &name) {
  poplar::Tensor t = graph.addVariable(type, shape, name);
  const std::size_t blocks = shape[0] * shape[1], tiles = graph.getTarget().getNumTiles();
  for (std::size_t b = 0; b < blocks; ++b)
    graph.setTileMapping(t[b / shape[1]][b % shape[1]], unsigned(b * tiles / blocks));
  return t;
}

} // namespace

poplar::Tensor roiAlignFwd(poplar::Graph &graph, poplar::program::Sequence &prog, poplar::Tensor &bottomData,
                           poplar::Tensor &bottomRois, poplar::Tensor &bottomBatchIndex,
                           const roiAlignParams &params, const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::debugName(debugContext, "popnn::experimental::", "roiAlignFwd");
  checkInputs(name, bottomData, bottomRois, bottomBatchIndex, params);
  const std::size_t N = bottomData.dim(0), C = bottomData.dim(1), R = bottomRois.dim(0);
  poplar::Tensor out =
      blockMapped(graph, bottomData.elementType(), {R, C, params.alignedHeight_, params.alignedWidth_}, name + "/out");
  if (R == 0 || C == 0)
    return out;
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::string vertex = detail::vertexFor("popnn::RoiAlignForward", bottomData.elementType());
  const std::size_t tiles = graph.getTarget().getNumTiles();
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c) {
      poplar::Tensor block = out[r][c].flatten();
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, unsigned((r * C + c) * tiles / (R * C)));
      graph.setFieldSize(v["feat"], N);
      for (std::size_t n = 0; n < N; ++n)
        graph.connect(v["feat"][n], bottomData[n][c].flatten());
      graph.connect(v["roi"], bottomRois[r]);
      graph.connect(v["batch"], bottomBatchIndex.slice(r, r + 1));
      graph.connect(v["out"], block);
      setGeometry(graph, v, bottomData, params);
    }
  prog.add(poplar::program::Execute(cs, {debugContext, "roiAlignFwd"}));
  return out;
}

poplar::Tensor roiAlignInputGradient(poplar::Graph &graph, poplar::program::Sequence &prog,
                                     poplar::Tensor &bottomData, poplar::Tensor &bottomRois,
                                     poplar::Tensor &bottomBatchIndex, poplar::Tensor &topDataGrad,
                                     const roiAlignParams &params, const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::debugName(debugContext, "popnn::experimental::", "roiAlignInputGradient");
  checkInputs(name, bottomData, bottomRois, bottomBatchIndex, params);
  const std::size_t N = bottomData.dim(0), C = bottomData.dim(1), H = bottomData.dim(2), W = bottomData.dim(3);
  const std::size_t R = bottomRois.dim(0);
  const std::vector<std::size_t> gradShape = {R, C, params.alignedHeight_, params.alignedWidth_};
  if (!topDataGrad.valid() || topDataGrad.shape() != gradShape ||
      topDataGrad.elementType() != bottomData.elementType())
    throw poputil::poplibs_error(name + ": topDataGrad must be " + bottomData.elementType().toString() + " {" +
                                 std::to_string(R) + ", " + std::to_string(C) + ", " +
                                 std::to_string(params.alignedHeight_) + ", " +
                                 std::to_string(params.alignedWidth_) + "}");
  poplar::Tensor out = blockMapped(graph, bottomData.elementType(), {N, C, H, W}, name + "/out");
  poplar::Tensor acc = blockMapped(graph, poplar::FLOAT, {N, C, H, W}, name + "/acc");
  if (N == 0 || C == 0)
    return out;
  poplar::ComputeSet cs = graph.addComputeSet(name);
  const std::string vertex = detail::vertexFor("popnn::RoiAlignInputGradient", bottomData.elementType());
  const std::size_t tiles = graph.getTarget().getNumTiles();
  for (std::size_t n = 0; n < N; ++n)
    for (std::size_t c = 0; c < C; ++c) {
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, unsigned((n * C + c) * tiles / (N * C)));
      graph.setFieldSize(v["topGrad"], R);
      for (std::size_t r = 0; r < R; ++r)
        graph.connect(v["topGrad"][r], topDataGrad[r][c].flatten());
      graph.connect(v["rois"], bottomRois.flatten());
      graph.connect(v["batch"], bottomBatchIndex);
      graph.connect(v["acc"], acc[n][c].flatten());
      graph.connect(v["out"], out[n][c].flatten());
      graph.setInitialValue(v["image"], unsigned(n));
      setGeometry(graph, v, bottomData, params);
    }
  prog.add(poplar::program::Execute(cs, {debugContext, "roiAlignInputGradient"}));
  return out;
}

} // namespace experimental
} // namespace popnn
