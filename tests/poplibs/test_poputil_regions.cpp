// poputil/Util.hpp's interval and dimension helpers: mergeAdjacentRegions, flattenIntervals, both splitRegions and
// splitRegionsBetweenWorkers forms (grains, partition limits, region limits, sequences), intervalSequenceNumElements,
// balancedPartition, the HALF cast checks, factorDims/unfactorDims (views checked element by element on the device)
// and calculateUnshufflingIntervals; and poputil/TileMapping.hpp's mapping questions (offsets, imbalance, splits over
// tiles and IPUs, the tile order transforms, the Target and offset forms of calcLinearTileMapping), against
// hand-computed results, on an ipu2-shaped target, a one-tile one and a two-IPU one.
#include <climits>

#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using IV = std::vector<Interval>;

namespace {

void test_merge_and_flatten(void **) {
  IV r = {{5, 7}, {0, 2}, {2, 5}, {9, 9}, {10, 12}};
  poputil::mergeAdjacentRegions(r);
  assert_true(r == (IV{{0, 7}, {10, 12}}));
  std::vector<IV> m = {{{3, 4}, {1, 3}}, {}, {{8, 9}}};
  poputil::mergeAdjacentRegions(m);
  assert_true(m[0] == (IV{{1, 4}}) && m[1].empty() && m[2] == (IV{{8, 9}}));
  assert_true(poputil::flattenIntervals({{{0, 1}}, {}, {{4, 6}, {2, 3}}}) == (IV{{0, 1}, {4, 6}, {2, 3}}));
  assert_int_equal(poputil::intervalSequenceNumElements({{{0, 3}, {10, 12}}, {{20, 21}}}), 6);
}

void test_split_regions(void **) {
  // 42 elements, grains of 4 (11 grains), at most 8 parts of at least 6 elements: 4 parts of 2, 3, 3, 3 grains.
  const auto parts = poputil::splitRegions({{0, 10}, {15, 20}, {33, 60}}, 4, 8, 6);
  assert_int_equal(parts.size(), 4);
  assert_true(parts[0] == (IV{{0, 8}}));
  assert_true(parts[1] == (IV{{8, 10}, {15, 20}, {33, 38}}));
  assert_true(parts[2] == (IV{{38, 50}}) && parts[3] == (IV{{50, 60}}));
  // Pieces of a region at most 8 long.
  assert_true(poputil::splitRegions({{0, 20}}, 1, 1, 0, UINT_MAX, 8) ==
              (std::vector<IV>{{{0, 8}, {8, 16}, {16, 20}}}));
  // At most 6 elements (3 grains of 2) per part: 4 parts although 2 were allowed.
  assert_true(poputil::splitRegions({{0, 20}}, 2, 2, 0, 6) ==
              (std::vector<IV>{{{0, 4}}, {{4, 10}}, {{10, 14}}, {{14, 20}}}));
  assert_true(poputil::splitRegions(IV{}, 4, 6).empty());
  // Sequences: a part's piece of a sequence is a sequence.
  const auto seqParts = poputil::splitRegions(std::vector<IV>{{{0, 3}, {10, 13}}, {{20, 22}}}, 1, 2);
  assert_int_equal(seqParts.size(), 2);
  assert_true(seqParts[0] == (std::vector<IV>{{{0, 3}, {10, 11}}}));
  assert_true(seqParts[1] == (std::vector<IV>{{{11, 13}}, {{20, 22}}}));
  for (unsigned tiles : {1472u, 1u}) {
    Fixture f(tiles);
    const Target &target = f.graph.getTarget();
    const unsigned workers = target.getNumWorkerContexts();
    const auto w = poputil::splitRegionsBetweenWorkers(target, {{0, 10 * workers}}, 1);
    assert_int_equal(w.size(), workers);
    for (unsigned k = 0; k < workers; ++k)
      assert_true(w[k] == (IV{{10 * k, 10 * k + 10}}));
    const auto ws = poputil::splitRegionsBetweenWorkers(target, std::vector<IV>{{{0, 2 * workers}}}, 2);
    assert_int_equal(ws.size(), workers);
  }
  expectThrow<poputil::poplibs_error>([] { poputil::splitRegions({{0, 4}}, 0, 2); }, "grainSize");
}

void test_numbers(void **) {
  assert_true(poputil::balancedPartition(10, 4) == (std::vector<int>{3, 3, 2, 2}));
  assert_true(poputil::balancedPartition(8, 4) == (std::vector<int>{2, 2, 2, 2}));
  for (unsigned tiles : {1472u, 1u}) {
    Fixture f(tiles);
    const Target &t = f.graph.getTarget();
    assert_true(poputil::castToDeviceHalfValue(t, 1.0 / 3) == 0.333251953125);
    assert_true(poputil::castToDeviceHalfValue(t, 65520.0) == INFINITY);
    assert_true(poputil::checkAccuracyWhenCast(t, 1.0, FLOAT, HALF, 1e-3));
    assert_true(poputil::checkAccuracyWhenCast(t, 1.0 / 3, FLOAT, HALF, 1e-3));
    assert_false(poputil::checkAccuracyWhenCast(t, 1.0 / 3, FLOAT, HALF, 1e-5));
    assert_false(poputil::checkAccuracyWhenCast(t, 1e5, FLOAT, HALF, 1e-3));  // overflows
    assert_false(poputil::checkAccuracyWhenCast(t, 1e-9, FLOAT, HALF, 1e-3)); // flushes to zero
    assert_true(poputil::checkAccuracyWhenCast(t, 1e9, HALF, FLOAT, 0));
    expectThrow<poputil::poplibs_error>([&] { poputil::checkAccuracyWhenCast(t, 1, INT, FLOAT, 0); },
                                        "only FLOAT to HALF and HALF to FLOAT");
  }
}

// factorDims views checked on the device: each element of the view read back equals the element of the original
// the definition names.
void test_factor_dims(void **) {
  for (unsigned tiles : {1472u, 1u}) {
    Fixture f(tiles);
    Tensor t = f.var(INT, {3, 4, 6}, "t");
    Tensor v = poputil::factorDims(t, {2, 3}, 1);
    assert_true(v.shape() == (std::vector<std::size_t>{3, 2, 2, 2, 3}));
    f.readable(v, "v");
    Tensor back = poputil::unfactorDims(v, 2, 1);
    assert_true(back.shape() == t.shape());
    f.readable(back, "back");
    f.build();
    std::vector<int> data(72);
    for (int i = 0; i < 72; ++i)
      data[std::size_t(i)] = i * 7 - 3;
    f.write("t", data);
    f.engine->run(0);
    const std::vector<int> got = f.read<int>("v", 72);
    std::vector<int> want;
    for (int x = 0; x < 3; ++x)
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
          for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 3; ++b)
              want.push_back(data[std::size_t(x * 24 + (i * 2 + a) * 6 + (j * 3 + b))]);
    expectEqual(got, want, "factorDims");
    expectEqual(f.read<int>("back", 72), data, "unfactorDims");
    expectThrow<poputil::poplibs_error>([&] { poputil::factorDims(t, {5}, 1); }, "does not divide");
  }
}

void test_unshuffling(void **) {
  assert_true(poputil::calculateUnshufflingIntervals({{10, 12}, {0, 3}, {5, 6}}) == (IV{{2, 5}, {5, 6}, {0, 2}}));
  assert_true(poputil::calculateUnshufflingIntervals({}).empty());
}

void test_tile_queries(void **) {
  for (unsigned n : {16u, 1472u})
    for (unsigned offset : {0u, 3u})
      for (bool asc : {true, false})
        for (unsigned tile = 0; tile < n; tile += 7)
          assert_int_equal(poputil::invTransformTileIndex(poputil::transformTileIndex(tile, n, offset, asc), n, offset, asc),
                           tile);
  assert_int_equal(poputil::transformTileIndex(5, 16, 3, true), 2);
  assert_int_equal(poputil::transformTileIndex(5, 16, 3, false), 7); // first tile 16 - 1 - 3 = 12, then 11 .. 5
  const std::size_t o = poputil::chooseMappingOffset(1472, {4, 5});
  assert_true(o < 1472 && o == poputil::chooseMappingOffset(1472, {4, 5}));
  assert_true(poputil::chooseMappingOffset(1, {4, 5}, 99) == 0);
  expectThrow<poputil::poplibs_error>([] { poputil::chooseMappingOffset(0, {1}); }, "no tiles");
  const std::vector<IV> m = {{{0, 10}}, {{10, 12}}, {}};
  assert_int_equal(poputil::getTileImbalance(m), 6); // 12 elements on 3 tiles: 4 each; the fullest has 10
  assert_int_equal(poputil::getTileImbalance(m, 12), 0);

  Fixture f(16);
  Tensor t = f.graph.addVariable(FLOAT, {4, 6}, "t");
  for (unsigned r = 0; r < 4; ++r)
    f.graph.setTileMapping(t[r], r);
  assert_true(poputil::dimIsSplitOverTiles(f.graph, t, 0));
  assert_false(poputil::dimIsSplitOverTiles(f.graph, t, 1));
  assert_int_equal(poputil::getTileImbalance(f.graph, t), 6 - 2); // 24 elements on 16 tiles: 2 each; rows of 6
  assert_false(poputil::dimIsSplitOverIPUs(f.graph, t, 0)); // one IPU
  const Target &target = f.graph.getTarget();
  Tensor x = f.graph.addVariable(FLOAT, {64}, "x");
  assert_true(poputil::calcLinearTileMapping(target, {64}, FLOAT) == poputil::calcLinearTileMapping(f.graph, x));
  const auto withOffset = poputil::calcLinearTileMappingAndNewOffset(f.graph, x, 14);
  const unsigned used = poputil::getNumTilesUsed(withOffset.first);
  assert_true(!withOffset.first[14].empty() && withOffset.second == (14 + used) % 16);
  poputil::mapTensorLinearlyWithOffset(f.graph, x, 3);
  assert_true(!f.graph.getTileMapping(x)[3].empty() && f.graph.getTileMapping(x)[3].front().begin() == 0);
  // Descending with offset 2 on 16 tiles starts at tile 16 - 1 - 2 = 13 and goes down, as PopLibs documents.
  const auto down = poputil::calcLinearTileMapping(f.graph, {40}, 10, 1, 2, false);
  assert_true(down[13] == (IV{{0, 10}}) && down[12] == (IV{{10, 20}}) && down[10] == (IV{{30, 40}}));
  assert_true(down[2].empty() && down[1].empty());
  // Offset 14 descending starts at tile 1 and wraps from tile 0 to tile 15.
  const auto wrap = poputil::calcLinearTileMapping(f.graph, {40}, 10, 1, 14, false);
  assert_true(wrap[1] == (IV{{0, 10}}) && wrap[0] == (IV{{10, 20}}) && wrap[15] == (IV{{20, 30}}));

  IPUModel two("ipu2");
  two.numIPUs = 2;
  two.tilesPerIPU = 4;
  Device d = two.createDevice();
  Graph g(d.getTarget());
  Tensor y = g.addVariable(FLOAT, {2, 8}, "y");
  g.setTileMapping(y[0], 0);
  g.setTileMapping(y[1], 5);
  assert_true(poputil::dimIsSplitOverIPUs(g, y, 0));  // each column has an element on each IPU
  assert_false(poputil::dimIsSplitOverIPUs(g, y, 1)); // each row is on one IPU
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_merge_and_flatten), cmocka_unit_test(test_split_regions), cmocka_unit_test(test_numbers),
      cmocka_unit_test(test_factor_dims),       cmocka_unit_test(test_unshuffling),
      cmocka_unit_test(test_tile_queries),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
