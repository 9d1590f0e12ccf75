// popops::pad (constant float/int/tensor values, EDGE and REFLECT, negative padding, mapping methods),
// encodeOneHot (default and on/off values, out-of-range and masked indices) and iota, against host references;
// and their argument errors.
#include <algorithm>

#include <popops/Encoding.hpp>
#include <popops/Pad.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popops::padding::MappingMethod;
using PadType = popops::padding::Type;

namespace {

// numpy.pad of a rows x cols matrix after cutting the negative paddings off: lo/hi per dimension, `mode` 0 constant
// v, 1 edge, 2 reflect.
std::vector<float> refPad(const std::vector<float> &h0, std::size_t rows, std::size_t cols, std::ptrdiff_t lo0,
                          std::ptrdiff_t hi0, std::ptrdiff_t lo1, std::ptrdiff_t hi1, int mode, float v) {
  const std::ptrdiff_t r0 = lo0 < 0 ? -lo0 : 0, c0 = lo1 < 0 ? -lo1 : 0;
  const std::ptrdiff_t R = std::ptrdiff_t(rows) - r0 - (hi0 < 0 ? -hi0 : 0);
  const std::ptrdiff_t C = std::ptrdiff_t(cols) - c0 - (hi1 < 0 ? -hi1 : 0);
  auto pick = [&](std::ptrdiff_t i, std::ptrdiff_t n) {
    if (mode == 1)
      return std::min(std::max(i, std::ptrdiff_t(0)), n - 1);
    if (mode == 2)
      return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
    return i;
  };
  std::vector<float> out;
  for (std::ptrdiff_t r = -std::max<std::ptrdiff_t>(lo0, 0); r < R + std::max<std::ptrdiff_t>(hi0, 0); ++r)
    for (std::ptrdiff_t c = -std::max<std::ptrdiff_t>(lo1, 0); c < C + std::max<std::ptrdiff_t>(hi1, 0); ++c) {
      const bool inside = r >= 0 && r < R && c >= 0 && c < C;
      const std::ptrdiff_t rr = pick(r, R) + r0, cc = pick(c, C) + c0;
      out.push_back(mode == 0 && !inside ? v : h0[std::size_t(rr * std::ptrdiff_t(cols) + cc)]);
    }
  return out;
}

void test_pad(void **) {
  Fixture f;
  const std::size_t R = 5, C = 7;
  Tensor t = f.var(FLOAT, {R, C}, "t");
  Tensor k = f.var(INT, {R, C}, "k");
  Tensor val = f.var(FLOAT, {1}, "val");
  Tensor c1 = popops::pad(f.graph, t, {1, -2}, {2, 3}, 1.5f);
  Tensor c2 = popops::pad(f.graph, k, {0, 2}, {-1, 1}, 7, MappingMethod::EDGE);
  Tensor c3 = popops::pad(f.graph, t, 2, 1, 1, val);
  Tensor e = popops::pad(t, {2, 3}, {1, 2}, PadType::EDGE);
  Tensor r = popops::pad(t, {3, 5}, {-1, -1}, PadType::REFLECT);
  Tensor e1 = popops::pad(t, -1, 3, 0, PadType::EDGE);
  assert_true(c1.shape() == (std::vector<std::size_t>{8, 8}));
  for (auto &[x, n] : std::vector<std::pair<Tensor, const char *> >{
           {c1, "c1"}, {c2, "c2"}, {c3, "c3"}, {e, "e"}, {r, "r"}, {e1, "e1"}})
    f.readable(x, n);
  // The EDGE-mapped constant padding lives on the tiles of the edge elements it neighbours.
  auto padMap = f.graph.getTileMapping(c2.slice(0, 4, 0).slice(0, 1, 1));
  auto edgeMap = f.graph.getTileMapping(k.slice(0, 4, 0).slice(0, 1, 1));
  assert_true(padMap == edgeMap);
  f.build();
  auto h = floats(R * C, 3);
  auto hk = ints(R * C, 4);
  f.write("t", h);
  f.write("k", hk);
  f.write("val", std::vector<float>{-3.0f});
  f.engine->run(0);
  expectNear(f.read<float>("c1", 64), refPad(h, R, C, 1, 2, -2, 3, 0, 1.5f), "c1");
  std::vector<float> hkf(hk.begin(), hk.end());
  auto wk = refPad(hkf, R, C, 0, -1, 2, 1, 0, 7.0f);
  expectEqual(f.read<int>("c2", wk.size()), std::vector<int>(wk.begin(), wk.end()), "c2");
  expectNear(f.read<float>("c3", R * 10), refPad(h, R, C, 0, 0, 2, 1, 0, -3.0f), "c3");
  expectNear(f.read<float>("e", 8 * 12), refPad(h, R, C, 2, 1, 3, 2, 1, 0), "e");
  expectNear(f.read<float>("r", 7 * 11), refPad(h, R, C, 3, -1, 5, -1, 2, 0), "r");
  expectNear(f.read<float>("e1", 7 * C), refPad(h, R, C, -1, 3, 0, 0, 1, 0), "e1");
}

void test_one_hot_and_iota(void **) {
  Fixture f;
  const std::size_t n = 9, classes = 6;
  Tensor idx = f.var(UNSIGNED_INT, {n}, "idx"), sidx = f.var(INT, {n}, "sidx");
  Tensor enc = f.var(FLOAT, {n, classes}, "enc"), encI = f.var(INT, {n, classes}, "encI");
  Tensor on = f.var(INT, {1}, "on"), off = f.var(INT, {1}, "off");
  popops::encodeOneHot(f.graph, idx, enc, f.prog);
  popops::encodeOneHot(f.graph, sidx, encI, f.prog, on, off);
  Tensor u = f.var(UNSIGNED_INT, {13}, "u"), s = f.var(INT, {11}, "s");
  popops::iota(f.graph, u, 5u, f.prog);
  popops::iota(f.graph, s, -4, f.prog);
  f.build();
  const std::vector<unsigned> hi = {0, 5, 3, 6, MASKED_LABEL_CODE, 2, 2, 1, 100};
  const std::vector<int> hs = {1, -1, 5, 0, 4, 6, 3, 3, 2};
  f.write("idx", hi);
  f.write("sidx", hs);
  f.write("on", std::vector<int>{9});
  f.write("off", std::vector<int>{-2});
  f.engine->run(0);
  std::vector<float> we;
  std::vector<int> wi;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t c = 0; c < classes; ++c) {
      we.push_back(hi[i] == c ? 1.0f : 0.0f);
      wi.push_back(hs[i] >= 0 && std::size_t(hs[i]) == c ? 9 : -2);
    }
  expectNear(f.read<float>("enc.r", n * classes), we, "enc");
  expectEqual(f.read<int>("encI.r", n * classes), wi, "encI");
  std::vector<unsigned> wu(13);
  std::vector<int> ws(11);
  for (std::size_t i = 0; i < 13; ++i)
    wu[i] = unsigned(5 + i);
  for (std::size_t i = 0; i < 11; ++i)
    ws[i] = int(i) - 4;
  expectEqual(f.read<unsigned>("u.r", 13), wu, "iota unsigned");
  expectEqual(f.read<int>("s.r", 11), ws, "iota int");
}

void test_errors(void **) {
  Fixture f(4);
  Tensor t = f.var(FLOAT, {3, 4}, "t"), idx = f.var(FLOAT, {3}, "idx"), uidx = f.var(UNSIGNED_INT, {3}, "uidx");
  using E = poputil::poplibs_error;
  const std::vector<std::ptrdiff_t> one = {1};
  expectThrow<E>([&] { popops::pad(f.graph, t, one, one, 0.0f); }, "one of each per dimension");
  expectThrow<E>([&] { popops::pad(f.graph, t, -3, -2, 0, 0.0f); }, "remove at most");
  expectThrow<E>([&] { popops::pad(t, 3, 0, 0, PadType::REFLECT); }, "smaller than the dimension");
  expectThrow<E>([&] { popops::pad(f.graph, t, 1, 1, 0, f.var(INT, {1}, "iv")); }, "one-element float");
  expectThrow<E>([&] { popops::pad(t, 1, 1, 2, PadType::EDGE); }, "out of range");
  expectThrow<E>([&] { popops::encodeOneHot(f.graph, idx, t, f.prog); }, "UNSIGNED_INT or INT");
  expectThrow<E>([&] { popops::encodeOneHot(f.graph, uidx, t.flatten(), f.prog); }, "rank 1");
  expectThrow<E>([&] { popops::encodeOneHot(f.graph, f.var(UNSIGNED_INT, {2}, "u2"), t, f.prog); }, "one row per");
  expectThrow<E>([&] { popops::iota(f.graph, uidx, 1, f.prog); }, "this form fills int");
  expectThrow<E>([&] { popops::iota(f.graph, t, 1u, f.prog); }, "rank 2");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pad),
      cmocka_unit_test(test_one_hot_and_iota),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
