// popops' erf, exp2, geluErf and nearbyint (ElementWise.hpp functions, their in-place forms and the Expr nodes
// Erf, Exp2, GeluErf, NearbyInt in a map) on FLOAT and HALF tensors against the host's libm, and their refusal of
// INT tensors.
#include <cmath>

#include <popops/ElementWise.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

const std::vector<float> kIn = {-3.0f, -1.5f, -0.5f, -0.25f, 0.0f, 0.25f, 0.5f, 1.5f, 2.5f, 3.5f, 0.75f, -2.5f};

float gelu(float x) { return 0.5f * x * (1.0f + std::erf(x / std::sqrt(2.0f))); }

void run(const Type &type) {
  Fixture f(4);
  const bool half = type == HALF;
  const std::size_t n = kIn.size();
  Tensor x = f.graph.addVariable(type, {n}, "x");
  poputil::mapTensorLinearly(f.graph, x, 1, 1);
  f.graph.createHostWrite("x", half ? x.reinterpret(UNSIGNED_SHORT) : x);
  auto out = [&](const Tensor &t, const std::string &name) {
    f.readable(half ? t.reinterpret(UNSIGNED_SHORT) : t, name);
  };
  out(popops::erf(f.graph, x, f.prog), "erf");
  out(popops::exp2(f.graph, x, f.prog), "exp2");
  out(popops::geluErf(f.graph, x, f.prog), "gelu");
  out(popops::nearbyint(f.graph, x, f.prog), "nearbyint");
  namespace pe = popops::expr;
  out(popops::map(f.graph, pe::Add(pe::Erf(pe::_1), pe::Exp2(pe::_1)), {x}, f.prog), "expr");
  out(popops::map(f.graph, pe::Sub(pe::GeluErf(pe::_1), pe::NearbyInt(pe::_1)), {x}, f.prog), "expr2");
  Tensor y = f.graph.clone(x, "y");
  f.prog.add(Copy(x, y));
  popops::exp2InPlace(f.graph, y, f.prog);
  out(y, "inplace");
  f.build();
  half ? f.writeHalf("x", kIn) : f.write("x", kIn);
  f.engine->run(0);
  std::vector<float> we, w2, wg, wn, wx, wx2;
  for (float v : kIn) {
    we.push_back(std::erf(v));
    w2.push_back(std::exp2(v));
    wg.push_back(gelu(v));
    wn.push_back(std::nearbyint(v)); // ties to even: -2.5 -> -2, 0.5 -> 0, 2.5 -> 2
    wx.push_back(std::erf(v) + std::exp2(v));
    wx2.push_back(gelu(v) - std::nearbyint(v));
  }
  const float tol = half ? 4e-3f : 1e-5f;
  auto get = [&](const std::string &h) { return half ? f.readHalf(h, n) : f.read<float>(h, n); };
  expectNear(get("erf"), we, "erf", tol);
  expectNear(get("exp2"), w2, "exp2", tol);
  expectNear(get("gelu"), wg, "geluErf", tol);
  expectNear(get("nearbyint"), wn, "nearbyint", 0.0f);
  expectNear(get("expr"), wx, "Erf + Exp2", tol);
  expectNear(get("expr2"), wx2, "GeluErf - NearbyInt", tol);
  expectNear(get("inplace"), w2, "exp2InPlace", tol);
}

void test_float(void **) { run(FLOAT); }
void test_half(void **) { run(HALF); }

void test_int_refused(void **) {
  Fixture f(4);
  Tensor i = f.var(INT, {4}, "i");
  expectThrow<poputil::poplibs_error>([&] { popops::erf(f.graph, i, f.prog); }, "");
  expectThrow<poputil::poplibs_error>([&] { popops::nearbyint(f.graph, i, f.prog); }, "");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_int_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
