// poplin/experimental/QRFactorization.hpp on a 16-tile IPU Model: R and Q against a host Householder QR in double
// (same sign convention, so the factors are unique) for tall and square matrices, FLOAT and HALF; Q starting from
// a matrix other than the identity is multiplied on the right; the created matrices; the errors.
#include <cmath>

#include <poplar/exceptions.hpp>
#include <poplin/codelets.hpp>
#include <poplin/experimental/QRFactorization.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
namespace ex = poplin::experimental;

namespace {

// Householder QR of a [m, n] with alpha = -sign(x0) ||x||; q0 [m, m] is multiplied on the right by the reflections.
void hostQr(std::vector<double> &a, std::vector<double> &q, std::size_t m, std::size_t n) {
  for (std::size_t k = 0; k + 1 < m && k < n; ++k) {
    double norm2 = 0;
    for (std::size_t i = k; i < m; ++i)
      norm2 += a[i * n + k] * a[i * n + k];
    const double alpha = a[k * n + k] >= 0 ? -std::sqrt(norm2) : std::sqrt(norm2);
    std::vector<double> v(m - k);
    double vv = 0;
    for (std::size_t i = k; i < m; ++i) {
      v[i - k] = a[i * n + k] - (i == k ? alpha : 0.0);
      vv += v[i - k] * v[i - k];
    }
    const double beta = vv > 0 ? 2.0 / vv : 0.0;
    for (std::size_t j = k; j < n; ++j) {
      double w = 0;
      for (std::size_t i = k; i < m; ++i)
        w += v[i - k] * a[i * n + j];
      for (std::size_t i = k; i < m; ++i)
        a[i * n + j] -= beta * v[i - k] * w;
    }
    for (std::size_t i = 0; i < m; ++i) {
      double z = 0;
      for (std::size_t j = k; j < m; ++j)
        z += q[i * m + j] * v[j - k];
      for (std::size_t j = k; j < m; ++j)
        q[i * m + j] -= beta * z * v[j - k];
    }
    for (std::size_t i = k + 1; i < m; ++i)
      a[i * n + k] = 0;
  }
}

void check(const Type &type, std::size_t m, std::size_t n, bool identity, float tol) {
  Fixture f(16);
  poplin::addCodelets(f.graph);
  std::array<Tensor, 2> mats = ex::createQRFactorizationMatrices(f.graph, type, m, n, "qr");
  assert_true(mats[0].shape() == (std::vector<std::size_t>{m, n}));
  assert_true(mats[1].shape() == (std::vector<std::size_t>{m, m}));
  f.graph.createHostWrite("a", mats[0]);
  f.graph.createHostWrite("q", mats[1]);
  ex::QRFactorization(f.graph, mats[0], mats[1], f.prog, "qr", {{"rowsPerIteration", "8"}});
  f.readable(mats[0], "r");
  f.readable(mats[1], "q.r");
  f.build();
  // A full-rank matrix (a dominant diagonal of 4): with a rank-deficient one the last reflections would act on
  // rounding noise and Q would not be unique.
  std::vector<float> a = floats(m * n, 4), q(m * m);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j)
      a[i * n + j] = a[i * n + j] * 0.25f + (i == j ? 4.0f : 0.0f);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < m; ++j)
      q[i * m + j] = i == j ? 1.0f : (identity ? 0.0f : 0.125f * float((i + 2 * j) % 5));
  if (type == HALF) {
    a = f.rh(a);
    q = f.rh(q);
    f.writeHalf("a", a);
    f.writeHalf("q", q);
  } else {
    f.write("a", a);
    f.write("q", q);
  }
  f.engine->run(0);
  std::vector<double> ad(a.begin(), a.end()), qd(q.begin(), q.end());
  hostQr(ad, qd, m, n);
  auto get = [&](const char *h, std::size_t k) { return type == HALF ? f.readHalf(h, k) : f.read<float>(h, k); };
  expectNear(get("r", m * n), std::vector<float>(ad.begin(), ad.end()), "R", tol);
  expectNear(get("q.r", m * m), std::vector<float>(qd.begin(), qd.end()), "Q", tol);
}

// FLOAT: entries up to about 5 through a few reflections; 1e-4 absolute covers float rounding.
void test_tall_float(void **) { check(FLOAT, 8, 4, true, 1e-4f); }
void test_square_float(void **) { check(FLOAT, 6, 6, true, 1e-4f); }
void test_q_not_identity(void **) { check(FLOAT, 5, 3, false, 1e-4f); }
// HALF: each update rounded to half (about 2e-3 on entries near 4); 5e-2 absolute over 3 reflections.
void test_half(void **) { check(HALF, 5, 3, true, 5e-2f); }

void test_errors(void **) {
  Fixture f(4);
  expectThrow<poputil::poplibs_error>([&] { ex::createQRFactorizationMatrices(f.graph, INT, 2, 2, {}); }, "FLOAT");
  std::array<Tensor, 2> mats = ex::createQRFactorizationMatrices(f.graph, FLOAT, 4, 3, {});
  Tensor wrongQ = mats[1].slice(0, 3, 1);
  expectThrow<poputil::poplibs_error>([&] { ex::QRFactorization(f.graph, mats[0], wrongQ, f.prog); }, "pass float");
  expectThrow<poplar::invalid_option>(
      [&] { ex::QRFactorization(f.graph, mats[0], mats[1], f.prog, {}, {{"rowsPerIteration", "0"}}); },
      "positive integer");
  expectThrow<poplar::invalid_option>(
      [&] { ex::QRFactorization(f.graph, mats[0], mats[1], f.prog, {}, {{"bogus", "1"}}); }, "bogus");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tall_float), cmocka_unit_test(test_square_float), cmocka_unit_test(test_q_not_identity),
      cmocka_unit_test(test_half),       cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
