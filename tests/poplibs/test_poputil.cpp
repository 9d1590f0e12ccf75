// poputil: linear tile mappings (grains, minimum per tile, offsets), cloneN and duplicate (shape, mapping, copied
// values), cloneToGraph between virtual graphs, createBroadcastOperand's mapping, and the argument errors; templateVertex's names (one of them used to
// add and run a vertex), flattenIndex and unflattenIndex against a host row-major count; Broadcast.hpp's shape
// matching (shapes, and a broadcast view copied on the device against a host numpy-style broadcast).
#include <poputil/Broadcast.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

std::size_t elementsOn(const std::vector<Interval> &tile) {
  std::size_t n = 0;
  for (const auto &i : tile)
    n += i.size();
  return n;
}

void test_linear_mapping(void **) {
  Graph graph(model(16).createTarget());
  // 100 elements, grains of 4, at least 8 per tile: 25 grains over 16 tiles -> 2 grains (8 elements) per tile.
  auto m = poputil::calcLinearTileMapping(graph, {10, 10}, 8, 4);
  assert_int_equal(m.size(), 16);
  for (unsigned t = 0; t < 12; ++t) {
    assert_int_equal(m[t].size(), 1);
    assert_int_equal(m[t][0].begin(), t * 8);
    assert_int_equal(elementsOn(m[t]), 8);
  }
  assert_int_equal(elementsOn(m[12]), 4); // the tail
  assert_int_equal(elementsOn(m[13]), 0);
  assert_int_equal(poputil::getNumTilesUsed(m), 13);
  // A large minimum puts everything on few tiles.
  auto big = poputil::calcLinearTileMapping(graph, {100}, 64, 1);
  assert_int_equal(poputil::getNumTilesUsed(big), 2);
  // Offsets wrap around.
  auto off = poputil::calcLinearTileMappingWithOffset(graph, {40}, 10, 1, 14);
  assert_int_equal(elementsOn(off[14]), 10);
  assert_int_equal(elementsOn(off[15]), 10);
  assert_int_equal(elementsOn(off[0]), 10);
  assert_int_equal(elementsOn(off[1]), 10);
  // The default form on a float tensor: grains of the float vector width, 128 bytes per tile at least.
  Tensor t = graph.addVariable(FLOAT, {1000}, "t");
  poputil::mapTensorLinearly(graph, t);
  auto tm = graph.getTileMapping(t);
  assert_int_equal(poputil::getNumTilesUsed(tm), 16);
  unsigned vw = graph.getTarget().getVectorWidth(FLOAT);
  assert_int_equal(tm[0][0].size() % vw, 0);
  assert_true(tm[0][0].size() >= 32);
  poplibs_test::expectThrow<poputil::poplibs_error>([&] { poputil::calcLinearTileMapping(graph, {4}, 1, 0); },
                                                    "grainSize is 0");
  poplibs_test::expectThrow<poputil::poplibs_error>([&] { poputil::mapTensorLinearly(graph, Tensor()); },
                                                    "invalid");
}

void test_clone_duplicate_broadcast(void **) {
  Fixture f(8);
  Tensor a = f.var(INT, {5, 3}, "a");
  Tensor clones = poputil::cloneN(f.graph, a, 3, "c");
  assert_true(clones.shape() == std::vector<std::size_t>({3, 5, 3}));
  assert_true(f.graph.getTileMapping(clones[2]) == f.graph.getTileMapping(a));
  Tensor d = poputil::duplicate(f.graph, a.transpose(), f.prog, "d");
  assert_true(d.shape() == std::vector<std::size_t>({3, 5}));
  assert_true(f.graph.getTileMapping(d) == f.graph.getTileMapping(a.transpose()));
  f.readable(d, "d");
  // createBroadcastOperand: element j on the tile of the first element of column j.
  Tensor full = f.var(FLOAT, {4, 6}, "full");
  Tensor op = poputil::createBroadcastOperand(f.graph, full, FLOAT, 1, false, "bias");
  assert_int_equal(op.numElements(), 6);
  auto fm = f.graph.getTileMapping(full.slice(0, 1, 0).flatten());
  auto om = f.graph.getTileMapping(op);
  for (unsigned tile = 0; tile < fm.size(); ++tile)
    for (const auto &i : fm[tile])
      for (std::size_t j = i.begin(); j < i.end(); ++j) {
        bool found = false;
        for (const auto &k : om[tile])
          found = found || (j >= k.begin() && j < k.end());
        assert_true(found);
      }
  poplibs_test::expectThrow<poputil::poplibs_error>(
      [&] { poputil::createBroadcastOperand(f.graph, full, FLOAT, 2); }, "dim 2 is not a dimension");
  poplibs_test::expectThrow<poputil::poplibs_error>([&] { poputil::cloneN(f.graph, a, 0); }, "N is 0");
  f.build();
  auto ha = ints(15, 3);
  f.write("a", ha);
  f.engine->run(0);
  auto hd = f.read<int>("d", 15);
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t c = 0; c < 3; ++c)
      assert_int_equal(hd[c * 5 + r], ha[r * 3 + c]);
}

// cloneToGraph between two virtual graphs of one IPU keeps each element's tile index within its graph, and
// refuses a destination with fewer tiles than the source tensor uses.
void test_clone_to_graph(void **) {
  Graph graph(model(8).createTarget());
  Graph low = graph.createVirtualGraph(0, 4), high = graph.createVirtualGraph(4, 8), one = graph.createVirtualGraph(4, 5);
  Tensor t = low.addVariable(FLOAT, {100}, "t");
  poputil::mapTensorLinearly(low, t, 1, 1);
  Tensor c = poputil::cloneToGraph(low, high, t, "c");
  assert_true(c.shape() == t.shape());
  assert_true(low.getTileMapping(t) == high.getTileMapping(c));
  auto top = graph.getTileMapping(c);
  for (unsigned tile = 0; tile < 4; ++tile) {
    assert_true(top[tile].empty());
    assert_true(top[tile + 4] == graph.getTileMapping(t)[tile]);
  }
  expectThrow<poputil::poplibs_error>([&] { poputil::cloneToGraph(low, one, t); }, "destination graph has 1 tiles");
}

enum class Colour { RED, BLUE };

} // namespace

// A user's enumeration as a template argument, by specialising VertexTemplateToString.
template <> struct poputil::VertexTemplateToString<Colour> {
  static std::string to_string(const Colour &c) { return c == Colour::RED ? "Colour::RED" : "Colour::BLUE"; }
};

namespace {

void test_vertex_templates(void **) {
  assert_string_equal(poputil::templateVertex("ns::V").c_str(), "ns::V");
  assert_string_equal(poputil::templateVertex("ns::V", FLOAT).c_str(), "ns::V<float>");
  assert_string_equal(poputil::templateVertex("ns::V", UNSIGNED_INT, HALF).c_str(), "ns::V<unsigned int,half>");
  const std::string s = "extra";
  assert_string_equal(poputil::templateVertex("ns::V", INT, 4, true, "lit", s, 7u, Colour::BLUE).c_str(),
                      "ns::V<int,4,true,lit,extra,7,Colour::BLUE>");
  assert_string_equal(poputil::templateVertexParams(true).c_str(), "");
  assert_string_equal(poputil::templateVertexParams(false).c_str(), ">");
  // A name made this way adds a vertex of popops' codelets, which runs: popops::ForLoopCounter<int>.
  Fixture f(4);
  Tensor count = f.var(INT, {}, "count"), limit = f.var(INT, {}, "limit");
  Tensor pred = f.graph.addVariable(UNSIGNED_INT, {}, "pred");
  f.graph.setTileMapping(pred, 0);
  f.readable(pred, "pred.r");
  ComputeSet cs = f.graph.addComputeSet("cs");
  VertexRef v = f.graph.addVertex(cs, poputil::templateVertex("popops::ForLoopCounter", INT),
                                  {{"count", count}, {"limit", limit}, {"comparisonResult", pred}});
  f.graph.setInitialValue(v["increment"], -2);
  f.graph.setTileMapping(v, 0);
  // Two arguments: templateVertex writes "popops::Reduce<float,half>", the codelets define "popops::Reduce<float,
  // half>"; the graph takes either spelling for the same class.
  Tensor in = f.var(FLOAT, {3}, "in");
  Tensor counts = f.graph.addConstant(UNSIGNED_INT, {1}, 1u, "counts");
  Tensor sum = f.graph.addVariable(HALF, {1}, "sum");
  f.graph.setTileMapping(counts, 1);
  f.graph.setTileMapping(sum, 1);
  f.readable(sum, "sum.r");
  const std::string reduceName = poputil::templateVertex("popops::Reduce", FLOAT, HALF);
  assert_string_equal(reduceName.c_str(), "popops::Reduce<float,half>");
  VertexRef r = f.graph.addVertex(cs, reduceName, {{"counts", counts}, {"out", sum}});
  f.graph.setFieldSize(r["in"], 1);
  f.graph.connect(r["in"][0], in);
  f.graph.setInitialValue(r["op"], 0u); // ADD
  f.graph.setTileMapping(r, 1);
  f.prog.add(Execute(cs));
  f.build();
  f.write("count", std::vector<int>{5});
  f.write("limit", std::vector<int>{3});
  f.write("in", std::vector<float>{1.5f, 2.0f, -0.25f});
  f.engine->run(0);
  expectEqual(f.read<int>("count.r", 1), {3}, "count after the vertex");
  expectEqual(f.read<unsigned>("pred.r", 1), {0u}, "predicate at the limit");
  expectNear(f.readHalf("sum.r", 1), {3.25f}, "a two-argument vertex named by templateVertex", 0);
}

void test_flatten_index(void **) {
  const std::vector<std::size_t> shape = {3, 4, 5};
  std::size_t flat = 0;
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 4; ++j)
      for (std::size_t k = 0; k < 5; ++k, ++flat) {
        const std::vector<std::size_t> want = {i, j, k};
        assert_true(poputil::unflattenIndex(shape, flat) == want);
        assert_int_equal(poputil::flattenIndex(shape, want), flat);
      }
  const std::vector<unsigned> ushape = {2, 7};
  const std::vector<unsigned> at = poputil::unflattenIndex(ushape, 9);
  assert_int_equal(at[0], 1);
  assert_int_equal(at[1], 2);
  assert_int_equal(poputil::flattenIndex(ushape, at), 9);
  assert_true(poputil::unflattenIndex(std::vector<std::size_t>{}, 0).empty());
}

void test_broadcast(void **) {
  Fixture f(4);
  Tensor a = f.var(FLOAT, {3, 1}, "a"), b = f.var(FLOAT, {4}, "b"), c = f.var(FLOAT, {2, 1, 1}, "c");
  Tensor ea = a, eb = b;
  poputil::expandToMatchRanks(ea, eb);
  assert_true(ea.shape() == (std::vector<std::size_t>{3, 1}) && eb.shape() == (std::vector<std::size_t>{1, 4}));
  assert_true(poputil::canBroadcastToMatch(a, b));
  Tensor x24 = f.graph.addVariable(FLOAT, {2, 4}, "x24");
  f.graph.setTileMapping(x24, 0);
  assert_false(poputil::canBroadcastToMatch(a, x24));
  Tensor ba = a, bb = b, bc = c;
  poputil::broadcastToMatch(ba, bb, bc);
  const std::vector<std::size_t> want = {2, 3, 4};
  assert_true(ba.shape() == want && bb.shape() == want && bc.shape() == want);
  Tensor ta = a, tb = b;
  poputil::broadcastToMatch(ta, tb);
  assert_true(ta.shape() == (std::vector<std::size_t>{3, 4}) && tb.shape() == (std::vector<std::size_t>{3, 4}));
  Tensor s = b;
  poputil::broadcastToMatch(s, std::vector<std::size_t>{2, 4});
  assert_true(s.shape() == (std::vector<std::size_t>{2, 4}));
  // The views read the right elements: copy them out on the device.
  Tensor outA = f.graph.addVariable(FLOAT, want, "outA"), outB = f.graph.addVariable(FLOAT, want, "outB");
  poputil::mapTensorLinearly(f.graph, outA);
  poputil::mapTensorLinearly(f.graph, outB);
  f.prog.add(Copy(ba, outA));
  f.prog.add(Copy(bb, outB));
  f.readable(outA, "outA");
  f.readable(outB, "outB");
  f.build();
  const std::vector<float> ha = {1, 2, 3}, hb = {10, 20, 30, 40};
  f.write("a", ha);
  f.write("b", hb);
  f.engine->run(0);
  std::vector<float> wa, wb;
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 3; ++j)
      for (std::size_t k = 0; k < 4; ++k) {
        wa.push_back(ha[j]);
        wb.push_back(hb[k]);
      }
  expectNear(f.read<float>("outA", 24), wa, "a broadcast to [2,3,4]", 0);
  expectNear(f.read<float>("outB", 24), wb, "b broadcast to [2,3,4]", 0);
  using poputil::poplibs_error;
  Tensor x = a, y = x24;
  expectThrow<poplibs_error>([&] { poputil::broadcastToMatch(x, y); }, "do not broadcast");
  expectThrow<poplibs_error>([&] { poputil::broadcastToMatch(x, std::vector<std::size_t>{5}); },
                             "more dimensions than the shape");
  expectThrow<poplibs_error>([&] { poputil::broadcastToMatch(x, std::vector<std::size_t>{2, 4}); },
                             "neither 1 nor 2");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_linear_mapping),
                                     cmocka_unit_test(test_clone_duplicate_broadcast),
                                     cmocka_unit_test(test_clone_to_graph),
                                     cmocka_unit_test(test_vertex_templates), cmocka_unit_test(test_flatten_index),
                                     cmocka_unit_test(test_broadcast)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
