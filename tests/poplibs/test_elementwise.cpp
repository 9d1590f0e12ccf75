// popops element-wise operations against a host reference on a 16-tile IPU Model: binary and unary operations on
// FLOAT and INT with odd sizes, numpy broadcasting (row, column, scalar), transposed views as operands, results
// read back; map expressions of depth 3 and more; in-place forms, fill, zero, cast, scaledAddTo and
// scaledSubtractFrom (and the X - aX + bY speciality); HALF (rounded per operation, casts with their exact bit patterns, fill, scaled updates with
// FLOAT scales); and the argument errors.
#include <algorithm>
#include <cmath>
#include <functional>

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/ScaledAdd.hpp>
#include <popops/Zero.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
namespace pe = popops::expr;

namespace {

const std::size_t R = 7, C = 5, N = R * C;

// a[r][c] op b[...] with b broadcast from shape [C] (row), [R,1] (column) or [1] (scalar).
std::vector<float> broadcastRef(const std::vector<float> &a, const std::vector<float> &b, char kind,
                                const std::function<float(float, float)> &f) {
  std::vector<float> out(N);
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c) {
      float bv = kind == 'r' ? b[c] : kind == 'c' ? b[r] : kind == 's' ? b[0] : b[r * C + c];
      out[r * C + c] = f(a[r * C + c], bv);
    }
  return out;
}

void test_binary_float(void **) {
  Fixture f;
  Tensor a = f.var(FLOAT, {R, C}, "a"), b = f.var(FLOAT, {R, C}, "b"), row = f.var(FLOAT, {C}, "row");
  Tensor col = f.var(FLOAT, {R, 1}, "col"), s = f.var(FLOAT, {1}, "s"), bt = f.var(FLOAT, {C, R}, "bt");
  struct Case {
    const char *name;
    Tensor out;
    std::vector<float> want;
  };
  auto ha = floats(N, 1), hb = floats(N, 2), hrow = floats(C, 3), hcol = floats(R, 4);
  std::vector<float> hs = {1.5f};
  auto hbt = floats(N, 5); // bt[c][r]; bt.transpose()[r][c] = hbt[c * R + r]
  std::vector<float> hbtT(N);
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c)
      hbtT[r * C + c] = hbt[c * R + r];
  std::vector<Case> cases = {
      {"add", popops::add(f.graph, a, b, f.prog), broadcastRef(ha, hb, 'f', std::plus<float>())},
      {"sub", popops::sub(f.graph, a, row, f.prog), broadcastRef(ha, hrow, 'r', std::minus<float>())},
      {"mul", popops::mul(f.graph, a, col, f.prog), broadcastRef(ha, hcol, 'c', std::multiplies<float>())},
      {"div", popops::div(f.graph, a, s, f.prog), broadcastRef(ha, hs, 's', std::divides<float>())},
      {"max", popops::max(f.graph, a, bt.transpose(), f.prog),
       broadcastRef(ha, hbtT, 'f', [](float x, float y) { return std::max(x, y); })},
      {"min", popops::min(f.graph, row, a, f.prog),
       broadcastRef(ha, hrow, 'r', [](float x, float y) { return std::min(x, y); })},
      {"pow", popops::pow(f.graph, popops::abs(f.graph, a, f.prog), b, f.prog),
       broadcastRef(ha, hb, 'f', [](float x, float y) { return std::pow(std::fabs(x), y); })},
      {"addConst", popops::add(f.graph, a, 2.5f, f.prog),
       broadcastRef(ha, hs, 's', [](float x, float) { return x + 2.5f; })},
      {"atan2", popops::atan2(f.graph, a, b, f.prog),
       broadcastRef(ha, hb, 'f', [](float x, float y) { return std::atan2(x, y); })},
  };
  for (auto &c : cases)
    f.readable(c.out, c.name);
  Tensor lt = popops::lt(f.graph, a, b, f.prog), eq = popops::eq(f.graph, a, row, f.prog);
  Tensor ge = popops::gteq(f.graph, a.transpose(), bt, f.prog);
  f.readable(lt, "lt");
  f.readable(eq, "eq");
  f.readable(ge, "ge");
  f.build();
  f.write("a", ha);
  f.write("b", hb);
  f.write("row", hrow);
  f.write("col", hcol);
  f.write("s", hs);
  f.write("bt", hbt);
  f.engine->run(0);
  for (auto &c : cases) {
    assert_true(c.out.shape() == std::vector<std::size_t>({R, C}));
    expectNear(f.read<float>(c.name, N), c.want, c.name, 1e-5f);
  }
  auto hlt = f.read<unsigned char>("lt", N), heq = f.read<unsigned char>("eq", N);
  auto hge = f.read<unsigned char>("ge", N);
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c) {
      assert_int_equal(hlt[r * C + c], ha[r * C + c] < hb[r * C + c]);
      assert_int_equal(heq[r * C + c], ha[r * C + c] == hrow[c]);
      assert_int_equal(hge[c * R + r], ha[r * C + c] >= hbt[c * R + r]);
    }
  assert_true(lt.elementType() == BOOL);
}

void test_int(void **) {
  Fixture f;
  Tensor a = f.var(INT, {R, C}, "a"), b = f.var(INT, {R, C}, "b"), row = f.var(INT, {C}, "row");
  auto ha = ints(N, 1), hb = ints(N, 2), hrow = ints(C, 3);
  for (int &x : hrow)
    x = x == 0 ? 3 : x; // a divisor
  std::vector<std::pair<const char *, std::function<int(int, int)> > > refs = {
      {"add", std::plus<int>()},
      {"sub", std::minus<int>()},
      {"mul", std::multiplies<int>()},
      {"div", std::divides<int>()},
      {"rem", std::modulus<int>()},
      {"max", [](int x, int y) { return std::max(x, y); }},
      {"min", [](int x, int y) { return std::min(x, y); }},
      {"and", [](int x, int y) { return x & y; }},
      {"or", [](int x, int y) { return x | y; }},
      {"xor", [](int x, int y) { return x ^ y; }},
  };
  std::vector<Tensor> outs = {
      popops::add(f.graph, a, row, f.prog),        popops::sub(f.graph, a, row, f.prog),
      popops::mul(f.graph, a, row, f.prog),        popops::div(f.graph, a, row, f.prog),
      popops::rem(f.graph, a, row, f.prog),        popops::max(f.graph, a, row, f.prog),
      popops::min(f.graph, a, row, f.prog),        popops::bitwiseAnd(f.graph, a, row, f.prog),
      popops::bitwiseOr(f.graph, a, row, f.prog),  popops::bitwiseXor(f.graph, a, row, f.prog),
  };
  for (std::size_t i = 0; i < outs.size(); ++i)
    f.readable(outs[i], refs[i].first);
  Tensor ab = popops::abs(f.graph, a, f.prog), ng = popops::neg(f.graph, b, f.prog);
  Tensor sq = popops::square(f.graph, a, f.prog), shl = popops::shiftLeft(f.graph, b, 2, f.prog);
  Tensor gt = popops::gt(f.graph, a, b, f.prog);
  f.readable(ab, "abs");
  f.readable(ng, "neg");
  f.readable(sq, "square");
  f.readable(shl, "shl");
  f.readable(gt, "gt");
  f.build();
  f.write("a", ha);
  f.write("b", hb);
  f.write("row", hrow);
  f.engine->run(0);
  for (std::size_t i = 0; i < outs.size(); ++i) {
    std::vector<int> want(N);
    for (std::size_t k = 0; k < N; ++k)
      want[k] = refs[i].second(ha[k], hrow[k % C]);
    assert_true(outs[i].elementType() == INT);
    expectEqual(f.read<int>(refs[i].first, N), want, refs[i].first);
  }
  std::vector<int> wabs(N), wneg(N), wsq(N), wshl(N);
  for (std::size_t k = 0; k < N; ++k) {
    wabs[k] = std::abs(ha[k]);
    wneg[k] = -hb[k];
    wsq[k] = ha[k] * ha[k];
    wshl[k] = int(unsigned(hb[k]) << 2);
  }
  expectEqual(f.read<int>("abs", N), wabs, "abs");
  expectEqual(f.read<int>("neg", N), wneg, "neg");
  expectEqual(f.read<int>("square", N), wsq, "square");
  expectEqual(f.read<int>("shl", N), wshl, "shl");
  auto hgt = f.read<unsigned char>("gt", N);
  for (std::size_t k = 0; k < N; ++k)
    assert_int_equal(hgt[k], ha[k] > hb[k]);
}

void test_unary_float(void **) {
  Fixture f;
  const std::size_t n = 101; // odd, over 16 tiles
  Tensor a = f.var(FLOAT, {n}, "a");
  auto ha = floats(n, 7);
  std::vector<std::pair<const char *, std::function<float(float)> > > refs = {
      {"abs", [](float x) { return std::fabs(x); }},
      {"neg", [](float x) { return -x; }},
      {"exp", [](float x) { return std::exp(x); }},
      {"log", [](float x) { return std::log(std::fabs(x)); }},
      {"sqrt", [](float x) { return std::sqrt(std::fabs(x)); }},
      {"rsqrt", [](float x) { return 1.0f / std::sqrt(std::fabs(x)); }},
      {"tanh", [](float x) { return std::tanh(x); }},
      {"sigmoid", [](float x) { return 1.0f / (1.0f + std::exp(-x)); }},
      {"ceil", [](float x) { return std::ceil(x); }},
      {"floor", [](float x) { return std::floor(x); }},
      {"square", [](float x) { return x * x; }},
      {"signum", [](float x) { return float((x > 0) - (x < 0)); }},
      {"sin", [](float x) { return std::sin(x); }},
      {"cos", [](float x) { return std::cos(x); }},
      {"inv", [](float x) { return 1.0f / x; }},
      {"round", [](float x) { return std::round(x); }},
  };
  Tensor ab = popops::abs(f.graph, a, f.prog);
  std::vector<Tensor> outs = {ab,
                              popops::neg(f.graph, a, f.prog),
                              popops::exp(f.graph, a, f.prog),
                              popops::log(f.graph, ab, f.prog),
                              popops::sqrt(f.graph, ab, f.prog),
                              popops::rsqrt(f.graph, ab, f.prog),
                              popops::tanh(f.graph, a, f.prog),
                              popops::sigmoid(f.graph, a, f.prog),
                              popops::ceil(f.graph, a, f.prog),
                              popops::floor(f.graph, a, f.prog),
                              popops::square(f.graph, a, f.prog),
                              popops::signum(f.graph, a, f.prog),
                              popops::sin(f.graph, a, f.prog),
                              popops::cos(f.graph, a, f.prog),
                              popops::inv(f.graph, a, f.prog),
                              popops::round(f.graph, a, f.prog)};
  for (std::size_t i = 0; i < outs.size(); ++i)
    f.readable(outs[i], refs[i].first);
  Tensor fin = popops::isFinite(f.graph, popops::log(f.graph, popops::add(f.graph, a, 1.0f, f.prog), f.prog), f.prog);
  f.readable(fin, "isFinite");
  f.build();
  f.write("a", ha);
  f.engine->run(0);
  for (std::size_t i = 0; i < outs.size(); ++i) {
    std::vector<float> want(n);
    for (std::size_t k = 0; k < n; ++k)
      want[k] = refs[i].second(ha[k]);
    expectNear(f.read<float>(refs[i].first, n), want, refs[i].first, 2e-5f);
  }
  auto hfin = f.read<unsigned char>("isFinite", n);
  for (std::size_t k = 0; k < n; ++k)
    assert_int_equal(hfin[k], ha[k] + 1.0f > 0.0f);
}

void test_map_expressions(void **) {
  using namespace popops::expr;
  Fixture f;
  Tensor a = f.var(FLOAT, {R, C}, "a"), b = f.var(FLOAT, {R, C}, "b"), row = f.var(FLOAT, {C}, "row");
  Tensor k = f.var(INT, {R, C}, "k");
  auto ha = floats(N, 1), hb = floats(N, 2), hrow = floats(C, 3);
  auto hk = ints(N, 4);
  // Depth 4: ((a + b) * exp(row / 4)) - select(a, b, a > b)
  Tensor e1 = popops::map(f.graph, (_1 + _2) * Exp(_3 / 4.0f) - Select(_1, _2, _1 > _2), {a, b, row}, f.prog, "e1");
  // Mixed types through Cast, clamp, and a bool result: clamp(float(k) * 0.5, -1, 2) >= a
  Tensor e2 = popops::map(f.graph, Clamp(Cast(_2, FLOAT) * 0.5f, Const(-1.0f), Const(2.0f)) >= _1, {a, k}, f.prog);
  // Integer expression with a constant: (k * 3 + 1) % 4 == 0 || k < -5
  Tensor e3 = popops::map(f.graph, ((_1 * 3 + 1) % 4 == 0) || (_1 < -5), {k}, f.prog);
  // mapInPlace: b = b * b - a / 2
  popops::mapInPlace(f.graph, _1 * _1 - _2 / 2.0f, {b, a}, f.prog);
  f.readable(e1, "e1");
  f.readable(e2, "e2");
  f.readable(e3, "e3");
  f.build();
  f.write("a", ha);
  f.write("b", hb);
  f.write("row", hrow);
  f.write("k", hk);
  f.engine->run(0);
  std::vector<float> w1(N), wb(N);
  for (std::size_t i = 0; i < N; ++i) {
    float x = ha[i], y = hb[i];
    w1[i] = (x + y) * std::exp(hrow[i % C] / 4.0f) - (x > y ? x : y);
    wb[i] = y * y - x / 2.0f;
  }
  expectNear(f.read<float>("e1", N), w1, "e1", 1e-5f);
  expectNear(f.read<float>("b.r", N), wb, "b in place", 1e-5f);
  auto h2 = f.read<unsigned char>("e2", N), h3 = f.read<unsigned char>("e3", N);
  for (std::size_t i = 0; i < N; ++i) {
    float c = std::min(2.0f, std::max(-1.0f, float(hk[i]) * 0.5f));
    assert_int_equal(h2[i], c >= ha[i]);
    assert_int_equal(h3[i], ((hk[i] * 3 + 1) % 4 == 0) || hk[i] < -5);
  }
  assert_true(e2.elementType() == BOOL && e3.elementType() == BOOL);
}

void test_in_place_fill_cast_scaled(void **) {
  Fixture f;
  Tensor a = f.var(FLOAT, {R, C}, "a"), b = f.var(FLOAT, {R, C}, "b"), row = f.var(FLOAT, {C}, "row");
  Tensor c = f.var(FLOAT, {R, C}, "c"), d = f.var(FLOAT, {R, C}, "d"), z = f.var(INT, {R, C}, "z");
  Tensor g = f.var(FLOAT, {R, C}, "g"), k = f.var(INT, {N}, "k"), sc = f.var(FLOAT, {1}, "sc");
  auto ha = floats(N, 1), hb = floats(N, 2), hrow = floats(C, 3), hc = floats(N, 4), hd = floats(N, 5);
  auto hg = floats(N, 6);
  auto hk = ints(N, 7);
  popops::addInPlace(f.graph, a, row, f.prog);   // a += row
  popops::mulInPlace(f.graph, a, b, f.prog);     // a *= b
  popops::subInPlace(f.graph, b, 1.0f, f.prog);  // b -= 1
  popops::scaledAddTo(f.graph, c, d, 0.5f, f.prog);
  popops::scaledSubtractFrom(f.graph, d, g, sc, f.prog);
  popops::scaledAddTo(f.graph, g, 2.0f, row, -1.0f, f.prog);
  popops::fill(f.graph, z, 7, f.prog);
  Tensor kf = popops::cast(f.graph, k, FLOAT, f.prog);
  Tensor fk = popops::cast(f.graph, popops::mul(f.graph, kf, 0.75f, f.prog), INT, f.prog);
  Tensor zf = f.graph.addVariable(FLOAT, {3, 3}, "zf");
  poputil::mapTensorLinearly(f.graph, zf);
  popops::zero(f.graph, zf, f.prog);
  f.readable(kf, "kf");
  f.readable(fk, "fk");
  f.readable(zf, "zf");
  f.build();
  for (auto &[h, v] : std::vector<std::pair<const char *, std::vector<float> > >{
           {"a", ha}, {"b", hb}, {"row", hrow}, {"c", hc}, {"d", hd}, {"g", hg}, {"sc", {0.25f}}})
    f.write(h, v);
  f.write("k", hk);
  f.write("z", std::vector<int>(N, -1));
  f.engine->run(0);
  std::vector<float> wa(N), wb(N), wc(N), wd(N), wg(N), wkf(N);
  std::vector<int> wfk(N);
  for (std::size_t i = 0; i < N; ++i) {
    wa[i] = (ha[i] + hrow[i % C]) * hb[i];
    wb[i] = hb[i] - 1.0f;
    wc[i] = hc[i] + 0.5f * hd[i];
    wd[i] = hd[i] - 0.25f * hg[i];
    wg[i] = 2.0f * hg[i] - hrow[i % C];
    wkf[i] = float(hk[i]);
    wfk[i] = int(float(hk[i]) * 0.75f);
  }
  expectNear(f.read<float>("a.r", N), wa, "a");
  expectNear(f.read<float>("b.r", N), wb, "b");
  expectNear(f.read<float>("c.r", N), wc, "c");
  expectNear(f.read<float>("d.r", N), wd, "d");
  expectNear(f.read<float>("g.r", N), wg, "g");
  expectNear(f.read<float>("kf", N), wkf, "cast to float");
  expectEqual(f.read<int>("fk", N), wfk, "cast to int");
  expectEqual(f.read<int>("z.r", N), std::vector<int>(N, 7), "fill");
  expectNear(f.read<float>("zf", 9), std::vector<float>(9, 0.0f), "zero");
}

// HALF: binary operations with broadcasting and a transposed operand, comparisons, unary operations, a map of
// depth 3, each half result rounded to nearest even as the host reference rounds it.
void test_half_elementwise(void **) {
  using namespace popops::expr;
  Fixture f;
  Tensor a = f.var(HALF, {R, C}, "a"), b = f.var(HALF, {R, C}, "b"), row = f.var(HALF, {C}, "row");
  Tensor bt = f.var(HALF, {C, R}, "bt");
  auto ha = f.rh(floats(N, 1)), hb = f.rh(floats(N, 2)), hrow = f.rh(floats(C, 3)), hbt = f.rh(floats(N, 5));
  for (float &x : hb)
    x = x * 0.3f; // values that are not exact in half after arithmetic
  hb = f.rh(hb);
  std::vector<float> hbtT(N);
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < C; ++c)
      hbtT[r * C + c] = hbt[c * R + r];
  struct Case {
    const char *name;
    Tensor out;
    std::function<float(std::size_t)> want;
  };
  std::vector<Case> cases = {
      {"add", popops::add(f.graph, a, b, f.prog), [&](std::size_t i) { return f.rh(ha[i] + hb[i]); }},
      {"sub", popops::sub(f.graph, a, row, f.prog), [&](std::size_t i) { return f.rh(ha[i] - hrow[i % C]); }},
      {"mul", popops::mul(f.graph, a, bt.transpose(), f.prog), [&](std::size_t i) { return f.rh(ha[i] * hbtT[i]); }},
      {"div", popops::div(f.graph, a, b, f.prog), [&](std::size_t i) { return f.rh(ha[i] / hb[i]); }},
      {"max", popops::max(f.graph, a, b, f.prog), [&](std::size_t i) { return std::max(ha[i], hb[i]); }},
      {"addConst", popops::add(f.graph, a, 0.1f, f.prog), [&](std::size_t i) { return f.rh(ha[i] + f.rh(0.1f)); }},
      {"exp", popops::exp(f.graph, b, f.prog), [&](std::size_t i) { return f.rh(std::exp(hb[i])); }},
      {"sqrt", popops::sqrt(f.graph, popops::abs(f.graph, a, f.prog), f.prog),
       [&](std::size_t i) { return f.rh(std::sqrt(std::fabs(ha[i]))); }},
      {"tanh", popops::tanh(f.graph, a, f.prog), [&](std::size_t i) { return f.rh(std::tanh(ha[i])); }},
      {"neg", popops::neg(f.graph, a, f.prog), [&](std::size_t i) { return -ha[i]; }},
      {"map", popops::map(f.graph, (_1 * _2 + Const(0.5f)) / (_3 - Const(10.0f)), {a, b, row}, f.prog),
       [&](std::size_t i) { return f.rh(f.rh(f.rh(ha[i] * hb[i]) + 0.5f) / f.rh(hrow[i % C] - 10.0f)); }},
  };
  Tensor lt = popops::lt(f.graph, a, b, f.prog), ge = popops::gteq(f.graph, a, row, f.prog);
  Tensor fin = popops::isFinite(f.graph, a, f.prog);
  cases.push_back({"select", popops::select(f.graph, a, b, lt, f.prog),
                   [&](std::size_t i) { return ha[i] < hb[i] ? ha[i] : hb[i]; }});
  Tensor lo = popops::neg(f.graph, popops::abs(f.graph, b, f.prog), f.prog);
  cases.push_back({"clamp", popops::clamp(f.graph, a, lo, popops::abs(f.graph, b, f.prog), f.prog),
                   [&](std::size_t i) { return std::min(std::max(ha[i], -std::fabs(hb[i])), std::fabs(hb[i])); }});
  for (auto &c : cases)
    f.readable(c.out, c.name);
  f.readable(lt, "lt");
  f.readable(ge, "ge");
  f.readable(fin, "fin");
  popops::addInPlace(f.graph, a, row, f.prog);
  f.build();
  f.writeHalf("a", ha);
  f.writeHalf("b", hb);
  f.writeHalf("row", hrow);
  f.writeHalf("bt", hbt);
  f.engine->run(0);
  for (auto &c : cases) {
    assert_true(c.out.elementType() == HALF);
    std::vector<float> want(N);
    for (std::size_t i = 0; i < N; ++i)
      want[i] = c.want(i);
    expectNear(f.readHalf(c.name, N), want, c.name, kHalfTol);
  }
  auto hlt = f.read<unsigned char>("lt", N), hge = f.read<unsigned char>("ge", N);
  auto hfin = f.read<unsigned char>("fin", N);
  std::vector<float> wa(N);
  for (std::size_t i = 0; i < N; ++i) {
    assert_int_equal(hlt[i], ha[i] < hb[i]);
    assert_int_equal(hge[i], ha[i] >= hrow[i % C]);
    assert_int_equal(hfin[i], 1);
    wa[i] = f.rh(ha[i] + hrow[i % C]);
  }
  expectNear(f.readHalf("a.r", N), wa, "addInPlace", kHalfTol);
}

// HALF casts round to nearest even (ties included) and saturate to infinity; half to integers truncates; fill,
// zero; scaledAddTo / scaledSubtractFrom with HALF data and FLOAT scales (tensor and constant) computed in float.
void test_half_cast_fill_scaled(void **) {
  Fixture f;
  const std::vector<float> special = {1.0f + 1.0f / 2048,     // a tie: rounds to even (1.0)
                                      1.0f + 3.0f / 2048,     // a tie: rounds to even (1 + 2/1024)
                                      1.0f + 1.0f / 2048 + 1.0f / 65536, // above the tie: rounds up
                                      65504.0f, 70000.0f, -1e6f, 6e-8f, -2.5f, 0.0f, 3.75f, 1e-3f};
  const std::size_t S = special.size();
  Tensor x = f.var(FLOAT, {S}, "x"), k = f.var(INT, {N}, "k"), h = f.var(HALF, {R, C}, "h");
  Tensor u = f.var(UNSIGNED_INT, {N}, "u");
  Tensor xh = popops::cast(f.graph, x, HALF, f.prog);
  Tensor back = popops::cast(f.graph, xh, FLOAT, f.prog);
  Tensor kh = popops::cast(f.graph, k, HALF, f.prog);
  Tensor uh = popops::cast(f.graph, u, HALF, f.prog);
  Tensor hk = popops::cast(f.graph, h, INT, f.prog);
  Tensor hb = popops::cast(f.graph, h, BOOL, f.prog);
  Tensor filled = f.graph.addVariable(HALF, {R, C}, "filled"), zeroed = f.graph.addVariable(HALF, {13}, "zeroed");
  poputil::mapTensorLinearly(f.graph, filled);
  poputil::mapTensorLinearly(f.graph, zeroed);
  popops::fill(f.graph, filled, 0.1f, f.prog);
  popops::zero(f.graph, zeroed, f.prog);
  Tensor A = f.var(HALF, {R, C}, "A"), B = f.var(HALF, {R, C}, "B"), s = f.var(FLOAT, {1}, "s");
  Tensor A2 = f.var(HALF, {R, C}, "A2"), A3 = f.var(HALF, {R, C}, "A3"), F = f.var(FLOAT, {R, C}, "F");
  popops::scaledAddTo(f.graph, A, B, s, f.prog);                    // A += 0.1f * B, in float
  popops::scaledSubtractFrom(f.graph, A2, B, 0.3f, f.prog);          // A2 -= 0.3f * B
  popops::scaledAddTo(f.graph, A3, 0.5f, B, 1.0f / 3.0f, f.prog);  // A3 = 0.5 A3 + B / 3
  popops::scaledAddTo(f.graph, F, B, 2.0f, f.prog);                 // FLOAT += 2 * HALF
  for (auto &[t, n] : std::vector<std::pair<Tensor, const char *> >{
           {xh, "xh"}, {back, "back"}, {kh, "kh"}, {uh, "uh"}, {hk, "hk"}, {hb, "hb"}, {filled, "filled"},
           {zeroed, "zeroed"}})
    f.readable(t, n);
  f.build();
  auto hkv = ints(N, 2);
  std::vector<unsigned> hu(N);
  for (std::size_t i = 0; i < N; ++i)
    hu[i] = unsigned(i * 977);
  auto hh = f.rh(floats(N, 4)), hA = f.rh(floats(N, 5)), hB = f.rh(floats(N, 6)), hF = floats(N, 7);
  hh[3] = 0.0f;
  f.write("x", special);
  f.write("k", hkv);
  f.write("u", hu);
  f.writeHalf("h", hh);
  f.writeHalf("A", hA);
  f.writeHalf("A2", hA);
  f.writeHalf("A3", hA);
  f.writeHalf("B", hB);
  f.write("F", hF);
  f.write("s", std::vector<float>{0.1f});
  f.engine->run(0);
  // The exact half bit patterns of the special values.
  auto bits = f.read<unsigned short>("xh", S);
  const std::vector<unsigned short> wantBits = {0x3c00, 0x3c02, 0x3c01, 0x7bff, 0x7c00, 0xfc00,
                                                0x0001, 0xc100, 0x0000, 0x4380, 0x1419};
  expectEqual(bits, wantBits, "float to half bits");
  expectNear(f.read<float>("back", S), f.rh(special), "half to float");
  std::vector<float> wkh(N), wuh(N), wA(N), wA2(N), wA3(N), wF(N);
  std::vector<int> whk(N);
  std::vector<unsigned char> whb(N);
  for (std::size_t i = 0; i < N; ++i) {
    wkh[i] = float(hkv[i]);
    wuh[i] = f.rh(float(hu[i]));
    whk[i] = int(hh[i]);
    whb[i] = hh[i] != 0.0f;
    wA[i] = f.rh(hA[i] + 0.1f * hB[i]);
    wA2[i] = f.rh(hA[i] - 0.3f * hB[i]);
    wA3[i] = f.rh(0.5f * hA[i] + hB[i] * (1.0f / 3.0f));
    wF[i] = hF[i] + 2.0f * hB[i];
  }
  expectNear(f.readHalf("kh", N), wkh, "int to half");
  expectNear(f.readHalf("uh", N), wuh, "unsigned to half");
  expectEqual(f.read<int>("hk", N), whk, "half to int");
  expectEqual(f.read<unsigned char>("hb", N), whb, "half to bool");
  expectNear(f.readHalf("filled", N), std::vector<float>(N, f.rh(0.1f)), "fill");
  expectNear(f.readHalf("zeroed", 13), std::vector<float>(13, 0.0f), "zero");
  expectNear(f.readHalf("A.r", N), wA, "scaledAddTo float scale", 1e-6f);
  expectNear(f.readHalf("A2.r", N), wA2, "scaledSubtractFrom", 1e-6f);
  expectNear(f.readHalf("A3.r", N), wA3, "scaledAddTo scaleA", 1e-6f);
  expectNear(f.read<float>("F.r", N), wF, "float += half");
}

// scaledAddTo with ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY: A = A - a A + b B, for FLOAT and HALF data,
// constant and tensor scales; DEFAULT is the plain a A + b B.
void test_scaled_add_speciality(void **) {
  Fixture f;
  using popops::ScaledAddSpecialisation;
  Tensor X = f.var(FLOAT, {N}, "X"), Y = f.var(FLOAT, {N}, "Y"), Xt = f.var(FLOAT, {N}, "Xt");
  Tensor Xd = f.var(FLOAT, {N}, "Xd"), H = f.var(HALF, {N}, "H"), HY = f.var(HALF, {N}, "HY");
  Tensor a = f.var(FLOAT, {1}, "a"), b = f.var(FLOAT, {1}, "b");
  popops::scaledAddTo(f.graph, X, 0.25f, Y, 2.0f, f.prog, ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
  popops::scaledAddTo(f.graph, Xt, a, Y, b, f.prog, ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY, "xt");
  popops::scaledAddTo(f.graph, Xd, 0.25f, Y, 2.0f, f.prog, ScaledAddSpecialisation::DEFAULT);
  popops::scaledAddTo(f.graph, H, 0.75f, HY, 0.5f, f.prog, ScaledAddSpecialisation::X_MINUS_AX_PLUS_BY);
  f.build();
  const auto hX = floats(N, 11), hY = floats(N, 12), hH = f.rh(floats(N, 13)), hHY = f.rh(floats(N, 14));
  for (const char *n : {"X", "Xt", "Xd"})
    f.write(n, hX);
  f.write("Y", hY);
  f.writeHalf("H", hH);
  f.writeHalf("HY", hHY);
  f.write("a", std::vector<float>{0.25f});
  f.write("b", std::vector<float>{2.0f});
  f.engine->run(0);
  std::vector<float> wX(N), wXd(N), wH(N);
  for (std::size_t i = 0; i < N; ++i) {
    wX[i] = (1.0f - 0.25f) * hX[i] + 2.0f * hY[i];
    wXd[i] = 0.25f * hX[i] + 2.0f * hY[i];
    wH[i] = f.rh((1.0f - 0.75f) * hH[i] + 0.5f * hHY[i]);
  }
  expectNear(f.read<float>("X.r", N), wX, "X - aX + bY, constants", 1e-6f);
  expectNear(f.read<float>("Xt.r", N), wX, "X - aX + bY, tensors", 1e-6f);
  expectNear(f.read<float>("Xd.r", N), wXd, "DEFAULT: aX + bY", 1e-6f);
  expectNear(f.readHalf("H.r", N), wH, "X - aX + bY, half", 1e-3f);
}

void test_errors(void **) {
  using namespace popops::expr;
  Fixture f(4);
  Tensor a = f.var(FLOAT, {3, 4}, "a"), b = f.var(FLOAT, {3, 5}, "b"), k = f.var(INT, {3, 4}, "k");
  Tensor h = f.var(HALF, {3, 4}, "h");
  Sequence &p = f.prog;
  Graph &g = f.graph;
  expectThrow<poputil::poplibs_error>([&] { popops::add(g, a, b, p); }, "do not broadcast");
  expectThrow<poputil::poplibs_error>([&] { popops::add(g, a, k, p); }, "types float and int");
  expectThrow<poputil::poplibs_error>([&] { popops::bitwiseAnd(g, a, a, p); }, "does not apply to float");
  expectThrow<poputil::poplibs_error>([&] { popops::exp(g, k, p); }, "does not apply to int");
  expectThrow<poputil::poplibs_error>([&] { popops::logicalNot(g, a, p); }, "it takes BOOL");
  expectThrow<poputil::poplibs_error>([&] { popops::add(g, h, a, p); }, "types half and float");
  expectThrow<poputil::poplibs_error>([&] { popops::bitwiseAnd(g, h, h, p); }, "does not apply to half");
  expectThrow<poputil::poplibs_error>([&] { popops::scaledAddTo(g, h, k, 1.0f, p); }, "cast B to A's type");
  expectThrow<poputil::poplibs_error>([&] { popops::map(g, _1 + _3, {a, a}, p); }, "placeholder _3 has no tensor");
  expectThrow<poputil::poplibs_error>([&] { popops::addInPlace(g, a[0], a, p); }, "only the other operands");
  expectThrow<poputil::poplibs_error>([&] { popops::mapInPlace(g, _1 < _2, {a, a}, p); }, "gives bool");
  expectThrow<poputil::poplibs_error>([&] { popops::scaledAddTo(g, a, a, a, p); }, "exactly one element");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::addInPlace(g, concat(std::vector<Tensor>(3, a[0].expand({0}))), a, p); }, "aliased elements");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_binary_float),     cmocka_unit_test(test_int),
      cmocka_unit_test(test_unary_float),      cmocka_unit_test(test_map_expressions),
      cmocka_unit_test(test_in_place_fill_cast_scaled), cmocka_unit_test(test_half_elementwise),
      cmocka_unit_test(test_half_cast_fill_scaled), cmocka_unit_test(test_scaled_add_speciality),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
