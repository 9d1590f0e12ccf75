// popops::Operation::LOG_ADD against a host log-sum-exp in double: FLOAT rows on one tile and spread over every
// tile (several stages), large values that overflow a naive exp, -inf (log 0) elements, HALF input with HALF and
// FLOAT outputs, a scale (added to the logs) and an update (log-added to the old output) with reduceWithOutput;
// the Operation names on streams; and the errors (INT input or output).
#include <cmath>
#include <limits>
#include <sstream>

#include <popops/Operation.hpp>
#include <popops/Reduce.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popops::Operation;

namespace {

// log(sum(exp(v))) of each row of `cols` values, in double.
std::vector<float> logSumExp(const std::vector<float> &v, std::size_t cols) {
  std::vector<float> out;
  for (std::size_t r = 0; r * cols < v.size(); ++r) {
    double hi = -INFINITY;
    for (std::size_t c = 0; c < cols; ++c)
      hi = std::max(hi, double(v[r * cols + c]));
    double s = 0;
    for (std::size_t c = 0; c < cols; ++c)
      s += std::exp(double(v[r * cols + c]) - hi);
    out.push_back(std::isinf(hi) && hi < 0 ? -INFINITY : float(hi + std::log(s)));
  }
  return out;
}

float logAdd(float a, float b) {
  const double hi = std::max(a, b), lo = std::min(a, b);
  return std::isinf(lo) && lo < 0 ? float(hi) : float(hi + std::log1p(std::exp(lo - hi)));
}

void test_log_add_float(void **) {
  Fixture f(16);
  const std::size_t rows = 4, cols = 9, longCols = 3000;
  Tensor x = f.var(FLOAT, {rows, cols}, "x"), big = f.var(FLOAT, {2, longCols}, "big");
  Tensor upd = f.var(FLOAT, {rows}, "upd"), scaled = f.var(FLOAT, {rows}, "scaled"), s = f.var(FLOAT, {1}, "s");
  f.readable(popops::reduce(f.graph, x, {1}, Operation::LOG_ADD, f.prog), "rows");
  f.readable(popops::reduce(f.graph, x, {0}, Operation::LOG_ADD, f.prog), "cols");
  f.readable(popops::reduce(f.graph, big, {1}, Operation::LOG_ADD, f.prog), "big.lse");
  popops::reduceWithOutput(f.graph, x, upd, {1}, popops::ReduceParams(Operation::LOG_ADD, true), f.prog);
  popops::reduceWithOutput(f.graph, x, scaled, {1}, popops::ReduceParams(Operation::LOG_ADD, false, s), f.prog);
  f.build();
  std::vector<float> hx = floats(rows * cols, 2), hbig(2 * longCols), hupd = floats(rows, 6);
  for (float &v : hx)
    v *= 10.0f; // logs up to 40: exp overflows float only past 88, but the sums below do
  hx[1 * cols + 4] = 95.0f; // exp(95) overflows a float
  for (std::size_t c = 0; c < cols; ++c)
    hx[2 * cols + c] = -INFINITY; // a row of log(0): the result is log(0)
  hx[3 * cols] = -INFINITY;
  for (std::size_t i = 0; i < hbig.size(); ++i)
    hbig[i] = float(int(i % 37) - 18) * 0.25f - 3.0f;
  hupd[2] = 1.5f;
  f.write("x", hx);
  f.write("big", hbig);
  f.write("upd", hupd);
  f.write("s", std::vector<float>{-0.75f});
  f.engine->run(0);
  const std::vector<float> wrows = logSumExp(hx, cols), wbig = logSumExp(hbig, longCols);
  std::vector<float> xt(rows * cols), wupd(rows), wscaled(rows);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      xt[c * rows + r] = hx[r * cols + c];
  for (std::size_t r = 0; r < rows; ++r) {
    wupd[r] = logAdd(hupd[r], wrows[r]);
    wscaled[r] = wrows[r] - 0.75f;
  }
  expectNear(f.read<float>("rows", rows), wrows, "LOG_ADD of rows", 1e-5f);
  expectNear(f.read<float>("cols", cols), logSumExp(xt, rows), "LOG_ADD of columns", 1e-5f);
  expectNear(f.read<float>("big.lse", 2), wbig, "LOG_ADD over every tile", 1e-5f);
  expectNear(f.read<float>("upd.r", rows), wupd, "LOG_ADD update", 1e-5f);
  expectNear(f.read<float>("scaled.r", rows), wscaled, "LOG_ADD scale", 1e-5f);
}

void test_log_add_half_and_names(void **) {
  Fixture f(8);
  const std::size_t rows = 3, cols = 200;
  Tensor h = f.var(HALF, {rows, cols}, "h");
  Tensor outH = popops::reduce(f.graph, h, {1}, Operation::LOG_ADD, f.prog);
  Tensor outF = popops::reduce(f.graph, h, FLOAT, {1}, Operation::LOG_ADD, f.prog);
  assert_true(outH.elementType() == HALF && outF.elementType() == FLOAT);
  f.readable(outH, "outH");
  f.readable(outF, "outF");
  f.build();
  const std::vector<float> hh = f.rh(floats(rows * cols, 8));
  f.writeHalf("h", hh);
  f.engine->run(0);
  const std::vector<float> want = logSumExp(hh, cols);
  expectNear(f.readHalf("outH", rows), f.rh(want), "LOG_ADD half to half", kHalfTol);
  expectNear(f.read<float>("outF", rows), want, "LOG_ADD half to float", 1e-5f);

  std::ostringstream os;
  os << Operation::LOG_ADD << ' ' << Operation::SQUARE_ADD;
  assert_string_equal(os.str().c_str(), "LOG_ADD SQUARE_ADD");
  std::istringstream is("LOG_ADD MAX");
  Operation a = Operation::ADD, b = Operation::ADD;
  is >> a >> b;
  assert_true(a == Operation::LOG_ADD && b == Operation::MAX);
  std::istringstream bad("LOGADD");
  expectThrow<poputil::poplibs_error>([&] { bad >> a; }, "unknown operation 'LOGADD'");

  Tensor i = f.var(INT, {2, 3}, "i"), x = f.var(FLOAT, {2, 3}, "x");
  Sequence p;
  expectThrow<poputil::poplibs_error>([&] { popops::reduce(f.graph, i, {1}, Operation::LOG_ADD, p); },
                                      "LOG_ADD reduces FLOAT or HALF");
  expectThrow<poputil::poplibs_error>([&] { popops::reduce(f.graph, x, INT, {1}, Operation::LOG_ADD, p); },
                                      "LOG_ADD writes FLOAT or HALF outputs");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_log_add_float), cmocka_unit_test(test_log_add_half_and_names)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
