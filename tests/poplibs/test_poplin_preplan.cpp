// poplin's preplanning (preplanMatMuls, preplanConvolutions, preplan in ConvPreplan.hpp) on a 16-tile IPU Model:
// the plans land in the cache, the building functions then plan nothing more (the cache does not grow) and their
// results (FLOAT and HALF products, a convolution) match host references; the argument errors.
#include <poplin/ConvPreplan.hpp>
#include <poplin/FullyConnected.hpp>
#include <poplin/codelets.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using poplin::ConvParams;
using poplin::MatMulParams;

namespace {

struct PlanFixture : Fixture {
  PlanFixture() : Fixture(16) { poplin::addCodelets(graph); }
};

// C {m, n} = A {m, k} * B {k, n} in double.
std::vector<float> hostMatMul(const std::vector<float> &a, const std::vector<float> &b, std::size_t m, std::size_t k,
                              std::size_t n) {
  std::vector<float> c(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::size_t l = 0; l < k; ++l)
        s += double(a[i * k + l]) * b[l * n + j];
      c[i * n + j] = float(s);
    }
  return c;
}

MatMulParams mm(const Type &in, const Type &out, std::vector<std::size_t> a, std::vector<std::size_t> b) {
  MatMulParams p;
  p.inputType = in;
  p.outputType = out;
  p.aShape = a;
  p.bShape = b;
  return p;
}

// Products planned ahead are found by matMul: the cache holds the same number of plans after building.
void test_preplan_matmuls(void **) {
  PlanFixture f;
  const Target &t = f.graph.getTarget();
  OptionFlags none, amp{{"availableMemoryProportion", "0.3"}};
  std::set<poplin::MatMulPlanParams> plans = {
      std::make_tuple(&t, mm(FLOAT, FLOAT, {12, 20}, {20, 9}), &none),
      std::make_tuple(&t, mm(HALF, FLOAT, {3, 8, 10}, {3, 10, 6}), &amp),
      std::make_tuple(&t, mm(HALF, HALF, {16, 16}, {16, 16}), static_cast<const OptionFlags *>(0))};
  poplin::matmul::PlanningCache cache;
  poplin::preplanMatMuls(plans, cache);
  assert_int_equal(cache.size(), 3);
  Tensor a = f.var(FLOAT, {12, 20}, "a"), b = f.var(FLOAT, {20, 9}, "b");
  Tensor c = poplin::matMul(f.graph, a, b, f.prog, "fwd", none, &cache);
  Tensor ga = f.var(HALF, {3, 8, 10}, "ga"), gb = f.var(HALF, {3, 10, 6}, "gb");
  Tensor gc = poplin::matMulGrouped(f.graph, ga, gb, f.prog, FLOAT, "grouped", amp, &cache);
  Tensor ha = f.var(HALF, {16, 16}, "ha"), hb = f.var(HALF, {16, 16}, "hb");
  Tensor hc = poplin::matMul(f.graph, ha, hb, f.prog, "half", none, &cache);
  assert_int_equal(cache.size(), 3); // every product found its plan
  f.readable(c, "c");
  f.readable(gc, "gc");
  f.readable(hc, "hc");
  f.build();
  auto va = floats(240, 1), vb = floats(180, 2), vga = floats(240, 3), vgb = floats(180, 4);
  auto vha = floats(256, 5), vhb = floats(256, 6);
  f.write("a", va);
  f.write("b", vb);
  f.writeHalf("ga", vga);
  f.writeHalf("gb", vgb);
  f.writeHalf("ha", vha);
  f.writeHalf("hb", vhb);
  f.engine->run(0);
  expectNear(f.read<float>("c", 108), hostMatMul(va, vb, 12, 20, 9), "preplanned float", 1e-5f);
  std::vector<float> want;
  for (std::size_t g = 0; g < 3; ++g) {
    auto r = hostMatMul(std::vector<float>(vga.begin() + g * 80, vga.begin() + (g + 1) * 80),
                        std::vector<float>(vgb.begin() + g * 60, vgb.begin() + (g + 1) * 60), 8, 10, 6);
    want.insert(want.end(), r.begin(), r.end());
  }
  expectNear(f.read<float>("gc", 144), want, "preplanned grouped half->float", 1e-5f);
  expectNear(f.readHalf("hc", 256), f.rh(hostMatMul(vha, vhb, 16, 16, 16)), "preplanned half", kHalfTol);
}

// A fully connected layer's three products (fc::getMatMulPrePlanParameters) planned ahead: the shapes and passes
// of each, and a training layer's forward product then finds its plan and matches the host.
void test_fully_connected(void **) {
  PlanFixture f;
  const Target &t = f.graph.getTarget();
  const poplin::fc::FullyConnectedParams fc = {2, 4, 6, 5}; // groups, batch, input, output
  auto infer = poplin::fc::getMatMulPrePlanParameters(fc, {}, HALF, true);
  assert_int_equal(infer.size(), 1);
  assert_true(infer[0].first.inputType == HALF && infer[0].first.outputType == HALF);
  assert_string_equal(infer[0].second.at("fullyConnectedPass").c_str(), "INFERENCE_FWD");
  const OptionFlags amp{{"availableMemoryProportion", "0.4"}};
  auto train = poplin::fc::getMatMulPrePlanParameters(fc, amp, FLOAT, false);
  assert_int_equal(train.size(), 3);
  const char *passes[] = {"TRAINING_FWD", "TRAINING_BWD", "TRAINING_WU"};
  const std::vector<std::size_t> a[] = {{2, 4, 6}, {2, 4, 5}, {2, 6, 4}}, b[] = {{2, 6, 5}, {2, 5, 6}, {2, 4, 5}};
  std::set<poplin::MatMulPlanParams> plans;
  for (std::size_t i = 0; i < 3; ++i) {
    assert_true(train[i].first.aShape == a[i] && train[i].first.bShape == b[i]);
    assert_string_equal(train[i].second.at("fullyConnectedPass").c_str(), passes[i]);
    assert_string_equal(train[i].second.at("availableMemoryProportion").c_str(), "0.4");
    plans.insert(std::make_tuple(&t, train[i].first, &train[i].second));
  }
  poplin::matmul::PlanningCache cache;
  poplin::preplanMatMuls(plans, cache);
  assert_int_equal(cache.size(), 3);
  Tensor x = f.var(FLOAT, {2, 4, 6}, "x"), w = f.var(FLOAT, {2, 6, 5}, "w");
  Tensor y = poplin::matMulGrouped(f.graph, x, w, f.prog, FLOAT, "fc", train[0].second, &cache);
  assert_int_equal(cache.size(), 3); // the forward product found its plan
  f.readable(y, "y");
  f.build();
  auto vx = floats(48, 7), vw = floats(60, 8);
  f.write("x", vx);
  f.write("w", vw);
  f.engine->run(0);
  std::vector<float> want;
  for (std::size_t g = 0; g < 2; ++g) {
    auto r = hostMatMul(std::vector<float>(vx.begin() + g * 24, vx.begin() + (g + 1) * 24),
                        std::vector<float>(vw.begin() + g * 30, vw.begin() + (g + 1) * 30), 4, 6, 5);
    want.insert(want.end(), r.begin(), r.end());
  }
  expectNear(f.read<float>("y", 40), want, "fully connected forward", 1e-5f);
}

// A convolution planned ahead: createWeights and convolution find the plan; the result matches the host.
void test_preplan_convolutions(void **) {
  PlanFixture f;
  const Target &t = f.graph.getTarget();
  OptionFlags opts{{"pass", "INFERENCE_FWD"}};
  ConvParams p(FLOAT, 2, {5, 6}, {3, 2}, 3, 4, 1);
  poplin::PlanningCache cache;
  poplin::preplanConvolutions(f.graph, {std::make_tuple(&t, p, &opts)}, cache);
  assert_int_equal(cache.size(), 1);
  Tensor in = poplin::createInput(f.graph, p, "in", opts, &cache);
  Tensor w = poplin::createWeights(f.graph, p, "w", opts, &cache);
  Tensor out = poplin::convolution(f.graph, in, w, p, false, f.prog, "conv", opts, &cache);
  assert_int_equal(cache.size(), 1);
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("w", w);
  f.readable(out, "out");
  f.build();
  auto hin = floats(in.numElements(), 1), hw = floats(w.numElements(), 2);
  f.write("in", hin);
  f.write("w", hw);
  f.engine->run(0);
  // out[b][co][y][x] = sum over ci, ky, kx of in[b][ci][y+ky][x+kx] * w[0][co][ci][ky][kx].
  const std::size_t B = 2, Ci = 3, Co = 4, H = 5, W = 6, KH = 3, KW = 2, OH = 3, OW = 5;
  std::vector<float> want(B * Co * OH * OW);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t co = 0; co < Co; ++co)
      for (std::size_t y = 0; y < OH; ++y)
        for (std::size_t x = 0; x < OW; ++x) {
          double s = 0;
          for (std::size_t ci = 0; ci < Ci; ++ci)
            for (std::size_t ky = 0; ky < KH; ++ky)
              for (std::size_t kx = 0; kx < KW; ++kx)
                s += double(hin[((b * Ci + ci) * H + y + ky) * W + x + kx]) * hw[((co * Ci + ci) * KH + ky) * KW + kx];
          want[((b * Co + co) * OH + y) * OW + x] = float(s);
        }
  expectNear(f.read<float>("out", want.size()), want, "preplanned conv", 1e-5f);
}

// preplan does both, into the convolution cache and its product cache.
void test_preplan_both(void **) {
  PlanFixture f;
  const Target &t = f.graph.getTarget();
  OptionFlags none;
  poplin::PlanningCache cache;
  poplin::preplan({std::make_tuple(&t, ConvParams(HALF, 1, {8, 8}, {3, 3}, 2, 2, 1), &none),
                   std::make_tuple(&t, ConvParams(FLOAT, 1, {6}, {3}, 4, 4, 2), &none)},
                  {std::make_tuple(&t, mm(FLOAT, FLOAT, {4, 4}, {4, 4}), &none)}, cache);
  assert_int_equal(cache.size(), 3); // two convolution products and one matMul share the product cache
  poplin::preplan({}, {std::make_tuple(&t, mm(FLOAT, FLOAT, {4, 4}, {4, 4}), &none)}, cache);
  assert_int_equal(cache.size(), 3); // planned already
}

void test_errors(void **) {
  PlanFixture f;
  const Target &t = f.graph.getTarget();
  OptionFlags bad{{"noSuchOption", "1"}};
  poplin::matmul::PlanningCache mc;
  expectThrow<poputil::poplibs_error>(
      [&] {
        poplin::preplanMatMuls({std::make_tuple(static_cast<const Target *>(0), mm(FLOAT, FLOAT, {2, 2}, {2, 2}),
                                                static_cast<const OptionFlags *>(0))},
                               mc);
      },
      "no target");
  expectThrow<poputil::poplibs_error>(
      [&] {
        poplin::preplanMatMuls(
            {std::make_tuple(&t, mm(FLOAT, FLOAT, {2, 3}, {2, 2}), static_cast<const OptionFlags *>(0))}, mc);
      },
      "");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::preplanMatMuls({std::make_tuple(&t, mm(FLOAT, FLOAT, {2, 2}, {2, 2}), &bad)}, mc); },
      "noSuchOption");
  poplin::PlanningCache cc;
  expectThrow<poplar::invalid_option>(
      [&] { poplin::preplanConvolutions({std::make_tuple(&t, ConvParams(FLOAT, 1, {4}, {2}, 1, 1, 1), &bad)}, cc); },
      "noSuchOption");
  assert_int_equal(mc.size(), 0);
  assert_int_equal(cc.size(), 0);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_preplan_matmuls),
      cmocka_unit_test(test_preplan_convolutions),
      cmocka_unit_test(test_fully_connected),
      cmocka_unit_test(test_preplan_both),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
