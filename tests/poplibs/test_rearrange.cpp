// popops/Rearrange.hpp against host references, on 16-tile and one-tile ipu2-like IPU Models: partialTranspose
// of FLOAT and HALF batches; regroupTensor, regroupIfPossible and both forms of regroupIfBeneficial keep every value
// and make the requested grouping the innermost one that poputil::detectDimGroupings finds; the grain sizes, the
// fast-transpose rule and the errors.
#include <popops/Rearrange.hpp>
#include <poputil/VarStructure.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
namespace rearrange = popops::rearrange;

namespace {

// Element i of `h` seen as [rows, cols], transposed.
std::vector<float> transposed(const std::vector<float> &h, std::size_t batch, std::size_t rows, std::size_t cols) {
  std::vector<float> r(h.size());
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t j = 0; j < cols; ++j)
        r[b * rows * cols + j * rows + i] = h[b * rows * cols + i * cols + j];
  return r;
}

void checkPartialTranspose(unsigned tiles) {
  Fixture f(tiles);
  Tensor x = f.var(FLOAT, {3, 5, 7}, "x"), h = f.var(HALF, {2, 4, 8}, "h");
  ComputeSet cs = f.graph.addComputeSet("transpose");
  Tensor xt = rearrange::partialTranspose(f.graph, x, cs, "xt");
  Tensor ht = rearrange::partialTranspose(f.graph, h, cs);
  assert_true(xt.shape() == (std::vector<std::size_t>{3, 7, 5}));
  assert_true(ht.shape() == (std::vector<std::size_t>{2, 8, 4}));
  f.prog.add(program::Execute(cs));
  f.readable(xt, "xt");
  f.readable(ht, "ht");
  f.build();
  const auto hx = floats(105, 3), hh = floats(64, 5);
  f.write("x", hx);
  f.writeHalf("h", hh);
  f.engine->run(0);
  expectNear(f.read<float>("xt", 105), transposed(hx, 3, 5, 7), "partialTranspose FLOAT", 0);
  expectNear(f.readHalf("ht", 64), transposed(f.rh(hh), 2, 4, 8), "partialTranspose HALF", 0);
}

void test_partial_transpose(void **) {
  checkPartialTranspose(16);
  checkPartialTranspose(1);
}

// The innermost grouping poputil finds.
poputil::GroupingInfo innermost(const Graph &g, const Tensor &t) {
  const auto groupings = poputil::detectDimGroupings(g, t);
  assert_false(groupings.empty());
  return groupings[0];
}

// A [12, 8] FLOAT row-major tensor (grouped on dimension 1) regrouped to groups of 4 along dimension 0, through
// regroupTensor (both copy forms), regroupIfPossible and regroupIfBeneficial towards a column-major reference; a
// HALF [8, 16] column-major view regrouped to the preferred innermost grouping of 8.
void checkRegroup(unsigned tiles) {
  Fixture f(tiles);
  Graph &g = f.graph;
  Tensor t = f.var(FLOAT, {12, 8}, "t");
  assert_int_equal(innermost(g, t).first, 1);
  program::Sequence copies;
  ComputeSet cs = g.addComputeSet("regroup");
  Tensor a = rearrange::regroupTensor(g, t, copies, cs, {1, 2}, {0, 4});
  std::vector<program::Copy> copyList;
  Tensor b = rearrange::regroupTensor(g, t, copyList, cs, {1, 4}, {0, 2});
  for (const auto &c : copyList)
    copies.add(c);
  f.prog.add(copies);
  f.prog.add(program::Execute(cs));
  Tensor c = rearrange::regroupIfPossible(g, t, f.prog, {0, 4});
  Tensor refVar = g.addVariable(FLOAT, {8, 12}, "refVar");
  poputil::mapTensorLinearly(g, refVar);
  Tensor d = rearrange::regroupIfBeneficial(g, t, refVar.transpose(), f.prog);
  Tensor hv = f.var(HALF, {16, 8}, "hv");
  Tensor hcol = hv.transpose(); // [8, 16], contiguous along dimension 0
  Tensor e = rearrange::regroupIfBeneficial(g, hcol, 8, f.prog);
  for (const Tensor &r : {a, b, c, d})
    assert_true(r.shape() == t.shape());
  assert_int_equal(innermost(g, a).first, 0);
  assert_int_equal(innermost(g, a).second % 4, 0);
  assert_int_equal(innermost(g, c).first, 0);
  assert_int_equal(innermost(g, d).first, 0);
  assert_int_equal(innermost(g, e).first, 1);
  assert_int_equal(innermost(g, e).second % 8, 0);
  // Nothing to do: already grouped on the requested dimension, or the grouping does not divide it.
  assert_true(rearrange::regroupIfPossible(g, t, f.prog, {1, 4}).getContiguousRegions() ==
              t.getContiguousRegions());
  assert_true(rearrange::regroupIfPossible(g, t, f.prog, {0, 5}).getContiguousRegions() ==
              t.getContiguousRegions());
  f.readable(a, "a");
  f.readable(b, "b");
  f.readable(c, "c");
  f.readable(d, "d");
  f.readable(e, "e");
  f.build();
  const auto ht = floats(96, 7), hh = floats(128, 2);
  f.write("t", ht);
  f.writeHalf("hv", hh);
  f.engine->run(0);
  for (const char *name : {"a", "b", "c", "d"})
    expectNear(f.read<float>(name, 96), ht, name, 0);
  expectNear(f.readHalf("e", 128), transposed(f.rh(hh), 1, 16, 8), "regroupIfBeneficial HALF", 0);
}

void test_regroup(void **) {
  checkRegroup(16);
  checkRegroup(1);
}

void test_rules_and_errors(void **) {
  Fixture f(4);
  assert_int_equal(rearrange::getMinimumRegroupGrainSize(QUARTER), 8);
  assert_int_equal(rearrange::getMinimumRegroupGrainSize(HALF), 4);
  assert_int_equal(rearrange::getMinimumRegroupGrainSize(SHORT), 4);
  assert_int_equal(rearrange::getMinimumRegroupGrainSize(FLOAT), 2);
  assert_int_equal(rearrange::getMinimumRegroupGrainSize(INT), 2);
  assert_int_equal(rearrange::getMinimumRegroupGrainSize(BOOL), 1);
  const Target &target = f.graph.getTarget();
  assert_true(rearrange::canUseFastTranspose(target, HALF, 8, 12, 10));
  assert_false(rearrange::canUseFastTranspose(target, HALF, 6, 12, 10));
  assert_false(rearrange::canUseFastTranspose(target, FLOAT, 8, 8, 1));
  assert_true(rearrange::canUseFastTranspose(target, QUARTER, 16, 8, 1));
  assert_false(rearrange::canUseFastTranspose(target, QUARTER, 4, 8, 1));
  Tensor t = f.var(FLOAT, {6, 4}, "t");
  ComputeSet cs = f.graph.addComputeSet("cs");
  program::Sequence p;
  expectThrow<poputil::poplibs_error>([&] { rearrange::regroupTensor(f.graph, t, p, cs, {1, 4}, {0, 4}); },
                                      "does not divide");
  expectThrow<poputil::poplibs_error>([&] { rearrange::regroupTensor(f.graph, t, p, cs, {2, 1}, {0, 2}); },
                                      "rank 2");
  expectThrow<poputil::poplibs_error>(
      [&] { rearrange::regroupTensor(f.graph, f.var(BOOL, {4, 4}, "b"), p, cs, {1, 2}, {0, 2}); },
      "cannot be regrouped");
  expectThrow<poputil::poplibs_error>([&] { rearrange::regroupIfBeneficial(f.graph, t, 3, p); }, "not divisible");
  expectThrow<poputil::poplibs_error>([&] { rearrange::regroupIfBeneficial(f.graph, t, t.transpose(), p); },
                                      "same shape");
  expectThrow<poputil::poplibs_error>([&] { rearrange::partialTranspose(f.graph, t.flatten(), cs); }, "rank 2");
  expectThrow<poputil::poplibs_error>(
      [&] {
        rearrange::addTransposeVertices(f.graph, cs, BOOL, 2, 2, {{Interval(0, 1)}},
                                        [&](std::size_t) { return std::make_pair(t, t); });
      },
      "cannot be transposed");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_partial_transpose),
      cmocka_unit_test(test_regroup),
      cmocka_unit_test(test_rules_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
