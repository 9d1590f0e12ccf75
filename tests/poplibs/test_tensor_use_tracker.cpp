// poputil::TensorUseTracker against host expectations of the mapping it makes on a 4-tile IPU Model: private
// uses stay on their tile; elements shared by a set of tiles are spread over it in grains (the order following
// startTile and ascendingMappingOrder, few elements on few tiles with minElementsPerTile); halos of a 2-D
// partition stay with a neighbour (OptimizeHaloRegions); extendPartialUsage maps unused elements; resolved
// trackers merge; empty() and the errors. A program then adds 1 to a tracked tensor on the device.
#include <popops/ElementWise.hpp>
#include <poputil/TileMapping.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using poputil::TensorUseTracker;

namespace {

/// The tile of each flattened element of t (-1 when unmapped).
std::vector<int> tileOf(const Graph &graph, const Tensor &t) {
  std::vector<int> out(t.numElements(), -1);
  auto m = graph.getTileMapping(t, false);
  for (unsigned tile = 0; tile < m.size(); ++tile)
    for (const Interval &i : m[tile])
      for (std::size_t e = i.begin(); e < i.end(); ++e)
        out[e] = int(tile);
  return out;
}

void test_private_and_shared(void **) {
  Fixture f(4);
  Tensor own = f.graph.addVariable(FLOAT, {16}, "own"), all = f.graph.addVariable(FLOAT, {16}, "all");
  TensorUseTracker tracker(4);
  assert_true(tracker.empty());
  for (unsigned tile = 0; tile < 4; ++tile) {
    tracker.add(f.graph, tile, own.slice(4 * tile, 4 * tile + 4));
    tracker.add(f.graph, tile, all);
  }
  assert_false(tracker.empty());
  tracker.mapTensorsByUse(f.graph, 4, 4);
  std::vector<int> want(16);
  for (std::size_t e = 0; e < 16; ++e)
    want[e] = int(e / 4);
  expectEqual(tileOf(f.graph, own), want, "private uses");
  expectEqual(tileOf(f.graph, all), want, "shared, one grain per tile");

  // startTile 2, descending: tiles in order 1, 0, 3, 2; grains of 2 elements, 8 elements over 4 tiles.
  Tensor r = f.graph.addVariable(INT, {8}, "r");
  TensorUseTracker rot(4, 2, false);
  for (unsigned tile = 0; tile < 4; ++tile)
    rot.add(f.graph, tile, r);
  rot.mapTensorsByUse(f.graph, 2, 1);
  expectEqual(tileOf(f.graph, r), std::vector<int>{1, 1, 0, 0, 3, 3, 2, 2}, "rotated descending order");

  // Four shared elements with at least four per tile: one tile.
  Tensor few = f.graph.addVariable(FLOAT, {4}, "few");
  TensorUseTracker small(4);
  for (unsigned tile = 0; tile < 4; ++tile)
    small.add(f.graph, tile, few);
  small.mapTensorsByUse(f.graph, 1, 4);
  expectEqual(tileOf(f.graph, few), std::vector<int>{0, 0, 0, 0}, "minElementsPerTile");
}

// A 14x14 field read by 2x2 windows of 8x8 at stride 6: the shared columns 6..7 and rows 6..7 go with the
// window before them, so each tile holds one rectangle: rows 0..6 or 7..13, columns 0..7 or 8..13.
void test_halo(void **) {
  Fixture f(4);
  Tensor t = f.graph.addVariable(FLOAT, {14, 14}, "field");
  TensorUseTracker tracker(4);
  for (unsigned tile = 0; tile < 4; ++tile) {
    const std::size_t x = (tile % 2) * 6, y = (tile / 2) * 6;
    tracker.add(f.graph, tile, t.slice(y, y + 8, 0).slice(x, x + 8, 1));
  }
  tracker.mapTensorsByUse(f.graph, 1, 1, false, TensorUseTracker::MappingMethod::OptimizeHaloRegions);
  std::vector<int> want(196);
  for (std::size_t r = 0; r < 14; ++r)
    for (std::size_t c = 0; c < 14; ++c)
      want[r * 14 + c] = int((r < 7 ? 0 : 2) + (c < 8 ? 0 : 1));
  expectEqual(tileOf(f.graph, t), want, "halo mapping");
}

void test_extend_resolve_and_run(void **) {
  Fixture f(4);
  // Only column 0 of a {4, 2} tensor is used, by all tiles; extended, all 8 elements spread 2 per tile.
  Tensor t = f.graph.addVariable(FLOAT, {4, 2}, "t");
  TensorUseTracker ext(4), noExt(4);
  for (unsigned tile = 0; tile < 4; ++tile) {
    ext.add(f.graph, tile, t.slice(0, 1, 1));
    noExt.add(f.graph, tile, t.slice(0, 1, 1));
  }
  TensorUseTracker copy(noExt);
  copy.resolve(f.graph, 1, 1);
  ext.mapTensorsByUse(f.graph, 1, 1, true);
  expectEqual(tileOf(f.graph, t), std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}, "extended partial usage");
  Tensor u = f.graph.addVariable(FLOAT, {4, 2}, "u");
  TensorUseTracker partial(4);
  for (unsigned tile = 0; tile < 4; ++tile)
    partial.add(f.graph, tile, u.slice(0, 1, 1));
  partial.mapTensorsByUse(f.graph, 1, 1);
  expectEqual(tileOf(f.graph, u), std::vector<int>{0, -1, 1, -1, 2, -1, 3, -1}, "unused elements unmapped");
  f.graph.setTileMapping(u, 0); // the program below needs every element mapped

  // Two halves resolved separately (each spread over all tiles) and merged keep their own spreads.
  Tensor v = f.var(FLOAT, {2, 8}, "v");
  TensorUseTracker merged(4);
  for (std::size_t s = 0; s < 2; ++s) {
    TensorUseTracker sub(4);
    for (unsigned tile = 0; tile < 4; ++tile)
      sub.add(f.graph, tile, v[s]);
    sub.resolve(f.graph, 2, 2);
    merged.add(std::move(sub));
  }
  merged.mapTensorsByUse(f.graph, 2, 2);
  expectEqual(tileOf(f.graph, v), std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3}, "merged");

  expectThrow<poputil::poplibs_error>([&] { merged.add(f.graph, 4, v); }, "tile 4 is beyond the tracker's 4 tiles");

  // The mapped tensor works in a program: v + 1 on the device.
  Tensor w = popops::add(f.graph, v, 1.0f, f.prog);
  f.readable(w, "w");
  f.build();
  const std::vector<float> hv = floats(16, 3);
  f.write("v", hv);
  f.engine->run(0);
  std::vector<float> want(16);
  for (std::size_t i = 0; i < 16; ++i)
    want[i] = hv[i] + 1.0f;
  expectNear(f.read<float>("w", 16), want, "v + 1");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_private_and_shared), cmocka_unit_test(test_halo),
                                     cmocka_unit_test(test_extend_resolve_and_run)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
