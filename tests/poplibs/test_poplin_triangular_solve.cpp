// poplin/TriangularSolve.hpp on a 16-tile IPU Model: triangularSolve against host substitution for A X = B and
// X A = B, lower and upper, with and without a unit diagonal, in one block and in several (so that the block
// products run), FLOAT and HALF, with NaN in the unused triangle (never read); triangularMask; the operands from
// createTriangularSolveInputLHS/RHS; the preplanning parameters (the solve then plans nothing); the errors.
#include <cmath>
#include <limits>

#include <poplar/exceptions.hpp>
#include <poplin/TriangularSolve.hpp>
#include <poplin/codelets.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

struct SolveFixture : Fixture {
  SolveFixture() : Fixture(16) { poplin::addCodelets(graph); }
  void put(const Type &t, const std::string &h, const std::vector<float> &v) {
    if (t == HALF)
      writeHalf(h, v);
    else
      write(h, v);
  }
  std::vector<float> get(const Type &t, const std::string &h, std::size_t n) {
    return t == HALF ? readHalf(h, n) : read<float>(h, n);
  }
};

const float kNaN = std::numeric_limits<float>::quiet_NaN();

// G coefficient matrices n x n: a well-conditioned triangle (diagonal 2..3.5, off-diagonal in [-0.5, 0.5], both
// exact in half), NaN in the other triangle and, with a unit diagonal, on the diagonal.
std::vector<float> coefficients(std::size_t G, std::size_t n, bool lower, bool unit) {
  std::vector<float> a(G * n * n);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        float &v = a[(g * n + i) * n + j];
        if (i == j)
          v = unit ? kNaN : 2.0f + 0.5f * float((i + g) % 4);
        else if (lower ? j < i : j > i)
          v = 0.125f * float(int((i * 5 + j * 3 + g) % 9) - 4);
        else
          v = kNaN;
      }
  return a;
}

// The element (i, j) of the masked matrix g.
double coef(const std::vector<float> &a, std::size_t g, std::size_t n, std::size_t i, std::size_t j, bool lower,
            bool unit) {
  if (i == j)
    return unit ? 1.0 : a[(g * n + i) * n + j];
  return (lower ? j < i : j > i) ? a[(g * n + i) * n + j] : 0.0;
}

// X with A X = B (left) or X A = B, by substitution in double; b is [G, n, k] (left) or [G, k, n].
std::vector<float> hostSolve(const std::vector<float> &a, const std::vector<float> &b, std::size_t G, std::size_t n,
                             std::size_t k, bool left, bool lower, bool unit) {
  std::vector<float> x(b.size());
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t c = 0; c < k; ++c) {
      // Left: A x = b for column c of b. Right: x A = b for row c, i.e. A^T x^T = b^T.
      std::vector<double> sol(n);
      const bool low = left ? lower : !lower;
      for (std::size_t step = 0; step < n; ++step) {
        const std::size_t i = low ? step : n - 1 - step;
        double s = left ? b[(g * n + i) * k + c] : b[(g * k + c) * n + i];
        for (std::size_t j = 0; j < n; ++j)
          if (j != i && (low ? j < i : j > i))
            s -= (left ? coef(a, g, n, i, j, lower, unit) : coef(a, g, n, j, i, lower, unit)) * sol[j];
        sol[i] = s / coef(a, g, n, i, i, lower, unit);
      }
      for (std::size_t i = 0; i < n; ++i)
        (left ? x[(g * n + i) * k + c] : x[(g * k + c) * n + i]) = float(sol[i]);
    }
  return x;
}

void checkSolve(const Type &type, bool left, bool lower, bool unit, std::size_t blockSize, float tol) {
  SolveFixture f;
  const std::size_t G = 2, n = 7, k = 3;
  const std::vector<std::size_t> aShape = {G, n, n};
  const std::vector<std::size_t> bShape = left ? std::vector<std::size_t>{G, n, k} : std::vector<std::size_t>{G, k, n};
  Tensor a = f.var(type, aShape, "a"), b = f.var(type, bShape, "b");
  OptionFlags opts{{"blockSize", std::to_string(blockSize)}};
  Tensor x = poplin::triangularSolve(f.graph, a, b, left, lower, unit, f.prog, "solve", opts);
  assert_true(x.shape() == bShape);
  f.readable(x, "x");
  f.build();
  std::vector<float> va = coefficients(G, n, lower, unit), vb = floats(G * n * k, 3);
  f.put(type, "a", va);
  f.put(type, "b", vb);
  f.engine->run(0);
  std::vector<float> want = hostSolve(va, vb, G, n, k, left, lower, unit);
  expectNear(f.get(type, "x", want.size()), type == HALF ? f.rh(want) : want, "triangularSolve", tol);
}

void test_float_one_block(void **) {
  for (int left = 0; left < 2; ++left)
    for (int lower = 0; lower < 2; ++lower)
      checkSolve(FLOAT, left, lower, false, 64, 1e-5f);
  checkSolve(FLOAT, true, true, true, 64, 1e-5f);
}

void test_float_blocks(void **) {
  for (int left = 0; left < 2; ++left)
    for (int lower = 0; lower < 2; ++lower)
      checkSolve(FLOAT, left, lower, left == lower, 3, 1e-5f);
}

// HALF: every step rounds to half; 7 unknowns accumulate a few units in the last place.
void test_half(void **) {
  checkSolve(HALF, true, true, false, 3, 1e-2f);
  checkSolve(HALF, false, false, true, 64, 1e-2f);
}

// The deprecated overloads (block size as an argument) and the created operands, with X A = B.
void test_created_operands(void **) {
  SolveFixture f;
  const std::size_t G = 1, n = 6, k = 4;
  const std::vector<std::size_t> aShape = {n, n}, bShape = {k, n};
  Tensor a = poplin::createTriangularSolveInputLHS(f.graph, FLOAT, FLOAT, aShape, bShape, false, 2, "a");
  Tensor b = poplin::createTriangularSolveInputRHS(f.graph, FLOAT, FLOAT, aShape, bShape, false, "b");
  assert_true(a.shape() == aShape && b.shape() == bShape);
  f.graph.createHostWrite("a", a);
  f.graph.createHostWrite("b", b);
  Tensor x = poplin::triangularSolve(f.graph, a, b, false, true, false, 2, f.prog, "solve");
  f.readable(x, "x");
  f.build();
  std::vector<float> va = coefficients(G, n, true, false), vb = floats(k * n, 4);
  f.write("a", va);
  f.write("b", vb);
  f.engine->run(0);
  expectNear(f.read<float>("x", k * n), hostSolve(va, vb, G, n, k, false, true, false), "created operands", 1e-5f);
}

void test_mask(void **) {
  SolveFixture f;
  const std::size_t n = 4;
  Tensor a = f.var(FLOAT, {2, n, n}, "a");
  Tensor lo = poplin::triangularMask(f.graph, a, true, false, f.prog);
  Tensor up = poplin::triangularMask(f.graph, a, false, true, f.prog, "mask");
  f.readable(lo, "lo");
  f.readable(up, "up");
  f.build();
  std::vector<float> v = floats(2 * n * n, 5);
  v[1] = kNaN; // above the diagonal of the first matrix: masked by the lower mask
  f.write("a", v);
  f.engine->run(0);
  std::vector<float> wlo(v.size()), wup(v.size());
  for (std::size_t g = 0; g < 2; ++g)
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t e = (g * n + i) * n + j;
        wlo[e] = j <= i ? v[e] : 0.0f;
        wup[e] = i == j ? 1.0f : (j > i ? v[e] : 0.0f);
      }
  expectNear(f.read<float>("lo", v.size()), wlo, "lower mask");
  std::vector<float> gotUp = f.read<float>("up", v.size());
  assert_true(std::isnan(gotUp[1]));
  gotUp[1] = wup[1] = 0.0f;
  expectNear(gotUp, wup, "upper unit mask");
}

// The parameters preplanned: the solve then finds every block product's plan in the cache.
void test_preplan(void **) {
  SolveFixture f;
  const std::vector<std::size_t> aShape = {2, 10, 10}, bShape = {2, 10, 3};
  OptionFlags opts{{"blockSize", "4"}};
  auto lowerPlans = poplin::getTriangularSolveMatMulPrePlanParameters(FLOAT, FLOAT, aShape, bShape, true, true, opts);
  auto upperPlans = poplin::getTriangularSolveMatMulPrePlanParameters(FLOAT, FLOAT, aShape, bShape, true, false, 4, {});
  assert_int_equal(lowerPlans.size(), 2); // blocks [0,4) and [4,8) have rows below them
  assert_int_equal(upperPlans.size(), 2); // blocks [8,10) and [4,8) have rows above them
  assert_true(lowerPlans[0].first.aShape == (std::vector<std::size_t>{2, 6, 4}));
  assert_true(lowerPlans[0].first.bShape == (std::vector<std::size_t>{2, 4, 3}));
  const Target &t = f.graph.getTarget();
  std::set<poplin::MatMulPlanParams> plans;
  for (const auto &p : lowerPlans)
    plans.insert(std::make_tuple(&t, p.first, &p.second));
  poplin::matmul::PlanningCache cache;
  poplin::preplanMatMuls(plans, cache);
  assert_int_equal(cache.size(), 2);
  Tensor a = f.var(FLOAT, aShape, "a"), b = f.var(FLOAT, bShape, "b");
  Tensor x = poplin::triangularSolve(f.graph, a, b, true, true, false, f.prog, "solve", opts, &cache);
  assert_int_equal(cache.size(), 2);
  f.readable(x, "x");
  f.build();
  std::vector<float> va = coefficients(2, 10, true, false), vb = floats(60, 6);
  f.write("a", va);
  f.write("b", vb);
  f.engine->run(0);
  expectNear(f.read<float>("x", 60), hostSolve(va, vb, 2, 10, 3, true, true, false), "preplanned solve", 1e-5f);
}

void test_errors(void **) {
  SolveFixture f;
  Tensor a = f.graph.addVariable(FLOAT, {4, 4}), b = f.graph.addVariable(FLOAT, {3, 2}),
         h = f.graph.addVariable(HALF, {4, 2}), ok = f.graph.addVariable(FLOAT, {4, 2});
  expectThrow<poputil::poplibs_error>([&] { poplin::triangularSolve(f.graph, a, b, true, true, false, f.prog); },
                                      "share N");
  expectThrow<poputil::poplibs_error>([&] { poplin::triangularSolve(f.graph, a, h, true, true, false, f.prog); },
                                      "both FLOAT or both HALF");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::triangularSolve(f.graph, a, ok, true, true, false, 0, f.prog); }, "blockSize");
  expectThrow<poputil::poplibs_error>([&] { poplin::triangularMask(f.graph, b, true, false, f.prog); }, "square");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float_one_block), cmocka_unit_test(test_float_blocks),
      cmocka_unit_test(test_half),            cmocka_unit_test(test_created_operands),
      cmocka_unit_test(test_mask),            cmocka_unit_test(test_preplan),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
