// popnn::pooling against a host reference: MAX, AVG and SUM forward and input gradients (both forms; MAX with
// and without scaled gradients, with ties) over 1-D and 2-D fields with strides, padding and truncation, an input
// that is a dimShuffled view spread over many tiles, the shape and flop helpers, and the argument errors. FLOAT
// only: popops' HALF support is not on this branch, so HALF is not tested here.
#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include <poplar/exceptions.hpp>
#include <popnn/Pooling.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popnn::PoolingType;
using popnn::pooling::PoolParams;
using popnn_test::NnFixture;

namespace {

std::size_t product(const std::vector<std::size_t> &v) {
  std::size_t n = 1;
  for (std::size_t x : v)
    n *= x;
  return n;
}

// The host reference over [batch * channels] planes of the field, in row-major order.
struct HostPool {
  const PoolParams &p;
  std::vector<std::size_t> outField;
  explicit HostPool(const PoolParams &params) : p(params), outField(params.getOutputFieldShape()) {}

  // Calls fn(input index within the plane) for each window element of output `o` (index within the plane) that
  // lies inside the input (not padding, not truncated).
  template <typename Fn> void window(std::size_t o, Fn fn) const {
    const std::size_t n = p.getNumFieldDims();
    std::vector<std::size_t> oc(n);
    for (std::size_t d = n, rest = o; d-- > 0; rest /= outField[d])
      oc[d] = rest % outField[d];
    std::vector<std::size_t> k(n, 0);
    for (;;) {
      bool inside = true;
      std::size_t idx = 0;
      for (std::size_t d = 0; d < n; ++d) {
        const long long in = (long long)p.inputFieldShape[d];
        const long long lo = std::max(0LL, -(long long)p.inputTruncationOrPaddingLower[d]);
        const long long hi = std::min(in, in + p.inputTruncationOrPaddingUpper[d]);
        const long long i = (long long)(oc[d] * p.stride[d] + k[d]) - p.inputTruncationOrPaddingLower[d];
        inside = inside && i >= lo && i < hi;
        idx = idx * p.inputFieldShape[d] + std::size_t(std::max(0LL, i));
      }
      if (inside)
        fn(idx);
      std::size_t d = n;
      while (d > 0 && ++k[d - 1] == p.kernelShape[d - 1])
        k[--d] = 0;
      if (d == 0)
        return;
    }
  }

  std::vector<float> forward(const std::vector<float> &in) const {
    const std::size_t planes = p.batchSize * p.numChannels, inN = product(p.inputFieldShape), outN = product(outField);
    std::vector<float> out(planes * outN);
    for (std::size_t pl = 0; pl < planes; ++pl)
      for (std::size_t o = 0; o < outN; ++o) {
        float acc = p.poolingType == PoolingType::MAX ? -std::numeric_limits<float>::infinity() : 0.0f;
        std::size_t count = 0;
        window(o, [&](std::size_t i) {
          const float v = in[pl * inN + i];
          acc = p.poolingType == PoolingType::MAX ? std::max(acc, v) : acc + v;
          ++count;
        });
        if (p.poolingType == PoolingType::AVG)
          acc = count ? acc / float(count) : 0.0f;
        out[pl * outN + o] = acc;
      }
    return out;
  }

  std::vector<float> backward(const std::vector<float> &in, const std::vector<float> &pooled,
                              const std::vector<float> &g, bool scaled) const {
    const std::size_t planes = p.batchSize * p.numChannels, inN = product(p.inputFieldShape), outN = product(outField);
    std::vector<float> d(planes * inN, 0.0f);
    for (std::size_t pl = 0; pl < planes; ++pl)
      for (std::size_t o = 0; o < outN; ++o) {
        const float go = g[pl * outN + o];
        std::size_t count = 0, matches = 0;
        window(o, [&](std::size_t i) {
          ++count;
          matches += in.empty() ? 0 : in[pl * inN + i] == pooled[pl * outN + o];
        });
        window(o, [&](std::size_t i) {
          if (p.poolingType == PoolingType::SUM)
            d[pl * inN + i] += go;
          else if (p.poolingType == PoolingType::AVG)
            d[pl * inN + i] += go / float(count);
          else if (in[pl * inN + i] == pooled[pl * outN + o])
            d[pl * inN + i] += scaled ? go / float(matches) : go;
        });
      }
    return d;
  }
};

struct Config {
  const char *name;
  std::vector<std::size_t> field, kernel;
  std::vector<unsigned> stride;
  std::vector<int> lower, upper;
};

const Config kConfigs[] = {
    {"2d-pad", {7, 6}, {3, 2}, {2, 1}, {1, 0}, {1, 1}},
    {"2d-trunc", {6, 7}, {2, 2}, {2, 2}, {-1, 0}, {0, -1}},
    {"1d", {10}, {4}, {3}, {2}, {0}},
    {"2d-global", {4, 5}, {4, 5}, {1, 1}, {0, 0}, {0, 0}},
};
const PoolingType kTypes[] = {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM};
const std::size_t BATCH = 2, CHANS = 3;

// Values from a small set, so that max windows hold ties.
std::vector<float> tied(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 13 + seed * 5) % 7) - 3);
  return v;
}

void test_forward_and_backward(void **) {
  NnFixture f(16);
  for (const Config &c : kConfigs)
    for (PoolingType t : kTypes) {
      PoolParams p(t, c.field, c.kernel, c.stride, c.lower, c.upper, CHANS, BATCH, FLOAT);
      const std::string n = std::string(c.name) + popnn::pooling::asString(t);
      std::vector<std::size_t> inShape = {BATCH, CHANS}, outShape = {BATCH, CHANS};
      inShape.insert(inShape.end(), c.field.begin(), c.field.end());
      const auto outField = p.getOutputFieldShape();
      outShape.insert(outShape.end(), outField.begin(), outField.end());
      Tensor in = f.var(FLOAT, inShape, n + ".in"), g = f.var(FLOAT, outShape, n + ".g");
      Tensor out = popnn::pooling::pool(f.graph, p, in, f.prog, "", {{"poolUseIntrospectiveMapping", "false"}});
      f.readable(out, n + ".out");
      f.readable(popnn::pooling::poolInputGradient(f.graph, p, in, out, g, false, f.prog), n + ".d");
      if (t == PoolingType::MAX)
        f.readable(popnn::pooling::poolInputGradient(f.graph, p, in, out, g, true, f.prog), n + ".ds");
      else
        f.readable(popnn::pooling::poolInputGradient(f.graph, p, CHANS, g, f.prog), n + ".d2");
    }
  f.build();
  for (const Config &c : kConfigs)
    for (PoolingType t : kTypes) {
      PoolParams p(t, c.field, c.kernel, c.stride, c.lower, c.upper, CHANS, BATCH, FLOAT);
      const std::string n = std::string(c.name) + popnn::pooling::asString(t);
      const HostPool h(p);
      const std::size_t inN = BATCH * CHANS * product(c.field), outN = BATCH * CHANS * product(h.outField);
      const auto hin = tied(inN, unsigned(t) + 1), hg = floats(outN, 3);
      f.write(n + ".in", hin);
      f.write(n + ".g", hg);
    }
  f.engine->run(0);
  for (const Config &c : kConfigs)
    for (PoolingType t : kTypes) {
      PoolParams p(t, c.field, c.kernel, c.stride, c.lower, c.upper, CHANS, BATCH, FLOAT);
      const std::string n = std::string(c.name) + popnn::pooling::asString(t);
      const HostPool h(p);
      const std::size_t inN = BATCH * CHANS * product(c.field), outN = BATCH * CHANS * product(h.outField);
      const auto hin = tied(inN, unsigned(t) + 1), hg = floats(outN, 3);
      const auto want = h.forward(hin);
      expectNear(f.read<float>(n + ".out", outN), want, (n + " forward").c_str());
      expectNear(f.read<float>(n + ".d", inN), h.backward(hin, want, hg, false), (n + " gradient").c_str());
      if (t == PoolingType::MAX)
        expectNear(f.read<float>(n + ".ds", inN), h.backward(hin, want, hg, true), (n + " scaled").c_str());
      else
        expectNear(f.read<float>(n + ".d2", inN), h.backward({}, {}, hg, false), (n + " gradient (2)").c_str());
    }
}

void test_view_input_many_tiles(void **) {
  NnFixture f(64);
  // The input is stored [batch, y, x, channels] and pooled through a dimShuffled view.
  const std::size_t B = 2, C = 5, Y = 9, X = 8;
  PoolParams p(PoolingType::MAX, {Y, X}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, C, B, FLOAT);
  Tensor stored = f.var(FLOAT, {B, Y, X, C}, "stored");
  Tensor in = stored.dimShuffle({0, 3, 1, 2});
  Tensor out = popnn::pooling::pool(f.graph, p, in, f.prog);
  f.readable(out, "out");
  f.readable(popnn::pooling::poolInputGradient(f.graph, p, in, out, out, false, f.prog), "d");
  f.build();
  const auto hs = floats(B * Y * X * C, 4);
  f.write("stored", hs);
  f.engine->run(0);
  std::vector<float> hin(hs.size());
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t y = 0; y < Y; ++y)
      for (std::size_t x = 0; x < X; ++x)
        for (std::size_t c = 0; c < C; ++c)
          hin[((b * C + c) * Y + y) * X + x] = hs[((b * Y + y) * X + x) * C + c];
  const HostPool h(p);
  const auto want = h.forward(hin);
  expectNear(f.read<float>("out", want.size()), want, "pool of a view");
  expectNear(f.read<float>("d", hin.size()), h.backward(hin, want, want, false), "gradient of a view");
}

void test_helpers(void **) {
  PoolParams p(PoolingType::AVG, {7, 6}, {3, 2}, {2, 1}, {1, 0}, {1, 1}, 3, 2, FLOAT);
  assert_true(p.getNumFieldDims() == 2);
  assert_true((popnn::pooling::getOutputFieldShape(p) == std::vector<std::size_t>{4, 6}));
  assert_true((p.getOutputFieldShape() == std::vector<std::size_t>{4, 6}));
  PoolParams small(PoolingType::SUM, {2}, {5}, {1}, {1}, {1}, 1, 1, FLOAT);
  assert_true((small.getOutputFieldShape() == std::vector<std::size_t>{0}));
  // No padding, 2x2 windows with stride 2 over 4x4: 4 outputs of 4 elements per plane.
  PoolParams plain(PoolingType::MAX, {4, 4}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 3, 2, FLOAT);
  assert_int_equal(popnn::pooling::getFwdFlops(plain), 6 * 16);
  assert_int_equal(popnn::pooling::getBwdFlops(plain), 2 * 6 * 16);
  plain.poolingType = PoolingType::AVG;
  assert_int_equal(popnn::pooling::getFwdFlops(plain), 6 * 16 + 6 * 4);
  NnFixture f(4);
  const double cycles = popnn::pooling::getFwdPerfectCycleCount(f.graph, plain);
  assert_true(cycles > 0 && cycles < double(popnn::pooling::getFwdFlops(plain)));
  assert_true(popnn::pooling::getBwdPerfectCycleCount(f.graph, plain) > 0);
  std::ostringstream s;
  s << plain;
  assert_true(s.str().find("avg pooling") != std::string::npos);
  assert_string_equal(popnn::pooling::asString(PoolingType::SUM), "sum");
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor in = f.var(FLOAT, {2, 3, 6, 6}, "in"), ini = f.var(INT, {2, 3, 6, 6}, "ini");
  Tensor g = f.var(FLOAT, {2, 3, 3, 3}, "g");
  const PoolParams good(PoolingType::MAX, {6, 6}, {2, 2}, {2, 2}, {0, 0}, {0, 0}, 3, 2, FLOAT);
  Sequence &s = f.prog;
  using poputil::poplibs_error;
  namespace pp = popnn::pooling;
  auto with = [&](auto change) {
    PoolParams p = good;
    change(p);
    return p;
  };
  expectThrow<poplibs_error>([&] { pp::pool(f.graph, with([](PoolParams &p) { p.stride = {2}; }), in, s); },
                             "stride 1");
  expectThrow<poplibs_error>([&] { pp::pool(f.graph, with([](PoolParams &p) { p.kernelShape = {0, 2}; }), in, s); },
                             "both must be at least 1");
  expectThrow<poplibs_error>(
      [&] { pp::pool(f.graph, with([](PoolParams &p) { p.inputTruncationOrPaddingLower = {-7, 0}; }), in, s); },
      "truncated by more than its size");
  expectThrow<poplibs_error>(
      [&] { pp::pool(f.graph, with([](PoolParams &p) { p.poolingType = PoolingType(9); }), in, s); },
      "unknown pooling type 9");
  expectThrow<poplibs_error>([&] { pp::pool(f.graph, with([](PoolParams &p) { p.dType = INT; }), ini, s); },
                             "only FLOAT");
  expectThrow<poplibs_error>([&] { pp::pool(f.graph, good, ini, s); }, "the input holds int");
  expectThrow<poplibs_error>([&] { pp::pool(f.graph, good, in.slice(0, 5, 3), s); }, "[batchSize, numChannels");
  expectThrow<poplar::invalid_option>([&] { pp::pool(f.graph, good, in, s, "", {{"poolMethod", "fast"}}); },
                                      "unknown option 'poolMethod'");
  expectThrow<poplar::invalid_option>(
      [&] { pp::pool(f.graph, good, in, s, "", {{"poolUseIntrospectiveMapping", "yes"}}); }, "use true or false");
  expectThrow<poplibs_error>([&] { pp::poolInputGradient(f.graph, good, 1, g, s); }, "takes in and pooled");
  const PoolParams sum = with([](PoolParams &p) { p.poolingType = PoolingType::SUM; });
  expectThrow<poplibs_error>([&] { pp::poolInputGradient(f.graph, sum, 2, g, s); }, "does not divide");
  expectThrow<poplibs_error>([&] { pp::poolInputGradient(f.graph, sum, 1, in, s); }, "pooledGradient has shape");
  expectThrow<poplibs_error>([&] { pp::poolInputGradient(f.graph, good, in, in, g, false, s); },
                             "pooled has shape");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_forward_and_backward),
                                     cmocka_unit_test(test_view_input_many_tiles), cmocka_unit_test(test_helpers),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
