// popops::fill of the element types the map interpreter has no code for (SHORT, UNSIGNED_SHORT, CHAR, SIGNED_CHAR,
// UNSIGNED_CHAR, LONGLONG, UNSIGNED_LONGLONG, QUARTER with 0) and of BOOL, on an ipu2-shaped IPU Model and a
// one-tile one, against the host's C++ conversion of the value. Regions that start inside a 32-bit word (a CHAR
// slice at element 1 and at element 3, a SHORT one at element 1) are filled without touching their neighbours.
#include <cstdint>
#include <limits>

#include <poplar/MetadataCreation.hpp>
#include <popops/Fill.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

// 0, 1, 2, ... as T: the values a tensor holds before the fill (neighbours must keep theirs).
template <typename T> std::vector<T> counting(std::size_t n) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = T(i + 1);
  return v;
}

// `before` with [b, e) set to x.
template <typename T> std::vector<T> withRun(std::vector<T> before, std::size_t b, std::size_t e, T x) {
  for (std::size_t i = b; i < e; ++i)
    before[i] = x;
  return before;
}

void checkFill(unsigned tiles) {
  Fixture f(tiles);
  const std::size_t n = 24;
  // Whole tensors, spread over the tiles (3 elements per tile), in the program form with values of several types.
  Tensor s = f.var(SHORT, {n}, "s"), us = f.var(UNSIGNED_SHORT, {4, 6}, "us"), c = f.var(CHAR, {n}, "c");
  Tensor sc = f.var(SIGNED_CHAR, {n}, "sc"), uc = f.var(UNSIGNED_CHAR, {n}, "uc"), b = f.var(BOOL, {n}, "b");
  Tensor ll = f.var(LONGLONG, {n}, "ll"), ull = f.var(UNSIGNED_LONGLONG, {n}, "ull");
  popops::fill(f.graph, s, f.prog, -1234);
  popops::fill(f.graph, us, f.prog, 7.9f); // truncated toward zero
  popops::fill(f.graph, c, 300, f.prog);  // the earlier argument order; wraps as C++ converts
  popops::fill(f.graph, sc, f.prog, -128.0);
  popops::fill(f.graph, uc, f.prog, -1); // wraps to 255
  popops::fill(f.graph, b, f.prog, 2.5f); // non-zero is true
  const long long big = (1LL << 53) + 1; // exact: not rounded through a double
  popops::fill(f.graph, ll, f.prog, -big);
  popops::fill(f.graph, ull, f.prog, std::numeric_limits<unsigned long long>::max());

  // Slices of one-tile tensors that start inside a 32-bit word, in the program form and in a compute set with
  // regions (several regions on a tile: one Fill2d vertex); the elements around them keep their values.
  const unsigned last = tiles - 1;
  auto onLastTile = [&](const Type &type, std::size_t size, const std::string &name) {
    Tensor t = f.graph.addVariable(type, {size}, name);
    f.graph.setTileMapping(t, last);
    f.graph.createHostWrite(name, t);
    f.readable(t, name + ".r");
    return t;
  };
  Tensor odd = onLastTile(CHAR, 16, "odd"), oddS = onLastTile(SHORT, 8, "oddS"), oddB = onLastTile(BOOL, 8, "oddB");
  popops::fill(f.graph, odd.slice(1, 2), f.prog, 'a');
  popops::fill(f.graph, odd.slice(3, 6), f.prog, -5);
  popops::fill(f.graph, oddS.slice(1, 4), f.prog, 9u);
  popops::fill(f.graph, oddB.slice(1, 2), f.prog, true);
  popops::fill(f.graph, oddB.slice(3, 4), f.prog, true);
  ComputeSet cs = f.graph.addComputeSet("regions");
  popops::fill(f.graph, odd, {Interval(9, 10), Interval(11, 14)}, last, cs, 100);
  // SHORT by a transposed tensor's mapping: several one-element regions per tile.
  Tensor tr = f.var(SHORT, {4, 6}, "tr");
  popops::fill(f.graph, tr.transpose(), f.graph.getTileMapping(tr.transpose()), cs, -2);
  f.prog.add(Execute(cs));
  // QUARTER takes a fill of 0: its bits are zero whatever the format and scale.
  Tensor md = createConstantMetadataTensor(f.graph, QuarterMetadata::Format::F143, 2);
  Tensor q = f.graph.addVariable(QUARTER, md, {n}, "q");
  poputil::mapTensorLinearly(f.graph, q, 3, 1);
  popops::fill(f.graph, q, f.prog, 0);
  f.graph.createHostWrite("q", q.reinterpret(UNSIGNED_CHAR));
  f.graph.createHostRead("q.r", q.reinterpret(UNSIGNED_CHAR));
  f.build();

  f.write("s", counting<short>(n));
  f.write("us", counting<unsigned short>(n));
  f.write("c", counting<char>(n));
  f.write("sc", counting<signed char>(n));
  f.write("uc", counting<unsigned char>(n));
  f.write("b", std::vector<unsigned char>(n, 0));
  f.write("ll", counting<long long>(n));
  f.write("ull", counting<unsigned long long>(n));
  f.write("odd", counting<char>(16));
  f.write("oddS", counting<short>(8));
  f.write("oddB", std::vector<unsigned char>(8, 0));
  f.write("tr", counting<short>(n));
  f.write("q", counting<unsigned char>(n));
  f.engine->run(0);

  expectEqual(f.read<short>("s.r", n), std::vector<short>(n, short(-1234)), "fill SHORT");
  expectEqual(f.read<unsigned short>("us.r", n), std::vector<unsigned short>(n, 7), "fill UNSIGNED_SHORT");
  expectEqual(f.read<char>("c.r", n), std::vector<char>(n, static_cast<char>(300)), "fill CHAR (wrapped)");
  expectEqual(f.read<signed char>("sc.r", n), std::vector<signed char>(n, -128), "fill SIGNED_CHAR");
  expectEqual(f.read<unsigned char>("uc.r", n), std::vector<unsigned char>(n, 255), "fill UNSIGNED_CHAR");
  expectEqual(f.read<unsigned char>("b.r", n), std::vector<unsigned char>(n, 1), "fill BOOL");
  expectEqual(f.read<long long>("ll.r", n), std::vector<long long>(n, -big), "fill LONGLONG");
  expectEqual(f.read<unsigned long long>("ull.r", n),
              std::vector<unsigned long long>(n, std::numeric_limits<unsigned long long>::max()),
              "fill UNSIGNED_LONGLONG");
  std::vector<char> wantOdd = withRun(withRun(counting<char>(16), 1, 2, 'a'), 3, 6, char(-5));
  wantOdd = withRun(withRun(wantOdd, 9, 10, char(100)), 11, 14, char(100));
  expectEqual(f.read<char>("odd.r", 16), wantOdd, "CHAR slices at elements 1, 3, 9 and 11");
  expectEqual(f.read<short>("oddS.r", 8), withRun(counting<short>(8), 1, 4, short(9)), "SHORT slice at element 1");
  std::vector<unsigned char> wantB(8, 0);
  wantB[1] = wantB[3] = 1;
  expectEqual(f.read<unsigned char>("oddB.r", 8), wantB, "BOOL slices at elements 1 and 3");
  expectEqual(f.read<short>("tr.r", n), std::vector<short>(n, -2), "fill SHORT by a mapping (Fill2d)");
  expectEqual(f.read<unsigned char>("q.r", n), std::vector<unsigned char>(n, 0), "fill QUARTER with 0");
}

void test_fill_types_ipu2(void **) { checkFill(1472); }
void test_fill_types_tiny(void **) { checkFill(1); }

void test_fill_type_errors(void **) {
  Fixture f(4);
  Tensor uc = f.var(UNSIGNED_CHAR, {8}, "uc"), s = f.var(SHORT, {8}, "s");
  Tensor md = createConstantMetadataTensor(f.graph, QuarterMetadata::Format::F152, 0);
  Tensor q = f.graph.addVariable(QUARTER, md, {8}, "q");
  poputil::mapTensorLinearly(f.graph, q);
  using poputil::poplibs_error;
  Sequence p;
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, uc, p, 256.0f); }, "outside the range of");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, s, p, -40000.0); }, "pass a value the type holds");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, s, p, std::numeric_limits<float>::quiet_NaN()); },
                             "outside the range of");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, q, p, 1.0f); }, "can only be filled with 0");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, s.broadcast(2, 0), p, 1); }, "aliased elements");
  ComputeSet cs = f.graph.addComputeSet("bad");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, uc, {Interval(6, 9)}, 1, cs, 1); },
                             "outside the tensor's 8 elements");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, uc, 4u, cs, 1); }, "graph has 4 tiles");
  Tensor unmapped = f.graph.addVariable(SHORT, {4}, "unmapped");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, unmapped, p, 1); }, "unmapped elements");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fill_types_ipu2),
      cmocka_unit_test(test_fill_types_tiny),
      cmocka_unit_test(test_fill_type_errors),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
