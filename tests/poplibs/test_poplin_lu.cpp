// poplin/experimental/LuFactorization.hpp on a 16-tile IPU Model: L and U against a host Doolittle factorization
// in double for square, wide and tall matrices, FLOAT and HALF; the input left unchanged; the errors.
#include <poplin/codelets.hpp>
#include <poplin/experimental/LuFactorization.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

// A = L U without pivoting: L unit lower [m, m], U upper [m, n].
void hostLu(const std::vector<float> &a, std::size_t m, std::size_t n, std::vector<float> &l, std::vector<float> &u) {
  std::vector<double> w(a.begin(), a.end()), ld(m * m, 0.0);
  for (std::size_t i = 0; i < m; ++i)
    ld[i * m + i] = 1.0;
  for (std::size_t k = 0; k + 1 < m && k < n; ++k)
    for (std::size_t i = k + 1; i < m; ++i) {
      const double f = w[i * n + k] / w[k * n + k];
      ld[i * m + k] = f;
      for (std::size_t j = k; j < n; ++j)
        w[i * n + j] = j == k ? 0.0 : w[i * n + j] - f * w[k * n + j];
    }
  l.assign(ld.begin(), ld.end());
  u.assign(w.begin(), w.end());
}

// Diagonally dominant test matrices (pivots near 4), so that no pivot comes near zero.
std::vector<float> matrix(std::size_t m, std::size_t n) {
  std::vector<float> a = floats(m * n, 3);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a[i * n + j] = a[i * n + j] * 0.25f + (i == j ? 4.0f : 0.0f);
  return a;
}

void check(const Type &type, std::size_t m, std::size_t n, float tol) {
  Fixture f(16);
  poplin::addCodelets(f.graph);
  Tensor a = f.var(type, {m, n}, "a");
  auto lu = poplin::experimental::LUFactorization(f.graph, a, f.prog, "lu");
  assert_true(lu.first.shape() == (std::vector<std::size_t>{m, m}));
  assert_true(lu.second.shape() == (std::vector<std::size_t>{m, n}));
  assert_true(lu.first.elementType() == type && lu.second.elementType() == type);
  f.readable(lu.first, "l");
  f.readable(lu.second, "u");
  f.build();
  std::vector<float> in = matrix(m, n);
  if (type == HALF) {
    in = f.rh(in);
    f.writeHalf("a", in);
  } else {
    f.write("a", in);
  }
  f.engine->run(0);
  std::vector<float> l, u;
  hostLu(in, m, n, l, u);
  auto get = [&](const char *h, std::size_t k) { return type == HALF ? f.readHalf(h, k) : f.read<float>(h, k); };
  expectNear(get("l", m * m), l, "L", tol);
  expectNear(get("u", m * n), u, "U", tol);
  expectNear(get("a.r", m * n), in, "input unchanged", 0.0f);
}

// FLOAT: a few multiply-adds per entry; 1e-5 covers float rounding.
void test_square_float(void **) { check(FLOAT, 6, 6, 1e-5f); }
void test_wide_float(void **) { check(FLOAT, 3, 7, 1e-5f); }
void test_tall_float(void **) { check(FLOAT, 7, 3, 1e-5f); }
// HALF: every update rounded to half (about 5e-4 relative on entries near 4); 2e-2 absolute over 5 eliminations.
void test_square_half(void **) { check(HALF, 6, 6, 2e-2f); }
void test_one_row(void **) { check(FLOAT, 1, 4, 0.0f); }

void test_errors(void **) {
  Fixture f(4);
  Tensor v = f.graph.addVariable(FLOAT, {4}, "v");
  expectThrow<poputil::poplibs_error>([&] { poplin::experimental::LUFactorization(f.graph, v, f.prog); },
                                      "non-empty FLOAT or HALF matrix");
  Tensor i = f.graph.addVariable(INT, {2, 2}, "i");
  expectThrow<poputil::poplibs_error>([&] { poplin::experimental::LUFactorization(f.graph, i, f.prog); }, "int");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_square_float), cmocka_unit_test(test_wide_float), cmocka_unit_test(test_tall_float),
      cmocka_unit_test(test_square_half),  cmocka_unit_test(test_one_row),    cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
