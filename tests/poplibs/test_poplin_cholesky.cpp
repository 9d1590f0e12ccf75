// poplin/Cholesky.hpp on a 16-tile IPU Model: cholesky against a host factorization, lower and upper, one block
// and several (so that the trailing products run), batched, FLOAT and HALF; choleskyInPlace; createCholeskyInput;
// the preplanning parameters (the factorization then plans nothing); the errors.
#include <cmath>

#include <poplar/exceptions.hpp>
#include <poplin/Cholesky.hpp>
#include <poplin/ConvPreplan.hpp>
#include <poplin/codelets.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

struct CholFixture : Fixture {
  CholFixture() : Fixture(16) { poplin::addCodelets(graph); }
};

// G symmetric positive definite n x n matrices: M M^T / n + I with M's entries in [-1, 1].
std::vector<float> spd(std::size_t G, std::size_t n) {
  std::vector<float> m = floats(G * n * n, 8), a(G * n * n);
  for (float &v : m)
    v *= 0.25f;
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double s = i == j ? 1.0 : 0.0;
        for (std::size_t l = 0; l < n; ++l)
          s += double(m[(g * n + i) * n + l]) * m[(g * n + j) * n + l] / double(n);
        a[(g * n + i) * n + j] = float(s);
      }
  return a;
}

// The lower factor L (A = L L^T) in double, or its transpose for `upper`.
std::vector<float> hostCholesky(const std::vector<float> &a, std::size_t G, std::size_t n, bool upper) {
  std::vector<float> out(a.size(), 0.0f);
  for (std::size_t g = 0; g < G; ++g) {
    std::vector<double> l(n * n, 0.0);
    for (std::size_t j = 0; j < n; ++j) {
      double d = a[(g * n + j) * n + j];
      for (std::size_t k = 0; k < j; ++k)
        d -= l[j * n + k] * l[j * n + k];
      l[j * n + j] = std::sqrt(d);
      for (std::size_t i = j + 1; i < n; ++i) {
        double s = a[(g * n + i) * n + j];
        for (std::size_t k = 0; k < j; ++k)
          s -= l[i * n + k] * l[j * n + k];
        l[i * n + j] = s / l[j * n + j];
      }
    }
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j)
        out[(g * n + i) * n + j] = float(upper ? l[j * n + i] : l[i * n + j]);
  }
  return out;
}

void check(const Type &type, bool lower, std::size_t blockSize, std::size_t n, float tol) {
  CholFixture f;
  const std::size_t G = 2;
  Tensor a = f.var(type, {G, n, n}, "a");
  Tensor l = poplin::cholesky(f.graph, a, lower, blockSize, f.prog, "chol");
  assert_true(l.shape() == a.shape());
  f.readable(l, "l");
  f.build();
  std::vector<float> va = spd(G, n);
  std::vector<float> want = hostCholesky(va, G, n, !lower);
  if (type == HALF) {
    f.writeHalf("a", va);
    f.engine->run(0);
    // The factor of the matrix as half holds it.
    expectNear(f.readHalf("l", va.size()), f.rh(hostCholesky(f.rh(va), G, n, !lower)), "cholesky half", tol);
  } else {
    f.write("a", va);
    f.engine->run(0);
    expectNear(f.read<float>("l", va.size()), want, "cholesky", tol);
  }
}

void test_one_block(void **) {
  check(FLOAT, true, 0, 9, 1e-5f);
  check(FLOAT, false, 0, 9, 1e-5f);
}
void test_blocks(void **) {
  check(FLOAT, true, 4, 9, 1e-5f);
  check(FLOAT, false, 3, 9, 1e-5f);
}
// HALF: every step rounds to half: a few units in the last place over 6 columns.
void test_half(void **) { check(HALF, true, 2, 6, 1e-2f); }

void test_in_place_and_input(void **) {
  CholFixture f;
  const std::size_t n = 5;
  Tensor a = poplin::createCholeskyInput(f.graph, FLOAT, {n, n}, true, 2, "a");
  assert_true(a.shape() == (std::vector<std::size_t>{n, n}));
  f.graph.createHostWrite("a", a);
  f.graph.createHostRead("a.r", a);
  poplin::choleskyInPlace(f.graph, a, true, 2, f.prog, "chol");
  f.build();
  std::vector<float> va = spd(1, n);
  f.write("a", va);
  f.engine->run(0);
  expectNear(f.read<float>("a.r", n * n), hostCholesky(va, 1, n, false), "choleskyInPlace", 1e-5f);
}

void test_preplan(void **) {
  CholFixture f;
  const std::vector<std::size_t> shape = {3, 10, 10};
  auto plans = poplin::getCholeskyMatMulPrePlanParameters(FLOAT, shape, true, 4, {});
  assert_int_equal(plans.size(), 2); // the blocks [0,4) and [4,8) update a trailing matrix
  assert_true(plans[0].first.aShape == (std::vector<std::size_t>{3, 6, 4}));
  assert_true(plans[0].first.bShape == (std::vector<std::size_t>{3, 4, 6}));
  const Target &t = f.graph.getTarget();
  std::set<poplin::MatMulPlanParams> set;
  for (const auto &p : plans)
    set.insert(std::make_tuple(&t, p.first, &p.second));
  poplin::matmul::PlanningCache cache;
  poplin::preplanMatMuls(set, cache);
  assert_int_equal(cache.size(), 2);
  Tensor a = f.var(FLOAT, shape, "a");
  Tensor l = poplin::cholesky(f.graph, a, true, 4, f.prog, "chol", {}, &cache);
  assert_int_equal(cache.size(), 2);
  f.readable(l, "l");
  f.build();
  std::vector<float> va = spd(3, 10);
  f.write("a", va);
  f.engine->run(0);
  expectNear(f.read<float>("l", va.size()), hostCholesky(va, 3, 10, false), "preplanned cholesky", 1e-5f);
}

// Graphcore's current forms: the block size from the "blockSize" option, and createCholeskyInput without it.
void test_block_size_option(void **) {
  CholFixture f;
  const std::vector<std::size_t> shape = {2, 9, 9};
  const poplar::OptionFlags options{{"blockSize", "4"}};
  auto plans = poplin::getCholeskyMatMulPrePlanParameters(FLOAT, shape, false, options);
  assert_int_equal(plans.size(), 2); // blocks [0,4) and [4,8) leave a trailing matrix
  // Planned ahead into poplin's PlanningCache (the form Graphcore's API takes): cholesky plans nothing more.
  const Target &t = f.graph.getTarget();
  std::set<poplin::MatMulPlanParams> set;
  for (const auto &p : plans)
    set.insert(std::make_tuple(&t, p.first, &p.second));
  poplin::PlanningCache cache;
  poplin::preplan({}, set, cache);
  assert_int_equal(cache.size(), 2);
  Tensor a = poplin::createCholeskyInput(f.graph, FLOAT, shape, false, "a", options, &cache);
  f.graph.createHostWrite("a", a);
  Tensor u = poplin::cholesky(f.graph, a, false, f.prog, "chol", options, &cache);
  assert_int_equal(cache.size(), 2);
  f.readable(u, "u");
  Tensor b = f.var(FLOAT, shape, "b");
  poplin::choleskyInPlace(f.graph, b, true, f.prog, "cholInPlace", options);
  f.build();
  std::vector<float> va = spd(2, 9);
  f.write("a", va);
  f.write("b", va);
  f.engine->run(0);
  expectNear(f.read<float>("u", va.size()), hostCholesky(va, 2, 9, true), "cholesky (option form, upper)", 1e-5f);
  expectNear(f.read<float>("b.r", va.size()), hostCholesky(va, 2, 9, false), "choleskyInPlace (option form)",
             1e-5f);
  expectThrow<poplar::invalid_option>([&] { poplin::cholesky(f.graph, a, true, f.prog, "x", {{"blockSize", "0"}}); },
                                      "blockSize");
}

void test_errors(void **) {
  CholFixture f;
  Tensor r = f.graph.addVariable(FLOAT, {3, 4}), i = f.graph.addVariable(INT, {3, 3});
  expectThrow<poputil::poplibs_error>([&] { poplin::cholesky(f.graph, r, true, 0, f.prog); }, "square");
  expectThrow<poputil::poplibs_error>([&] { poplin::cholesky(f.graph, i, true, 0, f.prog); }, "FLOAT or HALF");
  expectThrow<poputil::poplibs_error>([&] { poplin::createCholeskyInput(f.graph, FLOAT, {4}, true, 0, "x"); },
                                      "dimensions");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one_block), cmocka_unit_test(test_blocks),
      cmocka_unit_test(test_half),      cmocka_unit_test(test_in_place_and_input),
      cmocka_unit_test(test_preplan),
      cmocka_unit_test(test_block_size_option),   cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
