// popops::reduce against a host reference: a rank-3 float tensor spread over 16 tiles reduced over every subset of
// its dimensions with ADD, SQUARE_ADD, MUL, MIN and MAX; INT and BOOL (LOGICAL_AND/OR) inputs; a transposed view
// as input; scale and update with reduceWithOutput; a change of output type; a 1-D reduction to one element
// across every tile (two stages); HALF input and output with FLOAT partials; reduceMany and the compute-set forms;
// and the argument errors.
#include <algorithm>
#include <cmath>

#include <popops/Reduce.hpp>

#include "poplibs_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popops::Operation;

namespace {

const std::size_t D0 = 3, D1 = 5, D2 = 7, N = D0 * D1 * D2;

double init(Operation op) {
  switch (op) {
  case Operation::MUL: case Operation::LOGICAL_AND: return 1;
  case Operation::MIN: return INFINITY;
  case Operation::MAX: return -INFINITY;
  default: return 0;
  }
}
double step(Operation op, double acc, double x) {
  switch (op) {
  case Operation::MUL: return acc * x;
  case Operation::MIN: return std::min(acc, x);
  case Operation::MAX: return std::max(acc, x);
  case Operation::SQUARE_ADD: return acc + x * x;
  case Operation::LOGICAL_AND: return acc != 0 && x != 0;
  case Operation::LOGICAL_OR: return acc != 0 || x != 0;
  default: return acc + x;
  }
}

// The reference reduction of h (shape D0 x D1 x D2) over the dimensions whose bit is set in `mask`.
std::vector<double> reference(const std::vector<double> &h, unsigned mask, Operation op) {
  std::size_t dims[3] = {D0, D1, D2}, outDims[3];
  for (unsigned d = 0; d < 3; ++d)
    outDims[d] = (mask >> d & 1) ? 1 : dims[d];
  std::vector<double> out(outDims[0] * outDims[1] * outDims[2], init(op));
  for (std::size_t i = 0; i < D0; ++i)
    for (std::size_t j = 0; j < D1; ++j)
      for (std::size_t k = 0; k < D2; ++k) {
        std::size_t oi = (mask & 1) ? 0 : i, oj = (mask & 2) ? 0 : j, ok = (mask & 4) ? 0 : k;
        double &o = out[(oi * outDims[1] + oj) * outDims[2] + ok];
        o = step(op, o, h[(i * D1 + j) * D2 + k]);
      }
  return out;
}

std::vector<std::size_t> dimsOf(unsigned mask) {
  std::vector<std::size_t> dims;
  for (unsigned d = 0; d < 3; ++d)
    if (mask >> d & 1)
      dims.push_back(d);
  std::reverse(dims.begin(), dims.end()); // any order
  return dims;
}

void test_every_dimension_subset(void **) {
  Fixture f;
  Tensor in = f.var(FLOAT, {D0, D1, D2}, "in");
  const Operation ops[] = {Operation::ADD, Operation::SQUARE_ADD, Operation::MUL, Operation::MIN, Operation::MAX};
  std::vector<std::tuple<std::string, unsigned, Operation, Tensor> > outs;
  for (unsigned mask = 1; mask < 8; ++mask)
    for (Operation op : ops) {
      std::string name = "r" + std::to_string(mask) + "_" + std::to_string(int(op));
      Tensor r = popops::reduce(f.graph, in, dimsOf(mask), op, f.prog, name);
      f.readable(r, name);
      outs.emplace_back(name, mask, op, r);
    }
  f.build();
  std::vector<float> h(N);
  for (std::size_t i = 0; i < N; ++i)
    h[i] = 0.5f + float((i * 13) % 11) * 0.1f; // positive, so MUL stays finite
  f.write("in", h);
  f.engine->run(0);
  std::vector<double> hd(h.begin(), h.end());
  for (auto &[name, mask, op, r] : outs) {
    std::vector<double> want = reference(hd, mask, op);
    assert_int_equal(r.numElements(), want.size());
    std::vector<float> wf(want.begin(), want.end());
    expectNear(f.read<float>(name, want.size()), wf, name.c_str(), 1e-4f);
  }
}

void test_int_bool_views_scale_update(void **) {
  Fixture f;
  Tensor k = f.var(INT, {D0, D1, D2}, "k"), b = f.var(BOOL, {D1, D2}, "b");
  Tensor x = f.var(FLOAT, {D2, D1}, "x"), acc = f.var(FLOAT, {D1}, "acc"), s = f.var(FLOAT, {1}, "s");
  Tensor big = f.var(FLOAT, {1000}, "big");
  Tensor kMax = popops::reduce(f.graph, k, {0, 2}, Operation::MAX, f.prog);
  Tensor kAdd = popops::reduce(f.graph, k, {1}, Operation::ADD, f.prog);
  Tensor kAsFloat = popops::reduce(f.graph, k, FLOAT, {2}, Operation::ADD, f.prog);
  Tensor bAnd = popops::reduce(f.graph, b, {1}, Operation::LOGICAL_AND, f.prog);
  Tensor bOr = popops::reduce(f.graph, b, {0}, Operation::LOGICAL_OR, f.prog);
  // x.transpose() is [D1, D2]: reduce its rows into acc with scale and update: acc += s * sum.
  popops::reduceWithOutput(f.graph, x.transpose(), acc, {1}, popops::ReduceParams(Operation::ADD, true, s), f.prog);
  Tensor scaled = popops::reduce(f.graph, x, {0}, popops::ReduceParams(Operation::MAX, false, s), f.prog);
  Tensor total = popops::reduce(f.graph, big, {0}, Operation::ADD, f.prog);
  for (auto &[t, name] : std::vector<std::pair<Tensor, const char *> >{{kMax, "kMax"}, {kAdd, "kAdd"},
           {kAsFloat, "kAsFloat"}, {bAnd, "bAnd"}, {bOr, "bOr"}, {scaled, "scaled"}, {total, "total"}})
    f.readable(t, name);
  assert_true(total.rank() == 0 || total.numElements() == 1);
  f.build();
  auto hk = ints(N, 3);
  std::vector<unsigned char> hb(D1 * D2);
  for (std::size_t i = 0; i < hb.size(); ++i)
    hb[i] = (i % 3 != 0) || (i / D2 == 2);
  auto hx = floats(D2 * D1, 5), hacc = floats(D1, 6);
  std::vector<float> hbig(1000);
  for (std::size_t i = 0; i < hbig.size(); ++i)
    hbig[i] = float(i % 10);
  f.write("k", hk);
  f.write("b", hb);
  f.write("x", hx);
  f.write("acc", hacc);
  f.write("s", std::vector<float>{0.5f});
  f.write("big", hbig);
  f.engine->run(0);
  std::vector<double> hkd(hk.begin(), hk.end());
  auto toInt = [](const std::vector<double> &v) { return std::vector<int>(v.begin(), v.end()); };
  expectEqual(f.read<int>("kMax", D1), toInt(reference(hkd, 5, Operation::MAX)), "kMax");
  expectEqual(f.read<int>("kAdd", D0 * D2), toInt(reference(hkd, 2, Operation::ADD)), "kAdd");
  auto kf = reference(hkd, 4, Operation::ADD);
  expectNear(f.read<float>("kAsFloat", D0 * D1), std::vector<float>(kf.begin(), kf.end()), "kAsFloat");
  auto hand = f.read<unsigned char>("bAnd", D1), hor = f.read<unsigned char>("bOr", D2);
  for (std::size_t i = 0; i < D1; ++i) {
    bool w = true;
    for (std::size_t j = 0; j < D2; ++j)
      w = w && hb[i * D2 + j];
    assert_int_equal(hand[i], w);
  }
  for (std::size_t j = 0; j < D2; ++j) {
    bool w = false;
    for (std::size_t i = 0; i < D1; ++i)
      w = w || hb[i * D2 + j];
    assert_int_equal(hor[j], w);
  }
  std::vector<float> wacc(D1), wscaled(D1);
  for (std::size_t c = 0; c < D1; ++c) {
    float sum = 0, mx = -INFINITY;
    for (std::size_t r = 0; r < D2; ++r) {
      sum += hx[r * D1 + c];
      mx = std::max(mx, hx[r * D1 + c]);
    }
    wacc[c] = hacc[c] + 0.5f * sum;
    wscaled[c] = 0.5f * mx;
  }
  expectNear(f.read<float>("acc.r", D1), wacc, "acc");
  expectNear(f.read<float>("scaled", D1), wscaled, "scaled");
  expectNear(f.read<float>("total", 1), std::vector<float>{4500.0f}, "total");
}

// 100 tiles each holding 7 elements of every one of 3 outputs: 100 partials per output, so intermediate stages
// (groups of 32) run before the last one.
void test_many_tiles(void **) {
  Fixture f(100);
  const std::size_t rows = 700, cols = 3;
  Tensor in = f.graph.addVariable(INT, {rows, cols}, "in");
  poputil::mapTensorLinearly(f.graph, in, 21, 21);
  f.graph.createHostWrite("in", in);
  Tensor sum = popops::reduce(f.graph, in, {0}, Operation::ADD, f.prog);
  Tensor mx = popops::reduce(f.graph, in, {0}, Operation::MAX, f.prog);
  f.readable(sum, "sum");
  f.readable(mx, "max");
  f.build();
  auto h = ints(rows * cols, 9);
  f.write("in", h);
  f.engine->run(0);
  std::vector<int> wsum(cols, 0), wmax(cols, -100);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      wsum[c] += h[r * cols + c];
      wmax[c] = std::max(wmax[c], h[r * cols + c]);
    }
  expectEqual(f.read<int>("sum", cols), wsum, "sum");
  expectEqual(f.read<int>("max", cols), wmax, "max");
}

// Rows with thousands of elements on each of 4 tiles: each tile's share is cut into one piece per worker.
void test_long_rows(void **) {
  Fixture f(4);
  const std::size_t rows = 2, cols = 3001;
  Tensor in = f.var(INT, {rows, cols}, "in");
  Tensor sum = popops::reduce(f.graph, in, {1}, Operation::ADD, f.prog);
  Tensor all = popops::reduce(f.graph, in.flatten(), {0}, Operation::MIN, f.prog);
  f.readable(sum, "sum");
  f.readable(all, "all");
  f.build();
  auto h = ints(rows * cols, 4);
  f.write("in", h);
  f.engine->run(0);
  std::vector<int> wsum(rows, 0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c)
      wsum[r] += h[r * cols + c];
  expectEqual(f.read<int>("sum", rows), wsum, "sum");
  expectEqual(f.read<int>("all", 1), std::vector<int>{*std::min_element(h.begin(), h.end())}, "min");
}

// HALF: 3000 values 1 + 2^-10 summed to 3002.93, rounded once to 3002 (a half accumulator would drop the 2^-10
// once past 256 and stop at 2048 with ones; the float partials do not), HALF to FLOAT and
// FLOAT to HALF, MAX, SQUARE_ADD with a FLOAT scale and update into a HALF output, over 8 tiles.
void test_half(void **) {
  Fixture f(8);
  const std::size_t rows = 3, cols = 1000;
  Tensor ones = f.var(HALF, {3000}, "ones"), h = f.var(HALF, {rows, cols}, "h"), x = f.var(FLOAT, {rows, cols}, "x");
  Tensor acc = f.var(HALF, {rows}, "acc"), s = f.var(FLOAT, {1}, "s");
  Tensor total = popops::reduce(f.graph, ones, {0}, Operation::ADD, f.prog);
  Tensor sumF = popops::reduce(f.graph, h, FLOAT, {1}, Operation::ADD, f.prog);
  Tensor sumH = popops::reduce(f.graph, h, {1}, Operation::ADD, f.prog);
  Tensor colMax = popops::reduce(f.graph, h, {0}, Operation::MAX, f.prog);
  Tensor xH = popops::reduce(f.graph, x, HALF, {1}, Operation::ADD, f.prog);
  popops::reduceWithOutput(f.graph, h, acc, {1}, popops::ReduceParams(Operation::SQUARE_ADD, true, s), f.prog);
  for (auto &[t, name] : std::vector<std::pair<Tensor, const char *> >{
           {total, "total"}, {sumF, "sumF"}, {sumH, "sumH"}, {colMax, "colMax"}, {xH, "xH"}})
    f.readable(t, name);
  assert_true(sumF.elementType() == FLOAT && sumH.elementType() == HALF && xH.elementType() == HALF);
  f.build();
  auto hh = f.rh(floats(rows * cols, 3)), hx = floats(rows * cols, 4), hacc = f.rh(floats(rows, 5));
  f.writeHalf("ones", std::vector<float>(3000, 1.0f + 1.0f / 1024));
  f.writeHalf("h", hh);
  f.write("x", hx);
  f.writeHalf("acc", hacc);
  f.write("s", std::vector<float>{0.01f});
  f.engine->run(0);
  std::vector<float> wsum(rows, 0.0f), wx(rows, 0.0f), wacc(rows), wmax(cols, -INFINITY);
  for (std::size_t r = 0; r < rows; ++r) {
    float sq = 0.0f;
    for (std::size_t c = 0; c < cols; ++c) {
      wsum[r] += hh[r * cols + c];
      wx[r] += hx[r * cols + c];
      sq += hh[r * cols + c] * hh[r * cols + c];
      wmax[c] = std::max(wmax[c], hh[r * cols + c]);
    }
    wacc[r] = f.rh(hacc[r] + 0.01f * sq);
  }
  expectNear(f.readHalf("total", 1), std::vector<float>{3002.0f}, "3000 values", 0.0f);
  expectNear(f.read<float>("sumF", rows), wsum, "half to float", 1e-5f);
  expectNear(f.readHalf("sumH", rows), f.rh(wsum), "half to half", kHalfTol);
  expectNear(f.readHalf("colMax", cols), wmax, "max", 0.0f);
  expectNear(f.readHalf("xH", rows), f.rh(wx), "float to half", kHalfTol);
  expectNear(f.readHalf("acc.r", rows), wacc, "square add, scale, update", kHalfTol);
}

// reduceMany: four reductions of different shapes, operations and types, in one set of compute sets, into new
// outputs and into given ones; and the compute-set form of reduce.
void test_reduce_many(void **) {
  Fixture f(8);
  Tensor a = f.var(FLOAT, {D0, D1, D2}, "a"), k = f.var(INT, {D1, 40}, "k"), h = f.var(HALF, {D2, D1}, "h");
  Tensor given = f.var(FLOAT, {D1}, "given"), s = f.var(FLOAT, {1}, "s");
  std::vector<popops::SingleReduceOp> ops = {
      popops::SingleReduceOp(a, {0, 2}, Operation::ADD, "a02"),
      popops::SingleReduceOp(k, {1}, Operation::MAX),
      popops::SingleReduceOp(h, {0}, Operation::ADD, FLOAT, "hAsFloat"),
      popops::SingleReduceOp(a, {1}, Operation::MIN)};
  std::vector<Tensor> outs;
  Sequence many;
  popops::reduceMany(f.graph, ops, outs, many);
  assert_int_equal(outs.size(), 4);
  assert_true(outs[2].elementType() == FLOAT && outs[1].elementType() == INT);
  f.prog.add(many);
  std::vector<Tensor> givenOuts = {given};
  popops::reduceMany(f.graph, {popops::SingleReduceOp(a, {0, 2}, popops::ReduceParams(Operation::ADD, true, s))},
                     givenOuts, f.prog);
  std::vector<ComputeSet> css;
  Tensor viaCss = popops::reduce(f.graph, a, {0, 1}, Operation::MAX, css);
  Tensor viaCss2 = popops::reduce(f.graph, k, {0}, Operation::ADD, css);
  // Two reductions of at most two stages share the same (at most two) compute sets.
  assert_true(css.size() >= 1 && css.size() <= 2);
  for (const ComputeSet &cs : css)
    f.prog.add(Execute(cs));
  const char *names[] = {"o0", "o1", "o2", "o3"};
  for (std::size_t i = 0; i < outs.size(); ++i)
    f.readable(outs[i], names[i]);
  f.readable(viaCss, "viaCss");
  f.readable(viaCss2, "viaCss2");
  f.build();
  auto ha = floats(N, 1), hgiven = floats(D1, 2), hh = f.rh(floats(D2 * D1, 3));
  auto hk = ints(D1 * 40, 4);
  f.write("a", ha);
  f.write("k", hk);
  f.writeHalf("h", hh);
  f.write("given", hgiven);
  f.write("s", std::vector<float>{2.0f});
  f.engine->run(0);
  std::vector<double> had(ha.begin(), ha.end());
  auto toF = [](const std::vector<double> &v) { return std::vector<float>(v.begin(), v.end()); };
  auto w02 = toF(reference(had, 5, Operation::ADD));
  expectNear(f.read<float>("o0", D1), w02, "a02");
  expectNear(f.read<float>("o3", D0 * D2), toF(reference(had, 2, Operation::MIN)), "min over 1");
  expectNear(f.read<float>("viaCss", D2), toF(reference(had, 3, Operation::MAX)), "compute-set form");
  std::vector<int> wk(D1, -100);
  std::vector<float> wh(D1, 0.0f), wgiven(D1);
  for (std::size_t r = 0; r < D1; ++r) {
    for (std::size_t c = 0; c < 40; ++c)
      wk[r] = std::max(wk[r], hk[r * 40 + c]);
    for (std::size_t c = 0; c < D2; ++c)
      wh[r] += hh[c * D1 + r];
    wgiven[r] = hgiven[r] + 2.0f * w02[r];
  }
  expectEqual(f.read<int>("o1", D1), wk, "k max");
  std::vector<int> wk0(40, 0);
  for (std::size_t r = 0; r < D1; ++r)
    for (std::size_t c = 0; c < 40; ++c)
      wk0[c] += hk[r * 40 + c];
  expectEqual(f.read<int>("viaCss2", 40), wk0, "second reduction in the same compute sets");
  expectNear(f.read<float>("o2", D1), wh, "half as float");
  expectNear(f.read<float>("given.r", D1), wgiven, "given output, scale and update");
}

void test_errors(void **) {
  Fixture f(4);
  Tensor a = f.var(FLOAT, {3, 4}, "a"), o = f.var(FLOAT, {5}, "o");
  Sequence &p = f.prog;
  expectThrow<poputil::poplibs_error>([&] { popops::reduce(f.graph, a, {2}, Operation::ADD, p); }, "out of range");
  expectThrow<poputil::poplibs_error>([&] { popops::reduce(f.graph, a, {0, 0}, Operation::ADD, p); },
                                      "listed twice");
  expectThrow<poputil::poplibs_error>([&] { popops::reduce(f.graph, a, {0}, Operation::LOGICAL_OR, p); },
                                      "reduce BOOL tensors");
  expectThrow<poputil::poplibs_error>([&] { popops::reduceWithOutput(f.graph, a, o, {0}, Operation::ADD, p); },
                                      "pass an output of that shape");
  expectThrow<poputil::poplibs_error>(
      [&] { popops::reduce(f.graph, a, {0}, popops::ReduceParams(Operation::ADD, true), p); }, "reduceWithOutput");
  std::vector<Tensor> two = {o, o};
  expectThrow<poputil::poplibs_error>(
      [&] { popops::reduceMany(f.graph, {popops::SingleReduceOp(a, {0}, Operation::ADD)}, two, p); },
      "one output per reduction");
  std::vector<Tensor> none;
  expectThrow<poputil::poplibs_error>(
      [&] {
        popops::reduceMany(f.graph, {popops::SingleReduceOp(a, {0}, popops::ReduceParams(Operation::ADD, true))},
                           none, p);
      },
      "reduceWithOutput");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_dimension_subset),
                                     cmocka_unit_test(test_int_bool_views_scale_update),
                                     cmocka_unit_test(test_many_tiles), cmocka_unit_test(test_long_rows),
                                     cmocka_unit_test(test_half), cmocka_unit_test(test_reduce_many),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
