// popops' grouped multi-slice family against a host reference: createGroupedSliceableTensor / SliceTensor /
// IndicesTensor shapes, groupedMultiSlice and groupedMultiUpdate / Add / Max / Mul on FLOAT and HALF groups
// (each group with its own indices, out-of-range ones ignored by the updates), the ungrouped multiUpdateMul and
// multiUpdateAdd with indices known at build time, the grouped plan and planMultiple, and the errors.
#include <algorithm>

#include <popops/DynamicSlice.hpp>
#include <popops/Expr.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

using Shape = std::vector<std::size_t>;
const std::size_t G = 3, R = 5, C = 4, N = 3;

/// The host reference of one grouped op: op 0 slice (returns the slices), 1 update, 2 add 0.5 *, 3 max, 4 mul.
std::vector<float> reference(int op, std::vector<float> t, const std::vector<float> &s,
                             const std::vector<unsigned> &ids) {
  std::vector<float> out;
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t k = 0; k < N; ++k) {
      const unsigned row = ids[g * N + k];
      for (std::size_t c = 0; c < C; ++c) {
        if (op == 0) {
          out.push_back(row < R ? t[(g * R + row) * C + c] : 0.0f);
          continue;
        }
        if (row >= R)
          continue;
        float &e = t[(g * R + row) * C + c];
        const float u = s[(g * N + k) * C + c];
        e = op == 1 ? u : op == 2 ? e + 0.5f * u : op == 3 ? std::max(e, u) : e * u;
      }
    }
  return op == 0 ? out : t;
}

void runGrouped(const Type &type) {
  Fixture f(8);
  const bool half = type == HALF;
  popops::SlicePlan plan = popops::embedding::plan(f.graph, type, G, R, C, {N}, {});
  auto handle = [&](const Tensor &t, const std::string &n) {
    Tensor v = half ? t.reinterpret(UNSIGNED_SHORT) : t;
    f.graph.createHostWrite(n, v);
    f.graph.createHostRead(n + ".r", v);
  };
  Tensor ids = popops::createGroupedIndicesTensor(f.graph, G, {0}, N, plan, {}, "ids");
  assert_true(ids.shape() == (Shape{G, N, 1}));
  f.graph.createHostWrite("ids", ids);
  Tensor s = popops::createGroupedSliceTensor(f.graph, type, G, {R, C}, {0}, {1}, N, plan, {}, "s");
  assert_true(s.shape() == (Shape{G, N, 1, C}));
  handle(s, "s");
  std::vector<Tensor> ts;
  for (int op = 0; op < 5; ++op) {
    Tensor t = popops::createGroupedSliceableTensor(f.graph, type, G, {R, C}, {0}, {1}, plan, {}, "t");
    assert_true(t.shape() == (Shape{G, R, C}));
    handle(t, "t" + std::to_string(op));
    ts.push_back(t);
  }
  Tensor scale = f.graph.addVariable(type, {1}, "scale");
  f.graph.setTileMapping(scale, 1);
  handle(scale, "scale");
  Tensor got = popops::groupedMultiSlice(f.graph, ts[0], ids, {0}, {1}, f.prog, plan, {});
  assert_true(got.shape() == (Shape{G, N, 1, C}));
  f.readable(half ? got.reinterpret(UNSIGNED_SHORT) : got, "got");
  popops::groupedMultiUpdate(f.graph, ts[1], s, ids, {0}, {1}, f.prog, plan, {});
  popops::groupedMultiUpdateAdd(f.graph, ts[2], s, ids, scale, {0}, {1}, f.prog, plan, {});
  popops::groupedMultiUpdateMax(f.graph, ts[3], s, ids, {0}, {1}, f.prog, plan, {});
  popops::groupedMultiUpdateMul(f.graph, ts[4], s, ids, {0}, {1}, f.prog, plan, {});
  f.build();
  const std::vector<float> ht = floats(G * R * C, 4), hs = floats(G * N * C, 9);
  const std::vector<unsigned> hid = {4, 0, 4, 2, 9, 1, 3, 3, 0}; // group 1 has an out-of-range index
  f.write("ids", hid);
  for (int op = 0; op < 5; ++op)
    half ? f.writeHalf("t" + std::to_string(op), ht) : f.write("t" + std::to_string(op), ht);
  half ? f.writeHalf("s", hs) : f.write("s", hs);
  half ? f.writeHalf("scale", {0.5f}) : f.write("scale", std::vector<float>{0.5f});
  f.engine->run(0);
  const float tol = half ? kHalfTol : 1e-5f;
  auto readF = [&](const std::string &h, std::size_t n) { return half ? f.readHalf(h, n) : f.read<float>(h, n); };
  expectNear(readF("got", G * N * C), reference(0, ht, hs, hid), "groupedMultiSlice", tol);
  const char *names[5] = {"", "groupedMultiUpdate", "groupedMultiUpdateAdd", "groupedMultiUpdateMax",
                          "groupedMultiUpdateMul"};
  for (int op = 1; op < 5; ++op) {
    std::vector<float> want = reference(op, ht, hs, hid);
    if (half)
      want = f.rh(want);
    expectNear(readF("t" + std::to_string(op) + ".r", G * R * C), want, names[op], tol);
  }
}

void test_grouped_float(void **) { runGrouped(FLOAT); }
void test_grouped_half(void **) { runGrouped(HALF); }

// The ungrouped multiUpdateMul (INT) and the multiUpdateAdd whose indices are known when the graph is built.
void test_mul_and_static_add(void **) {
  Fixture f(4);
  Tensor t = f.var(INT, {4, 2}, "t"), s = f.var(INT, {3, 1, 2}, "s"), ids = f.var(UNSIGNED_INT, {3, 1}, "ids");
  popops::multiUpdateMul(f.graph, t, s, ids, {0}, {1}, f.prog, popops::SlicePlan(), {});
  Tensor a = f.var(FLOAT, {4, 2}, "a"), as = f.var(FLOAT, {3, 1, 2}, "as"), scale = f.var(FLOAT, {1}, "scale");
  popops::multiUpdateAdd(f.graph, a, as, std::vector<unsigned>{2, 0, 2}, scale, 0, f.prog);
  f.build();
  f.write("t", std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8});
  f.write("s", std::vector<int>{2, 3, -1, 2, 5, 5});
  f.write("ids", std::vector<unsigned>{1, 3, 1});
  const std::vector<float> ha = floats(8, 2), hs = floats(6, 3);
  f.write("a", ha);
  f.write("as", hs);
  f.write("scale", std::vector<float>{2.0f});
  f.engine->run(0);
  expectEqual(f.read<int>("t.r", 8), std::vector<int>{1, 2, 30, 60, 5, 6, -7, 16}, "multiUpdateMul");
  std::vector<float> want = ha;
  const unsigned rows[3] = {2, 0, 2};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 2; ++j)
      want[rows[k] * 2 + j] += 2.0f * hs[k * 2 + j];
  expectNear(f.read<float>("a.r", 8), want, "static multiUpdateAdd");
}

void test_plans_and_errors(void **) {
  Fixture f(4);
  using popops::embedding::SlicePlanningParameters;
  std::vector<SlicePlanningParameters> params = {SlicePlanningParameters(f.graph, HALF, 2, 1, 1, {1, 1}, {}),
                                                 SlicePlanningParameters(f.graph, FLOAT, 1, 4, 16, {2}, {})};
  std::vector<popops::SlicePlan> plans = popops::embedding::planMultiple(params);
  assert_int_equal(plans.size(), 2);
  assert_true(plans[0] == popops::embedding::plan(f.graph, HALF, 2, 1, 1, {1, 1}, {}));
  assert_true(plans[1] == popops::embedding::plan(f.graph, FLOAT, 4, 16, {2}, {}));
  assert_true(plans[0] != plans[1]);
  assert_int_equal(params[1].groupSize, 1);
  // A Const prints a value that reads back exactly.
  assert_true(std::stof(popops::expr::Const(1e-8f).printValue()) == 1e-8f);
  assert_true(popops::expr::Const(7).printValue() == "7");
  assert_true(popops::expr::Const(2u).getType() == UNSIGNED_INT);
  Tensor t = f.graph.addVariable(FLOAT, {2, 3, 4}), ids = f.graph.addVariable(UNSIGNED_INT, {3, 2, 1});
  expectThrow<poputil::poplibs_error>(
      [&] { popops::groupedMultiSlice(f.graph, t, ids, {0}, {1}, f.prog, popops::SlicePlan(), {}); },
      "give every argument the same first dimension");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::createGroupedSliceableTensor(f.graph, FLOAT, 0, {3, 4}, {0}, {1}, popops::SlicePlan(), {}); },
      "group size is 0");
  // QUARTER groups made apart (each its own metadata) cannot give groupedMultiSlice's one-metadata result.
  Tensor qa = f.graph.addVariable(QUARTER, {1, 3, 4}, "qa"), qb = f.graph.addVariable(QUARTER, {1, 3, 4}, "qb");
  f.graph.setTileMapping(qa, 0);
  f.graph.setTileMapping(qb, 1);
  Tensor qIds = f.graph.addVariable(UNSIGNED_INT, {2, 2, 1}, "qIds");
  f.graph.setTileMapping(qIds, 0);
  expectThrow<poputil::poplibs_error>(
      [&] {
        popops::groupedMultiSlice(f.graph, concat(qa, qb), qIds, {0}, {1}, f.prog, popops::SlicePlan(), {});
      },
      "have different metadata");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grouped_float),
      cmocka_unit_test(test_grouped_half),
      cmocka_unit_test(test_mul_and_static_add),
      cmocka_unit_test(test_plans_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
