// popnn/SpatialSoftMax.hpp on a 16-tile IPU Model: spatialSoftMax2D's expected coordinates against a host
// reference (FLOAT, HALF, with the softmax disabled), the temperature variable's initial value, and the errors.
#include <cmath>

#include <poplin/codelets.hpp>
#include <popnn/SpatialSoftMax.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn_test::NnFixture;

namespace {

// The host reference: softmax over all F*H*W values of fields / T (or none), then per field the sums of
// p * y_i and p * x_j with the coordinates linspace(-1, 1).
std::vector<float> hostSsm(const std::vector<float> &v, std::size_t F, std::size_t H, std::size_t W, float T,
                           bool softmax) {
  std::vector<double> p(v.size());
  double mx = -1e30, sum = 0;
  for (std::size_t i = 0; i < v.size(); ++i)
    mx = std::max(mx, double(v[i]) / T);
  for (std::size_t i = 0; i < v.size(); ++i) {
    p[i] = softmax ? std::exp(double(v[i]) / T - mx) : double(v[i]) / T;
    sum += p[i];
  }
  std::vector<float> out(F * 2);
  for (std::size_t f = 0; f < F; ++f) {
    double ey = 0, ex = 0;
    for (std::size_t i = 0; i < H; ++i)
      for (std::size_t j = 0; j < W; ++j) {
        double q = p[(f * H + i) * W + j] / (softmax ? sum : 1.0);
        ey += q * (H > 1 ? -1.0 + 2.0 * double(i) / double(H - 1) : -1.0);
        ex += q * (W > 1 ? -1.0 + 2.0 * double(j) / double(W - 1) : -1.0);
      }
    out[f * 2] = float(ey);
    out[f * 2 + 1] = float(ex);
  }
  return out;
}

void check(const Type &type, bool disable, float T, float tol) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  const std::size_t F = 3, H = 4, W = 5;
  Tensor fields = f.var(type, {F, H, W}, "fields");
  std::pair<Tensor, Tensor> r = popnn::spatialSoftMax2D(f.graph, f.prog, fields, T, disable, "ssm");
  assert_true(r.first.shape() == (std::vector<std::size_t>{F, 2}));
  assert_true(r.first.elementType() == type);
  assert_int_equal(r.second.rank(), 0);
  f.readable(r.first, "out");
  f.readable(r.second, "temp");
  f.build();
  std::vector<float> v = floats(F * H * W, 7);
  if (type == HALF) {
    f.writeHalf("fields", v);
    f.engine->run(0);
    expectNear(f.readHalf("out", F * 2), hostSsm(v, F, H, W, T, !disable), "ssm half", tol);
    expectNear(f.readHalf("temp", 1), {T}, "temperature half", kHalfTol);
  } else {
    f.write("fields", v);
    f.engine->run(0);
    expectNear(f.read<float>("out", F * 2), hostSsm(v, F, H, W, T, !disable), "ssm float", tol);
    expectNear(f.read<float>("temp", 1), {T}, "temperature");
  }
}

void test_float(void **) { check(FLOAT, false, 0.75f, 1e-5f); }
// HALF: the softmax's probabilities and the sums of 20 products each rounded to half: about 1e-2 relative.
void test_half(void **) { check(HALF, false, 2.0f, 1e-2f); }
void test_no_softmax(void **) { check(FLOAT, true, 4.0f, 1e-5f); }

void test_errors(void **) {
  NnFixture f(4);
  poplin::addCodelets(f.graph);
  Tensor two = f.graph.addVariable(FLOAT, {3, 4}), ints = f.graph.addVariable(INT, {1, 2, 2});
  expectThrow<poputil::poplibs_error>([&] { popnn::spatialSoftMax2D(f.graph, f.prog, two, 1.0f); },
                                      "{fields, height, width}");
  expectThrow<poputil::poplibs_error>([&] { popnn::spatialSoftMax2D(f.graph, f.prog, ints, 1.0f); },
                                      "FLOAT or HALF");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_no_softmax),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
