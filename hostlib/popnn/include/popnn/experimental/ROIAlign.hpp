// ROIAlign (Mask R-CNN's region pooling, as the ONNX RoiAlign operator with average pooling): each region of
// interest is cut into alignedHeight_ x alignedWidth_ bins and each bin is the mean of a grid of bilinear samples
// of the feature map, per channel; and the gradient of that pooling with respect to the feature map.
#ifndef POPNN_EXPERIMENTAL_ROIALIGN_HPP
#define POPNN_EXPERIMENTAL_ROIALIGN_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popnn {
namespace experimental {

/// The configuration of ROIAlign.
struct roiAlignParams {
  /// Samples per bin along each axis; 0 means ceil(region size / bins) along that axis (chosen per region).
  long unsigned int samplingRatio_;
  /// The number of bins (the pooled output's height and width).
  long unsigned int alignedHeight_, alignedWidth_;
  /// Whether region corners move by -0.5 pixel (half-pixel centres); without it, regions are at least 1x1.
  bool aligned_;
  /// The factor from the regions' (image) coordinates to the feature map's.
  float spatialScale_;
  roiAlignParams(long unsigned int samplingRatio, long unsigned int poolH, long unsigned int poolW, bool aligned,
                 float spatialScale)
      : samplingRatio_(samplingRatio), alignedHeight_(poolH), alignedWidth_(poolW), aligned_(aligned),
        spatialScale_(spatialScale) {}
};

/// The pooled regions: for `bottomData` {N, C, H, W} (FLOAT or HALF), `bottomRois` {R, 4} of the same type (each
/// row x1, y1, x2, y2 in image coordinates) and `bottomBatchIndex` {R} (INT, the image of each region), returns a
/// new tensor {R, C, alignedHeight_, alignedWidth_}: bin (i, j) of region r and channel c is the mean over the
/// bin's sampling grid of the bilinear interpolation of bottomData[batch[r]][c]; samples more than one pixel
/// outside the map count as 0, a region whose index is outside [0, N) pools zeros. Computed on the device (popnn's
/// codelets; arithmetic in float, half results rounded once). Throws poputil::poplibs_error on wrong shapes or
/// types, or 0 bins.
poplar::Tensor roiAlignFwd(poplar::Graph &graph, poplar::program::Sequence &prog, poplar::Tensor &bottomData,
                           poplar::Tensor &bottomRois, poplar::Tensor &bottomBatchIndex,
                           const roiAlignParams &params, const poplar::DebugContext &debugContext = {});

/// The gradient of roiAlignFwd with respect to `bottomData`: a new tensor shaped and typed as bottomData, each
/// element the sum over the samples that read it of the sample's bilinear weight times its bin's gradient in
/// `topDataGrad` {R, C, alignedHeight_, alignedWidth_} divided by the bin's sample count (the regions and their
/// indices as in roiAlignFwd). Computed on the device, accumulated in float. Throws as roiAlignFwd does, and when
/// topDataGrad's shape or type does not match.
poplar::Tensor roiAlignInputGradient(poplar::Graph &graph, poplar::program::Sequence &prog,
                                     poplar::Tensor &bottomData, poplar::Tensor &bottomRois,
                                     poplar::Tensor &bottomBatchIndex, poplar::Tensor &topDataGrad,
                                     const roiAlignParams &params, const poplar::DebugContext &debugContext = {});

} // namespace experimental
} // namespace popnn

#endif // POPNN_EXPERIMENTAL_ROIALIGN_HPP
