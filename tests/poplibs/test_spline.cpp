// popops::splineBasis and popops::splineWeighting against a host reference written from the B-spline formulas:
// degrees 1-3 over two dimensions (one open spline, one closed), FLOAT and HALF, on a one-tile and a 16-tile IPU
// Model and on a full ipu2-sized one; the weighting fed with the basis's own results and with arbitrary
// coefficients; and the argument errors.
#include <cmath>
#include <popops/SplineBasis.hpp>
#include <popops/SplineWeighting.hpp>
#include <poputil/exceptions.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

// The B-spline basis function kMod of `degree` at fraction v of a knot interval (uniform knots).
float basisFunction(float v, unsigned kMod, unsigned degree) {
  const float w = 1.0f - v;
  switch (degree) {
  case 1:
    return kMod == 0 ? w : v;
  case 2:
    return kMod == 0 ? 0.5f * w * w : kMod == 1 ? 0.5f + v * w : 0.5f * v * v;
  default:
    return kMod == 0   ? w * w * w / 6.0f
           : kMod == 1 ? (3.0f * v * v * v - 6.0f * v * v + 4.0f) / 6.0f
           : kMod == 2 ? (-3.0f * v * v * v + 3.0f * v * v + 3.0f * v + 1.0f) / 6.0f
                       : v * v * v / 6.0f;
  }
}

struct Basis {
  std::vector<float> basis;
  std::vector<int> index;
};

Basis referenceBasis(const std::vector<float> &pseudo, std::size_t dims, const std::vector<int> &kernel,
                     const std::vector<unsigned char> &open, unsigned degree) {
  const std::size_t edges = pseudo.size() / dims;
  std::size_t splines = 1;
  for (std::size_t d = 0; d < dims; ++d)
    splines *= degree + 1;
  Basis r;
  for (std::size_t e = 0; e < edges; ++e)
    for (std::size_t s = 0; s < splines; ++s) {
      std::size_t digits = s, stride = 1;
      int index = 0;
      float b = 1.0f;
      for (std::size_t d = 0; d < dims; ++d) {
        const unsigned kMod = unsigned(digits % (degree + 1));
        digits /= degree + 1;
        const float v = pseudo[e * dims + d] * float(kernel[d] - int(degree) * open[d]);
        const float knot = std::floor(v);
        index += int((std::size_t(knot) + kMod) % std::size_t(kernel[d]) * stride);
        stride *= std::size_t(kernel[d]);
        b *= basisFunction(v - knot, kMod, degree);
      }
      r.basis.push_back(b);
      r.index.push_back(index);
    }
  return r;
}

// Coordinates in [0, 1], the ends included.
std::vector<float> coordinates(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float((i * 7919) % 101) / 100.0f;
  return v;
}

void checkBasis(unsigned tiles, const Type &type, unsigned degree) {
  Fixture f(tiles);
  const std::size_t edges = 13, dims = 2;
  const std::vector<int> kernel = {5, 4};
  const std::vector<unsigned char> open = {1, 0};
  std::size_t splines = (degree + 1) * (degree + 1);
  Tensor pseudo = f.var(type, {edges, dims}, "pseudo"), ks = f.var(INT, {dims}, "ks");
  Tensor op = f.var(UNSIGNED_CHAR, {dims}, "op");
  Tensor basis = f.var(type, {edges, splines}, "basis"), index = f.var(INT, {edges, splines}, "index");
  popops::splineBasis(f.graph, pseudo, ks, op, basis, index, degree, f.prog, "spline");
  f.build();
  std::vector<float> p = coordinates(edges * dims);
  if (type == HALF) {
    p = f.rh(p);
    f.writeHalf("pseudo", p);
  } else {
    f.write("pseudo", p);
  }
  f.write("ks", kernel);
  f.write("op", open);
  f.engine->run(0);
  Basis want = referenceBasis(p, dims, kernel, open, degree);
  const std::size_t n = edges * splines;
  if (type == HALF)
    expectNear(f.readHalf("basis.r", n), f.rh(want.basis), "half basis", kHalfTol);
  else
    expectNear(f.read<float>("basis.r", n), want.basis, "basis", 1e-6f);
  expectEqual(f.read<int>("index.r", n), want.index, "weight index");
}

void test_basis(void **) {
  for (unsigned degree = 1; degree <= 3; ++degree)
    for (const Type &type : {FLOAT, HALF})
      for (unsigned tiles : {1u, 16u})
        checkBasis(tiles, type, degree);
  checkBasis(1472, FLOAT, 2); // ipu2's tile count
}

void checkWeighting(unsigned tiles, const Type &type) {
  Fixture f(tiles);
  const std::size_t edges = 11, splines = 4, in = 3, out = 2, kernels = 5;
  Tensor input = f.var(type, {edges, in}, "input"), weight = f.var(type, {kernels, in, out}, "weight");
  Tensor basis = f.var(type, {edges, splines}, "basis"), index = f.var(INT, {edges, splines}, "index");
  Tensor result = popops::splineWeighting(f.graph, input, weight, basis, index, f.prog, "weighting");
  assert_true(result.shape() == std::vector<std::size_t>({edges, out}));
  assert_true(result.elementType() == type);
  f.readable(result, "result");
  f.build();
  std::vector<float> hIn = floats(edges * in, 1), hW = floats(kernels * in * out, 2), hB = floats(edges * splines, 3);
  std::vector<int> hI(edges * splines);
  for (std::size_t i = 0; i < hI.size(); ++i)
    hI[i] = int((i * 13 + 5) % kernels);
  if (type == HALF) {
    hIn = f.rh(hIn), hW = f.rh(hW), hB = f.rh(hB);
    f.writeHalf("input", hIn);
    f.writeHalf("weight", hW);
    f.writeHalf("basis", hB);
  } else {
    f.write("input", hIn);
    f.write("weight", hW);
    f.write("basis", hB);
  }
  f.write("index", hI);
  f.engine->run(0);
  std::vector<float> want(edges * out);
  for (std::size_t e = 0; e < edges; ++e)
    for (std::size_t o = 0; o < out; ++o) {
      float acc = 0.0f;
      for (std::size_t s = 0; s < splines; ++s)
        for (std::size_t i = 0; i < in; ++i)
          acc += hW[(std::size_t(hI[e * splines + s]) * in + i) * out + o] * hB[e * splines + s] * hIn[e * in + i];
      want[e * out + o] = acc;
    }
  if (type == HALF)
    expectNear(f.readHalf("result", edges * out), f.rh(want), "half weighting", kHalfTol);
  else
    expectNear(f.read<float>("result", edges * out), want, "weighting", 1e-5f);
}

void test_weighting(void **) {
  for (const Type &type : {FLOAT, HALF})
    for (unsigned tiles : {1u, 16u, 1472u})
      checkWeighting(tiles, type);
}

void test_errors(void **) {
  Fixture f(4);
  Tensor p = f.var(FLOAT, {3, 2}, "p"), ks = f.var(INT, {2}, "ks"), op = f.var(UNSIGNED_CHAR, {2}, "op");
  Tensor b = f.var(FLOAT, {3, 4}, "b"), wi = f.var(INT, {3, 4}, "wi");
  using poputil::poplibs_error;
  expectThrow<poplibs_error>([&] { popops::splineBasis(f.graph, p, ks, op, b, wi, 4, f.prog); }, "degree 4");
  expectThrow<poplibs_error>([&] { popops::splineBasis(f.graph, p, ks, op, b, wi, 2, f.prog); }, "row length");
  expectThrow<poplibs_error>([&] { popops::splineBasis(f.graph, p, b[0], op, b, wi, 1, f.prog); }, "it must hold int");
  expectThrow<poplibs_error>([&] { popops::splineBasis(f.graph, ks, ks, op, b, wi, 1, f.prog); }, "rank 2");
  Tensor in = f.var(FLOAT, {3, 5}, "in"), w = f.var(FLOAT, {6, 5, 2}, "w");
  expectThrow<poplibs_error>([&] { popops::splineWeighting(f.graph, in, b, b, wi, f.prog); }, "rank 3");
  expectThrow<poplibs_error>([&] { popops::splineWeighting(f.graph, p, w, b, wi, f.prog); }, "input channels");
  expectThrow<poplibs_error>([&] { popops::splineWeighting(f.graph, in, w, wi, wi, f.prog); }, "basis holds int");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_basis), cmocka_unit_test(test_weighting),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
