// popops/GatherStatistics.hpp: both histogram overloads on FLOAT and HALF inputs spread over an ipu2-shaped IPU
// Model (1472 tiles; FLOAT, HALF over 16) and a one-tile one, against a host count of the same bins: plain and absolute, unsigned and
// float arithmetic, the output form replacing and updating, an input of no elements; the option and argument
// errors name their problem.
#include <cmath>
#include <limits>

#include <poplar/exceptions.hpp>
#include <popops/GatherStatistics.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;

namespace {

// The host reference: bin 0 below levels[0], bin i in [levels[i-1], levels[i]), the last bin the rest and NaNs.
std::vector<unsigned> hostHistogram(const std::vector<float> &x, const std::vector<float> &levels, bool absolute) {
  std::vector<unsigned> h(levels.size() + 1, 0);
  for (float v : x) {
    const float a = absolute ? std::fabs(v) : v;
    std::size_t b = 0;
    while (b < levels.size() && !(a < levels[b]))
      ++b;
    ++h[b];
  }
  return h;
}

std::vector<float> asFloat(const std::vector<unsigned> &v) { return std::vector<float>(v.begin(), v.end()); }

// Every form on one device of `tiles` tiles, `n` elements of `type`.
void checkDevice(unsigned tiles, const Type &type, std::size_t n) {
  Fixture f(tiles);
  const std::vector<float> levelValues = {-2.5f, -0.5f, 0.0f, 0.75f, 2.0f};
  const std::size_t bins = levelValues.size() + 1;
  Tensor x = f.var(type, {n / 4, 4}, "x");
  Tensor levels = f.var(type, {levelValues.size()}, "levels");
  Tensor plain = popops::histogram(f.graph, x, levels, false, f.prog);
  assert_true(plain.elementType() == UNSIGNED_INT && plain.numElements() == bins);
  f.readable(plain, "plain");
  Tensor absF = popops::histogram(f.graph, x, levels, true, f.prog, "abs", {{"useFloatArithmetic", "true"}});
  assert_true(absF.elementType() == FLOAT);
  f.readable(absF, "absF");
  Tensor outU = f.var(UNSIGNED_INT, {bins}, "outU"), outF = f.var(FLOAT, {bins}, "outF");
  popops::histogram(f.graph, x, outU, true, levels, false, f.prog, "update");
  popops::histogram(f.graph, x, outF, false, levels, true, f.prog, "replace");
  Tensor empty = f.graph.addVariable(type, {0}, "empty");
  f.graph.setTileMapping(empty, 0);
  f.readable(popops::histogram(f.graph, empty, levels, false, f.prog), "empty");
  f.build();

  std::vector<float> v = floats(n, 5);
  v[1] = -2.5f; // exactly on edges: counted in the bin above
  v[2] = 0.0f;
  v[n - 1] = std::numeric_limits<float>::quiet_NaN();
  if (type == HALF) {
    f.writeHalf("x", v);
    f.writeHalf("levels", levelValues);
  } else {
    f.write("x", v);
    f.write("levels", levelValues);
  }
  const std::vector<unsigned> before = {1, 2, 3, 4, 5, 6};
  f.write("outU", before);
  f.write("outF", std::vector<float>(bins, 9.0f));
  f.engine->run(0);
  // The test values are quarters, exact in half, so the HALF counts equal the FLOAT ones.
  const std::vector<unsigned> want = hostHistogram(v, levelValues, false), wantAbs = hostHistogram(v, levelValues, true);
  expectEqual(f.read<unsigned>("plain", bins), want, "histogram");
  expectNear(f.read<float>("absF", bins), asFloat(wantAbs), "histogram absolute, float arithmetic");
  std::vector<unsigned> updated = want;
  for (std::size_t i = 0; i < bins; ++i)
    updated[i] += before[i];
  expectEqual(f.read<unsigned>("outU.r", bins), updated, "histogram into UNSIGNED_INT output, updating");
  expectNear(f.read<float>("outF.r", bins), asFloat(wantAbs), "histogram into FLOAT output, replacing");
  expectEqual(f.read<unsigned>("empty", bins), std::vector<unsigned>(bins, 0), "histogram of nothing");
  unsigned total = 0;
  for (unsigned c : want)
    total += c;
  assert_int_equal(total, n);
}

// The spread over 1472 tiles (a partial count per tile, one reduction of ~1500 rows) once, with FLOAT input: the
// input type changes only the per-tile vertex, not the partials or their reduction, so HALF over a few tiles (and
// the one-tile test) covers it; HALF on 1472 tiles doubled the test's cost (120 s under the sanitizers).
void test_histogram_ipu2(void **) {
  checkDevice(1472, FLOAT, 6000);
  checkDevice(16, HALF, 6000);
}

void test_histogram_tiny(void **) {
  checkDevice(1, FLOAT, 200);
  checkDevice(1, HALF, 200);
}

void test_histogram_errors(void **) {
  Fixture f(2);
  Tensor x = f.var(FLOAT, {8}, "x"), levels = f.var(FLOAT, {3}, "levels"), hl = f.var(HALF, {3}, "hl");
  Tensor i = f.var(INT, {8}, "i"), outI = f.var(INT, {4}, "outI"), outShort = f.var(FLOAT, {3}, "outShort");
  Sequence s;
  expectThrow<invalid_option>([&] { popops::histogram(f.graph, x, levels, false, s, {}, {{"useFloatArithmetic", "yes"}}); },
                              "allowed: true, false");
  expectThrow<invalid_option>([&] { popops::histogram(f.graph, x, levels, false, s, {}, {{"partialType", "float"}}); },
                              "unknown option 'partialType'");
  expectThrow<poputil::poplibs_error>([&] { popops::histogram(f.graph, i, levels, false, s); },
                                      "pass a FLOAT or HALF tensor");
  expectThrow<poputil::poplibs_error>([&] { popops::histogram(f.graph, x, hl, false, s); },
                                      "give the levels the input's element type");
  expectThrow<poputil::poplibs_error>([&] { popops::histogram(f.graph, x, outI, false, levels, false, s); },
                                      "it must be FLOAT or UNSIGNED_INT");
  expectThrow<poputil::poplibs_error>([&] { popops::histogram(f.graph, x, outShort, false, levels, false, s); },
                                      "one more than the levels");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_histogram_ipu2),
      cmocka_unit_test(test_histogram_tiny),
      cmocka_unit_test(test_histogram_errors),
  };
  return cmocka_run_group_tests(tests, nullptr, nullptr);
}
