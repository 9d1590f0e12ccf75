// popops::sequenceSlice in FLOAT, HALF and INT against a host reference: runs copied between rank-3 and rank-2
// tensors, a zero-length entry, runs cut at the end of the input and of the output, unused rows zeroed or kept
// (a NaN in a kept row stays NaN and does not spread); and the argument errors.
#include <limits>

#include <popops/SequenceSlice.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

const std::size_t kIn = 6, kOut = 8, kRow = 4;
const std::vector<unsigned> kN = {2, 2, 0, 3, 5}, kInOff = {1, 5, 0, 0, 3}, kOutOff = {0, 2, 3, 4, 7};

std::vector<float> ref(const std::vector<float> &in, std::vector<float> out, bool zeroUnused) {
  std::vector<bool> written(kOut, false);
  for (std::size_t k = 0; k < kN.size(); ++k)
    for (unsigned j = 0; j < kN[k]; ++j) {
      const unsigned s = kInOff[k] + j, d = kOutOff[k] + j;
      if (s >= kIn || d >= kOut)
        continue;
      written[d] = true;
      for (std::size_t e = 0; e < kRow; ++e)
        out[d * kRow + e] = in[s * kRow + e];
    }
  for (std::size_t d = 0; d < kOut; ++d)
    if (!written[d] && zeroUnused)
      for (std::size_t e = 0; e < kRow; ++e)
        out[d * kRow + e] = 0.0f;
  return out;
}

void expectSame(const std::vector<float> &got, const std::vector<float> &want, const char *what) {
  assert_int_equal(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::isnan(want[i]) ? !std::isnan(got[i]) : got[i] != want[i]) {
      print_error("%s[%zu]: got %g, want %g\n", what, i, double(got[i]), double(want[i]));
      fail();
    }
}

void run(const Type &type) {
  Fixture f;
  Tensor in = f.var(type, {kIn, 2, 2}, "in");
  Tensor z = f.var(type, {kOut, kRow}, "z"), k = f.var(type, {kOut, kRow}, "k");
  Tensor n = f.var(UNSIGNED_INT, {kN.size()}, "n"), io = f.var(UNSIGNED_INT, {kN.size()}, "io");
  Tensor oo = f.var(INT, {kN.size()}, "oo");
  popops::sequenceSlice(f.graph, in, z, n, io, oo, true, f.prog);
  popops::sequenceSlice(f.graph, in, k, n, io, oo, false, f.prog);
  f.build();
  std::vector<float> x = floats(kIn * kRow, 2), old = floats(kOut * kRow, 5);
  if (type != INT)
    old[3 * kRow + 1] = std::numeric_limits<float>::quiet_NaN(); // row 3 is unused
  auto put = [&](const char *h, const std::vector<float> &v) {
    if (type == HALF)
      f.writeHalf(h, v);
    else if (type == INT)
      f.write(h, std::vector<int>(v.begin(), v.end()));
    else
      f.write(h, v);
  };
  auto get = [&](const char *h) {
    if (type == HALF)
      return f.readHalf(h, kOut * kRow);
    if (type == INT) {
      std::vector<int> v = f.read<int>(h, kOut * kRow);
      return std::vector<float>(v.begin(), v.end());
    }
    return f.read<float>(h, kOut * kRow);
  };
  if (type == HALF) {
    x = f.rh(x);
    old = f.rh(old);
  } else if (type == INT) {
    for (float &v : x)
      v = float(int(v * 4));
    for (float &v : old)
      v = float(int(v * 4));
  }
  put("in", x);
  put("z", old);
  put("k", old);
  f.write("n", kN);
  f.write("io", kInOff);
  f.write("oo", std::vector<int>(kOutOff.begin(), kOutOff.end()));
  f.engine->run(0);
  expectSame(get("z.r"), ref(x, old, true), "zeroUnused");
  expectSame(get("k.r"), ref(x, old, false), "keep");
}

void test_float(void **) { run(FLOAT); }
void test_half(void **) { run(HALF); }
void test_int(void **) { run(INT); }

void test_errors(void **) {
  Fixture f(4);
  using E = poputil::poplibs_error;
  Tensor in = f.var(FLOAT, {4, 3}, "in"), out = f.var(FLOAT, {5, 3}, "out"), i = f.var(UNSIGNED_INT, {2}, "i");
  expectThrow<E>([&] { popops::sequenceSlice(f.graph, in, f.var(FLOAT, {5, 2}, "o2"), i, i, i, true, f.prog); },
                 "same elements per outer row");
  expectThrow<E>([&] { popops::sequenceSlice(f.graph, in, f.var(INT, {5, 3}, "oi"), i, i, i, true, f.prog); },
                 "one element type");
  expectThrow<E>([&] { popops::sequenceSlice(f.graph, in, out, i, f.var(UNSIGNED_INT, {3}, "i3"), i, true, f.prog); },
                 "of one size");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_int),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
