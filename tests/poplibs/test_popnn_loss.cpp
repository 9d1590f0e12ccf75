// popnn's losses, deltas and accuracy against a host reference (labels INT and UNSIGNED_INT with a masked entry,
// one-hot rows, deltasScale and modelOutputScaling), argMax/argMin/maxAndArgMax/minAndArgMin/topK (FLOAT, INT and
// UNSIGNED_INT, ties, a transposed view, rows spread over many tiles) and the argument errors. HALF model outputs
// are tested in test_popnn_half.cpp.
#include <algorithm>
#include <cmath>
#include <numeric>

#include <popnn/Loss.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popnn_test::NnFixture;

namespace {

const std::size_t B = 5, C = 7;

// Softmax-like rows: positive, each summing to `scale`.
std::vector<float> probabilities(std::size_t rows, std::size_t cols, float scale) {
  std::vector<float> p = floats(rows * cols, 9);
  for (std::size_t r = 0; r < rows; ++r) {
    double s = 0;
    for (std::size_t c = 0; c < cols; ++c)
      s += p[r * cols + c] = std::exp(p[r * cols + c]);
    for (std::size_t c = 0; c < cols; ++c)
      p[r * cols + c] = float(p[r * cols + c] / s * scale);
  }
  return p;
}

struct HostLoss {
  std::vector<float> loss, deltas;
  unsigned correct = 0;
};

// The reference: `labels` as ints (-1 masks a row); scale s and deltasScale ds for cross-entropy.
HostLoss hostLoss(popnn::LossType type, const std::vector<float> &p, const std::vector<int> &labels, float s,
                  float ds) {
  HostLoss h;
  h.loss.assign(B, 0);
  h.deltas.assign(B * C, 0);
  for (std::size_t r = 0; r < B; ++r) {
    const float *row = &p[r * C];
    const std::size_t best = std::max_element(row, row + C) - row;
    if (labels[r] < 0)
      continue;
    h.correct += best == std::size_t(labels[r]);
    double l = 0;
    for (std::size_t c = 0; c < C; ++c) {
      const double y = std::size_t(labels[r]) == c ? 1 : 0;
      if (type == popnn::SUM_SQUARED_LOSS) {
        h.deltas[r * C + c] = float(row[c] - y);
        l += 0.5 * (row[c] - y) * (row[c] - y);
      } else {
        h.deltas[r * C + c] = float((row[c] - y * s) * ds / s);
        l -= y * std::log(row[c] / s);
      }
    }
    h.loss[r] = float(l);
  }
  return h;
}

void test_loss_against_labels(void **) {
  NnFixture f;
  const float scale = 4.0f, deltasScale = 0.5f;
  // One graph: every loss type with UNSIGNED_INT labels, INT labels (one masked) and one-hot rows.
  Tensor p = f.var(FLOAT, {B, C}, "p"), ps = f.var(FLOAT, {B, C}, "ps");
  Tensor lu = f.var(UNSIGNED_INT, {B}, "lu"), li = f.var(INT, {B}, "li"), oh = f.var(FLOAT, {B, C}, "oh");
  Tensor s = f.var(FLOAT, {}, "s"), ds = f.var(FLOAT, {1}, "ds");
  struct Case {
    const char *name;
    popnn::LossType type;
    Tensor out, expected;
    bool scaled;
  };
  const std::vector<Case> cases = {{"sq-u", popnn::SUM_SQUARED_LOSS, p, lu, false},
                                   {"sq-i", popnn::SUM_SQUARED_LOSS, p, li, false},
                                   {"sq-oh", popnn::SUM_SQUARED_LOSS, p, oh, false},
                                   {"ce-u", popnn::CROSS_ENTROPY_LOSS, p, lu, false},
                                   {"ce-i", popnn::CROSS_ENTROPY_LOSS, p, li, false},
                                   {"ce-oh", popnn::CROSS_ENTROPY_LOSS, p, oh, false},
                                   {"ce-scaled", popnn::CROSS_ENTROPY_LOSS, ps, li, true}};
  for (const Case &c : cases) {
    Tensor loss = f.var(FLOAT, {B}, std::string(c.name) + ".loss");
    Tensor deltas = f.var(FLOAT, {B, C}, std::string(c.name) + ".deltas");
    Tensor correct = f.var(UNSIGNED_INT, {}, std::string(c.name) + ".correct");
    if (c.scaled)
      f.prog.add(popnn::calcLoss(f.graph, c.out, c.expected, loss, deltas, ds, s, correct, c.type));
    else
      f.prog.add(popnn::calcLoss(f.graph, c.out, c.expected, loss, deltas, correct, c.type));
  }
  // The forms without numCorrect, and calcAccuracy alone.
  Tensor loss2 = f.var(FLOAT, {B}, "loss2"), deltas2 = f.var(FLOAT, {B, C}, "deltas2");
  f.prog.add(popnn::calcLoss(f.graph, p, lu, loss2, deltas2, popnn::CROSS_ENTROPY_LOSS));
  Tensor loss3 = f.var(FLOAT, {B}, "loss3"), deltas3 = f.var(FLOAT, {B, C}, "deltas3");
  f.prog.add(popnn::calcLoss(f.graph, ps, lu, loss3, deltas3, ds, s, popnn::CROSS_ENTROPY_LOSS));
  Tensor acc = f.var(UNSIGNED_INT, {1}, "acc");
  f.prog.add(popnn::calcAccuracy(f.graph, p, oh, acc));
  f.build();

  const std::vector<float> hp = probabilities(B, C, 1), hps = probabilities(B, C, scale);
  const std::vector<int> labels = {3, 0, 6, 2, 3}, masked = {3, -1, 6, 2, 3};
  // Make two rows correct: their label is their argMax.
  std::vector<unsigned> hlu(labels.begin(), labels.end());
  for (std::size_t r : {0u, 2u})
    hlu[r] = unsigned(std::max_element(&hp[r * C], &hp[r * C] + C) - &hp[r * C]);
  std::vector<int> hli(masked), hl(hlu.begin(), hlu.end());
  hli[0] = hl[0];
  hli[2] = hl[2];
  std::vector<float> hoh(B * C, 0);
  for (std::size_t r = 0; r < B; ++r)
    hoh[r * C + hl[r]] = 1;
  f.write("p", hp);
  f.write("ps", hps);
  f.write("lu", hlu);
  f.write("li", hli);
  f.write("oh", hoh);
  f.write("s", std::vector<float>{scale});
  f.write("ds", std::vector<float>{deltasScale});
  // numCorrect accumulates, as in PopLibs: each count starts at a different value and gets this batch's added.
  for (std::size_t i = 0; i < cases.size(); ++i)
    f.write(std::string(cases[i].name) + ".correct", std::vector<unsigned>{unsigned(100 + i)});
  f.write("acc", std::vector<unsigned>{7});
  f.engine->run(0);

  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case &c = cases[i];
    const bool isInt = c.expected.elementType() == INT;
    const HostLoss h = hostLoss(c.type, c.scaled ? hps : hp, isInt ? hli : hl, c.scaled ? scale : 1,
                                c.scaled ? deltasScale : 1);
    const std::string n = c.name;
    expectNear(f.read<float>(n + ".loss.r", B), h.loss, (n + " loss").c_str(), 1e-5f);
    expectNear(f.read<float>(n + ".deltas.r", B * C), h.deltas, (n + " deltas").c_str(), 1e-5f);
    expectEqual(f.read<unsigned>(n + ".correct.r", 1), {unsigned(100 + i) + h.correct}, (n + " numCorrect").c_str());
    assert_true(h.correct >= 2); // rows 0 and 2 are correct by construction
  }
  const HostLoss h2 = hostLoss(popnn::CROSS_ENTROPY_LOSS, hp, hl, 1, 1);
  expectNear(f.read<float>("loss2.r", B), h2.loss, "loss without numCorrect");
  expectNear(f.read<float>("deltas2.r", B * C), h2.deltas, "deltas without numCorrect");
  const HostLoss h3 = hostLoss(popnn::CROSS_ENTROPY_LOSS, hps, hl, scale, deltasScale);
  expectNear(f.read<float>("loss3.r", B), h3.loss, "scaled loss without numCorrect");
  expectNear(f.read<float>("deltas3.r", B * C), h3.deltas, "scaled deltas without numCorrect");
  expectEqual(f.read<unsigned>("acc.r", 1), {7 + h2.correct}, "calcAccuracy against one-hot rows");
  // A second batch adds its count again (MNIST-style loops sum numCorrect over the batches of an epoch).
  f.engine->run(0);
  expectEqual(f.read<unsigned>("acc.r", 1), {7 + 2 * h2.correct}, "calcAccuracy accumulated over two runs");
}

// The host's first index of the extreme of each row.
template <typename T> std::vector<unsigned> hostArg(const std::vector<T> &v, std::size_t cols, bool max) {
  std::vector<unsigned> r;
  for (std::size_t i = 0; i < v.size(); i += cols) {
    auto it = max ? std::max_element(v.begin() + i, v.begin() + i + cols)
                  : std::min_element(v.begin() + i, v.begin() + i + cols);
    r.push_back(unsigned(it - v.begin() - i));
  }
  return r;
}

void test_arg_max_min_top_k(void **) {
  NnFixture f(16);
  const std::size_t R = 40, N = 13, K = 4;
  Tensor x = f.var(FLOAT, {R, N}, "x"), xi = f.var(INT, {R, N}, "xi"), xu = f.var(UNSIGNED_INT, {R, N}, "xu");
  Tensor xt = f.var(FLOAT, {N, R}, "xt");
  f.readable(popnn::argMax(f.graph, x, f.prog), "amax");
  f.readable(popnn::argMin(f.graph, xi, f.prog), "amin.i");
  f.readable(popnn::argMax(f.graph, xu, f.prog), "amax.u");
  auto [mx, amx] = popnn::maxAndArgMax(f.graph, xt.transpose(), f.prog);
  f.readable(mx, "max.t");
  f.readable(amx, "amax.t");
  auto [mn, amn] = popnn::minAndArgMin(f.graph, x, f.prog);
  f.readable(mn, "min");
  f.readable(amn, "amin");
  Tensor idx, idxi;
  Tensor top = popnn::topK(f.graph, x, idx, K, true, f.prog), topi = popnn::topK(f.graph, xi, idxi, K, false, f.prog);
  // PopLibs' shape: [batch, 1, K] for the values and the indices.
  const std::vector<std::size_t> topShape = {R, 1, K};
  assert_true(top.shape() == topShape && idx.shape() == topShape);
  assert_true(topi.shape() == topShape && idxi.shape() == topShape);
  assert_true(idx.elementType() == UNSIGNED_INT);
  f.readable(top, "top");
  f.readable(idx, "top.idx");
  f.readable(topi, "top.i");
  f.readable(idxi, "top.i.idx");
  f.build();
  // Few distinct values, so rows have ties.
  std::vector<float> hx(R * N), ht(R * N);
  std::vector<int> hi(R * N);
  std::vector<unsigned> hu(R * N);
  for (std::size_t i = 0; i < R * N; ++i) {
    hx[i] = float(int((i * 7919) % 23) - 11) * 0.5f;
    hi[i] = int((i * 104729) % 9) - 4;
    hu[i] = unsigned((i * 31) % 11);
  }
  // xt holds the transpose of hx: xt.transpose() reads as hx.
  for (std::size_t r = 0; r < R; ++r)
    for (std::size_t c = 0; c < N; ++c)
      ht[c * R + r] = hx[r * N + c];
  f.write("x", hx);
  f.write("xi", hi);
  f.write("xu", hu);
  f.write("xt", ht);
  f.engine->run(0);
  expectEqual(f.read<unsigned>("amax", R), hostArg(hx, N, true), "argMax float");
  expectEqual(f.read<unsigned>("amin.i", R), hostArg(hi, N, false), "argMin int");
  expectEqual(f.read<unsigned>("amax.u", R), hostArg(hu, N, true), "argMax unsigned");
  expectEqual(f.read<unsigned>("amax.t", R), hostArg(hx, N, true), "argMax of a transposed view");
  expectEqual(f.read<unsigned>("amin", R), hostArg(hx, N, false), "minAndArgMin index");
  std::vector<float> wmax, wmin;
  for (std::size_t r = 0; r < R; ++r) {
    wmax.push_back(*std::max_element(&hx[r * N], &hx[r * N] + N));
    wmin.push_back(*std::min_element(&hx[r * N], &hx[r * N] + N));
  }
  expectNear(f.read<float>("max.t", R), wmax, "maxAndArgMax value", 0);
  expectNear(f.read<float>("min", R), wmin, "minAndArgMin value", 0);
  // topK: a stable sort of each row by descending value, first K.
  std::vector<float> wtop;
  std::vector<int> wtopi;
  std::vector<unsigned> wtidx, wtidxi;
  for (std::size_t r = 0; r < R; ++r) {
    std::vector<unsigned> order(N), orderi(N);
    std::iota(order.begin(), order.end(), 0u);
    std::iota(orderi.begin(), orderi.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return hx[r * N + a] > hx[r * N + b]; });
    std::stable_sort(orderi.begin(), orderi.end(),
                     [&](unsigned a, unsigned b) { return hi[r * N + a] > hi[r * N + b]; });
    for (std::size_t k = 0; k < K; ++k) {
      wtop.push_back(hx[r * N + order[k]]);
      wtidx.push_back(order[k]);
      wtopi.push_back(hi[r * N + orderi[k]]);
      wtidxi.push_back(orderi[k]);
    }
  }
  expectNear(f.read<float>("top", R * K), wtop, "topK values", 0);
  expectEqual(f.read<unsigned>("top.idx", R * K), wtidx, "topK indices");
  expectEqual(f.read<int>("top.i", R * K), wtopi, "topK int values");
  expectEqual(f.read<unsigned>("top.i.idx", R * K), wtidxi, "topK int indices");
}

// The host's topK of each row: a stable sort by descending value, first K indices.
template <typename T> std::vector<unsigned> hostTopK(const std::vector<T> &v, std::size_t cols, std::size_t K) {
  std::vector<unsigned> out;
  for (std::size_t r = 0; r * cols < v.size(); ++r) {
    std::vector<unsigned> order(cols);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return v[r * cols + a] > v[r * cols + b]; });
    out.insert(out.end(), order.begin(), order.begin() + long(K));
  }
  return out;
}

// topK on rows with many lowest values (0 of UNSIGNED_INT, false of BOOL: each index is taken once), BOOL input,
// and a batch of 0 (accepted, empty [0, 1, K] results) next to a calcAccuracy of 0 rows (adds nothing).
void test_top_k_lowest_bool_and_empty(void **) {
  NnFixture f(8);
  const std::size_t R = 6, N = 5, K = 4;
  Tensor xu = f.var(UNSIGNED_INT, {R, N}, "xu"), xb = f.var(BOOL, {R, N}, "xb");
  Tensor idxu, idxb, idx0, idx0b;
  f.readable(popnn::topK(f.graph, xu, idxu, K, true, f.prog), "top.u");
  f.readable(idxu, "top.u.idx");
  Tensor topb = popnn::topK(f.graph, xb, idxb, K, true, f.prog);
  assert_true(topb.elementType() == BOOL);
  f.readable(topb, "top.b");
  f.readable(idxb, "top.b.idx");
  Tensor empty = f.graph.addVariable(FLOAT, {0, N}, "empty");
  f.graph.setTileMapping(empty, 0);
  Tensor top0 = popnn::topK(f.graph, empty, idx0, 2, true, f.prog);
  const std::vector<std::size_t> emptyShape = {0, 1, 2};
  assert_true(top0.shape() == emptyShape && idx0.shape() == emptyShape && idx0.elementType() == UNSIGNED_INT);
  Tensor top0b = popnn::topK(f.graph, empty.reshape({0, N}), idx0b, 0, false, f.prog);
  assert_int_equal(top0b.numElements(), 0);
  Tensor n0 = f.var(UNSIGNED_INT, {1}, "n0");
  Tensor labels0 = f.graph.addVariable(UNSIGNED_INT, {0}, "labels0");
  f.graph.setTileMapping(labels0, 0);
  f.prog.add(popnn::calcAccuracy(f.graph, empty, labels0, n0));
  f.build();
  std::vector<unsigned> hu(R * N, 0);
  std::vector<unsigned char> hb(R * N, 0);
  for (std::size_t i = 0; i < R * N; ++i) {
    hu[i] = (i * 7) % 4 == 0 ? unsigned(i % 3) : 0u; // mostly zeros
    hb[i] = (i * 5) % 3 == 0;
  }
  f.write("xu", hu);
  f.write("xb", hb);
  f.write("n0", std::vector<unsigned>{42});
  f.engine->run(0);
  const std::vector<unsigned> wu = hostTopK(hu, N, K), wb = hostTopK(hb, N, K);
  std::vector<unsigned> wuv, wbv;
  for (std::size_t i = 0; i < wu.size(); ++i) {
    wuv.push_back(hu[(i / K) * N + wu[i]]);
    wbv.push_back(hb[(i / K) * N + wb[i]]);
  }
  expectEqual(f.read<unsigned>("top.u.idx", R * K), wu, "topK indices among zeros");
  expectEqual(f.read<unsigned>("top.u", R * K), wuv, "topK values among zeros");
  expectEqual(f.read<unsigned>("top.b.idx", R * K), wb, "topK BOOL indices");
  std::vector<unsigned char> gotb = f.read<unsigned char>("top.b", R * K);
  expectEqual(std::vector<unsigned>(gotb.begin(), gotb.end()), wbv, "topK BOOL values");
  expectEqual(f.read<unsigned>("n0.r", 1), {42}, "calcAccuracy of an empty batch");
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor p = f.var(FLOAT, {B, C}, "p"), lu = f.var(UNSIGNED_INT, {B}, "lu"), loss = f.var(FLOAT, {B}, "loss");
  Tensor deltas = f.var(FLOAT, {B, C}, "deltas"), n = f.var(UNSIGNED_INT, {1}, "n");
  Tensor b = f.var(BOOL, {B}, "b"), pi = f.var(INT, {B, C}, "pi"), nf = f.var(FLOAT, {1}, "nf");
  Tensor two = f.var(FLOAT, {2}, "two");
  auto &g = f.graph;
  using poputil::poplibs_error;
  const auto SQ = popnn::SUM_SQUARED_LOSS;
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu, loss, deltas, popnn::LossType(7)); },
                             "unknown loss type 7");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, pi, lu, loss, deltas, SQ); }, "only FLOAT");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p.flatten(), lu, loss, deltas, SQ); }, "2-D tensor");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu.slice(0, 3), loss, deltas, SQ); },
                             "one label per row");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, b, loss, deltas, SQ); }, "pass labels");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, p.transpose(), loss, deltas, SQ); }, "one-hot");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu, deltas, deltas, SQ); }, "loss has shape");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu, loss, deltas.slice(0, 2, 1), SQ); },
                             "deltas has shape");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu, loss, deltas, nf, SQ); }, "numCorrect is float");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu, loss, deltas, two, nf, SQ); },
                             "deltasScale has shape");
  Tensor unmapped = g.addVariable(FLOAT, {B}, "unmapped");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(g, p, lu, unmapped, deltas, SQ); }, "map it");
  g.setTileMapping(unmapped, 0);
  Sequence s;
  Tensor idx;
  expectThrow<poplibs_error>([&] { popnn::argMax(g, b.reshape({1, B}), s); }, "FLOAT, HALF, INT and UNSIGNED_INT");
  expectThrow<poplibs_error>([&] { popnn::argMin(g, lu, s); }, "2-D tensor");
  expectThrow<poplibs_error>([&] { popnn::argMax(g, p.slice(0, 0, 1), s); }, "rows of the input are empty");
  expectThrow<poplibs_error>([&] { popnn::topK(g, p, idx, C + 1, true, s); }, "pass K <= 7");
  expectThrow<poplibs_error>([&] { popnn::calcAccuracy(g, p, lu, loss); }, "pass a one-element UNSIGNED_INT");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_loss_against_labels),
                                     cmocka_unit_test(test_arg_max_min_top_k),
                                     cmocka_unit_test(test_top_k_lowest_bool_and_empty), cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
