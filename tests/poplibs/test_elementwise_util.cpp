// popops/ElementWiseUtil.hpp: createOutputForElementWiseOp takes the layout of the input spread over the most tiles
// (or a linear one when no input is fully mapped), and a map into that output gives the host's results; inputs
// with aliased elements or constants do not lend their layout; errors.
#include <popops/ElementWise.hpp>
#include <popops/ElementWiseUtil.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
namespace pe = popops::expr;

namespace {

void test_output_for_element_wise_op(void **) {
  Fixture f(8);
  const std::size_t n = 40;
  Tensor onOne = f.graph.addVariable(FLOAT, {n}, "onOne");
  f.graph.setTileMapping(onOne, 5);
  f.graph.createHostWrite("onOne", onOne);
  Tensor spread = f.var(HALF, {n}, "spread"); // 3 or more per tile over the 8 tiles
  Tensor out = popops::createOutputForElementWiseOp(f.graph, {onOne, spread}, FLOAT);
  assert_true(out.elementType() == FLOAT && out.shape() == spread.shape());
  assert_true(f.graph.getTileMapping(out) == f.graph.getTileMapping(spread));
  popops::mapWithOutput(f.graph, pe::_1 + pe::Cast(pe::_2, FLOAT), {onOne, spread}, out, f.prog);
  f.readable(out, "out");
  // No input fully mapped: the output is mapped linearly anyway.
  Tensor unmapped = f.graph.addVariable(INT, {2, 5}, "unmapped");
  Tensor lin = popops::createOutputForElementWiseOp(f.graph, {unmapped}, BOOL);
  assert_true(lin.elementType() == BOOL && lin.shape() == unmapped.shape());
  std::size_t mapped = 0;
  for (const auto &tile : f.graph.getTileMapping(lin))
    for (const auto &iv : tile)
      mapped += iv.size();
  assert_int_equal(mapped, 10);
  f.graph.setTileMapping(unmapped, 0);
  f.build();
  const std::vector<float> a = floats(n, 1), b = f.rh(floats(n, 2));
  f.write("onOne", a);
  f.writeHalf("spread", b);
  f.engine->run(0);
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i)
    want[i] = a[i] + b[i];
  expectNear(f.read<float>("out", n), want, "a map into the created output", 0);

  using poputil::poplibs_error;
  expectThrow<poplibs_error>([&] { popops::createOutputForElementWiseOp(f.graph, {}, FLOAT); }, "no inputs");
  expectThrow<poplibs_error>([&] { popops::createOutputForElementWiseOp(f.graph, {spread, unmapped}, FLOAT); },
                             "pass inputs of one shape");
}

// A broadcast input puts 4 elements on each element it aliases, so its layout is not copied: the output is
// mapped linearly, once per element. A constant on one tile is passed over the same way.
void test_aliased_and_constant_inputs(void **) {
  Fixture f(4);
  const std::size_t n = 1000, factor = 4;
  Tensor small = f.graph.addVariable(FLOAT, {n / factor}, "small");
  for (std::size_t i = 0; i < n / factor; ++i)
    f.graph.setTileMapping(small[i], unsigned(i % 4));
  Tensor wide = small.broadcast(factor, 0);
  Tensor out = popops::createOutputForElementWiseOp(f.graph, {wide}, FLOAT);
  assert_true(f.graph.getTileMapping(out) != f.graph.getTileMapping(wide));
  assert_true(out.isParallelWriteable());
  Tensor lin = f.graph.addVariable(FLOAT, {n}, "lin");
  poputil::mapTensorLinearly(f.graph, lin);
  assert_true(f.graph.getTileMapping(out) == f.graph.getTileMapping(lin));
  Tensor zeros = f.graph.addConstant(FLOAT, {n}, 0.0f, "zeros");
  f.graph.setTileMapping(zeros, 0);
  Tensor fromConst = popops::createOutputForElementWiseOp(f.graph, {zeros}, FLOAT);
  assert_true(f.graph.getTileMapping(fromConst) == f.graph.getTileMapping(lin));
  // A parallel-writeable input still wins over the constant.
  Tensor spread = f.graph.addVariable(FLOAT, {n}, "spread");
  for (std::size_t i = 0; i < n; ++i)
    f.graph.setTileMapping(spread[i], unsigned((i / 10) % 4));
  Tensor both = popops::createOutputForElementWiseOp(f.graph, {zeros, spread}, FLOAT);
  assert_true(f.graph.getTileMapping(both) == f.graph.getTileMapping(spread));
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_output_for_element_wise_op),
                                     cmocka_unit_test(test_aliased_and_constant_inputs)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
