// popnn/experimental/ROIAlign.hpp on a 16-tile IPU Model: roiAlignFwd and roiAlignInputGradient against a double
// host reference (FLOAT and HALF; fixed and adaptive sampling grids; with and without half-pixel alignment;
// regions of several images, one partly outside the map, one of no image), and the shape errors.
#include <cmath>
#include <vector>

#include <popnn/experimental/ROIAlign.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn::experimental::roiAlignParams;
using popnn_test::NnFixture;

namespace {

const std::size_t N = 2, C = 3, H = 6, W = 7, R = 4, PH = 2, PW = 3;

// Regions (x1, y1, x2, y2) in image coordinates and their images: one tiny (grown to 1x1 unless aligned), one
// running past the map's corner, one of index -1 (pools zeros, gets no gradient).
const std::vector<float> kRois = {1.5f, 1.0f, 9.0f, 8.5f, 0.0f, 0.0f, 13.0f, 11.0f,
                                  4.0f, 3.0f, 4.5f, 3.25f, 8.0f, 6.0f, 16.0f, 14.0f};
const std::vector<int> kIndex = {1, 0, 1, -1};

struct Sample {
  std::size_t pos[4];
  double w[4];
};

// The samples of bin (ph, pw) of region r (positions in an H x W map, weights already divided by the count).
std::vector<Sample> samplesOf(const std::vector<float> &rois, std::size_t r, std::size_t ph, std::size_t pw,
                              const roiAlignParams &p) {
  const double off = p.aligned_ ? 0.5 : 0.0, s = p.spatialScale_;
  const double x0 = rois[4 * r] * s - off, y0 = rois[4 * r + 1] * s - off;
  double rw = rois[4 * r + 2] * s - off - x0, rh = rois[4 * r + 3] * s - off - y0;
  if (!p.aligned_) {
    rw = std::max(rw, 1.0);
    rh = std::max(rh, 1.0);
  }
  const double bh = rh / double(PH), bw = rw / double(PW);
  const std::size_t gh = p.samplingRatio_ ? p.samplingRatio_ : std::size_t(std::ceil(rh / double(PH)));
  const std::size_t gw = p.samplingRatio_ ? p.samplingRatio_ : std::size_t(std::ceil(rw / double(PW)));
  const double count = double(std::max<std::size_t>(gh * gw, 1));
  std::vector<Sample> out;
  for (std::size_t iy = 0; iy < gh; ++iy)
    for (std::size_t ix = 0; ix < gw; ++ix) {
      double y = y0 + double(ph) * bh + (double(iy) + 0.5) * bh / double(gh);
      double x = x0 + double(pw) * bw + (double(ix) + 0.5) * bw / double(gw);
      if (y < -1.0 || y > double(H) || x < -1.0 || x > double(W))
        continue;
      y = std::min(std::max(y, 0.0), double(H - 1));
      x = std::min(std::max(x, 0.0), double(W - 1));
      const std::size_t yl = std::size_t(y), xl = std::size_t(x);
      const std::size_t yh = std::min(yl + 1, H - 1), xh = std::min(xl + 1, W - 1);
      const double ly = y - double(yl), lx = x - double(xl);
      out.push_back({{yl * W + xl, yl * W + xh, yh * W + xl, yh * W + xh},
                     {(1 - ly) * (1 - lx) / count, (1 - ly) * lx / count, ly * (1 - lx) / count, ly * lx / count}});
    }
  return out;
}

// The host reference of both directions: out {R, C, PH, PW} and the input gradient {N, C, H, W}.
void hostRoiAlign(const std::vector<float> &data, const std::vector<float> &rois, const std::vector<float> &grad,
                  const roiAlignParams &p, std::vector<float> &out, std::vector<float> &inGrad) {
  std::vector<double> o(R * C * PH * PW, 0.0), g(N * C * H * W, 0.0);
  for (std::size_t r = 0; r < R; ++r) {
    if (kIndex[r] < 0)
      continue;
    const std::size_t n = std::size_t(kIndex[r]);
    for (std::size_t c = 0; c < C; ++c)
      for (std::size_t ph = 0; ph < PH; ++ph)
        for (std::size_t pw = 0; pw < PW; ++pw) {
          const std::size_t bin = ((r * C + c) * PH + ph) * PW + pw, map = (n * C + c) * H * W;
          for (const Sample &s : samplesOf(rois, r, ph, pw, p))
            for (int k = 0; k < 4; ++k) {
              o[bin] += s.w[k] * data[map + s.pos[k]];
              g[map + s.pos[k]] += s.w[k] * grad[bin];
            }
        }
  }
  out.assign(o.begin(), o.end());
  inGrad.assign(g.begin(), g.end());
}

void check(const Type &type, const roiAlignParams &p, float tol) {
  NnFixture f(16);
  Tensor data = f.var(type, {N, C, H, W}, "data");
  Tensor rois = f.var(type, {R, 4}, "rois");
  Tensor index = f.var(INT, {R}, "index");
  Tensor grad = f.var(type, {R, C, PH, PW}, "grad");
  Tensor out = popnn::experimental::roiAlignFwd(f.graph, f.prog, data, rois, index, p, "roi");
  Tensor inGrad = popnn::experimental::roiAlignInputGradient(f.graph, f.prog, data, rois, index, grad, p, "roiG");
  assert_true(out.shape() == (std::vector<std::size_t>{R, C, PH, PW}));
  assert_true(inGrad.shape() == data.shape());
  assert_true(out.elementType() == type && inGrad.elementType() == type);
  f.readable(out, "out");
  f.readable(inGrad, "inGrad");
  f.build();
  std::vector<float> hData = floats(N * C * H * W, 3), hGrad = floats(R * C * PH * PW, 5), want, wantGrad;
  if (type == HALF) {
    hData = f.rh(hData);
    hGrad = f.rh(hGrad);
  }
  // The regions' coordinates are multiples of 1/4, exact in half too.
  hostRoiAlign(hData, kRois, hGrad, p, want, wantGrad);
  f.write("index", kIndex);
  if (type == HALF) {
    f.writeHalf("data", hData);
    f.writeHalf("rois", kRois);
    f.writeHalf("grad", hGrad);
    f.engine->run(0);
    expectNear(f.readHalf("out", want.size()), want, "roiAlignFwd half", tol);
    expectNear(f.readHalf("inGrad", wantGrad.size()), wantGrad, "roiAlignInputGradient half", tol);
  } else {
    f.write("data", hData);
    f.write("rois", kRois);
    f.write("grad", hGrad);
    f.engine->run(0);
    expectNear(f.read<float>("out", want.size()), want, "roiAlignFwd float", tol);
    expectNear(f.read<float>("inGrad", wantGrad.size()), wantGrad, "roiAlignInputGradient float", tol);
  }
}

// FLOAT: sums of a few dozen float products against double: 1e-5 relative.
void test_float_fixed_grid(void **) { check(FLOAT, roiAlignParams(2, PH, PW, false, 0.5f), 1e-5f); }
void test_float_adaptive_aligned(void **) { check(FLOAT, roiAlignParams(0, PH, PW, true, 0.5f), 1e-5f); }
// HALF: inputs exact in half, sums in float, each result rounded once: within the half tolerance (3e-3).
void test_half_fixed_grid(void **) { check(HALF, roiAlignParams(2, PH, PW, false, 0.5f), kHalfTol); }
void test_half_adaptive_aligned(void **) { check(HALF, roiAlignParams(0, PH, PW, true, 0.5f), kHalfTol); }

void test_errors(void **) {
  NnFixture f(4);
  Tensor data = f.graph.addVariable(FLOAT, {1, 1, 4, 4}), rois = f.graph.addVariable(FLOAT, {2, 4});
  Tensor index = f.graph.addVariable(INT, {2}), flat = f.graph.addVariable(FLOAT, {4, 4});
  Tensor roisH = f.graph.addVariable(HALF, {2, 4}), indexF = f.graph.addVariable(FLOAT, {2});
  Tensor grad = f.graph.addVariable(FLOAT, {2, 1, 3, 3});
  const roiAlignParams p(1, 2, 2, false, 1.0f), none(1, 0, 2, false, 1.0f);
  using popnn::experimental::roiAlignFwd;
  expectThrow<poputil::poplibs_error>([&] { roiAlignFwd(f.graph, f.prog, flat, rois, index, p); }, "{N, C, H, W}");
  expectThrow<poputil::poplibs_error>([&] { roiAlignFwd(f.graph, f.prog, data, roisH, index, p); }, "bottomRois");
  expectThrow<poputil::poplibs_error>([&] { roiAlignFwd(f.graph, f.prog, data, rois, indexF, p); }, "INT");
  expectThrow<poputil::poplibs_error>([&] { roiAlignFwd(f.graph, f.prog, data, rois, index, none); }, "at least 1");
  expectThrow<poputil::poplibs_error>(
      [&] { popnn::experimental::roiAlignInputGradient(f.graph, f.prog, data, rois, index, grad, p); },
      "topDataGrad");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float_fixed_grid),     cmocka_unit_test(test_float_adaptive_aligned),
      cmocka_unit_test(test_half_fixed_grid),      cmocka_unit_test(test_half_adaptive_aligned),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
