// poputil::cloneAndExpandAliasing: a clone whose repeated views become new elements. The first view of each
// element keeps its tile, the repeats are spread from the given tile offset on, the returned offset follows them,
// and a copy from the aliasing tensor into the clone gives every element its own value (FLOAT and HALF).
#include <poputil/TileMapping.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

// Graphcore's documented example shape: [x0, x1, x0, x2] (x_i on tile i) seen as [2, 2], offset 3.
void test_mapping_and_offset(void **) {
  Fixture f(8);
  for (const Type &type : {FLOAT, HALF}) {
    Tensor v = f.graph.addVariable(type, {3}, "v");
    f.graph.setTileMapping(v, {{{0, 1}}, {{1, 2}}, {{2, 3}}});
    Tensor src = poplar::concat({v.slice(0, 1), v.slice(1, 2), v.slice(0, 1), v.slice(2, 3)}).reshape({2, 2});
    auto [dst, offset] = poputil::cloneAndExpandAliasing(f.graph, src, 3, "dst");
    assert_false(dst.containsAliases());
    assert_true(dst.shape() == src.shape());
    assert_true(dst.elementType() == type);
    assert_int_equal(offset, 4);
    Graph::TileToTensorMapping want = {{{0, 1}}, {{1, 2}}, {{3, 4}}, {{2, 3}}};
    want.resize(8);
    assert_true(f.graph.getTileMapping(dst) == want);
  }
  // Without aliases the clone keeps the mapping and the offset is returned unchanged.
  Tensor plain = f.var(FLOAT, {5, 3}, "plain");
  auto [same, off] = poputil::cloneAndExpandAliasing(f.graph, plain, 6);
  assert_int_equal(off, 6);
  assert_true(f.graph.getTileMapping(same) == f.graph.getTileMapping(plain));
}

// A broadcast row (every row a view of the same 7 elements) copied into its expanded clone: each of the 4 x 7
// elements holds the value of the row element it views.
void test_copy_into_clone(void **) {
  Fixture f(4);
  Tensor row = f.var(FLOAT, {1, 7}, "row");
  Tensor src = row.broadcast(4, 0);
  auto [dst, offset] = poputil::cloneAndExpandAliasing(f.graph, src, 0, "dst");
  assert_false(dst.containsAliases());
  assert_true(offset < 4);
  f.prog.add(Copy(src, dst));
  f.readable(dst, "dst");
  Tensor hrow = f.graph.addVariable(HALF, {1, 5}, "hrow");
  f.graph.setTileMapping(hrow, 1);
  f.graph.createHostWrite("hrow", hrow);
  auto hd = poputil::cloneAndExpandAliasing(f.graph, hrow.broadcast(3, 0), 2, "hdst").first;
  f.prog.add(Copy(hrow.broadcast(3, 0), hd));
  f.readable(hd, "hd");
  f.build();
  const auto h = floats(7, 1), hh = floats(5, 2);
  f.write("row", h);
  f.writeHalf("hrow", hh);
  f.engine->run(0);
  std::vector<float> want, hwant;
  for (int r = 0; r < 4; ++r)
    want.insert(want.end(), h.begin(), h.end());
  for (int r = 0; r < 3; ++r)
    for (float x : hh)
      hwant.push_back(f.rh(x));
  expectNear(f.read<float>("dst", 28), want, "dst");
  expectNear(f.readHalf("hd", 15), hwant, "hd", kHalfTol);
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_mapping_and_offset),
      cmocka_unit_test(test_copy_into_clone),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
