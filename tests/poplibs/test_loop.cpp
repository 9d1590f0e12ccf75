// popops/Loop.hpp: countedLoop (both forms) and countedForLoop (both forms) run on the device with the count the
// body sees, against a host loop; the limit of a countedForLoop is read at run time (several limits, one graph);
// addForLoopCounterVertex alone; and the argument errors.
#include <popops/ElementWise.hpp>
#include <popops/Loop.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
namespace pe = popops::expr;

namespace {

// A one-element variable on `tile` with host handles "<name>" and "<name>.r".
Tensor scalar(Fixture &f, const Type &type, const std::string &name, unsigned tile = 0) {
  Tensor t = f.graph.addVariable(type, {1}, name);
  f.graph.setTileMapping(t, tile);
  f.graph.createHostWrite(name, t);
  f.graph.createHostRead(name + ".r", t);
  return t;
}

void test_counted_loops(void **) {
  Fixture f(4);
  // for (i = 2; i < 11; i += 3) acc = acc * 10 + i  (the order of the counts shows in the digits).
  Tensor acc = scalar(f, UNSIGNED_INT, "acc", 3);
  Tensor seen;
  f.prog.add(popops::countedLoop(f.graph, 2, 11, 3, [&](const Tensor &i) {
    seen = i;
    Sequence body;
    popops::mapInPlace(f.graph, pe::_1 * pe::Const(10u) + pe::_2, {acc, i}, body);
    return body;
  }));
  assert_true(seen.valid() && seen.elementType() == UNSIGNED_INT && seen.numElements() == 1);
  f.readable(seen, "count.r");
  // for (i = 0; i < 4; ++i) sum += i
  Tensor sum = scalar(f, UNSIGNED_INT, "sum", 1);
  f.prog.add(popops::countedLoop(f.graph, 4, [&](const Tensor &i) {
    Sequence body;
    popops::addInPlace(f.graph, sum, i, body);
    return body;
  }));
  f.build();
  f.write("acc", std::vector<unsigned>{0});
  f.write("sum", std::vector<unsigned>{100});
  f.engine->run(0);
  unsigned wantAcc = 0, wantSum = 100;
  for (unsigned i = 2; i < 11; i += 3)
    wantAcc = wantAcc * 10 + i;
  for (unsigned i = 0; i < 4; ++i)
    wantSum += i;
  expectEqual(f.read<unsigned>("acc.r", 1), {wantAcc}, "countedLoop(begin, end, step)");
  expectEqual(f.read<unsigned>("count.r", 1), {11u}, "the count after the last pass");
  expectEqual(f.read<unsigned>("sum.r", 1), {wantSum}, "countedLoop(count)");
}

void test_counted_for_loops(void **) {
  Fixture f(4);
  // for (count = 10; count != limit; count -= 3) sum += count, with INT count and limit.
  Tensor count = scalar(f, INT, "count", 2), limit = scalar(f, INT, "limit", 1), sum = scalar(f, INT, "sum", 3);
  Sequence body;
  popops::addInPlace(f.graph, sum, count, body);
  f.prog.add(popops::countedForLoop(f.graph, count, 10, limit, -3, body));
  // for (c = 1; c != ulimit; c += 2) passes += 1, UNSIGNED_INT, the count made inside.
  Tensor ulimit = scalar(f, UNSIGNED_INT, "ulimit", 0), passes = scalar(f, UNSIGNED_INT, "passes", 2);
  Sequence body2;
  popops::mapInPlace(f.graph, pe::_1 + pe::Const(1u), {passes}, body2);
  f.prog.add(popops::countedForLoop(f.graph, 1, ulimit, 2, body2));
  f.build();
  // The same graph with several limits: the number of passes is decided on the device.
  const int limits[] = {-2, 10, 4, 1};
  const unsigned ulimits[] = {9, 1, 3, 21};
  for (unsigned k = 0; k < 4; ++k) {
    f.write("sum", std::vector<int>{0});
    f.write("limit", std::vector<int>{limits[k]});
    f.write("ulimit", std::vector<unsigned>{ulimits[k]});
    f.write("passes", std::vector<unsigned>{0});
    f.engine->run(0);
    int wantSum = 0, last = 10;
    for (int c = 10; c != limits[k]; c -= 3)
      wantSum += c, last = c - 3;
    unsigned wantPasses = 0;
    for (unsigned c = 1; c != ulimits[k]; c += 2)
      ++wantPasses;
    expectEqual(f.read<int>("sum.r", 1), {wantSum}, "countedForLoop sum");
    expectEqual(f.read<int>("count.r", 1), {last}, "countedForLoop count at the end");
    expectEqual(f.read<unsigned>("passes.r", 1), {wantPasses}, "countedForLoop passes");
  }
}

void test_counter_vertex_and_errors(void **) {
  Fixture f(4);
  Tensor count = scalar(f, UNSIGNED_INT, "count", 2), limit = scalar(f, UNSIGNED_INT, "limit", 3);
  Tensor pred = popops::addForLoopCounterVertex(f.graph, count, limit, 5, 1, f.prog);
  assert_true(pred.elementType() == UNSIGNED_INT && pred.numElements() == 1);
  assert_int_equal(f.graph.getTileMapping(pred)[1].size(), 1);
  f.readable(pred, "pred.r");
  f.build();
  f.write("count", std::vector<unsigned>{3});
  f.write("limit", std::vector<unsigned>{8});
  f.engine->run(0);
  expectEqual(f.read<unsigned>("count.r", 1), {8u}, "the advanced count");
  expectEqual(f.read<unsigned>("pred.r", 1), {0u}, "the predicate at the limit");
  f.write("limit", std::vector<unsigned>{20});
  f.engine->run(0);
  expectEqual(f.read<unsigned>("count.r", 1), {13u}, "the count advanced again");
  expectEqual(f.read<unsigned>("pred.r", 1), {1u}, "the predicate below the limit");

  using poputil::poplibs_error;
  auto body = [](const Tensor &) { return Sequence(); };
  Sequence s;
  Tensor fl = f.graph.addVariable(FLOAT, {1}, "fl"), two = f.graph.addVariable(INT, {2}, "two");
  Tensor i = f.graph.addVariable(INT, {1}, "i");
  expectThrow<poplibs_error>([&] { popops::countedLoop(f.graph, 0, 4, 0, body); }, "step is 0");
  expectThrow<poplibs_error>([&] { popops::countedLoop(f.graph, 5, 5, 1, body); }, "pass begin < end");
  expectThrow<poplibs_error>([&] { popops::countedForLoop(f.graph, fl, 0, fl, 1, s); }, "INT or UNSIGNED_INT");
  expectThrow<poplibs_error>([&] { popops::countedForLoop(f.graph, count, 0, i, 1, s); }, "one type");
  expectThrow<poplibs_error>([&] { popops::countedForLoop(f.graph, 0, two, 1, s); }, "one-element");
  expectThrow<poplibs_error>([&] { popops::addForLoopCounterVertex(f.graph, count, limit, 1, 99, s); },
                             "tile 99 is out of range");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_counted_loops), cmocka_unit_test(test_counted_for_loops),
                                     cmocka_unit_test(test_counter_vertex_and_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
