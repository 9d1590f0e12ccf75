// poplin/MeshGrid.hpp on a 4-tile IPU Model: linspace's values (FLOAT and HALF, one value, a descending range),
// meshgrid2d's two grids copied out on the device, and the argument errors.
#include <poplin/MeshGrid.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

std::vector<float> hostLinspace(float l, float r, std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = n == 1 ? l : float(double(l) + double(i) * (double(r) - double(l)) / double(n - 1));
  return v;
}

// Copies a constant (or a view of one) into a new readable variable.
Tensor readableCopy(Fixture &f, const Tensor &t, const std::string &name) {
  Tensor c = f.graph.addVariable(t.elementType(), t.shape(), name);
  poputil::mapTensorLinearly(f.graph, c);
  f.prog.add(program::Copy(t, c));
  f.readable(c, name);
  return c;
}

void test_linspace(void **) {
  Fixture f(4);
  Tensor a = poplin::linspace(f.graph, FLOAT, -1.0f, 1.0f, 9, "a");
  Tensor b = poplin::linspace(f.graph, HALF, 3.0f, -2.0f, 11, "b");
  Tensor c = poplin::linspace(f.graph, FLOAT, 0.5f, 7.0f, 1);
  assert_true(a.shape() == std::vector<std::size_t>{9});
  assert_true(b.elementType() == HALF);
  readableCopy(f, a, "a");
  readableCopy(f, b, "b");
  readableCopy(f, c, "c");
  f.build();
  f.engine->run(0);
  expectNear(f.read<float>("a", 9), hostLinspace(-1, 1, 9), "linspace float");
  expectNear(f.readHalf("b", 11), f.rh(hostLinspace(3, -2, 11)), "linspace half", kHalfTol);
  expectNear(f.read<float>("c", 1), {0.5f}, "linspace one value");
}

void checkGrids(const Type &type) {
  Fixture f(4);
  const std::size_t nx = 5, ny = 3;
  Tensor x = f.var(type, {nx}, "x"), y = f.var(type, {ny}, "y");
  std::vector<Tensor> g = poplin::meshgrid2d(f.graph, x, y);
  assert_int_equal(g.size(), 2);
  assert_true(g[0].shape() == (std::vector<std::size_t>{ny, nx}));
  assert_true(g[1].shape() == (std::vector<std::size_t>{ny, nx}));
  readableCopy(f, g[0], "gx");
  readableCopy(f, g[1], "gy");
  f.build();
  std::vector<float> hx = floats(nx, 1), hy = floats(ny, 2), wx, wy;
  for (std::size_t i = 0; i < ny; ++i)
    for (std::size_t j = 0; j < nx; ++j) {
      wx.push_back(hx[j]);
      wy.push_back(hy[i]);
    }
  if (type == HALF) {
    f.writeHalf("x", hx);
    f.writeHalf("y", hy);
    f.engine->run(0);
    expectNear(f.readHalf("gx", nx * ny), wx, "meshgrid x (half)");
    expectNear(f.readHalf("gy", nx * ny), wy, "meshgrid y (half)");
  } else {
    f.write("x", hx);
    f.write("y", hy);
    f.engine->run(0);
    expectNear(f.read<float>("gx", nx * ny), wx, "meshgrid x");
    expectNear(f.read<float>("gy", nx * ny), wy, "meshgrid y");
  }
}

void test_meshgrid_float(void **) { checkGrids(FLOAT); }
void test_meshgrid_half(void **) { checkGrids(HALF); }

void test_errors(void **) {
  Fixture f(4);
  expectThrow<poputil::poplibs_error>([&] { poplin::linspace(f.graph, INT, 0, 1, 3); }, "not FLOAT or HALF");
  Tensor m = f.graph.addVariable(FLOAT, {2, 2}), v = f.graph.addVariable(FLOAT, {3}),
         h = f.graph.addVariable(HALF, {3});
  expectThrow<poputil::poplibs_error>([&] { poplin::meshgrid2d(f.graph, m, v); }, "rank 1");
  expectThrow<poputil::poplibs_error>([&] { poplin::meshgrid2d(f.graph, v, h); }, "one type");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_linspace),
      cmocka_unit_test(test_meshgrid_float),
      cmocka_unit_test(test_meshgrid_half),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
