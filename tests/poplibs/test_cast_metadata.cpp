// popops::castWithOutput (FLOAT to HALF and back, INT to FLOAT, on an ipu2-shaped IPU Model and a one-tile one,
// against the host's conversion) and poputil/TensorMetaData.hpp (an empty handle copied and moved).
#include <popops/Cast.hpp>
#include <poputil/TensorMetaData.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

void checkCast(unsigned tiles) {
  Fixture f(tiles);
  const std::size_t n = 30;
  Tensor x = f.var(FLOAT, {n}, "x"), h = f.var(HALF, {n}, "h"), back = f.var(FLOAT, {n}, "back");
  Tensor i = f.var(INT, {n}, "i"), fi = f.var(FLOAT, {n}, "fi");
  popops::castWithOutput(f.graph, x, h, f.prog, "toHalf");
  popops::castWithOutput(f.graph, h, back, f.prog);
  popops::castWithOutput(f.graph, i, fi, f.prog);
  f.build();
  std::vector<float> v = floats(n, 9);
  for (std::size_t k = 0; k < n; ++k)
    v[k] = v[k] / 3.0f; // not exact in half
  const std::vector<int> iv = ints(n, 2);
  f.write("x", v);
  f.write("i", iv);
  f.engine->run(0);
  expectNear(f.readHalf("h.r", n), f.rh(v), "castWithOutput FLOAT to HALF", 0);
  expectNear(f.read<float>("back.r", n), f.rh(v), "castWithOutput HALF to FLOAT", 0);
  std::vector<float> want(iv.begin(), iv.end());
  expectNear(f.read<float>("fi.r", n), want, "castWithOutput INT to FLOAT", 0);
}

void test_cast_with_output_ipu2(void **) { checkCast(1472); }
void test_cast_with_output_tiny(void **) { checkCast(1); }

void test_tensor_metadata(void **) {
  poputil::TensorMetaData empty;
  assert_null(empty.getData());
  poputil::TensorMetaData copy(empty), moved(std::move(copy));
  assert_null(moved.getData());
  copy = moved;
  moved = std::move(copy);
  assert_null(moved.getData());
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cast_with_output_ipu2),
      cmocka_unit_test(test_cast_with_output_tiny),
      cmocka_unit_test(test_tensor_metadata),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
