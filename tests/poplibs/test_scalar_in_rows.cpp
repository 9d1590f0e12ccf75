// popops::selectScalarFromRows and popops::updateScalarInRows in FLOAT and HALF against host references: in-range,
// masked (MASKED_LABEL_CODE) and out-of-range indices (NaN), a NaN elsewhere in a row that must not leak into
// the selected value; the EncodingConstants values; and the argument errors.
#include <limits>

#include <popops/EncodingConstants.hpp>
#include <popops/SelectScalarFromRows.hpp>
#include <popops/UpdateScalarInRows.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplibs_test;

namespace {

const std::size_t R = 7, C = 5;
// In range (first, last, middle), masked, just past the end, far out, and a negative INT seen as unsigned.
const std::vector<unsigned> kIdx = {0, 4, 2, MASKED_LABEL_CODE, 5, 100, 0xFFFFFFFEu};
const float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> input() {
  std::vector<float> v = floats(R * C, 3);
  v[0 * C + 3] = kNaN; // row 0 selects column 0: the NaN beside it must not reach the result
  v[1 * C + 0] = std::numeric_limits<float>::infinity();
  return v;
}

/// Host reference of selectScalarFromRows.
std::vector<float> refSelect(const std::vector<float> &p) {
  std::vector<float> out;
  for (std::size_t r = 0; r < R; ++r)
    out.push_back(kIdx[r] == MASKED_LABEL_CODE ? 0.0f : kIdx[r] < C ? p[r * C + kIdx[r]] : kNaN);
  return out;
}

/// Host reference of updateScalarInRows.
std::vector<float> refUpdate(std::vector<float> p) {
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c)
      if (kIdx[r] == MASKED_LABEL_CODE)
        continue;
      else if (kIdx[r] >= C)
        p[r * C + c] = kNaN;
      else if (c == kIdx[r])
        p[r * C + c] -= 1.0f;
  return p;
}

/// got equals want element by element, NaN matching NaN.
void expectSame(const std::vector<float> &got, const std::vector<float> &want, const char *what) {
  assert_int_equal(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    const bool ok = std::isnan(want[i]) ? std::isnan(got[i]) : got[i] == want[i];
    if (!ok) {
      print_error("%s[%zu]: got %g, want %g\n", what, i, double(got[i]), double(want[i]));
      fail();
    }
  }
}

void run(const Type &type) {
  Fixture f;
  const bool half = type == HALF;
  Tensor sel = f.var(type, {R, C}, "sel"), upd = f.var(type, {R, C}, "upd");
  Tensor idx = f.var(UNSIGNED_INT, {R}, "idx"), sidx = f.var(INT, {R}, "sidx");
  Tensor out = popops::selectScalarFromRows(f.graph, sel, idx, f.prog);
  Tensor outS = popops::selectScalarFromRows(f.graph, sel, sidx, f.prog, "signed");
  popops::updateScalarInRows(f.graph, upd, idx, f.prog);
  assert_true(out.shape() == std::vector<std::size_t>{R});
  assert_true(out.elementType() == type);
  f.readable(out, "out");
  f.readable(outS, "outS");
  f.build();
  std::vector<float> in = input();
  if (half) {
    in = f.rh(in);
    f.writeHalf("sel", in);
    f.writeHalf("upd", in);
  } else {
    f.write("sel", in);
    f.write("upd", in);
  }
  f.write("idx", kIdx);
  f.write("sidx", std::vector<int>(kIdx.begin(), kIdx.end()));
  f.engine->run(0);
  auto rd = [&](const char *h, std::size_t n) { return half ? f.readHalf(h, n) : f.read<float>(h, n); };
  expectSame(rd("out", R), refSelect(in), half ? "select half" : "select float");
  expectSame(rd("outS", R), refSelect(in), half ? "select int half" : "select int float");
  std::vector<float> want = refUpdate(in);
  if (half)
    want = f.rh(want);
  expectSame(rd("upd.r", R * C), want, half ? "update half" : "update float");
}

void test_float(void **) { run(FLOAT); }
void test_half(void **) { run(HALF); }

void test_constants(void **) {
  assert_true(MASKED_LABEL_CODE == std::numeric_limits<unsigned>::max());
  assert_true(EPS_LOG_N_FLOAT == std::numeric_limits<float>::min());
  assert_true(EPS_LOG_N_HALF > 5.9e-8f && EPS_LOG_N_HALF < 6.0e-8f); // 2^-24, the smallest subnormal half
}

void test_errors(void **) {
  Fixture f(4);
  Tensor p = f.var(FLOAT, {3, 4}, "p"), pi = f.var(INT, {3, 4}, "pi");
  Tensor idx = f.var(UNSIGNED_INT, {3}, "idx"), fidx = f.var(FLOAT, {3}, "fidx");
  using E = poputil::poplibs_error;
  expectThrow<E>([&] { popops::selectScalarFromRows(f.graph, pi, idx, f.prog); }, "FLOAT or HALF");
  expectThrow<E>([&] { popops::selectScalarFromRows(f.graph, p, fidx, f.prog); }, "UNSIGNED_INT");
  expectThrow<E>([&] { popops::updateScalarInRows(f.graph, p.flatten(), idx, f.prog); }, "matrix");
  expectThrow<E>([&] { popops::updateScalarInRows(f.graph, p, f.var(UNSIGNED_INT, {2}, "i2"), f.prog); },
                 "one index per row");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_constants),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
