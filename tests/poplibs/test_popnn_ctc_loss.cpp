// popnn/CTCLoss.hpp (and CTCInference.hpp's plan) on a 16-tile IPU Model: the CTC loss and its gradient against
// a double host reference (forward-backward in the log domain with true zeros), for log probabilities and
// logits, FLOAT and HALF, UNSIGNED_INT and INT labels, labels with repeats, short sequences, blank first or last;
// zeroInfinity on a label that cannot fit; and the plan's options, constraints and errors.
#include <cmath>
#include <limits>
#include <vector>

#include <popnn/CTCInference.hpp>
#include <popnn/CTCLoss.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn_test::NnFixture;

namespace {

const unsigned B = 3, T = 7, L = 3, C = 4;
const double kInf = std::numeric_limits<double>::infinity();

double logAdd(double a, double b) {
  if (a == -kInf)
    return b;
  if (b == -kInf)
    return a;
  const double hi = std::max(a, b);
  return hi + std::log1p(std::exp(std::min(a, b) - hi));
}

// The host reference for sequence b: returns the loss and fills grad [T][C] (the gradient w.r.t. the logits).
double hostCtc(const std::vector<float> &lp, const std::vector<unsigned> &label, unsigned b, unsigned dataLen,
               unsigned labelLen, unsigned blank, std::vector<double> &grad) {
  const unsigned S = 2 * labelLen + 1;
  auto sym = [&](unsigned s) { return (s & 1) ? label[b * L + s / 2] : blank; };
  auto at = [&](unsigned t, unsigned k) { return double(lp[(t * B + b) * C + k]); };
  auto canSkip = [&](unsigned s) { return s >= 2 && sym(s) != blank && sym(s) != sym(s - 2); };
  std::vector<std::vector<double>> alpha(dataLen, std::vector<double>(S, -kInf)), beta = alpha;
  for (unsigned s = 0; s < S && s < 2; ++s)
    alpha[0][s] = at(0, sym(s));
  for (unsigned t = 1; t < dataLen; ++t)
    for (unsigned s = 0; s < S; ++s) {
      double a = alpha[t - 1][s];
      if (s >= 1)
        a = logAdd(a, alpha[t - 1][s - 1]);
      if (canSkip(s))
        a = logAdd(a, alpha[t - 1][s - 2]);
      alpha[t][s] = a + at(t, sym(s));
    }
  const double logP = logAdd(alpha[dataLen - 1][S - 1], S >= 2 ? alpha[dataLen - 1][S - 2] : -kInf);
  for (unsigned s = 0; s < S; ++s)
    beta[dataLen - 1][s] = s + 2 >= S ? at(dataLen - 1, sym(s)) : -kInf;
  for (unsigned t = dataLen - 1; t-- > 0;)
    for (unsigned s = 0; s < S; ++s) {
      double x = beta[t + 1][s];
      if (s + 1 < S)
        x = logAdd(x, beta[t + 1][s + 1]);
      if (s + 2 < S && canSkip(s + 2))
        x = logAdd(x, beta[t + 1][s + 2]);
      beta[t][s] = x + at(t, sym(s));
    }
  grad.assign(T * C, 0.0);
  for (unsigned t = 0; t < T; ++t)
    for (unsigned k = 0; k < C; ++k) {
      double post = 0.0;
      for (unsigned s = 0; t < dataLen && s < S; ++s)
        if (sym(s) == k)
          post += std::exp(alpha[t][s] + beta[t][s] - at(t, k) - logP);
      grad[t * C + k] = std::exp(at(t, k)) - post;
    }
  return -logP;
}

// Deterministic logits [T][B][C] and their log-softmax.
std::vector<float> logitsData() {
  std::vector<float> v(T * B * C);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = float(int((i * 37 + 5) % 23) - 11) * 0.25f;
  return v;
}
std::vector<float> logSoftmaxOf(const std::vector<float> &x) {
  std::vector<float> out(x.size());
  for (std::size_t r = 0; r < x.size() / C; ++r) {
    double m = -kInf, s = 0;
    for (unsigned k = 0; k < C; ++k)
      m = std::max(m, double(x[r * C + k]));
    for (unsigned k = 0; k < C; ++k)
      s += std::exp(double(x[r * C + k]) - m);
    for (unsigned k = 0; k < C; ++k)
      out[r * C + k] = float(double(x[r * C + k]) - m - std::log(s));
  }
  return out;
}

struct Case {
  Type type = FLOAT;
  Type labelType = UNSIGNED_INT;
  bool logits = false, lossOnly = false;
  unsigned blank = 0;
  float tol = 1e-4f;
};

void check(const Case &c) {
  NnFixture f(16);
  popnn::ctc::Plan plan = popnn::ctc::plan(f.graph, c.type, c.type, B, T, L, C);
  Tensor data = popnn::ctc::createDataInput(f.graph, c.type, B, T, C, plan, "data");
  Tensor labels = popnn::ctc::createLabelsInput(f.graph, c.labelType, B, L, plan, "labels");
  assert_true(data.shape() == (std::vector<std::size_t>{T, B, C}));
  assert_true(labels.shape() == (std::vector<std::size_t>{B, L}));
  Tensor dataLen = f.var(c.labelType, {B}, "dataLen"), labelLen = f.var(c.labelType, {B}, "labelLen");
  f.graph.createHostWrite("data", data);
  f.graph.createHostWrite("labels", labels);
  Tensor loss, grad;
  if (c.lossOnly) {
    loss = c.logits ? popnn::ctc::calcCTCLossLogits(f.graph, c.type, data, labels, dataLen, labelLen, f.prog,
                                                    c.blank, plan, "ctc")
                    : popnn::ctc::calcCTCLossLogProbabilities(f.graph, c.type, data, labels, dataLen, labelLen,
                                                              f.prog, c.blank, plan, "ctc");
  } else {
    std::pair<Tensor, Tensor> r =
        c.logits ? popnn::ctc::calcLossAndGradientLogits(f.graph, c.type, data, labels, dataLen, labelLen, f.prog,
                                                         c.blank, plan, "ctc")
                 : popnn::ctc::calcLossAndGradientLogProbabilities(f.graph, c.type, data, labels, dataLen, labelLen,
                                                                   f.prog, c.blank, plan, "ctc");
    loss = r.first;
    grad = r.second;
    assert_true(grad.shape() == data.shape() && grad.elementType() == c.type);
    f.readable(grad, "grad");
  }
  assert_true(loss.shape() == (std::vector<std::size_t>{B}) && loss.elementType() == c.type);
  f.readable(loss, "loss");
  f.build();

  // Labels with a repeat (needs a blank between), a short one and a single symbol (the padding is never read);
  // symbols 1..3 with blank 0, 0..2 with blank 3.
  std::vector<unsigned> lab = {1, 1, 2, 2, 3, 3, 1, 3, 3};
  if (c.blank == C - 1)
    for (unsigned &x : lab)
      x -= 1;
  const std::vector<unsigned> dLen = {T, 5, 2}, lLen = {3, 2, 1};
  std::vector<float> in = logitsData();
  if (!c.logits)
    in = logSoftmaxOf(in);
  if (c.type == HALF)
    in = f.rh(in);
  const std::vector<float> lp = c.logits ? logSoftmaxOf(in) : in;
  std::vector<float> wantLoss(B), wantGrad(T * B * C);
  for (unsigned b = 0; b < B; ++b) {
    std::vector<double> g;
    wantLoss[b] = float(hostCtc(lp, lab, b, dLen[b], lLen[b], c.blank, g));
    for (unsigned t = 0; t < T; ++t)
      for (unsigned k = 0; k < C; ++k)
        wantGrad[(t * B + b) * C + k] = float(g[t * C + k]);
  }
  if (c.labelType == INT) {
    f.write("labels", std::vector<int>(lab.begin(), lab.end()));
    f.write("dataLen", std::vector<int>(dLen.begin(), dLen.end()));
    f.write("labelLen", std::vector<int>(lLen.begin(), lLen.end()));
  } else {
    f.write("labels", lab);
    f.write("dataLen", dLen);
    f.write("labelLen", lLen);
  }
  if (c.type == HALF)
    f.writeHalf("data", in);
  else
    f.write("data", in);
  f.engine->run(0);
  const bool half = c.type == HALF;
  expectNear(half ? f.readHalf("loss", B) : f.read<float>("loss", B), wantLoss, "ctc loss", c.tol);
  if (!c.lossOnly)
    expectNear(half ? f.readHalf("grad", T * B * C) : f.read<float>("grad", T * B * C), wantGrad, "ctc gradient",
               c.tol);
}

// FLOAT: float log-domain recursions over 7 steps against double: 1e-4 relative.
void test_log_probs_float(void **) { check(Case{}); }
void test_logits_float_blank_last(void **) {
  Case c;
  c.logits = true;
  c.blank = C - 1;
  check(c);
}
void test_int_labels_loss_only(void **) {
  Case c;
  c.labelType = INT;
  c.lossOnly = true;
  check(c);
  c.logits = true;
  check(c);
}
// HALF: inputs exact in half, float inside, each result rounded once to half: 2 half ulps of values up to ~10.
void test_log_probs_half(void **) {
  Case c;
  c.type = HALF;
  c.tol = 2 * kHalfTol;
  check(c);
  c.logits = true;
  check(c);
}

// A label of three equal symbols needs 5 steps; with 3 it cannot fit: a loss of about 65504 (PopLibs' log of
// zero), and with zeroInfinity 0 and a zero gradient.
void test_zero_infinity(void **) {
  for (bool zero : {false, true}) {
    NnFixture f(4);
    popnn::ctc::Plan plan = popnn::ctc::plan(f.graph, FLOAT, FLOAT, 1, 3, 3, 3);
    Tensor data = popnn::ctc::createDataInput(f.graph, FLOAT, 1, 3, 3, plan);
    Tensor labels = popnn::ctc::createLabelsInput(f.graph, UNSIGNED_INT, 1, 3, plan);
    Tensor lens = f.var(UNSIGNED_INT, {2}, "lens");
    f.graph.createHostWrite("data", data);
    f.graph.createHostWrite("labels", labels);
    std::pair<Tensor, Tensor> r = popnn::ctc::calcLossAndGradientLogProbabilities(
        f.graph, FLOAT, data, labels, lens.slice(0, 1), lens.slice(1, 2), f.prog, 0, plan, "ctc",
        {{"zeroInfinity", zero ? "true" : "false"}});
    f.readable(r.first, "loss");
    f.readable(r.second, "grad");
    f.build();
    f.write("data", logSoftmaxOf(std::vector<float>(9, 0.0f)));
    f.write("labels", std::vector<unsigned>{2, 2, 2});
    f.write("lens", std::vector<unsigned>{3, 3});
    f.engine->run(0);
    const float loss = f.read<float>("loss", 1)[0];
    if (zero) {
      assert_true(loss == 0.0f);
      expectNear(f.read<float>("grad", 9), std::vector<float>(9, 0.0f), "zeroed gradient");
    } else {
      assert_true(loss > 0.99f * 65504.0f);
    }
  }
}

void test_plans(void **) {
  NnFixture f(16);
  popnn::ctc::Plan a = popnn::ctc::plan(f.graph, FLOAT, FLOAT, 10, 40, 10, 4, {{"availableMemoryProportion", "0.9"}});
  popnn::ctc::Plan b = popnn::ctc::plan(f.graph, FLOAT, FLOAT, 10, 40, 10, 4,
                                        {{"planConstraints", R"({"parallel": {"time": 1, "batch": 2}})"}});
  assert_true(a != b && !(a == b) && (a < b || b < a));
  popnn::ctc::Plan c = a;
  assert_true(c == a);
  expectThrow<poputil::poplibs_error>(
      [&] { popnn::ctc::plan(f.graph, FLOAT, FLOAT, 10, 40, 10, 4, {{"availableMemoryProportion", "0.0"}}); },
      "no plan fits");
  const auto constrained = [&](const char *json) {
    popnn::ctc::plan(f.graph, FLOAT, FLOAT, 10, 40, 10, 4, {{"planConstraints", json}});
  };
  expectThrow<poputil::poplibs_error>([&] { constrained(R"({"parallel": {"batch": 0}})"); }, "parallel.batch");
  expectThrow<poputil::poplibs_error>([&] { constrained(R"({"parallel": {"time": 2}})"); }, "parallel.time");
  expectThrow<poputil::poplibs_error>([&] { constrained(R"({"parallel": {"xyz": 0}})"); }, "unknown plan constraint");
  expectThrow<poplar::invalid_option>([&] { popnn::ctc::plan(f.graph, FLOAT, FLOAT, 1, 4, 2, 3, {{"bogus", "1"}}); },
                                      "unknown option");
  popnn::ctc::Plan infer = popnn::ctc_infer::plan(f.graph, FLOAT, 1, 10, 5, 5);
  assert_true(popnn::ctc_infer::createDataInput(f.graph, HALF, 1, 10, 5, infer).shape() ==
              (std::vector<std::size_t>{10, 1, 5}));
  expectThrow<poputil::poplibs_error>([&] { popnn::ctc::createDataInput(f.graph, FLOAT, 1, 10, 5, infer); },
                                      "not a CTC loss plan");
  expectThrow<poputil::poplibs_error>([&] { popnn::ctc::createLabelsInput(f.graph, FLOAT, 1, 10, infer); },
                                      "not a CTC loss plan");
  expectThrow<poputil::poplibs_error>([&] { popnn::ctc_infer::createDataInput(f.graph, FLOAT, 10, 40, 4, a); },
                                      "not a CTC inference plan");
  expectThrow<poputil::poplibs_error>(
      [&] {
        popnn::ctc::calcLossAndGradientLogProbabilities(f.graph, FLOAT, {}, {}, {}, {}, f.prog, 0, infer);
      },
      "not a CTC loss plan");
  Tensor data = popnn::ctc::createDataInput(f.graph, FLOAT, 10, 40, 4, a);
  Tensor labels = popnn::ctc::createLabelsInput(f.graph, UNSIGNED_INT, 10, 10, a);
  Tensor lens = f.graph.addVariable(UNSIGNED_INT, {10});
  expectThrow<poputil::poplibs_error>(
      [&] { popnn::ctc::calcLossAndGradientLogits(f.graph, FLOAT, data, labels, lens, lens, f.prog, 4, a); },
      "blankClass");
  expectThrow<poputil::poplibs_error>(
      [&] {
        popnn::ctc::calcLossAndGradientLogits(f.graph, FLOAT, data.slice(0, 2, 1), labels, lens, lens, f.prog, 0, a);
      },
      "the plan wants");
  expectThrow<poputil::poplibs_error>(
      [&] {
        popnn::ctc::calcLossAndGradientLogits(f.graph, FLOAT, data, labels, lens, lens, f.prog, 0, a,
                                              {}, {{"includeSoftmaxGradient", "false"}});
      },
      "includeSoftmaxGradient");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_log_probs_float), cmocka_unit_test(test_logits_float_blank_last),
      cmocka_unit_test(test_int_labels_loss_only), cmocka_unit_test(test_log_probs_half),
      cmocka_unit_test(test_zero_infinity), cmocka_unit_test(test_plans),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
