// popops::map, mapInPlace and mapWithOutput of several expressions (a list of expr::Any) against host references:
// INT and FLOAT operands spread over the tiles, the in-place form where each result overwrites an operand that a
// later expression still reads (results must use the old values), and the errors (count and type mismatches).
// Also expr::deepEquals on each node kind, and expr::ConstHalf in a HALF map.
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Expr.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;
namespace pe = popops::expr;

namespace {

const std::size_t kN = 37;

void test_map_multi_new_outputs(void **) {
  Fixture f;
  Tensor a = f.var(INT, {kN}, "a"), b = f.var(INT, {kN}, "b");
  Tensor x = f.var(FLOAT, {kN}, "x");
  std::vector<Tensor> outs =
      popops::map(f.graph, {pe::_1 + pe::_2, pe::_1 * pe::_2, pe::Cast(pe::_1, FLOAT)}, {a, b}, f.prog, "multi");
  assert_int_equal(outs.size(), 3);
  assert_true(outs[2].elementType() == FLOAT);
  std::vector<Tensor> fo = popops::map(f.graph, {pe::Neg(pe::_1), pe::_1 * 0.5f}, {x}, f.prog);
  Tensor hx16 = popops::cast(f.graph, x, HALF, f.prog);
  Tensor hs = popops::map(f.graph, pe::_1 + pe::ConstHalf(0.25f), {hx16}, f.prog);
  assert_true(hs.elementType() == HALF);
  f.readable(hs, "hs");
  f.readable(outs[0], "s");
  f.readable(outs[1], "p");
  f.readable(outs[2], "c");
  f.readable(fo[0], "n");
  f.readable(fo[1], "h");
  f.build();
  const std::vector<int> ha = ints(kN, 1), hb = ints(kN, 2);
  const std::vector<float> hx = floats(kN, 3);
  f.write("a", ha);
  f.write("b", hb);
  f.write("x", hx);
  f.engine->run(0);
  std::vector<int> ws(kN), wp(kN);
  std::vector<float> wc(kN), wn(kN), wh(kN);
  for (std::size_t i = 0; i < kN; ++i) {
    ws[i] = ha[i] + hb[i];
    wp[i] = ha[i] * hb[i];
    wc[i] = float(ha[i]);
    wn[i] = -hx[i];
    wh[i] = hx[i] * 0.5f;
  }
  expectEqual(f.read<int>("s", kN), ws, "sum");
  expectEqual(f.read<int>("p", kN), wp, "product");
  expectNear(f.read<float>("c", kN), wc, "cast");
  expectNear(f.read<float>("n", kN), wn, "neg");
  expectNear(f.read<float>("h", kN), wh, "half of x");
  std::vector<float> whs(kN);
  for (std::size_t i = 0; i < kN; ++i)
    whs[i] = f.rh(f.rh(hx[i]) + 0.25f);
  expectNear(f.readHalf("hs", kN), whs, "half + ConstHalf", kHalfTol);
}

// a <- a + b and b <- a * b: the product must use the old a, as if both were computed before either is written.
void test_map_multi_in_place_and_with_output(void **) {
  Fixture f;
  Tensor a = f.var(INT, {kN}, "a"), b = f.var(INT, {kN}, "b");
  Tensor c = f.var(INT, {kN}, "c"), d = f.var(INT, {kN}, "d");
  popops::mapInPlace(f.graph, {pe::_1 + pe::_2, pe::_1 * pe::_2}, {a, b}, f.prog, "inPlace");
  // With outputs that are also operands: c <- c - d, d <- c + d (old c).
  popops::mapWithOutput(f.graph, {pe::_1 - pe::_2, pe::_1 + pe::_2}, {c, d}, {c, d}, f.prog, "withOutput");
  f.build();
  const std::vector<int> ha = ints(kN, 4), hb = ints(kN, 5), hc = ints(kN, 6), hd = ints(kN, 7);
  f.write("a", ha);
  f.write("b", hb);
  f.write("c", hc);
  f.write("d", hd);
  f.engine->run(0);
  std::vector<int> wa(kN), wb(kN), wc(kN), wd(kN);
  for (std::size_t i = 0; i < kN; ++i) {
    wa[i] = ha[i] + hb[i];
    wb[i] = ha[i] * hb[i];
    wc[i] = hc[i] - hd[i];
    wd[i] = hc[i] + hd[i];
  }
  expectEqual(f.read<int>("a.r", kN), wa, "a in place");
  expectEqual(f.read<int>("b.r", kN), wb, "b in place");
  expectEqual(f.read<int>("c.r", kN), wc, "c with output");
  expectEqual(f.read<int>("d.r", kN), wd, "d with output");
}

void test_map_multi_errors(void **) {
  Fixture f(4);
  Tensor a = f.var(INT, {6}, "a"), x = f.var(FLOAT, {6}, "x");
  program::Sequence p;
  expectThrow<poputil::poplibs_error>(
      [&] {
        popops::mapInPlace(f.graph, {pe::_1, pe::_1, pe::_1}, {a, x}, p);
      },
      "3 expressions but 2 tensors");
  expectThrow<poputil::poplibs_error>(
      [&] {
        popops::mapWithOutput(f.graph, {pe::_1 + 1}, {a}, {a, x}, p);
      },
      "1 expressions but 2 outputs");
  expectThrow<poputil::poplibs_error>(
      [&] {
        popops::mapWithOutput(f.graph, {pe::_1 + 1, pe::_1}, {a}, {x, a}, p, "typed");
      },
      "typed: expression 0 gives int");
}

void test_deep_equals(void **) {
  assert_true(pe::deepEquals(pe::Const(1.0f), pe::Const(1.0f)));
  assert_false(pe::deepEquals(pe::Const(1.0f), pe::Const(2.0f)));
  assert_false(pe::deepEquals(pe::Const(1.0f), pe::Const(1u)));
  assert_false(pe::deepEquals(pe::Const(1.0f), pe::_1));
  assert_false(pe::deepEquals(pe::Const(1.0f), pe::ConstHalf(1.0f)));
  assert_true(pe::deepEquals(pe::ConstHalf(2.0f), pe::ConstHalf(2.0f)));
  assert_false(pe::deepEquals(pe::ConstHalf(2.0f), pe::ConstHalf(1.0f)));
  assert_true(pe::_2.deepEquals(pe::PlaceHolder(2)));
  assert_false(pe::_2.deepEquals(pe::_1));
  assert_true(pe::Cast(pe::_1, INT).deepEquals(pe::Cast(pe::_1, INT)));
  assert_false(pe::Cast(pe::_1, INT).deepEquals(pe::Cast(pe::_1, FLOAT)));
  assert_true((pe::_1 + pe::_2 * 3).deepEquals(pe::Add(pe::_1, pe::Mul(pe::_2, pe::Const(3)))));
  assert_false((pe::_1 + pe::_2).deepEquals(pe::_2 + pe::_1));
  assert_false((pe::_1 + pe::_2).deepEquals(pe::_1 - pe::_2));
  assert_true(pe::Neg(pe::_1).deepEquals(pe::UnaryOp(popops::expr::UnaryOpType::NEGATE, pe::_1)));
  assert_false(pe::Neg(pe::_1).deepEquals(pe::Neg(pe::_2)));
  assert_true(pe::Select(pe::_1, pe::_2, pe::_3).deepEquals(pe::Select(pe::_1, pe::_2, pe::_3)));
  assert_false(pe::Select(pe::_1, pe::_2, pe::_3).deepEquals(pe::Clamp(pe::_1, pe::_2, pe::_3)));
  // expr::Any holds a copy that compares equal to the original.
  pe::Any any(pe::_1 * pe::_2);
  assert_true(pe::deepEquals(any, pe::_1 * pe::_2));
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_map_multi_new_outputs),
                                     cmocka_unit_test(test_map_multi_in_place_and_with_output),
                                     cmocka_unit_test(test_map_multi_errors), cmocka_unit_test(test_deep_equals)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
