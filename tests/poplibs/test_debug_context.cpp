// The debug argument of the poputil and popops functions is a poplar::DebugContext, as in Graphcore's PopLibs:
// callers pass nothing, a string literal, a std::string, a DebugContext, a DebugNameAndId (as GraphFunction-style
// code does) or a DebugInfo, and the operation names what it creates under that path. Each form is checked on a
// result (its debug string) and on the values computed (against a host sum). Also gather's option flags
// (remapOutOfBoundIndices) that come after the debug context.
#include <string>

#include <poplar/DebugContext.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Gather.hpp>
#include <popops/Reduce.hpp>
#include <poputil/Util.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

const std::size_t kN = 20;

/// True when `s` contains `part`; prints both otherwise.
bool contains(const std::string &s, const std::string &part) {
  if (s.find(part) != std::string::npos)
    return true;
  print_error("'%s' lacks '%s'\n", s.c_str(), part.c_str());
  return false;
}

void test_debug_forms(void **) {
  Fixture f;
  Tensor a = f.var(INT, {kN}, "a"), b = f.var(INT, {kN}, "b");
  const std::string name = "fromString";
  const DebugNameAndId dnai("layer");
  Tensor r0 = popops::add(f.graph, a, b, f.prog);
  Tensor r1 = popops::add(f.graph, a, b, f.prog, "literal");
  Tensor r2 = popops::add(f.graph, a, b, f.prog, name);
  Tensor r3 = popops::add(f.graph, a, b, f.prog, DebugContext("context"));
  Tensor r4 = popops::add(f.graph, a, b, f.prog, dnai);
  Tensor r5 = popops::add(f.graph, a, b, f.prog, {dnai, "child"});
  DebugInfo info(DebugContext("op"), "test");
  Tensor r6 = popops::add(f.graph, a, b, f.prog, {info, "viaInfo"});
  assert_true(contains(r1.getDebugStr(), "literal"));
  assert_true(contains(r2.getDebugStr(), "fromString"));
  assert_true(contains(r3.getDebugStr(), "context"));
  assert_true(contains(r4.getDebugStr(), "layer"));
  assert_true(contains(r5.getDebugStr(), "layer/child"));
  assert_true(contains(r6.getDebugStr(), "op/viaInfo"));
  // In place with a DebugNameAndId, as Graphcore's GraphFunction tests call addInPlace.
  Tensor c = poputil::duplicate(f.graph, a, f.prog, {dnai, "copy"});
  assert_true(contains(c.getDebugStr(), "layer/copy"));
  popops::addInPlace(f.graph, c, b, f.prog, dnai);
  Tensor total = popops::reduce(f.graph, c, {0}, popops::Operation::ADD, f.prog, {dnai, "total"});
  Tensor n = poputil::cloneN(f.graph, a, 2, std::string("clones"));
  assert_true(contains(n.getDebugStr(), "clones"));
  const Tensor rs[] = {r0, r1, r2, r3, r4, r5, r6, c};
  for (std::size_t i = 0; i < 8; ++i)
    f.readable(rs[i], "r" + std::to_string(i));
  f.readable(total, "total");
  f.build();
  const std::vector<int> ha = ints(kN, 1), hb = ints(kN, 2);
  f.write("a", ha);
  f.write("b", hb);
  f.engine->run(0);
  std::vector<int> want(kN);
  int sum = 0;
  for (std::size_t i = 0; i < kN; ++i) {
    want[i] = ha[i] + hb[i];
    sum += want[i];
  }
  for (std::size_t i = 0; i < 8; ++i)
    expectEqual(f.read<int>("r" + std::to_string(i), kN), want, "a + b");
  expectEqual(f.read<int>("total", 1), std::vector<int>{sum}, "total");
}

// gather(..., prog, params, debugContext, optionFlags): an index beyond the axis gives zeros by default and the
// slice at index 0 with remapOutOfBoundIndices; unknown options are refused.
void test_gather_options(void **) {
  Fixture f;
  Tensor in = popops::createGatherInput(f.graph, FLOAT, {4, 3}, 0, {}, "in");
  f.graph.createHostWrite("in", in);
  Tensor idx = f.var(UNSIGNED_INT, {3}, "idx");
  Tensor plain = popops::gather(f.graph, in, idx, 0, f.prog, {}, {});
  Tensor remap = popops::gather(f.graph, in, idx, 0, f.prog, {}, "remapped", {{"remapOutOfBoundIndices", "true"}});
  Tensor xi = f.var(UNSIGNED_INT, {3, 1}, "xi");
  Tensor xla =
      popops::gather(f.graph, in, xi, 1, {1}, {1, 3}, {0}, {0}, f.prog, {}, {{"remapOutOfBoundIndices", "true"}});
  assert_true(xla.shape() == (std::vector<std::size_t>{3, 3}));
  f.readable(plain, "plain");
  f.readable(remap, "remap");
  f.readable(xla, "xla");
  program::Sequence p;
  expectThrow<poplar::poplar_error>(
      [&] {
        popops::gather(f.graph, in, idx, 0, p, {}, {}, {{"noSuchOption", "true"}});
      },
      "noSuchOption");
  f.build();
  const std::vector<float> h = floats(12, 4);
  f.write("in", h);
  f.write("idx", std::vector<unsigned>{2, 7, 1});
  f.write("xi", std::vector<unsigned>{3, 9, 0});
  f.engine->run(0);
  std::vector<float> wPlain, wRemap, wXla;
  for (unsigned i : {2u, 7u, 1u})
    for (std::size_t c = 0; c < 3; ++c) {
      wPlain.push_back(i < 4 ? h[i * 3 + c] : 0.0f);
      wRemap.push_back(h[(i < 4 ? i : 0) * 3 + c]);
    }
  for (unsigned i : {3u, 9u, 0u}) // remapOutOfBoundIndices: a start that does not fit reads from 0 (GatherTest case 9)
    for (std::size_t c = 0; c < 3; ++c)
      wXla.push_back(h[(i < 4 ? i : 0) * 3 + c]);
  expectNear(f.read<float>("plain", 9), wPlain, "gather");
  expectNear(f.read<float>("remap", 9), wRemap, "gather remapped");
  expectNear(f.read<float>("xla", 9), wXla, "XLA gather");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_debug_forms), cmocka_unit_test(test_gather_options)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
