// popnn's ROIAlign tile code (included at the end of popnn_codelets.cpp): the vertices of
// popnn::experimental::roiAlignFwd and roiAlignInputGradient (src/ROIAlign.cpp builds them).
//
// The regions and their batch indices are tensors read here at run time, so where each region samples is only
// known on the device. Every output bin is the mean of a grid of bilinear samples of one channel of one image;
// the sample positions, weights and the handling of samples outside the map follow Graphcore's ROIAlign (the
// ONNX RoiAlign operator with average pooling). All arithmetic is in float; half data is converted on load and
// each result rounded once on store.

namespace popnn {
namespace {

// Where one region samples: its start corner and bin size in feature-map coordinates and its sampling grid.
struct RoiGeometry {
  float startY, startX, binH, binW;
  unsigned gridH, gridW;
};

// The geometry of the region (x1, y1, x2, y2) in image coordinates under spatial scale `scale`. With `aligned`
// the corners move by -0.5 (half-pixel centres); without it, regions smaller than one pixel grow to one.
inline RoiGeometry roiGeometry(float x1, float y1, float x2, float y2, float scale, unsigned aligned,
                               unsigned poolH, unsigned poolW, unsigned ratio) {
  const float offset = aligned ? 0.5f : 0.0f;
  RoiGeometry g;
  g.startX = x1 * scale - offset;
  g.startY = y1 * scale - offset;
  float w = x2 * scale - offset - g.startX, h = y2 * scale - offset - g.startY;
  if (!aligned) {
    w = fmaxf(w, 1.0f);
    h = fmaxf(h, 1.0f);
  }
  g.binW = w / float(poolW);
  g.binH = h / float(poolH);
  g.gridH = ratio > 0 ? ratio : unsigned(ceilf(h / float(poolH)));
  g.gridW = ratio > 0 ? ratio : unsigned(ceilf(w / float(poolW)));
  return g;
}

// The four neighbours of sample (y, x) in an height x width map and their bilinear weights; false when the
// sample lies more than one pixel outside the map (it then contributes nothing).
inline bool bilinear(float y, float x, unsigned height, unsigned width, unsigned pos[4], float wt[4]) {
  if (y < -1.0f || y > float(height) || x < -1.0f || x > float(width))
    return false;
  y = fminf(fmaxf(y, 0.0f), float(height - 1));
  x = fminf(fmaxf(x, 0.0f), float(width - 1));
  const unsigned y0 = unsigned(y), x0 = unsigned(x);
  const unsigned y1 = y0 + 1 < height ? y0 + 1 : y0, x1 = x0 + 1 < width ? x0 + 1 : x0;
  const float ly = y - float(y0), lx = x - float(x0), hy = 1.0f - ly, hx = 1.0f - lx;
  pos[0] = y0 * width + x0;
  pos[1] = y0 * width + x1;
  pos[2] = y1 * width + x0;
  pos[3] = y1 * width + x1;
  wt[0] = hy * hx;
  wt[1] = hy * lx;
  wt[2] = ly * hx;
  wt[3] = ly * lx;
  return true;
}

// Calls visit(pos, weight / count) for every neighbour of every sample of bin (ph, pw) of the region.
template <typename Visit>
inline void forEachSample(const RoiGeometry &g, unsigned height, unsigned width, unsigned ph, unsigned pw,
                          Visit visit) {
  const unsigned count = g.gridH * g.gridW > 0 ? g.gridH * g.gridW : 1;
  for (unsigned iy = 0; iy < g.gridH; ++iy) {
    const float y = g.startY + float(ph) * g.binH + (float(iy) + 0.5f) * g.binH / float(g.gridH);
    for (unsigned ix = 0; ix < g.gridW; ++ix) {
      const float x = g.startX + float(pw) * g.binW + (float(ix) + 0.5f) * g.binW / float(g.gridW);
      unsigned pos[4];
      float wt[4];
      if (bilinear(y, x, height, width, pos, wt))
        for (unsigned k = 0; k < 4; ++k)
          visit(pos[k], wt[k] / float(count));
    }
  }
}

// out (poolH * poolW) = the pooled bins of region `roi` over channel map feat[batch] (one item per image).
template <typename T, typename Feat, typename Roi, typename Out>
void roiAlignForward(const Feat &feat, const Roi &roi, int batch, Out &out, unsigned height, unsigned width,
                     unsigned poolH, unsigned poolW, unsigned ratio, float scale, unsigned aligned) {
  const bool valid = batch >= 0 && unsigned(batch) < feat.size(); // a region of no image pools nothing
  const T *map = valid ? feat[unsigned(batch)].data() : nullptr;
  const RoiGeometry g = roiGeometry(float(roi[0]), float(roi[1]), float(roi[2]), float(roi[3]), scale, aligned,
                                    poolH, poolW, ratio);
  for (unsigned ph = 0; ph < poolH; ++ph)
    for (unsigned pw = 0; pw < poolW; ++pw) {
      float acc = 0.0f;
      if (valid)
        forEachSample(g, height, width, ph, pw, [&](unsigned pos, float w) { acc += w * float(map[pos]); });
      out[ph * poolW + pw] = T(acc);
    }
}

// acc (height * width, float) = the gradient of image `image`'s channel map: every region of that image spreads
// its bins' gradients topGrad[r] back onto the samples' neighbours; out gets acc rounded to T.
template <typename T, typename Grad, typename Rois, typename Batch, typename Out>
void roiAlignBackward(const Grad &topGrad, const Rois &rois, const Batch &batch, float *acc, Out &out,
                      unsigned image, unsigned height, unsigned width, unsigned poolH, unsigned poolW,
                      unsigned ratio, float scale, unsigned aligned) {
  for (unsigned i = 0; i < height * width; ++i)
    acc[i] = 0.0f;
  for (unsigned r = 0; r < topGrad.size(); ++r) {
    if (batch[r] != int(image))
      continue;
    const T *g = topGrad[r].data();
    const RoiGeometry geo = roiGeometry(float(rois[4 * r]), float(rois[4 * r + 1]), float(rois[4 * r + 2]),
                                        float(rois[4 * r + 3]), scale, aligned, poolH, poolW, ratio);
    for (unsigned ph = 0; ph < poolH; ++ph)
      for (unsigned pw = 0; pw < poolW; ++pw) {
        const float gb = float(g[ph * poolW + pw]);
        forEachSample(geo, height, width, ph, pw, [&](unsigned pos, float w) { acc[pos] += w * gb; });
      }
  }
  for (unsigned i = 0; i < height * width; ++i)
    out[i] = T(acc[i]);
}

} // namespace

// The fields both vertices have: the result and the geometry (see setGeometry in src/ROIAlign.cpp).
#define POPNN_ROI_ALIGN_FIELDS(T)                                                                                  \
  Output<Vector<T>> out;                                                                                           \
  unsigned height;                                                                                                 \
  unsigned width;                                                                                                  \
  unsigned poolH;                                                                                                  \
  unsigned poolW;                                                                                                  \
  unsigned ratio;                                                                                                  \
  float scale;                                                                                                     \
  unsigned aligned;

// The vertex classes of both element types, named as popnn's others are: X for float, XHalf for half.
#define POPNN_ROI_ALIGN_VERTICES(Suffix, T)                                                                        \
  class RoiAlignForward##Suffix : public Vertex {                                                                  \
  public:                                                                                                          \
    Input<VectorList<T>> feat;                                                                                     \
    Input<Vector<T>> roi;                                                                                          \
    Input<Vector<int>> batch;                                                                                      \
    POPNN_ROI_ALIGN_FIELDS(T)                                                                                      \
    bool compute() {                                                                                               \
      roiAlignForward<T>(feat, roi, batch[0], out, height, width, poolH, poolW, ratio, scale, aligned);            \
      return true;                                                                                                 \
    }                                                                                                              \
  };                                                                                                               \
  class RoiAlignInputGradient##Suffix : public Vertex {                                                            \
  public:                                                                                                          \
    Input<VectorList<T>> topGrad;                                                                                  \
    Input<Vector<T>> rois;                                                                                         \
    Input<Vector<int>> batch;                                                                                      \
    Output<Vector<float>> acc;                                                                                     \
    POPNN_ROI_ALIGN_FIELDS(T)                                                                                      \
    unsigned image;                                                                                                \
    bool compute() {                                                                                               \
      roiAlignBackward<T>(topGrad, rois, batch, &acc[0], out, image, height, width, poolH, poolW, ratio, scale,    \
                          aligned);                                                                                \
      return true;                                                                                                 \
    }                                                                                                              \
  };

/// RoiAlignForward: one region's pooled bins of one channel: `out` (poolH * poolW) from that channel's map of
/// each image (`feat`, one item of height * width per image), the region `roi` (x1, y1, x2, y2) and its image
/// index `batch[0]`.
/// RoiAlignInputGradient: the input gradient of one channel map of image `image`: `out` (height * width) from
/// every region's bin gradients of that channel (`topGrad`, one item of poolH * poolW per region), the regions
/// (`rois`, 4 values each) and their image indices (`batch`); `acc` is float scratch of height * width.
POPNN_ROI_ALIGN_VERTICES(, float)
POPNN_ROI_ALIGN_VERTICES(Half, half)

} // namespace popnn
