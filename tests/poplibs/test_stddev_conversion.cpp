// popops::varianceToInvStdDev and invStdDevToVariance against a host reference: the map forms (tensor and constant
// epsilon, in place, with an output) on FLOAT and HALF, the forms with a destination type (FLOAT statistics to a
// HALF inverse and back), the expression nodes in popops::map, and the argument errors.
#include <cmath>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/exceptions.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

const std::size_t N = 23;

std::vector<float> variances() {
  std::vector<float> v(N);
  for (std::size_t i = 0; i < N; ++i)
    v[i] = 0.05f + 0.37f * float(i);
  return v;
}

float toInv(float v, float eps) { return 1.0f / std::sqrt(v + eps); }
float toVar(float s, float eps) { return 1.0f / (s * s) - eps; }

std::vector<float> apply(const std::vector<float> &x, float eps, float (*f)(float, float)) {
  std::vector<float> r;
  for (float v : x)
    r.push_back(f(v, eps));
  return r;
}

void checkMapForms(const Type &type) {
  Fixture f;
  const float eps = 0.01f;
  Tensor v = f.var(type, {N}, "v"), e = f.var(type, {1}, "e"), inPlace = f.var(type, {N}, "ip");
  Tensor out = f.var(type, {N}, "out");
  Tensor a = popops::varianceToInvStdDev(f.graph, v, e, f.prog, "a");
  Tensor b = popops::varianceToInvStdDev(f.graph, v, 0.01, f.prog); // a double constant: the map form
  Tensor c = popops::invStdDevToVariance(f.graph, a, e, f.prog, "c");
  Tensor m = popops::map(f.graph, popops::expr::VarianceToInvStdDev(popops::expr::_1, popops::expr::_2), {v, e},
                         f.prog);
  popops::invStdDevToVarianceInPlace(f.graph, inPlace, 0.01, f.prog);
  popops::varianceToInvStdDevWithOutput(f.graph, v, e, out, f.prog);
  assert_true(a.elementType() == type && b.elementType() == type && c.elementType() == type);
  for (auto &[t, n] : std::vector<std::pair<Tensor, const char *> >{{a, "a"}, {b, "b"}, {c, "c"}, {m, "m"}})
    f.readable(t, n);
  f.build();
  std::vector<float> hv = variances(), hs = apply(hv, eps, toInv);
  const bool half = type == HALF;
  if (half) {
    hv = f.rh(hv), hs = f.rh(hs);
    f.writeHalf("v", hv);
    f.writeHalf("e", {eps});
    f.writeHalf("ip", hs);
  } else {
    f.write("v", hv);
    f.write("e", std::vector<float>{eps});
    f.write("ip", hs);
  }
  f.engine->run(0);
  const float e2 = half ? f.rh(eps) : eps, tol = half ? kHalfTol : 1e-6f;
  auto read = [&](const char *h) { return half ? f.readHalf(h, N) : f.read<float>(h, N); };
  auto want = apply(hv, e2, toInv);
  expectNear(read("a"), want, "varianceToInvStdDev", tol);
  expectNear(read("b"), apply(hv, eps, toInv), "varianceToInvStdDev, constant epsilon", tol);
  expectNear(read("m"), want, "expr::VarianceToInvStdDev", tol);
  expectNear(read("out.r"), want, "varianceToInvStdDevWithOutput", tol);
  // Round trip: the variances again (within the precision of the inverse).
  expectNear(read("c"), hv, "invStdDevToVariance of the inverse", half ? 2e-2f : 1e-5f);
  expectNear(read("ip.r"), apply(hs, eps, toVar), "invStdDevToVarianceInPlace", half ? 2e-2f : 1e-5f);
}

void test_map_forms(void **) {
  checkMapForms(FLOAT);
  checkMapForms(HALF);
}

// FLOAT variances to a HALF inverse (the default dstType) and a HALF inverse back to FLOAT variances.
void test_dst_type(void **) {
  Fixture f;
  const float eps = 1e-3f;
  Tensor v = f.var(FLOAT, {N}, "v"), e = f.var(FLOAT, {1}, "e"), s = f.var(HALF, {N}, "s");
  Tensor inv = popops::varianceToInvStdDev(f.graph, v, e, f.prog, HALF);
  Tensor invF = popops::varianceToInvStdDev(f.graph, v, eps, f.prog, FLOAT, "keep");
  Tensor var = popops::invStdDevToVariance(f.graph, s, eps, f.prog, FLOAT);
  Tensor varT = popops::invStdDevToVariance(f.graph, s, popops::cast(f.graph, e, HALF, f.prog), f.prog, FLOAT);
  assert_true(inv.elementType() == HALF && invF.elementType() == FLOAT && var.elementType() == FLOAT);
  for (auto &[t, n] : std::vector<std::pair<Tensor, const char *> >{
           {inv, "inv"}, {invF, "invF"}, {var, "var"}, {varT, "varT"}})
    f.readable(t, n);
  f.build();
  const std::vector<float> hv = variances();
  const std::vector<float> hs = f.rh(apply(hv, eps, toInv));
  f.write("v", hv);
  f.write("e", std::vector<float>{eps});
  f.writeHalf("s", hs);
  f.engine->run(0);
  expectNear(f.readHalf("inv", N), f.rh(apply(hv, eps, toInv)), "float variance to half inverse", kHalfTol);
  expectNear(f.read<float>("invF", N), apply(hv, eps, toInv), "float variance to float inverse", 1e-6f);
  // Computed in half (the source's type), then widened.
  expectNear(f.read<float>("var", N), f.rh(apply(hs, f.rh(eps), toVar)), "half inverse to float variance",
             kHalfTol);
  expectNear(f.read<float>("varT", N), f.rh(apply(hs, f.rh(eps), toVar)), "with a tensor epsilon", kHalfTol);
}

void test_errors(void **) {
  Fixture f;
  const float eps = 1e-3f;
  Tensor v = f.var(FLOAT, {N}, "v"), s = f.var(HALF, {N}, "s"), k = f.var(INT, {N}, "k");
  using poputil::poplibs_error;
  expectThrow<poplibs_error>([&] { popops::varianceToInvStdDev(f.graph, v, eps, f.prog, INT); },
                             "dstType int must be half");
  expectThrow<poplibs_error>([&] { popops::invStdDevToVariance(f.graph, s, eps, f.prog, INT); },
                             "dstType int must be float");
  expectThrow<poplibs_error>([&] { popops::varianceToInvStdDev(f.graph, k, eps, f.prog, HALF); },
                             "must be FLOAT or HALF");
  expectThrow<poplibs_error>([&] { popops::varianceToInvStdDev(f.graph, k, k[0], f.prog, "k"); },
                             "it takes FLOAT or HALF");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_map_forms), cmocka_unit_test(test_dst_type),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
