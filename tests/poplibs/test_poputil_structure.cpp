// poputil/DebugInfo.hpp (every toProfileValue form, OpDebugInfo and PoplibsOpDebugInfo with DI_ARGS and their
// outputs), poputil/VarStructure.hpp (partitionable tensors whose blocks are contiguous, the partition walk,
// groupings detected from a layout) and poputil/GraphFunction.hpp (VoidFunction, ProgramFunction and
// TensorFunction, inlined and called, with input, output, inout and created arguments, run on the device and
// checked against the host) on an ipu2-shaped IPU Model (1472 tiles) and a one-tile one.
#include <array>
#include <map>

#include <poplar/ProfileValue.hpp>
#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/GraphFunction.hpp>
#include <poputil/VarStructure.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
namespace gf = poputil::graphfn;

namespace {

void test_to_profile_value(void **) {
  using poputil::toProfileValue;
  assert_int_equal(toProfileValue(int(-3)).asInt(), -3);
  assert_int_equal(toProfileValue(3u).asUInt(), 3);
  assert_int_equal(toProfileValue(4ul).asUInt(), 4);
  assert_int_equal(toProfileValue((unsigned char)5).asUInt(), 5);
  assert_int_equal(toProfileValue(-6ll).asInt(), -6);
  assert_int_equal(toProfileValue(7ull).asUInt(), 7);
  assert_true(toProfileValue(true).asBool());
  assert_true(toProfileValue(0.5f).asDouble() == 0.5 && toProfileValue(0.25).asDouble() == 0.25);
  assert_true(toProfileValue(std::string("s")).asString() == "s");
  assert_true(toProfileValue(HALF).asString() == "half");
  OptionFlags opts{{"a", "1"}, {"b", "x"}};
  assert_true(toProfileValue(opts)["b"].asString() == "x");
  Fixture f(2);
  Tensor t = f.graph.addVariable(FLOAT, {2, 3}, "t");
  assert_true(toProfileValue(t)["shape"].asString() == "[2, 3]" && toProfileValue(t)["type"].asString() == "float");
  assert_true(toProfileValue(Tensor()).asString().find("uninitialized") != std::string::npos);
  ComputeSet cs = f.graph.addComputeSet("cs");
  assert_int_equal(toProfileValue(cs).asUInt(), cs.getId());
  assert_true(toProfileValue(Sequence()).asString() == "<poplar::program::Sequence>");
  assert_true(toProfileValue(Copy(t, t)).asString() == "<poplar::program::Copy>");
  const int x = 9, *px = &x, *none = nullptr;
  assert_int_equal(toProfileValue(px).asInt(), 9);
  assert_true(toProfileValue(none).asString() == "<nullptr>");
  int *mx = nullptr;
  assert_true(toProfileValue(mx).asString() == "<nullptr>");
  assert_int_equal(toProfileValue(std::vector<unsigned>{1, 2})["1"].asUInt(), 2);
  assert_false(toProfileValue(std::vector<bool>{true, false})["1"].asBool());
  std::vector<int> backing = {4, 5};
  assert_int_equal(toProfileValue(ArrayRef<int>(backing)).asVector().at(1).asInt(), 5);
  assert_true(toProfileValue(std::make_pair(1, std::string("b")))["second"].asString() == "b");
  assert_int_equal(toProfileValue(std::array<int, 2>{{7, 8}})["0"].asInt(), 7);
}

void test_op_debug_info(void **) {
  Fixture f(2);
  Tensor in = f.graph.addVariable(HALF, {4}, "in");
  unsigned count = 3;
  poputil::PoplibsOpDebugInfo di({"outer"}, DI_ARGS(in, count));
  assert_true(di.getPathName() == "outer");
  assert_false(di.setValue("api", ProfileValue("x"))); // the record's own "api" name (this function's)
  assert_false(di.setValue("args", ProfileValue("x"))); // DI_ARGS recorded
  di.addOutput(in);
  assert_false(di.setValue("output", ProfileValue("x")));
  di.addOutputs({{"o", poputil::toProfileValue(in)}});
  assert_false(di.setValue("outputs", ProfileValue("x")));
  poputil::OpDebugInfo plain({di, "inner"}, "my::api");
  assert_true(plain.getPathName() == "outer/inner");
  plain.add("none", std::vector<poputil::ArgType>{}); // no arguments: nothing recorded
  assert_true(plain.setValue("none", ProfileValue(1)));
  plain.add("extra", ProfileValue(2));
  assert_false(plain.setValue("extra", ProfileValue(3)));
}

// Every block of a partitionable tensor is one contiguous region of the expected shape, and the blocks cover all
// elements once.
void test_partitionable(void **) {
  Fixture f(1);
  const std::vector<std::size_t> shape = {10, 7, 3}, parts = {3, 2, 1};
  Tensor t = poputil::createPartitionableTensor(f.graph, FLOAT, shape, parts, "part");
  assert_true(t.shape() == shape);
  f.graph.setTileMapping(t, 0);
  std::size_t blocks = 0, elements = 0;
  std::vector<std::vector<std::size_t> > order;
  poputil::iterateTensorPartitions(t, parts, [&](const std::vector<std::size_t> &i, const Tensor &s) {
    order.push_back(i);
    const std::size_t rows = i[0] < 3 ? (i[0] < 2 ? 4 : 2) : 0, cols = i[1] == 0 ? 4 : 3;
    assert_true(s.shape() == (std::vector<std::size_t>{rows, cols, 3}));
    assert_true(s.isContiguous());
    ++blocks;
    elements += s.numElements();
  });
  assert_int_equal(blocks, 6);
  assert_int_equal(elements, t.numElements());
  assert_true(order[1] == (std::vector<std::size_t>{1, 0, 0}) && order[3] == (std::vector<std::size_t>{0, 1, 0}));
  // More parts than elements: the surplus blocks are empty.
  std::size_t empty = 0;
  poputil::iterateTensorPartitions(t.slice(0, 2, 0), {4, 1, 1}, [&](const std::vector<std::size_t> &, const Tensor &s) {
    empty += s.numElements() == 0;
  });
  assert_int_equal(empty, 2);
  Tensor none = poputil::createPartitionableTensor(f.graph, HALF, {0, 4}, {2, 2});
  assert_int_equal(none.numElements(), 0);
  expectThrow<poputil::poplibs_error>([&] { poputil::createPartitionableTensor(f.graph, FLOAT, {4}, {2, 2}); },
                                      "one partition count per dimension");
  expectThrow<poputil::poplibs_error>(
      [&] { poputil::iterateTensorPartitions(t, {1, 0, 1}, [](const std::vector<std::size_t> &, const Tensor &) {}); },
      "at least one part");
}

void test_groupings(void **) {
  Fixture f(4);
  // [C / 2, H, 2] in memory seen as [C, H]: channels grouped by 2 (innermost in memory), H not contiguous.
  Tensor v = f.graph.addVariable(FLOAT, {4, 3, 2}, "v");
  f.graph.setTileMapping(v, 0);
  Tensor t = v.dimShuffle({0, 2, 1}).reshape({8, 3});
  assert_int_equal(poputil::detectInnermostGrouping(f.graph, t), 1);
  assert_int_equal(poputil::detectInnermostGrouping(f.graph, t.transpose()), 2);
  const std::vector<poputil::GroupingInfo> want = {{0, 2}, {1, 3}, {0, 4}};
  assert_true(poputil::detectDimGroupings(f.graph, t) == want);
  // Contiguous rows mapped in blocks of 4: the tile regions bound the grouping.
  Tensor r = f.graph.addVariable(HALF, {2, 8}, "r");
  for (unsigned k = 0; k < 4; ++k)
    f.graph.setTileMapping(r.flatten().slice(4 * k, 4 * k + 4), k);
  assert_int_equal(poputil::detectInnermostGrouping(f.graph, r), 4);
  Tensor scalar = f.graph.addVariable(FLOAT, {}, "s");
  expectThrow<poputil::poplibs_error>([&] { poputil::detectInnermostGrouping(f.graph, scalar); }, "rank 0");
}

// Each kind of function called twice on different tensors; results against the host.
void checkFunctions(unsigned tiles) {
  for (bool inlined : {false, true}) {
    Fixture f(tiles);
    const std::size_t n = 40;
    Tensor a = f.var(FLOAT, {n}, "a"), b = f.var(FLOAT, {n}, "b"), c = f.var(FLOAT, {n}, "c");
    Tensor d = f.var(FLOAT, {n}, "d"), acc = f.var(FLOAT, {n}, "acc"), acc2 = f.var(FLOAT, {n}, "acc2");
    // out = x + y; acc += x.
    gf::VoidFunction addInto(
        f.graph, {gf::input(a, "x"), gf::input(a, "y"), gf::output(a, "out"), gf::inout(a, "acc")},
        [&](std::vector<Tensor> &p, Sequence &s) {
          popops::addWithOutput(f.graph, p[0], p[1], p[2], s);
          popops::addInPlace(f.graph, p[3], p[0], s);
        },
        inlined, "addInto");
    std::vector<Tensor> args1 = {a, b, c, acc}, args2 = {c, a, d, acc2};
    addInto(args1, f.prog);
    addInto(args2, f.prog); // d = (a + b) + a; acc2 += a + b
    // A function returning a program: y = x reversed.
    gf::ProgramFunction reverse(
        f.graph, {gf::input(a), gf::output(a)}, [](std::vector<Tensor> &p) { return Program(Copy(p[0].reverse(0), p[1])); },
        inlined);
    Tensor e = f.var(FLOAT, {n}, "e");
    std::vector<Tensor> args3 = {d, e};
    f.prog.add(reverse(args3));
    // A function creating its result: x * x.
    gf::TensorFunction square(
        f.graph, {gf::input(a)}, [&](std::vector<Tensor> &p, Sequence &s) { return popops::mul(f.graph, p[0], p[0], s); },
        inlined);
    std::vector<Tensor> args4 = {a};
    Tensor sq = square(args4, f.prog);
    assert_int_equal(args4.size(), 1);
    f.readable(sq, "sq");
    f.build();
    const std::vector<float> av = floats(n, 1), bv = floats(n, 2), accv = floats(n, 3), acc2v = floats(n, 4);
    f.write("a", av);
    f.write("b", bv);
    f.write("acc", accv);
    f.write("acc2", acc2v);
    f.engine->run(0);
    std::vector<float> wc(n), wd(n), wacc(n), wacc2(n), we(n), wsq(n);
    for (std::size_t i = 0; i < n; ++i) {
      wc[i] = av[i] + bv[i];
      wacc[i] = accv[i] + av[i];
      wd[i] = wc[i] + av[i];
      wacc2[i] = acc2v[i] + wc[i];
      wsq[i] = av[i] * av[i];
    }
    for (std::size_t i = 0; i < n; ++i)
      we[i] = wd[n - 1 - i];
    expectNear(f.read<float>("c.r", n), wc, "VoidFunction output, first call");
    expectNear(f.read<float>("acc.r", n), wacc, "VoidFunction inout, first call");
    expectNear(f.read<float>("d.r", n), wd, "VoidFunction output, second call");
    expectNear(f.read<float>("acc2.r", n), wacc2, "VoidFunction inout, second call");
    expectNear(f.read<float>("e.r", n), we, "ProgramFunction");
    expectNear(f.read<float>("sq", n), wsq, "TensorFunction created result");
    std::vector<Tensor> wrong = {a};
    Sequence s;
    expectThrow<poputil::poplibs_error>([&] { addInto(wrong, s); }, "the signature has 4");
  }
}

void test_graph_function_ipu2(void **) { checkFunctions(1472); }
void test_graph_function_tiny(void **) { checkFunctions(1); }

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_to_profile_value),   cmocka_unit_test(test_op_debug_info),
      cmocka_unit_test(test_partitionable),      cmocka_unit_test(test_groupings),
      cmocka_unit_test(test_graph_function_ipu2), cmocka_unit_test(test_graph_function_tiny),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
