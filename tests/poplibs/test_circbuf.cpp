// popops::CircBuf in FLOAT and HALF: adds inside a device loop that outlasts the buffer (so old entries are
// overwritten), then prev(i) for every age and the position against a host model; and the argument errors.
#include <popops/CircBuf.hpp>
#include <popops/ElementWise.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

const unsigned kSize = 3, kAdds = 5;

void run(const Type &type) {
  Fixture f;
  const bool half = type == HALF;
  const std::vector<std::size_t> shape = {2, 3};
  popops::CircBuf cb(f.graph, type, kSize, shape);
  assert_int_equal(cb.size(), kSize);
  Tensor x = f.var(type, shape, "x");
  // Each iteration adds x, then x += 1: entry k holds x0 + k.
  Sequence body;
  cb.add(x, body);
  popops::mapInPlace(f.graph, popops::expr::_1 + 1.0f, {x}, body);
  f.prog.add(Repeat(kAdds, body));
  std::vector<Tensor> olds;
  for (unsigned i = 0; i < kSize; ++i) {
    olds.push_back(cb.prev(i, f.prog));
    assert_true(olds.back().shape() == shape);
    f.readable(olds.back(), "prev" + std::to_string(i));
  }
  f.readable(cb.getIndex(), "index");
  assert_false(cb.getTileMapping().empty());
  f.build();
  const std::vector<float> x0 = floats(6, 1);
  if (half)
    f.writeHalf("x", x0);
  else
    f.write("x", x0);
  f.engine->run(0);
  for (unsigned i = 0; i < kSize; ++i) {
    std::vector<float> want(x0);
    for (float &v : want)
      v += float(kAdds - 1 - i);
    const std::string h = "prev" + std::to_string(i);
    expectNear(half ? f.readHalf(h, 6) : f.read<float>(h, 6), half ? f.rh(want) : want, h.c_str());
  }
  expectEqual(f.read<unsigned>("index", 1), std::vector<unsigned>{kAdds % kSize}, "index");
}

void test_float(void **) { run(FLOAT); }
void test_half(void **) { run(HALF); }

void test_errors(void **) {
  Fixture f(4);
  using E = poputil::poplibs_error;
  expectThrow<E>([&] { popops::CircBuf(f.graph, FLOAT, 0, {2}); }, "at least one entry");
  popops::CircBuf cb(f.graph, FLOAT, 2, {2});
  expectThrow<E>([&] { cb.prev(2, f.prog); }, "below the size");
  expectThrow<E>([&] { cb.add(f.var(FLOAT, {3}, "t3"), f.prog); }, "must hold 2");
  expectThrow<E>([&] { cb.add(f.var(INT, {2}, "i2"), f.prog); }, "must hold 2");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
