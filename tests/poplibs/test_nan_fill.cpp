// popops/NaN.hpp (hasNaN, hasNaNOrInf on FLOAT and HALF tensors spread over tiles, checked on the device against
// std::isnan/std::isinf for clean data, a NaN, an infinity; an empty tensor) and popops/Fill.hpp, Zero.hpp (every
// overload: PopLibs' (graph, t, prog, value) order, the earlier (graph, t, value, prog) one, and the compute-set
// forms with regions, a tile, or a mapping, which leave the other elements alone), with their argument errors.
#include <cmath>
#include <limits>

#include <popops/Fill.hpp>
#include <popops/NaN.hpp>
#include <popops/Zero.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

void test_has_nan(void **) {
  Fixture f(8);
  const std::size_t n = 50;
  Tensor x = f.var(FLOAT, {5, 10}, "x"), h = f.var(HALF, {n}, "h");
  f.readable(popops::hasNaN(f.graph, x, f.prog), "x.nan");
  f.readable(popops::hasNaNOrInf(f.graph, x, f.prog), "x.naninf");
  Tensor hn = popops::hasNaN(f.graph, h, f.prog), hni = popops::hasNaNOrInf(f.graph, h, f.prog);
  assert_true(hn.elementType() == BOOL && hn.rank() == 0 && hni.elementType() == BOOL && hni.rank() == 0);
  f.readable(hn, "h.nan");
  f.readable(hni, "h.naninf");
  Tensor empty = f.graph.addVariable(FLOAT, {0, 3}, "empty");
  f.graph.setTileMapping(empty, 0);
  f.readable(popops::hasNaNOrInf(f.graph, empty, f.prog), "empty.naninf");
  f.build();
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  // Clean; a NaN in the last element (the last tile); an infinity in the middle; both.
  const std::vector<std::pair<std::size_t, float> > pokes[] = {{}, {{n - 1, nan}}, {{23, -inf}}, {{3, inf}, {40, nan}}};
  for (const auto &poke : pokes) {
    std::vector<float> v = floats(n, 3);
    for (const auto &p : poke)
      v[p.first] = p.second;
    f.write("x", v);
    f.writeHalf("h", v);
    f.engine->run(0);
    bool wantNaN = false, wantInf = false;
    for (float e : v) {
      wantNaN = wantNaN || std::isnan(e);
      wantInf = wantInf || std::isinf(e);
    }
    const unsigned char a = wantNaN, b = wantNaN || wantInf;
    expectEqual(f.read<unsigned char>("x.nan", 1), {a}, "hasNaN FLOAT");
    expectEqual(f.read<unsigned char>("x.naninf", 1), {b}, "hasNaNOrInf FLOAT");
    expectEqual(f.read<unsigned char>("h.nan", 1), {a}, "hasNaN HALF");
    expectEqual(f.read<unsigned char>("h.naninf", 1), {b}, "hasNaNOrInf HALF");
    expectEqual(f.read<unsigned char>("empty.naninf", 1), {0}, "hasNaNOrInf of nothing");
  }
  Tensor i = f.graph.addVariable(INT, {4}, "i");
  f.graph.setTileMapping(i, 0);
  Sequence s;
  expectThrow<poputil::poplibs_error>([&] { popops::hasNaN(f.graph, i, s); }, "pass a FLOAT or HALF tensor");
}

void test_fill_and_zero(void **) {
  Fixture f(8);
  const std::size_t n = 24;
  Tensor a = f.var(FLOAT, {n}, "a"), b = f.var(INT, {4, 6}, "b"), c = f.var(HALF, {n}, "c");
  Tensor d = f.var(FLOAT, {n}, "d"), e = f.var(UNSIGNED_INT, {n}, "e"), g = f.var(FLOAT, {4, 6}, "g");
  Tensor z = f.var(FLOAT, {n}, "z"), zt = f.var(INT, {n}, "zt"), zm = f.var(FLOAT, {n}, "zm"), zp = f.var(HALF, {n}, "zp");
  popops::fill(f.graph, a, f.prog, 2.5f);          // PopLibs' order
  popops::fill(f.graph, b, 7, f.prog, "old-order"); // the earlier order still works
  popops::fill(f.graph, c, f.prog, 1.5);
  ComputeSet cs = f.graph.addComputeSet("fills");
  // var() maps 3 elements per tile (tile k holds [3k, 3k + 3)). Regions of d on the tiles that hold them; a slice of
  // e that lives on tile 2; all of g by its (transposed) mapping.
  popops::fill(f.graph, d, {Interval(3, 5)}, 1, cs, -4.0f);
  popops::fill(f.graph, d, {Interval(9, 10), Interval(11, 12)}, 3, cs, -4.0f);
  popops::fill(f.graph, e.slice(6, 9), 2u, cs, 77u);
  popops::fill(f.graph, g.transpose(), f.graph.getTileMapping(g.transpose()), cs, 0.25f);
  popops::zero(f.graph, z, {Interval(0, 1), Interval(2, 3)}, 0, cs);
  popops::zero(f.graph, z, {Interval(21, 24)}, 7, cs);
  popops::zero(f.graph, zt.slice(15, 17), 5, cs);
  popops::zero(f.graph, zm, f.graph.getTileMapping(zm), cs);
  f.prog.add(Execute(cs));
  popops::zero(f.graph, zp, f.prog);
  f.build();
  const std::vector<float> init = floats(n, 1);
  const std::vector<int> initI = ints(n, 2);
  const std::vector<unsigned> initU(n, 5);
  for (const char *h : {"a", "d", "g", "z", "zm"})
    f.write(h, init);
  for (const char *h : {"b", "zt"})
    f.write(h, initI);
  f.write("e", initU);
  f.writeHalf("c", init);
  f.writeHalf("zp", init);
  f.engine->run(0);
  expectNear(f.read<float>("a.r", n), std::vector<float>(n, 2.5f), "fill FLOAT", 0);
  expectEqual(f.read<int>("b.r", n), std::vector<int>(n, 7), "fill INT (value first)");
  expectNear(f.readHalf("c.r", n), std::vector<float>(n, 1.5f), "fill HALF", 0);
  std::vector<float> wd = init, wz = init;
  for (std::size_t i : {3, 4, 9, 11})
    wd[i] = -4.0f;
  for (std::size_t i : {0, 2, 21, 22, 23})
    wz[i] = 0.0f;
  std::vector<unsigned> we = initU;
  std::vector<int> wzt = initI;
  for (std::size_t i = 6; i < 9; ++i)
    we[i] = 77;
  wzt[15] = wzt[16] = 0;
  expectNear(f.read<float>("d.r", n), wd, "fill of regions on a tile", 0);
  expectEqual(f.read<unsigned>("e.r", n), we, "fill of a view on a tile");
  expectNear(f.read<float>("g.r", n), std::vector<float>(n, 0.25f), "fill by a mapping", 0);
  expectNear(f.read<float>("z.r", n), wz, "zero of regions", 0);
  expectEqual(f.read<int>("zt.r", n), wzt, "zero on a tile");
  expectNear(f.read<float>("zm.r", n), std::vector<float>(n, 0.0f), "zero by a mapping", 0);
  expectNear(f.readHalf("zp.r", n), std::vector<float>(n, 0.0f), "zero in a program", 0);

  using poputil::poplibs_error;
  ComputeSet cs2 = f.graph.addComputeSet("bad");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, a, {Interval(20, 30)}, 1, cs2, 1.0f); },
                             "outside the tensor's 24 elements");
  expectThrow<poplibs_error>([&] { popops::fill(f.graph, a, 8u, cs2, 1.0f); }, "graph has 8 tiles");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_has_nan), cmocka_unit_test(test_fill_and_zero)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
