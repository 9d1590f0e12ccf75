// popops::scatter (XLA's scatter) against a host reference: whole rows and columns written at run-time indices,
// a multi-dimensional index vector with an unsorted dimension map, the user-computation form adding FLOAT and
// HALF windows (equal indices accumulate in order); XLA gather's remapOutOfBoundIndices (a start that does not
// fit reads from 0); and the argument errors.
#include <popops/ElementWise.hpp>
#include <popops/Gather.hpp>
#include <popops/Scatter.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

void test_scatter_replace(void **) {
  Fixture f(4);
  // Rows: operand [3, 3], indices {0, 2}, updates [2, 3] (window dim 1, inserted dim 0).
  Tensor a = f.var(INT, {3, 3}, "a"), ai = f.var(INT, {2}, "ai"), au = f.var(INT, {2, 3}, "au");
  popops::scatter(f.graph, a, ai, au, 1, {1}, {0}, {0}, f.prog);
  // Columns: updates [3, 2] whose window dim is 0; the scatter dim is 1.
  Tensor b = f.var(INT, {3, 3}, "b"), bi = f.var(UNSIGNED_INT, {2}, "bi"), bu = f.var(INT, {3, 2}, "bu");
  popops::scatter(f.graph, b, bi, bu, 1, {0}, {1}, {1}, f.prog);
  // A 3-component index vector mapped to operand dims {0, 2, 1} of a [2, 3, 4] operand, window [1, 2, 2].
  Tensor c = f.var(FLOAT, {2, 3, 4}, "c"), ci = f.var(INT, {1, 3}, "ci"), cu = f.var(FLOAT, {1, 2, 2}, "cu");
  popops::scatter(f.graph, c, ci, cu, 1, {1, 2}, {0}, {0, 2, 1}, f.prog);
  f.build();
  const std::vector<int> h = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  f.write("a", h);
  f.write("ai", std::vector<int>{0, 2});
  f.write("au", std::vector<int>{10, 20, 30, 70, 80, 90});
  f.write("b", h);
  f.write("bi", std::vector<unsigned>{0, 2});
  f.write("bu", std::vector<int>{10, 30, 40, 60, 70, 90});
  const std::vector<float> hc = floats(24, 3), hu = {-1.5f, 2.5f, 3.5f, -4.5f};
  f.write("c", hc);
  f.write("ci", std::vector<int>{1, 2, 1}); // dim 0 at 1, dim 2 at 2, dim 1 at 1
  f.write("cu", hu);
  f.engine->run(0);
  expectEqual(f.read<int>("a.r", 9), std::vector<int>{10, 20, 30, 4, 5, 6, 70, 80, 90}, "rows");
  expectEqual(f.read<int>("b.r", 9), std::vector<int>{10, 2, 30, 40, 5, 60, 70, 8, 90}, "columns");
  std::vector<float> wc = hc;
  for (std::size_t i = 0; i < 2; ++i) // window rows of dim 1 from 1, columns of dim 2 from 2
    for (std::size_t j = 0; j < 2; ++j)
      wc[(1 * 3 + 1 + i) * 4 + 2 + j] = hu[i * 2 + j];
  expectNear(f.read<float>("c.r", 24), wc, "index vector");
}

void test_scatter_combine(void **) {
  Fixture f(4);
  popops::UpdateComputationFunc add = [](Graph &g, Tensor &cur, Tensor &upd, Sequence &p) {
    return popops::add(g, cur, upd, p);
  };
  // [4, 2] operand; three row updates, two of them at row 1.
  Tensor a = f.var(FLOAT, {4, 2}, "a"), ai = f.var(INT, {3, 1}, "ai"), au = f.var(FLOAT, {3, 2}, "au");
  popops::scatter(f.graph, a, ai, au, 1, {1}, {0}, {0}, add, f.prog);
  Tensor h = f.var(HALF, {4, 2}, "h"), hu = f.var(HALF, {3, 2}, "hu");
  popops::scatter(f.graph, h, ai, hu, 1, {1}, {0}, {0}, add, f.prog);
  // Every window dimension inserted (the window dimension 1 past the updates' rank is ignored): a sum of all.
  Tensor s = f.var(INT, {1}, "s"), si = f.var(INT, {4}, "si"), su = f.var(INT, {4}, "su");
  popops::UpdateComputationFunc addInt = add;
  popops::scatter(f.graph, s, si, su, 1, {1}, {0}, {0}, addInt, f.prog);
  f.build();
  const std::vector<float> ha = floats(8, 1), hupd = floats(6, 2);
  f.write("a", ha);
  f.write("ai", std::vector<int>{1, 3, 1});
  f.write("au", hupd);
  f.writeHalf("h", ha);
  f.writeHalf("hu", hupd);
  f.write("s", std::vector<int>{0});
  f.write("si", std::vector<int>{0, 0, 0, 0});
  f.write("su", std::vector<int>{1, 2, 3, 4});
  f.engine->run(0);
  std::vector<float> want = ha;
  const int rows[3] = {1, 3, 1};
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 2; ++j)
      want[rows[k] * 2 + j] += hupd[k * 2 + j];
  expectNear(f.read<float>("a.r", 8), want, "float add");
  std::vector<float> wantH = f.rh(ha);
  for (int k = 0; k < 3; ++k)
    for (int j = 0; j < 2; ++j)
      wantH[rows[k] * 2 + j] = f.rh(wantH[rows[k] * 2 + j] + f.rh(hupd[k * 2 + j]));
  expectNear(f.readHalf("h.r", 8), wantH, "half add", kHalfTol);
  expectEqual(f.read<int>("s.r", 1), std::vector<int>{10}, "all inserted");
}

// XLA gather of single elements from [3, 3] at index pairs; with remapOutOfBoundIndices a start past the end (or
// negative) reads from 0 in that dimension, without it the start is clamped.
void test_gather_remap(void **) {
  Fixture f(4);
  Tensor in = f.var(INT, {3, 3}, "in"), idx = f.var(UNSIGNED_INT, {6, 2}, "idx");
  Tensor r = popops::gather(f.graph, in, idx, 1, {1, 2}, {1, 1}, {}, {0, 1}, f.prog, {},
                            {{"remapOutOfBoundIndices", "true"}});
  Tensor c = popops::gather(f.graph, in, idx, 1, {1, 2}, {1, 1}, {}, {0, 1}, f.prog);
  f.readable(r, "r");
  f.readable(c, "c");
  f.build();
  f.write("in", std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  f.write("idx", std::vector<unsigned>{2, 7, 2, 1, 1, 1, 5, 1, 2147483647u, 1, 1, 2});
  f.engine->run(0);
  expectEqual(f.read<int>("r", 6), std::vector<int>{7, 8, 5, 2, 2, 6}, "remapped");
  expectEqual(f.read<int>("c", 6), std::vector<int>{9, 8, 5, 8, 8, 6}, "clamped");
}

void test_errors(void **) {
  Fixture f(4);
  Tensor a = f.graph.addVariable(FLOAT, {3, 3}), i = f.graph.addVariable(FLOAT, {2}),
         u = f.graph.addVariable(FLOAT, {2, 3});
  expectThrow<poputil::poplibs_error>([&] { popops::scatter(f.graph, a, i, u, 1, {1}, {0}, {0}, f.prog); },
                                      "must be INT or UNSIGNED_INT");
  Tensor ii = f.graph.addVariable(INT, {2});
  expectThrow<poputil::poplibs_error>([&] { popops::scatter(f.graph, a, ii, u, 1, {1}, {}, {0}, f.prog); },
                                      "do not make the operand's rank");
  expectThrow<poputil::poplibs_error>([&] { popops::scatter(f.graph, a, ii, u, 1, {1}, {0}, {0, 1}, f.prog); },
                                      "scatterDimsToOperandDims has 2 entries");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_scatter_replace),
      cmocka_unit_test(test_scatter_combine),
      cmocka_unit_test(test_gather_remap),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
