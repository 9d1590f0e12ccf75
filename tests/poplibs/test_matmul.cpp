// poplin's matMul family against a host reference on small IPU Models: a grid of shapes (1xKx1, odd sizes, one
// whose inner dimension is split over more tiles than one reduction stage sums, one whose operands exceed the
// memory one tile may use), transposed views as operands, grouped products, operands made by the create
// functions, matMulAcc with a constant and a tensor scale, HALF operands with float partials and with half
// partials (rounded at every stage, compared exactly), the fullyConnectedPass plans and layouts of a layer's
// three passes, the plan cache and report, and the argument and option errors.
#include <cctype>
#include <sstream>

#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <poplar/exceptions.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

struct MatMulFixture : Fixture {
  explicit MatMulFixture(unsigned tiles = 16) : Fixture(tiles) { poplin::addCodelets(graph); }
};

// C[g] = A[g] * B[g] for row-major host matrices.
std::vector<float> reference(const std::vector<float> &a, const std::vector<float> &b, std::size_t G, std::size_t m,
                             std::size_t k, std::size_t n) {
  std::vector<float> c(G * m * n, 0.0f);
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < m; ++i)
      for (std::size_t j = 0; j < n; ++j) {
        double acc = 0;
        for (std::size_t x = 0; x < k; ++x)
          acc += double(a[(g * m + i) * k + x]) * double(b[(g * k + x) * n + j]);
        c[(g * m + i) * n + j] = float(acc);
      }
  return c;
}

std::vector<float> transposed(const std::vector<float> &v, std::size_t rows, std::size_t cols) {
  std::vector<float> t(v.size());
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j)
      t[j * rows + i] = v[i * cols + j];
  return t;
}

std::string report(const Graph &graph, std::size_t m, std::size_t k, std::size_t n, const OptionFlags &o = {}) {
  std::ostringstream s;
  poplin::matMulReportPlan(s, graph, FLOAT, {m, k}, {k, n}, o);
  return s.str();
}

void test_shape_grid(void **) {
  struct Shape {
    std::size_t m, k, n;
  };
  const Shape shapes[] = {{1, 37, 1}, {7, 13, 5}, {1, 1, 1}, {3, 1, 11}, {17, 29, 23}, {40, 9, 2}};
  MatMulFixture f;
  std::vector<Tensor> outs;
  for (std::size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    const Shape &s = shapes[i];
    Tensor a = f.var(FLOAT, {s.m, s.k}, "a" + std::to_string(i));
    Tensor b = f.var(FLOAT, {s.k, s.n}, "b" + std::to_string(i));
    Tensor c = poplin::matMul(f.graph, a, b, f.prog, "mm" + std::to_string(i));
    assert_true(c.shape() == (std::vector<std::size_t>{s.m, s.n}));
    f.readable(c, "c" + std::to_string(i));
  }
  f.build();
  for (std::size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    const Shape &s = shapes[i];
    auto a = floats(s.m * s.k, unsigned(i)), b = floats(s.k * s.n, unsigned(i + 7));
    f.write("a" + std::to_string(i), a);
    f.write("b" + std::to_string(i), b);
  }
  f.engine->run(0);
  for (std::size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i) {
    const Shape &s = shapes[i];
    auto a = floats(s.m * s.k, unsigned(i)), b = floats(s.k * s.n, unsigned(i + 7));
    expectNear(f.read<float>("c" + std::to_string(i), s.m * s.n), reference(a, b, 1, s.m, s.k, s.n), "c");
  }
}

// A long inner dimension on 16 tiles: the planner splits it 16 ways, more than one stage sums (8).
void test_multi_stage_reduction(void **) {
  MatMulFixture f;
  const std::size_t m = 1, k = 8192, n = 2;
  std::string plan = report(f.graph, m, k, n);
  if (plan.find("2 reduction stages") == std::string::npos) {
    print_error("plan without a two-stage reduction: %s", plan.c_str());
    fail();
  }
  Tensor a = f.var(FLOAT, {m, k}, "a"), b = f.var(FLOAT, {k, n}, "b");
  Tensor c = poplin::matMul(f.graph, a, b, f.prog);
  f.readable(c, "c");
  f.build();
  auto ha = floats(m * k, 1), hb = floats(k * n, 2);
  f.write("a", ha);
  f.write("b", hb);
  f.engine->run(0);
  expectNear(f.read<float>("c", m * n), reference(ha, hb, 1, m, k, n), "c", 1e-4f);
}

// Operands of 3 x 48 KiB with a tile allowed 10% of its 624 KiB: the plan spreads them over the tiles.
void test_larger_than_one_tile(void **) {
  MatMulFixture f;
  const std::size_t m = 96, k = 128, n = 96;
  OptionFlags opts{{"availableMemoryProportion", "0.1"}};
  std::string plan = report(f.graph, m, k, n, opts);
  std::size_t end = plan.find(" bytes per tile"), begin = end;
  while (begin > 0 && isdigit((unsigned char)plan[begin - 1]))
    --begin;
  std::size_t bytes = std::stoul(plan.substr(begin, end - begin));
  assert_true(bytes <= std::size_t(0.1 * f.graph.getTarget().getBytesPerTile()));
  assert_true((m * k + k * n) * 4 > 0.1 * f.graph.getTarget().getBytesPerTile());
  Tensor a = poplin::createMatMulInputLHS(f.graph, FLOAT, {m, k}, {k, n}, "a", opts);
  Tensor b = poplin::createMatMulInputRHS(f.graph, FLOAT, {m, k}, {k, n}, "b", opts);
  f.graph.createHostWrite("a", a);
  f.graph.createHostWrite("b", b);
  Tensor c = poplin::matMul(f.graph, a, b, f.prog, "big", opts);
  f.readable(c, "c");
  f.build();
  auto ha = floats(m * k, 3), hb = floats(k * n, 4);
  f.write("a", ha);
  f.write("b", hb);
  f.engine->run(0);
  expectNear(f.read<float>("c", m * n), reference(ha, hb, 1, m, k, n), "c", 1e-4f);
}

void test_transposed_operands(void **) {
  MatMulFixture f;
  const std::size_t m = 9, k = 14, n = 6;
  Tensor at = f.var(FLOAT, {k, m}, "at"), bt = f.var(FLOAT, {n, k}, "bt");
  Tensor c = poplin::matMul(f.graph, at.transpose(), bt.transpose(), f.prog);
  f.readable(c, "c");
  f.build();
  auto ha = floats(m * k, 5), hb = floats(k * n, 6);
  f.write("at", transposed(ha, m, k));
  f.write("bt", transposed(hb, k, n));
  f.engine->run(0);
  expectNear(f.read<float>("c", m * n), reference(ha, hb, 1, m, k, n), "c");
}

void test_grouped(void **) {
  MatMulFixture f;
  const std::size_t G = 3, m = 5, k = 7, n = 4;
  Tensor a = poplin::createMatMulGroupedInputLHS(f.graph, FLOAT, {G, m, k}, {G, k, n}, "a");
  Tensor b = poplin::createMatMulGroupedInputRHS(f.graph, FLOAT, {G, m, k}, {G, k, n}, "b");
  f.graph.createHostWrite("a", a);
  f.graph.createHostWrite("b", b);
  Tensor c = poplin::matMulGrouped(f.graph, a, b, f.prog);
  assert_true(c.shape() == (std::vector<std::size_t>{G, m, n}));
  // The same product with the second operand given as a transposed grouped view.
  Tensor bt = f.var(FLOAT, {G, n, k}, "bt");
  Tensor c2 = poplin::matMulGrouped(f.graph, a, poplin::transposeGroupedMatrix(bt), f.prog);
  f.readable(c, "c");
  f.readable(c2, "c2");
  f.build();
  auto ha = floats(G * m * k, 7), hb = floats(G * k * n, 8);
  std::vector<float> hbt;
  for (std::size_t g = 0; g < G; ++g) {
    std::vector<float> one(hb.begin() + g * k * n, hb.begin() + (g + 1) * k * n);
    auto t = transposed(one, k, n);
    hbt.insert(hbt.end(), t.begin(), t.end());
  }
  f.write("a", ha);
  f.write("b", hb);
  f.write("bt", hbt);
  f.engine->run(0);
  auto want = reference(ha, hb, G, m, k, n);
  expectNear(f.read<float>("c", G * m * n), want, "c");
  expectNear(f.read<float>("c2", G * m * n), want, "c2");
}

// Grouped operands created for HALF inputs and a FLOAT result (the planner's problem for those types), the product
// into FLOAT, and matmulValidateOptions.
void test_grouped_mixed_types_and_options(void **) {
  MatMulFixture f;
  const std::size_t G = 2, m = 3, k = 40, n = 5;
  const std::vector<std::size_t> aShape = {G, m, k}, bShape = {G, k, n};
  Tensor a = poplin::createMatMulGroupedInputLHS(f.graph, HALF, FLOAT, aShape, bShape, "a");
  Tensor b = poplin::createMatMulGroupedInputRHS(f.graph, HALF, FLOAT, aShape, bShape, "b");
  assert_true(a.elementType() == HALF && a.shape() == aShape && b.elementType() == HALF && b.shape() == bShape);
  f.graph.createHostWrite("a", a);
  f.graph.createHostWrite("b", b);
  Tensor c = poplin::matMulGrouped(f.graph, a, b, f.prog, FLOAT);
  assert_true(c.elementType() == FLOAT);
  f.readable(c, "c");
  f.build();
  auto ha = floats(G * m * k, 3), hb = floats(G * k * n, 4); // exact in half
  f.writeHalf("a", ha);
  f.writeHalf("b", hb);
  f.engine->run(0);
  expectNear(f.read<float>("c", G * m * n), reference(ha, hb, G, m, k, n), "HALF x HALF -> FLOAT grouped", 1e-5f);
  poplin::matmulValidateOptions({{"partialsType", "float"}, {"availableMemoryProportion", "0.3"}});
  poplin::matmulValidateOptions({});
  expectThrow<poplar::invalid_option>([&] { poplin::matmulValidateOptions({{"noSuchOption", "1"}}); },
                                      "noSuchOption");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::matmulValidateOptions({{"availableMemoryProportion", "lots"}}); }, "availableMemoryProportion");
}

void test_acc_and_with_output(void **) {
  MatMulFixture f;
  const std::size_t m = 6, k = 5, n = 7;
  Tensor a = f.var(FLOAT, {m, k}, "a"), b = f.var(FLOAT, {k, n}, "b");
  Tensor c1 = f.var(FLOAT, {m, n}, "c1"), c2 = f.var(FLOAT, {m, n}, "c2");
  Tensor scale = f.var(FLOAT, {1}, "scale");
  poplin::matMulAcc(f.graph, c1, -0.5f, a, b, f.prog);
  poplin::matMulAcc(f.graph, c2, scale, a, b, f.prog);
  Tensor out = poplin::createMatMulOutput(f.graph, FLOAT, FLOAT, {m, k}, {k, n}, "out");
  poplin::matMulWithOutput(f.graph, a, b, out, f.prog);
  Tensor unmapped = f.graph.addVariable(FLOAT, {m, n}, "unmapped");
  poplin::matMulWithOutput(f.graph, a, b, unmapped, f.prog);
  f.readable(out, "out");
  f.readable(unmapped, "unmapped.r");
  f.build();
  auto ha = floats(m * k, 9), hb = floats(k * n, 10), hc = floats(m * n, 11);
  f.write("a", ha);
  f.write("b", hb);
  f.write("c1", hc);
  f.write("c2", hc);
  f.write("scale", std::vector<float>{2.0f});
  f.engine->run(0);
  auto p = reference(ha, hb, 1, m, k, n);
  std::vector<float> w1(m * n), w2(m * n);
  for (std::size_t i = 0; i < m * n; ++i) {
    w1[i] = hc[i] - 0.5f * p[i];
    w2[i] = hc[i] + 2.0f * p[i];
  }
  expectNear(f.read<float>("c1.r", m * n), w1, "c1");
  expectNear(f.read<float>("c2.r", m * n), w2, "c2");
  expectNear(f.read<float>("out", m * n), p, "out");
  expectNear(f.read<float>("unmapped.r", m * n), p, "unmapped");
}

// HALF operands: float accumulation and partials, one rounding to a HALF (or a FLOAT) result.
void test_half(void **) {
  MatMulFixture f;
  const std::size_t m = 5, k = 300, n = 3;
  Tensor a = f.var(HALF, {m, k}, "a"), b = f.var(HALF, {k, n}, "b");
  OptionFlags opts{{"partialsType", "float"}};
  Tensor ch = poplin::matMul(f.graph, a, b, f.prog, "h", opts);
  Tensor cf = poplin::matMul(f.graph, a, b, f.prog, FLOAT, "f", opts);
  assert_true(ch.elementType() == HALF);
  assert_true(cf.elementType() == FLOAT);
  f.readable(ch, "ch");
  f.readable(cf, "cf");
  f.build();
  auto ha = floats(m * k, 12), hb = floats(k * n, 13); // exact in half: multiples of 0.25 up to 4
  std::vector<unsigned short> da(m * k), db(k * n), dch(m * n);
  copyFloatToDeviceHalf(f.graph.getTarget(), ha.data(), da.data(), da.size());
  copyFloatToDeviceHalf(f.graph.getTarget(), hb.data(), db.data(), db.size());
  f.engine->writeTensor("a", da.data(), da.data() + da.size());
  f.engine->writeTensor("b", db.data(), db.data() + db.size());
  f.engine->run(0);
  f.engine->readTensor("ch", dch.data(), dch.data() + dch.size());
  std::vector<float> gotH(m * n);
  copyDeviceHalfToFloat(f.graph.getTarget(), dch.data(), gotH.data(), gotH.size());
  auto want = reference(ha, hb, 1, m, k, n);
  expectNear(f.read<float>("cf", m * n), want, "cf", 1e-5f);
  expectNear(gotH, want, "ch", 1e-3f);
}

// The split counts "groups/rows/cols/inner" of a plan report.
std::vector<unsigned> splitsOf(const std::string &plan) {
  std::size_t at = plan.find("split groups/rows/cols/inner ");
  assert_true(at != std::string::npos);
  std::istringstream s(plan.substr(at + 29));
  std::vector<unsigned> v(4);
  char slash;
  s >> v[0] >> slash >> v[1] >> slash >> v[2] >> slash >> v[3];
  return v;
}

// HALF operands with partialsType half: each inner part's sum (exact in float here: the operands are multiples of
// 1/4 up to 4) is rounded to half, each reduction stage of up to 8 partials rounds its sums to half again, and the
// last stage rounds to the output. The host repeats those roundings, so the comparison is exact; float partials
// (one rounding) give different results for some outputs.
void test_half_partials(void **) {
  MatMulFixture f(64);
  const std::size_t m = 1, k = 8192, n = 8;
  OptionFlags half{{"partialsType", "half"}}, flt{{"partialsType", "float"}};
  std::ostringstream planText;
  poplin::matMulReportPlan(planText, f.graph, HALF, {m, k}, {k, n}, half);
  const std::vector<unsigned> split = splitsOf(planText.str());
  const unsigned K = split[3];
  if (K <= 8) {
    print_error("plan without a multi-stage reduction: %s", planText.str().c_str());
    fail();
  }
  Tensor a = f.var(HALF, {m, k}, "a"), b = f.var(HALF, {k, n}, "b");
  f.readable(poplin::matMul(f.graph, a, b, f.prog, "h", half), "ch");
  f.readable(poplin::matMul(f.graph, a, b, f.prog, FLOAT, "hf", half), "cf");
  f.readable(poplin::matMul(f.graph, a, b, f.prog, "fh", flt), "cfloat");
  f.build();
  // Multiples of 1/4 in [-4, 4], scattered by a multiplicative hash (not periodic like floats()).
  auto scattered = [](std::size_t count, unsigned seed) {
    std::vector<float> v(count);
    for (std::size_t i = 0; i < count; ++i)
      v[i] = float(int(((unsigned(i + seed * 7919u) * 2654435761u) >> 7) % 33u) - 16) * 0.25f;
    return v;
  };
  const std::vector<float> ha = scattered(m * k, 1), hb = scattered(k * n, 2);
  f.writeHalf("a", ha);
  f.writeHalf("b", hb);
  f.engine->run(0);
  const std::size_t kBlock = (k + K - 1) / K;
  std::vector<float> wantH(m * n), wantF(m * n), wantFloat(m * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      std::vector<float> partials;
      float exact = 0;
      for (std::size_t kb = 0; kb < k; kb += kBlock) {
        float acc = 0;
        for (std::size_t x = kb; x < std::min(k, kb + kBlock); ++x)
          acc += ha[i * k + x] * hb[x * n + j];
        partials.push_back(f.rh(acc));
        exact += acc;
      }
      while (partials.size() > 8) { // intermediate stages: groups of 8, rounded to half
        std::vector<float> next;
        for (std::size_t g = 0; g < partials.size(); g += 8) {
          float s = 0;
          for (std::size_t q = g; q < std::min(partials.size(), g + 8); ++q)
            s += partials[q];
          next.push_back(f.rh(s));
        }
        partials = next;
      }
      float last = 0;
      for (float v : partials)
        last += v;
      wantH[i * n + j] = f.rh(last);
      wantF[i * n + j] = last;
      wantFloat[i * n + j] = f.rh(exact);
    }
  expectNear(f.readHalf("ch", m * n), wantH, "half partials, half result", 0);
  expectNear(f.read<float>("cf", m * n), wantF, "half partials, float result", 0);
  expectNear(f.readHalf("cfloat", m * n), wantFloat, "float partials", 0);
  bool differs = false;
  for (std::size_t i = 0; i < m * n; ++i)
    differs = differs || wantH[i] != wantFloat[i];
  assert_true(differs);
}

// The tile of each element of t.
std::vector<unsigned> tilesOf(const Graph &graph, const Tensor &t) {
  std::vector<unsigned> tiles(t.numElements(), ~0u);
  const auto mapping = graph.getTileMapping(t);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &iv : mapping[tile])
      for (std::size_t e = iv.begin(); e < iv.end(); ++e)
        tiles[e] = tile;
  return tiles;
}

std::size_t sameTiles(const std::vector<unsigned> &a, const std::vector<unsigned> &b) {
  std::size_t same = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    same += a[i] == b[i];
  return same;
}

// For a layer of X{m,k} * W{k,n} created for TRAINING_FWD: how many elements of W^T (of X^T) are on the tile
// where the BWD (WU) pass's own operand layout puts them, with the pass option and with NONE.
struct Agreement {
  std::size_t bwd, bwdNone, wu, wuNone, w, x;
};
Agreement layoutAgreement(std::size_t m, std::size_t k, std::size_t n) {
  MatMulFixture f;
  OptionFlags fwdOpt{{"fullyConnectedPass", "TRAINING_FWD"}}, bwdOpt{{"fullyConnectedPass", "TRAINING_BWD"}};
  OptionFlags wuOpt{{"fullyConnectedPass", "TRAINING_WU"}}, none;
  Tensor x = poplin::createMatMulInputLHS(f.graph, FLOAT, {m, k}, {k, n}, "x", fwdOpt);
  Tensor w = poplin::createMatMulInputRHS(f.graph, FLOAT, {m, k}, {k, n}, "w", fwdOpt);
  const std::vector<unsigned> wt = tilesOf(f.graph, w.transpose()), xt = tilesOf(f.graph, x.transpose());
  Agreement a;
  a.bwd = sameTiles(wt, tilesOf(f.graph, poplin::createMatMulInputRHS(f.graph, FLOAT, {m, n}, {n, k}, "b", bwdOpt)));
  a.bwdNone = sameTiles(wt, tilesOf(f.graph, poplin::createMatMulInputRHS(f.graph, FLOAT, {m, n}, {n, k}, "c", none)));
  a.wu = sameTiles(xt, tilesOf(f.graph, poplin::createMatMulInputLHS(f.graph, FLOAT, {k, m}, {m, n}, "d", wuOpt)));
  a.wuNone = sameTiles(xt, tilesOf(f.graph, poplin::createMatMulInputLHS(f.graph, FLOAT, {k, m}, {m, n}, "e", none)));
  a.w = wt.size();
  a.x = xt.size();
  return a;
}

// A fully connected layer's three passes with fullyConnectedPass: the BWD pass's own layout of W^T is the
// forward weights' layout (every element on the same tile; NONE's plan moves most of them), the WU pass's layout of
// X^T keeps more of X where the forward put it than NONE's, the BWD and WU plans differ from NONE's, and every
// result matches the host.
void test_fully_connected_passes(void **) {
  const std::size_t m = 16, k = 64, n = 128;
  const Agreement a = layoutAgreement(m, k, n);
  print_message("W^T on the forward weights' tiles: TRAINING_BWD %zu, NONE %zu of %zu; X^T on the forward input's "
                "tiles: TRAINING_WU %zu, NONE %zu of %zu\n",
                a.bwd, a.bwdNone, a.w, a.wu, a.wuNone, a.x);
  assert_int_equal(a.bwd, a.w);
  assert_true(a.bwdNone < a.w);
  assert_true(a.wu > a.wuNone);
  const Agreement b = layoutAgreement(8, 784, 64); // an MNIST-sized layer
  assert_int_equal(b.bwd, b.w);
  assert_true(b.bwdNone < b.w);

  MatMulFixture f;
  OptionFlags fwdOpt{{"fullyConnectedPass", "TRAINING_FWD"}}, bwdOpt{{"fullyConnectedPass", "TRAINING_BWD"}};
  OptionFlags wuOpt{{"fullyConnectedPass", "TRAINING_WU"}}, none;
  auto plan = [&](std::vector<std::size_t> as, std::vector<std::size_t> bs, const OptionFlags &o) {
    std::ostringstream s;
    poplin::matMulReportPlan(s, f.graph, FLOAT, as, bs, o);
    return s.str();
  };
  assert_true(plan({m, n}, {n, k}, bwdOpt) != plan({m, n}, {n, k}, none));
  assert_true(plan({k, m}, {m, n}, wuOpt) != plan({k, m}, {m, n}, none));
  Tensor x = poplin::createMatMulInputLHS(f.graph, FLOAT, {m, k}, {k, n}, "x", fwdOpt);
  Tensor w = poplin::createMatMulInputRHS(f.graph, FLOAT, {m, k}, {k, n}, "w", fwdOpt);
  f.graph.createHostWrite("x", x);
  f.graph.createHostWrite("w", w);
  Tensor dy = f.var(FLOAT, {m, n}, "dy");
  Tensor y = poplin::matMul(f.graph, x, w, f.prog, "fwd", fwdOpt);
  Tensor dx = poplin::matMul(f.graph, dy, w.transpose(), f.prog, "bwd", bwdOpt);
  Tensor dw = poplin::matMul(f.graph, x.transpose(), dy, f.prog, "wu", wuOpt);
  f.readable(y, "y");
  f.readable(dx, "dx");
  f.readable(dw, "dw");
  f.build();
  auto hx = floats(m * k, 31), hw = floats(k * n, 32), hdy = floats(m * n, 33);
  f.write("x", hx);
  f.write("w", hw);
  f.write("dy", hdy);
  f.engine->run(0);
  expectNear(f.read<float>("y", m * n), reference(hx, hw, 1, m, k, n), "y", 1e-5f);
  expectNear(f.read<float>("dx", m * k), reference(hdy, transposed(hw, k, n), 1, m, n, k), "dx", 1e-5f);
  expectNear(f.read<float>("dw", k * n), reference(transposed(hx, m, k), hdy, 1, k, m, n), "dw", 1e-5f);
}

void test_cache_and_report(void **) {
  MatMulFixture f;
  poplin::matmul::PlanningCache cache;
  Tensor a = poplin::createMatMulInputLHS(f.graph, FLOAT, {8, 8}, {8, 8}, "a", {}, &cache);
  assert_int_equal(cache.size(), 1);
  Tensor b = poplin::createMatMulInputRHS(f.graph, FLOAT, {8, 8}, {8, 8}, "b", {}, &cache);
  poplin::matMul(f.graph, a, b, f.prog, "", {}, &cache);
  assert_int_equal(cache.size(), 1);
  poplin::matMul(f.graph, a, b, f.prog, "", {{"availableMemoryProportion", "0.3"}}, &cache);
  assert_int_equal(cache.size(), 2);
  std::ostringstream s;
  poplin::matMulReportPlan(s, f.graph, FLOAT, {8, 8}, {8, 8}, {}, &cache);
  assert_true(s.str().find("estimate") != std::string::npos);
  assert_true(s.str().find("tiles") != std::string::npos);
}

void test_errors(void **) {
  MatMulFixture f;
  Tensor a = f.var(FLOAT, {4, 5}, "a"), b = f.var(FLOAT, {6, 3}, "b"), h = f.var(HALF, {5, 3}, "h");
  Tensor i = f.var(INT, {5, 3}, "i"), g = f.var(FLOAT, {2, 4, 5}, "g");
  Tensor ok = f.var(FLOAT, {5, 3}, "ok");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMul(f.graph, a, b, f.prog); }, "inner dimensions differ");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMul(f.graph, a, h, f.prog); }, "same type");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMul(f.graph, a.reinterpret(INT), i, f.prog); },
                                      "FLOAT or HALF");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMul(f.graph, g, ok, f.prog); }, "2-D");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMulGrouped(f.graph, a, ok, f.prog); }, "3-D");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMul(f.graph, a, ok, f.prog, HALF); }, "output type");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::matMul(f.graph, a, ok, f.prog, "", {{"availableMemoryProportion", "1.5"}}); },
      "availableMemoryProportion");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::matMul(f.graph, a, ok, f.prog, "", {{"partialsType", "double"}}); }, "partialsType");
  expectThrow<poplar::invalid_option>(
      [&] { poplin::matMul(f.graph, a, ok, f.prog, "", {{"fullyConnectedPass", "SIDEWAYS"}}); },
      "fullyConnectedPass");
  expectThrow<poplar::invalid_option>([&] { poplin::matMul(f.graph, a, ok, f.prog, "", {{"colour", "red"}}); },
                                      "unknown option 'colour'");
  expectThrow<poputil::poplibs_error>(
      [&] {
        poplin::createMatMulInputLHS(f.graph, FLOAT, {512, 512}, {512, 512}, "x",
                                     {{"availableMemoryProportion", "0.001"}});
      },
      "raise availableMemoryProportion");
  Tensor small = f.var(FLOAT, {4, 4}, "small");
  expectThrow<poputil::poplibs_error>([&] { poplin::matMulAcc(f.graph, small, 1.0f, a, ok, f.prog); },
                                      "C has shape");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shape_grid),       cmocka_unit_test(test_multi_stage_reduction),
      cmocka_unit_test(test_larger_than_one_tile), cmocka_unit_test(test_transposed_operands),
      cmocka_unit_test(test_grouped),          cmocka_unit_test(test_acc_and_with_output),
      cmocka_unit_test(test_grouped_mixed_types_and_options),
      cmocka_unit_test(test_half),             cmocka_unit_test(test_half_partials),
      cmocka_unit_test(test_fully_connected_passes), cmocka_unit_test(test_cache_and_report),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
