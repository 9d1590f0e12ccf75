// popnn on HALF tensors against a host reference that rounds where the device does: element-wise non-linearities
// and their gradients (computed in float, one rounding per result), the softmax family (exponentials and the max
// shift rounded as stored, row sums in float, one rounding per output), log-softmax, calcLoss (both types, labels
// and one-hot rows, HALF and FLOAT loss tensors), calcAccuracy, argMax/topK, and max/avg/sum pooling forward and
// backward (max exact, sums in float rounded once). Tolerance: kHalfTol (3e-3 relative, ~3 units in the last
// place of binary16) for results whose reference evaluates a transcendental function in double; exact where the
// device and the host do the same float operations.
#include <algorithm>
#include <cmath>
#include <limits>

#include <popnn/LogSoftmax.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/Pooling.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popnn::NonLinearityType;
using popnn_test::NnFixture;

namespace {

const NonLinearityType kElementwise[] = {NonLinearityType::SIGMOID, NonLinearityType::HARD_SIGMOID,
                                         NonLinearityType::RELU,    NonLinearityType::TANH,
                                         NonLinearityType::GELU,    NonLinearityType::GELU_ERF,
                                         NonLinearityType::SWISH};
const NonLinearityType kSoftmaxes[] = {NonLinearityType::SOFTMAX, NonLinearityType::SOFTMAX_STABLE,
                                       NonLinearityType::SOFTMAX_SCALED};
const std::size_t ROWS = 4, COLS = 9;

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
const double kA = 0.7978845608, kB = 0.044715; // GELU's tanh approximation

double forward(NonLinearityType t, double x) {
  switch (t) {
  case NonLinearityType::SIGMOID: return sigmoid(x);
  case NonLinearityType::HARD_SIGMOID: return std::max(0.0, std::min(1.0, 0.2 * x + 0.5));
  case NonLinearityType::RELU: return x > 0 ? x : 0;
  case NonLinearityType::TANH: return std::tanh(x);
  case NonLinearityType::GELU: return 0.5 * x * (1 + std::tanh(kA * x * (1 + kB * x * x)));
  case NonLinearityType::GELU_ERF: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case NonLinearityType::SWISH: return x * sigmoid(x);
  default: return x;
  }
}

// The analytic input gradient from act (the output; the input for GELU, GELU_ERF and SWISH) and g.
double gradient(NonLinearityType t, double a, double g) {
  switch (t) {
  case NonLinearityType::SIGMOID: return g * a * (1 - a);
  case NonLinearityType::HARD_SIGMOID: return a > 0 && a < 1 ? 0.2 * g : 0;
  case NonLinearityType::RELU: return a > 0 ? g : 0;
  case NonLinearityType::TANH: return g * (1 - a * a);
  case NonLinearityType::GELU: {
    const double th = std::tanh(kA * a * (1 + kB * a * a));
    return g * (0.5 * (1 + th) + 0.5 * a * (1 - th * th) * kA * (1 + 3 * kB * a * a));
  }
  case NonLinearityType::GELU_ERF:
    return g * (0.5 * (1 + std::erf(a / std::sqrt(2.0))) + a * std::exp(-0.5 * a * a) / std::sqrt(2 * M_PI));
  case NonLinearityType::SWISH: return g * (sigmoid(a) + a * sigmoid(a) * (1 - sigmoid(a)));
  default: return g;
  }
}
bool takesInput(NonLinearityType t) {
  return t == NonLinearityType::GELU || t == NonLinearityType::GELU_ERF || t == NonLinearityType::SWISH;
}
std::string key(const char *what, NonLinearityType t) { return what + std::to_string(int(t)); }

void test_elementwise_forward_and_gradient(void **) {
  NnFixture f;
  Tensor x = f.var(HALF, {ROWS, COLS}, "x"), g = f.var(HALF, {ROWS, COLS}, "g");
  for (NonLinearityType t : kElementwise) {
    f.readable(popnn::nonLinearity(f.graph, t, x, f.prog), key("y", t));
    Tensor a = f.var(HALF, {ROWS, COLS}, key("act", t));
    Tensor d = popnn::nonLinearityInputGradient(f.graph, t, a, g, f.prog);
    assert_true(d.elementType() == HALF);
    f.readable(d, key("d", t));
  }
  Tensor inPlace = f.var(HALF, {ROWS, COLS}, "inPlace");
  popnn::nonLinearityInPlace(f.graph, NonLinearityType::TANH, inPlace.transpose(), f.prog); // a view, in place
  f.build();
  const std::vector<float> hx = floats(ROWS * COLS, 1), hg = f.rh(floats(ROWS * COLS, 4));
  std::vector<float> scaled(hx.size());
  for (std::size_t i = 0; i < hx.size(); ++i)
    scaled[i] = f.rh(hx[i] * 0.37f); // inputs that are not multiples of 1/4, rounded to half
  f.writeHalf("x", scaled);
  f.writeHalf("g", hg);
  f.writeHalf("inPlace", scaled);
  for (NonLinearityType t : kElementwise) {
    std::vector<float> act(scaled.size());
    for (std::size_t i = 0; i < act.size(); ++i)
      act[i] = takesInput(t) ? scaled[i] : f.rh(float(forward(t, scaled[i])));
    f.writeHalf(key("act", t), act);
  }
  f.engine->run(0);
  std::vector<float> tanhWant(scaled.size());
  for (std::size_t i = 0; i < scaled.size(); ++i)
    tanhWant[i] = f.rh(float(std::tanh(scaled[i])));
  expectNear(f.readHalf("inPlace.r", scaled.size()), tanhWant, "tanh in place on a view", kHalfTol);
  for (NonLinearityType t : kElementwise) {
    std::vector<float> y(scaled.size()), d(scaled.size());
    for (std::size_t i = 0; i < scaled.size(); ++i) {
      y[i] = f.rh(float(forward(t, scaled[i])));
      const float a = takesInput(t) ? scaled[i] : y[i];
      d[i] = f.rh(float(gradient(t, a, hg[i])));
    }
    expectNear(f.readHalf(key("y", t), y.size()), y, popnn::asString(t), kHalfTol);
    expectNear(f.readHalf(key("d", t), d.size()), d, popnn::asString(t), kHalfTol);
  }
}

double scaleOf(NonLinearityType t) { return t == NonLinearityType::SOFTMAX_SCALED ? 10000.0 : 1.0; }

// The device's steps: the (stable) shift and the exponentials rounded to half, float sums, one final rounding.
std::vector<float> hostSoftmax(const NnFixture &f, NonLinearityType t, const std::vector<float> &x) {
  std::vector<float> y(x.size());
  for (std::size_t r = 0; r < ROWS; ++r) {
    const float *row = &x[r * COLS];
    const float m = t == NonLinearityType::SOFTMAX ? 0.0f : *std::max_element(row, row + COLS);
    std::vector<float> e(COLS);
    float sum = 0;
    for (std::size_t c = 0; c < COLS; ++c)
      sum += e[c] = f.rh(float(std::exp(double(f.rh(row[c] - m)))));
    for (std::size_t c = 0; c < COLS; ++c)
      y[r * COLS + c] = f.rh(e[c] * float(scaleOf(t)) / sum);
  }
  return y;
}

void test_softmax_family(void **) {
  NnFixture f;
  Tensor x = f.var(HALF, {ROWS, COLS}, "x"), g = f.var(HALF, {ROWS, COLS}, "g");
  for (NonLinearityType t : kSoftmaxes) {
    float scaling = 0;
    f.readable(popnn::nonLinearity(f.graph, t, x, scaling, f.prog), key("y", t));
    assert_true(scaling == float(scaleOf(t)));
    Tensor a = f.var(HALF, {ROWS, COLS}, key("act", t));
    f.readable(popnn::nonLinearityInputGradient(f.graph, t, a, g, f.prog), key("d", t));
  }
  f.readable(popnn::logSoftmax(f.graph, x, f.prog), "ls");
  f.build();
  const std::vector<float> hx = floats(ROWS * COLS, 2), hg = floats(ROWS * COLS, 6);
  f.writeHalf("x", hx);
  f.writeHalf("g", hg);
  for (NonLinearityType t : kSoftmaxes)
    f.writeHalf(key("act", t), hostSoftmax(f, t, hx));
  f.engine->run(0);
  for (NonLinearityType t : kSoftmaxes) {
    const std::vector<float> y = hostSoftmax(f, t, hx);
    expectNear(f.readHalf(key("y", t), y.size()), y, popnn::asString(t), kHalfTol);
    // dx = y (g - sum(y g) / scale), the dot product in float, one rounding.
    std::vector<float> d(y.size());
    for (std::size_t r = 0; r < ROWS; ++r) {
      float dot = 0;
      for (std::size_t c = 0; c < COLS; ++c)
        dot += y[r * COLS + c] * hg[r * COLS + c];
      for (std::size_t c = 0; c < COLS; ++c)
        d[r * COLS + c] = f.rh(y[r * COLS + c] * (hg[r * COLS + c] - dot / float(scaleOf(t))));
    }
    expectNear(f.readHalf(key("d", t), d.size()), d, popnn::asString(t), kHalfTol);
  }
  std::vector<float> ls(hx.size());
  for (std::size_t r = 0; r < ROWS; ++r) {
    const float m = *std::max_element(&hx[r * COLS], &hx[r * COLS] + COLS);
    float sum = 0;
    for (std::size_t c = 0; c < COLS; ++c)
      sum += float(std::exp(double(f.rh(hx[r * COLS + c] - m))));
    for (std::size_t c = 0; c < COLS; ++c)
      ls[r * COLS + c] = f.rh(f.rh(hx[r * COLS + c] - m) - float(std::log(double(sum))));
  }
  expectNear(f.readHalf("ls", ls.size()), ls, "log-softmax", kHalfTol);
}

const std::size_t B = 6, C = 5;

void test_loss_and_accuracy(void **) {
  NnFixture f;
  Tensor p = f.var(HALF, {B, C}, "p"), oneHot = f.var(HALF, {B, C}, "oneHot");
  Tensor labels = f.var(INT, {B}, "labels");
  Tensor scale = f.var(HALF, {1}, "s"), dScale = f.var(FLOAT, {1}, "ds");
  Tensor lossSq = f.var(HALF, {B}, "lossSq"), deltasSq = f.var(HALF, {B, C}, "deltasSq");
  Tensor lossCe = f.var(FLOAT, {B}, "lossCe"), deltasCe = f.var(HALF, {B, C}, "deltasCe");
  Tensor lossHot = f.var(HALF, {B}, "lossHot"), deltasHot = f.var(HALF, {B, C}, "deltasHot");
  Tensor correct = f.var(UNSIGNED_INT, {1}, "correct"), correctHot = f.var(UNSIGNED_INT, {1}, "correctHot");
  f.prog.add(popnn::calcLoss(f.graph, p, labels, lossSq, deltasSq, correct, popnn::SUM_SQUARED_LOSS));
  f.prog.add(popnn::calcLoss(f.graph, p, labels, lossCe, deltasCe, dScale, scale, popnn::CROSS_ENTROPY_LOSS));
  f.prog.add(popnn::calcLoss(f.graph, p, oneHot, lossHot, deltasHot, popnn::SUM_SQUARED_LOSS));
  f.prog.add(popnn::calcAccuracy(f.graph, p, oneHot, correctHot));
  f.readable(popnn::argMax(f.graph, p, f.prog), "argMax");
  Tensor topIdx;
  Tensor top = popnn::topK(f.graph, p, topIdx, 2, true, f.prog);
  assert_true(top.elementType() == HALF);
  f.readable(top, "top");
  f.readable(topIdx, "topIdx");
  f.build();
  // Probabilities scaled by s = 2: positive rows summing to about 2, rounded to half; one masked label.
  const float s = 2.0f, ds = 0.5f;
  std::vector<float> hp(B * C);
  for (std::size_t i = 0; i < hp.size(); ++i)
    hp[i] = f.rh(float((i * 7 % 11) + 1) / 30.0f);
  hp[7] = hp[8]; // a tie in row 1: argMax takes the first
  const std::vector<int> hl = {0, 3, 4, -1, 2, 1};
  std::vector<float> hot(B * C, 0.0f);
  for (std::size_t r = 0; r < B; ++r)
    hot[r * C + (r * 2) % C] = 1.0f;
  f.writeHalf("p", hp);
  f.writeHalf("oneHot", hot);
  f.write("labels", hl);
  // calcLoss and calcAccuracy add to numCorrect (as PopLibs does): start both counts at 0.
  f.write("correct", std::vector<unsigned>{0});
  f.write("correctHot", std::vector<unsigned>{0});
  f.writeHalf("s", {s});
  f.write("ds", std::vector<float>{ds});
  f.engine->run(0);

  std::vector<float> wSq(B), wdSq(B * C), wCe(B), wdCe(B * C), wHot(B), wdHot(B * C);
  std::vector<unsigned> wArg(B), wTop(B * 2);
  std::vector<float> wTopV(B * 2);
  unsigned wCorrect = 0, wCorrectHot = 0;
  for (std::size_t r = 0; r < B; ++r) {
    const float *row = &hp[r * C];
    const unsigned best = unsigned(std::max_element(row, row + C) - row);
    wArg[r] = best;
    std::vector<unsigned> order(C);
    for (unsigned c = 0; c < C; ++c)
      order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return row[a] > row[b]; });
    for (unsigned k = 0; k < 2; ++k) {
      wTop[r * 2 + k] = order[k];
      wTopV[r * 2 + k] = row[order[k]];
    }
    const unsigned hotClass = unsigned((r * 2) % C);
    wCorrectHot += best == hotClass;
    float sq = 0, ce = 0, sqHot = 0;
    const bool valid = hl[r] >= 0;
    wCorrect += valid && best == unsigned(hl[r]);
    for (std::size_t c = 0; c < C; ++c) {
      const float y = valid && int(c) == hl[r] ? 1.0f : 0.0f, v = valid ? 1.0f : 0.0f;
      const float diff = (row[c] - y) * v;
      wdSq[r * C + c] = f.rh(diff);
      sq += 0.5f * diff * diff;
      wdCe[r * C + c] = f.rh((row[c] - y * s) * (ds / s) * v);
      if (y != 0)
        ce += -y * std::log(std::max(row[c] / s, std::numeric_limits<float>::min()));
      const float yh = c == hotClass ? 1.0f : 0.0f;
      wdHot[r * C + c] = f.rh(row[c] - yh);
      sqHot += 0.5f * (row[c] - yh) * (row[c] - yh);
    }
    wSq[r] = f.rh(sq);
    wCe[r] = ce;
    wHot[r] = f.rh(sqHot);
  }
  // Deltas are the same float operations rounded once: exact. Losses sum in float in another order: kHalfTol for
  // HALF, 1e-5 for FLOAT (the logarithm).
  expectNear(f.readHalf("deltasSq.r", B * C), wdSq, "sum-squared deltas", 0);
  expectNear(f.readHalf("deltasCe.r", B * C), wdCe, "cross-entropy deltas", 0);
  expectNear(f.readHalf("deltasHot.r", B * C), wdHot, "one-hot deltas", 0);
  expectNear(f.readHalf("lossSq.r", B), wSq, "sum-squared loss (HALF)", kHalfTol);
  expectNear(f.read<float>("lossCe.r", B), wCe, "cross-entropy loss (FLOAT from HALF outputs)", 1e-5f);
  expectNear(f.readHalf("lossHot.r", B), wHot, "one-hot loss", kHalfTol);
  assert_int_equal(f.read<unsigned>("correct.r", 1)[0], wCorrect);
  assert_int_equal(f.read<unsigned>("correctHot.r", 1)[0], wCorrectHot);
  expectEqual(f.read<unsigned>("argMax", B), wArg, "argMax");
  expectEqual(f.read<unsigned>("topIdx", B * 2), wTop, "topK indices");
  expectNear(f.readHalf("top", B * 2), wTopV, "topK values", 0);
}

// 2-D pooling reference over [batch, channels, H, W] with padding `pad` on every side.
struct HostPool {
  std::size_t n, h, w, k, stride, oh, ow;
  int pad;
  // The input index read by output (i, j) at kernel offset (a, b), or -1 in the padding.
  long at(std::size_t plane, std::size_t i, std::size_t j, std::size_t a, std::size_t b) const {
    const long y = long(i * stride + a) - pad, x = long(j * stride + b) - pad;
    if (y < 0 || x < 0 || y >= long(h) || x >= long(w))
      return -1;
    return long(plane * h * w + std::size_t(y) * w + std::size_t(x));
  }
};

void test_pooling(void **) {
  using popnn::PoolingType;
  using popnn::pooling::PoolParams;
  NnFixture f;
  const std::size_t N = 2, CH = 3, H = 5, W = 6;
  const HostPool hp{N * CH, H, W, 3, 2, 3, 3, 1};
  Tensor in = f.var(HALF, {N, CH, H, W}, "in");
  Tensor g = f.var(HALF, {N, CH, hp.oh, hp.ow}, "g");
  const PoolingType kinds[] = {PoolingType::MAX, PoolingType::AVG, PoolingType::SUM};
  for (PoolingType k : kinds) {
    const PoolParams params(k, {H, W}, {3, 3}, {2, 2}, {1, 1}, {1, 1}, CH, N, HALF);
    Tensor out = popnn::pooling::pool(f.graph, params, in, f.prog);
    assert_true(out.elementType() == HALF);
    f.readable(out, "out" + std::to_string(int(k)));
    Tensor d = k == PoolingType::MAX
                   ? popnn::pooling::poolInputGradient(f.graph, params, in, out, g, true, f.prog)
                   : popnn::pooling::poolInputGradient(f.graph, params, 1, g, f.prog);
    f.readable(d, "d" + std::to_string(int(k)));
  }
  f.build();
  std::vector<float> hin(N * CH * H * W);
  for (std::size_t i = 0; i < hin.size(); ++i)
    hin[i] = f.rh(float((i * 13) % 23) * 0.173f - 1.9f); // values that are not exact in short sums
  hin[1] = hin[0]; // a tie inside one window: the scaled max gradient shares it
  const std::vector<float> hg = f.rh(floats(N * CH * hp.oh * hp.ow, 3));
  f.writeHalf("in", hin);
  f.writeHalf("g", hg);
  f.engine->run(0);
  for (PoolingType k : kinds) {
    std::vector<float> out(hg.size()), acc(hin.size(), 0.0f);
    for (std::size_t pl = 0; pl < hp.n; ++pl)
      for (std::size_t i = 0; i < hp.oh; ++i)
        for (std::size_t j = 0; j < hp.ow; ++j) {
          const std::size_t o = (pl * hp.oh + i) * hp.ow + j;
          float m = -INFINITY, s = 0;
          unsigned count = 0;
          for (std::size_t a = 0; a < 3; ++a)
            for (std::size_t b = 0; b < 3; ++b)
              if (long x = hp.at(pl, i, j, a, b); x >= 0) {
                m = std::max(m, hin[std::size_t(x)]);
                s += hin[std::size_t(x)];
                ++count;
              }
          const float scale = 1.0f / float(count);
          out[o] = k == PoolingType::MAX ? m : k == PoolingType::SUM ? f.rh(s) : f.rh(s * scale);
          unsigned matches = 0;
          for (std::size_t a = 0; a < 3; ++a)
            for (std::size_t b = 0; b < 3; ++b)
              if (long x = hp.at(pl, i, j, a, b); x >= 0)
                matches += hin[std::size_t(x)] == m;
          for (std::size_t a = 0; a < 3; ++a)
            for (std::size_t b = 0; b < 3; ++b)
              if (long x = hp.at(pl, i, j, a, b); x >= 0) {
                if (k == PoolingType::MAX)
                  acc[std::size_t(x)] += hin[std::size_t(x)] == m ? hg[o] / float(matches) : 0.0f;
                else
                  acc[std::size_t(x)] += k == PoolingType::AVG ? hg[o] * scale : hg[o];
              }
        }
    // The device sums in the kernel-offset order and the host in output order: float sums of at most 9 terms
    // differ in the last float bits, which one half rounding hides except at a tie (kHalfTol).
    expectNear(f.readHalf("out" + std::to_string(int(k)), out.size()), out, popnn::pooling::asString(k), kHalfTol);
    expectNear(f.readHalf("d" + std::to_string(int(k)), acc.size()), f.rh(acc), popnn::pooling::asString(k),
               kHalfTol);
  }
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor x = f.var(HALF, {3, 4}, "x"), y = f.var(FLOAT, {3, 4}, "y"), k = f.var(INT, {3, 4}, "k");
  Tensor labels = f.var(INT, {3}, "labels"), loss = f.var(HALF, {3}, "loss");
  Sequence &p = f.prog;
  using poputil::poplibs_error;
  expectThrow<poplibs_error>([&] { popnn::relu(f.graph, k, p); }, "only FLOAT and HALF");
  expectThrow<poplibs_error>(
      [&] { popnn::nonLinearityInputGradient(f.graph, NonLinearityType::TANH, x, y, p); }, "pass both of one type");
  expectThrow<poplibs_error>(
      [&] { popnn::calcLoss(f.graph, x, labels, loss, y, popnn::SUM_SQUARED_LOSS); },
      "pass deltas of the modelOutputs' type");
  expectThrow<poplibs_error>([&] { popnn::calcLoss(f.graph, x, y, loss, x, popnn::SUM_SQUARED_LOSS); },
                             "the modelOutputs' type");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_elementwise_forward_and_gradient),
                                     cmocka_unit_test(test_softmax_family), cmocka_unit_test(test_loss_and_accuracy),
                                     cmocka_unit_test(test_pooling), cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
