// popops::clampWithOutput and selectWithOutput: the result lands in the given tensor (FLOAT and HALF), the
// inputs are left alone, and a wrong output shape is refused.
#include <algorithm>

#include <popops/ElementWise.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

void run(const Type &type) {
  Fixture f(4);
  const bool half = type == HALF;
  const std::size_t n = 10;
  auto var = [&](const std::string &name) {
    Tensor t = f.graph.addVariable(type, {n}, name);
    poputil::mapTensorLinearly(f.graph, t, 1, 1);
    f.graph.createHostWrite(name, half ? t.reinterpret(UNSIGNED_SHORT) : t);
    f.graph.createHostRead(name + ".r", half ? t.reinterpret(UNSIGNED_SHORT) : t);
    return t;
  };
  Tensor a = var("a"), lo = var("lo"), hi = var("hi"), c = var("c"), s = var("s");
  Tensor pred = f.var(BOOL, {n}, "pred");
  popops::clampWithOutput(f.graph, a, lo, hi, c, f.prog);
  popops::selectWithOutput(f.graph, a, lo, pred, s, f.prog);
  f.build();
  const std::vector<float> ha = floats(n, 1), hlo = floats(n, 2), hhi = floats(n, 3);
  std::vector<float> l(n), h(n);
  for (std::size_t i = 0; i < n; ++i) {
    l[i] = std::min(hlo[i], hhi[i]);
    h[i] = std::max(hlo[i], hhi[i]);
  }
  auto put = [&](const std::string &name, const std::vector<float> &v) {
    half ? f.writeHalf(name, v) : f.write(name, v);
  };
  put("a", ha);
  put("lo", l);
  put("hi", h);
  std::vector<unsigned char> hp(n);
  for (std::size_t i = 0; i < n; ++i)
    hp[i] = i % 3 == 0;
  f.write("pred", hp);
  f.engine->run(0);
  std::vector<float> wc(n), ws(n);
  for (std::size_t i = 0; i < n; ++i) {
    wc[i] = std::min(std::max(ha[i], l[i]), h[i]);
    ws[i] = hp[i] ? ha[i] : l[i];
  }
  auto get = [&](const std::string &name) { return half ? f.readHalf(name, n) : f.read<float>(name, n); };
  expectNear(get("c.r"), wc, "clampWithOutput");
  expectNear(get("s.r"), ws, "selectWithOutput");
  expectNear(get("a.r"), ha, "input unchanged");
}

void test_float(void **) { run(FLOAT); }
void test_half(void **) { run(HALF); }

void test_wrong_output(void **) {
  Fixture f(4);
  Tensor a = f.var(FLOAT, {4}, "a"), out = f.var(FLOAT, {3}, "out");
  expectThrow<poputil::poplibs_error>([&] { popops::clampWithOutput(f.graph, a, a, a, out, f.prog); }, "");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_wrong_output),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
