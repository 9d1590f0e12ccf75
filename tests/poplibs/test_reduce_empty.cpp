// popops::reduce's edge cases, as Graphcore's ReduceEdgeCases expects: over an empty dimension the output is
// filled with the operation's identity (0 for ADD, 1 for MUL, -inf / +inf for MAX / MIN in FLOAT and HALF, the
// extremes of each integral type's own range, true for LOGICAL_AND), by reduce and reduceMany alike; an empty output needs no program at all;
// a reduction of dimensions of size 1 only is a Copy, with no compute set.
#include <cmath>
#include <limits>
#include <sstream>

#include <popops/Reduce.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popops::Operation;

namespace {

// [2, 0, 3] reduced over dimension 1 gives [2, 3] outputs of the identity.
void test_identity_outputs(void **) {
  Fixture f(4);
  Tensor in = f.graph.addVariable(FLOAT, {2, 0, 3}, "in");
  Tensor hin = f.graph.addVariable(HALF, {2, 0, 3}, "hin");
  Tensor iin = f.graph.addVariable(INT, {0, 4}, "iin");
  Tensor bin = f.graph.addVariable(BOOL, {3, 0}, "bin");
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    Operation op;
    float want;
  };
  const Case cases[] = {{Operation::ADD, 0.0f}, {Operation::MUL, 1.0f}, {Operation::MAX, -inf}, {Operation::MIN, inf}};
  int k = 0;
  for (const Case &c : cases) {
    f.readable(popops::reduce(f.graph, in, {1}, c.op, f.prog), ("f" + std::to_string(k)).c_str());
    f.readable(popops::reduce(f.graph, hin, {1}, c.op, f.prog), ("h" + std::to_string(k)).c_str());
    ++k;
  }
  Tensor imax = popops::reduce(f.graph, iin, {0}, Operation::MAX, f.prog);
  Tensor imin = popops::reduce(f.graph, iin, {0}, Operation::MIN, f.prog);
  Tensor band = popops::reduce(f.graph, bin, {1}, Operation::LOGICAL_AND, f.prog);
  std::vector<Tensor> many;
  popops::reduceMany(f.graph, {popops::SingleReduceOp(in, {1}, Operation::MUL, FLOAT)}, many, f.prog);
  assert_int_equal(many.size(), 1);
  assert_true(many[0].shape() == (std::vector<std::size_t>{2, 3}));
  f.readable(imax, "imax");
  f.readable(imin, "imin");
  f.readable(band, "band");
  f.readable(many[0], "many");
  f.build();
  f.engine->run(0);
  for (k = 0; k < 4; ++k) {
    expectNear(f.read<float>("f" + std::to_string(k), 6), std::vector<float>(6, cases[k].want), "float");
    expectNear(f.readHalf("h" + std::to_string(k), 6), std::vector<float>(6, cases[k].want), "half");
  }
  expectEqual(f.read<int>("imax", 4), std::vector<int>(4, std::numeric_limits<int>::lowest()), "imax");
  expectEqual(f.read<int>("imin", 4), std::vector<int>(4, std::numeric_limits<int>::max()), "imin");
  expectEqual(f.read<unsigned char>("band", 3), std::vector<unsigned char>(3, 1), "band");
  expectNear(f.read<float>("many", 6), std::vector<float>(6, 1.0f), "many");
}

// MAX / MIN over an empty dimension of an integral type narrower than INT: the output holds that type's own
// lowest / highest value (-32768 for SHORT, 255 for UNSIGNED_CHAR, ...), not INT's extremes cut to its width.
template <typename T> void expectExtremes(Fixture &f, const std::string &h) {
  expectEqual(f.read<T>(h + "max", 3), std::vector<T>(3, std::numeric_limits<T>::lowest()), (h + "max").c_str());
  expectEqual(f.read<T>(h + "min", 3), std::vector<T>(3, std::numeric_limits<T>::max()), (h + "min").c_str());
}

void test_narrow_integral_extremes(void **) {
  Fixture f(4);
  const std::pair<Type, const char *> types[] = {
      {SHORT, "s"}, {UNSIGNED_SHORT, "us"}, {CHAR, "c"}, {SIGNED_CHAR, "sc"}, {UNSIGNED_CHAR, "uc"}};
  for (const auto &[type, h] : types) {
    Tensor in = f.graph.addVariable(type, {3, 0}, std::string(h) + "in");
    f.readable(popops::reduce(f.graph, in, {1}, Operation::MAX, f.prog), std::string(h) + "max");
    f.readable(popops::reduce(f.graph, in, {1}, Operation::MIN, f.prog), std::string(h) + "min");
  }
  f.build();
  f.engine->run(0);
  expectExtremes<short>(f, "s");
  expectExtremes<unsigned short>(f, "us");
  expectExtremes<char>(f, "c");
  expectExtremes<signed char>(f, "sc");
  expectExtremes<unsigned char>(f, "uc");
}

// An empty output ([2, 0] from [2, 0, 1]) is made with its shape and adds nothing to the program.
void test_empty_output(void **) {
  Fixture f(4);
  Tensor in = f.graph.addVariable(FLOAT, {2, 0, 1}, "in");
  Sequence prog;
  Tensor out = popops::reduce(f.graph, in, {2}, Operation::ADD, prog);
  assert_true(out.shape() == (std::vector<std::size_t>{2, 0}));
  std::stringstream s;
  dumpProgram(f.graph, prog, s);
  assert_true(s.str().find("Execute") == std::string::npos);
}

// [2, 2, 1] reduced over dimension 2 (and [1] over 0) by reduce, reduceWithOutput and reduceMany: Copy programs
// only, and the outputs equal the inputs.
void test_size_one_is_copy(void **) {
  Fixture f(4);
  Tensor in = f.var(FLOAT, {2, 2, 1}, "in"), one = f.var(INT, {1}, "one");
  Sequence prog;
  Tensor a = popops::reduce(f.graph, in, {2}, Operation::ADD, prog);
  Tensor b = popops::reduce(f.graph, one, {0}, Operation::MAX, prog);
  Tensor c = f.var(FLOAT, {2, 2}, "c");
  popops::reduceWithOutput(f.graph, in, c, {2}, Operation::MUL, prog);
  std::vector<Tensor> many;
  popops::reduceMany(f.graph, {popops::SingleReduceOp(in, {2}, Operation::MIN)}, many, prog);
  std::stringstream s;
  dumpProgram(f.graph, prog, s);
  assert_true(s.str().find("Copy") != std::string::npos);
  assert_true(s.str().find("Execute") == std::string::npos);
  assert_true(a.shape() == (std::vector<std::size_t>{2, 2}));
  assert_int_equal(b.rank(), 0);
  f.prog.add(prog);
  f.readable(a, "a");
  f.readable(b, "b");
  f.readable(many[0], "m");
  f.build();
  const auto h = floats(4, 7);
  f.write("in", h);
  f.write("one", std::vector<int>{-5});
  f.engine->run(0);
  expectNear(f.read<float>("a", 4), h, "a");
  expectNear(f.read<float>("c.r", 4), h, "c");
  expectNear(f.read<float>("m", 4), h, "m");
  expectEqual(f.read<int>("b", 1), std::vector<int>{-5}, "b");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_identity_outputs),
      cmocka_unit_test(test_narrow_integral_extremes),
      cmocka_unit_test(test_empty_output),
      cmocka_unit_test(test_size_one_is_copy),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
