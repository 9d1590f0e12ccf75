// popops::normaliseImage in FLOAT, HALF and UNSIGNED_CHAR (whose result is HALF) against a host reference, on an
// input from createNormaliseImageInput (whole pixels per tile, output pixels on the same tiles) and on a linearly
// mapped one; and the argument errors.
#include <popops/NormaliseImage.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

const std::vector<std::size_t> kShape = {2, 5, 3}; // 10 pixels
const std::size_t kPixels = 10;
const float kInScale = 0.5f;
const std::vector<float> kOff = {0.25f, -1.0f, 2.0f}, kScale = {1.5f, -0.5f, 2.0f};

std::vector<float> ref(const std::vector<float> &in, bool half, const Fixture &f) {
  std::vector<float> out;
  for (std::size_t p = 0; p < kPixels; ++p) {
    for (std::size_t c = 0; c < 3; ++c) {
      const float v = (in[p * 3 + c] * kInScale - kOff[c]) * kScale[c];
      out.push_back(half ? f.rh(v) : v);
    }
    out.push_back(0.0f);
  }
  return out;
}

void run(const Type &type, bool created) {
  Fixture f;
  const Type outType = type == FLOAT ? FLOAT : HALF;
  const bool half = outType == HALF;
  Tensor in = created ? popops::createNormaliseImageInput(f.graph, type, kShape) : f.graph.addVariable(type, kShape);
  if (!created)
    poputil::mapTensorLinearly(f.graph, in, 1, 1); // pixels split across tiles
  f.graph.createHostWrite("in", in);
  Tensor off = f.var(outType, {3}, "off"), sc = f.var(outType, {3}, "sc");
  Tensor out = popops::normaliseImage(f.graph, f.prog, in, kInScale, off, sc);
  assert_true(out.shape() == (std::vector<std::size_t>{2, 5, 4}));
  assert_true(out.elementType() == outType);
  if (created) { // each output pixel on its input pixel's tile
    Tensor in2 = in.reshape({kPixels, 3}), out2 = out.reshape({kPixels, 4});
    for (std::size_t p = 0; p < kPixels; ++p)
      assert_true(f.graph.getTileMapping(in2[p]) == f.graph.getTileMapping(out2[p].slice(0, 3)));
  }
  f.readable(out, "out");
  f.build();
  std::vector<float> x(kPixels * 3);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = type == UNSIGNED_CHAR ? float((i * 53) % 256) : float(int(i % 11) - 5) * 0.75f;
  if (type == UNSIGNED_CHAR)
    f.write("in", std::vector<unsigned char>(x.begin(), x.end()));
  else if (half)
    f.writeHalf("in", x);
  else
    f.write("in", x);
  if (half) {
    f.writeHalf("off", kOff);
    f.writeHalf("sc", kScale);
  } else {
    f.write("off", kOff);
    f.write("sc", kScale);
  }
  f.engine->run(0);
  std::vector<float> got = half ? f.readHalf("out", kPixels * 4) : f.read<float>("out", kPixels * 4);
  expectNear(got, ref(x, half, f), "normalised", half ? kHalfTol : 1e-6f);
}

void test_float(void **) { run(FLOAT, true); }
void test_half(void **) { run(HALF, true); }
void test_uchar(void **) { run(UNSIGNED_CHAR, true); }
void test_split_pixels(void **) { run(FLOAT, false); }

void test_errors(void **) {
  Fixture f(4);
  using E = poputil::poplibs_error;
  expectThrow<E>([&] { popops::createNormaliseImageInput(f.graph, INT, {2, 3}); }, "UNSIGNED_CHAR, HALF or FLOAT");
  expectThrow<E>([&] { popops::createNormaliseImageInput(f.graph, FLOAT, {2, 4}); }, "must be 3");
  Tensor in = popops::createNormaliseImageInput(f.graph, UNSIGNED_CHAR, {4, 3});
  Tensor offF = f.var(FLOAT, {3}, "offF"), offH = f.var(HALF, {3}, "offH");
  expectThrow<E>([&] { popops::normaliseImage(f.graph, f.prog, in, 1.0f, offF, offF); }, "of half");
  expectThrow<E>([&] { popops::normaliseImage(f.graph, f.prog, in, 1.0f, offH, f.var(HALF, {4}, "s4")); },
                 "shape {3}");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),  cmocka_unit_test(test_half),   cmocka_unit_test(test_uchar),
      cmocka_unit_test(test_split_pixels), cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
