// popnn's non-linearities against a host reference: every NonLinearityType forward (new tensor, in place, in a
// caller's compute set, named forms, a transposed view, a tensor over many tiles), every input gradient against
// central finite differences of the host forward, log-softmax, and the argument errors. HALF is tested in
// test_popnn_half.cpp.
#include <cmath>

#include <popnn/LogSoftmax.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>
#include <sstream>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popnn::NonLinearityType;
using popnn_test::NnFixture;

namespace {

const NonLinearityType kTypes[] = {NonLinearityType::SIGMOID, NonLinearityType::HARD_SIGMOID,
                                   NonLinearityType::RELU,    NonLinearityType::TANH,
                                   NonLinearityType::GELU,    NonLinearityType::GELU_ERF,
                                   NonLinearityType::SWISH,   NonLinearityType::SOFTMAX,
                                   NonLinearityType::SOFTMAX_STABLE, NonLinearityType::SOFTMAX_SCALED};
const std::size_t ROWS = 3, COLS = 7;

bool isSoftmax(NonLinearityType t) { return t >= NonLinearityType::SOFTMAX; }
// GELU's, GELU_ERF's and SWISH's gradients take the non-linearity's input, the others its output.
bool gradientTakesInput(NonLinearityType t) {
  return t == NonLinearityType::GELU || t == NonLinearityType::GELU_ERF || t == NonLinearityType::SWISH;
}
double scaleOf(NonLinearityType t) { return t == NonLinearityType::SOFTMAX_SCALED ? 10000.0 : 1.0; }

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double elementwise(NonLinearityType t, double x) {
  switch (t) {
  case NonLinearityType::SIGMOID: return sigmoid(x);
  case NonLinearityType::HARD_SIGMOID: return std::max(0.0, std::min(1.0, 0.2 * x + 0.5));
  case NonLinearityType::RELU: return x > 0 ? x : 0;
  case NonLinearityType::TANH: return std::tanh(x);
  case NonLinearityType::GELU: return 0.5 * x * (1 + std::tanh(0.7978845608 * x * (1 + 0.044715 * x * x)));
  case NonLinearityType::GELU_ERF: return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case NonLinearityType::SWISH: return x * sigmoid(x);
  default: return x;
  }
}

// The host forward of `t` over rows of `cols` elements.
std::vector<double> forward(NonLinearityType t, const std::vector<double> &x, std::size_t cols) {
  std::vector<double> y(x.size());
  if (!isSoftmax(t)) {
    for (std::size_t i = 0; i < x.size(); ++i)
      y[i] = elementwise(t, x[i]);
    return y;
  }
  for (std::size_t r = 0; r < x.size() / cols; ++r) {
    double m = -INFINITY, s = 0;
    for (std::size_t c = 0; c < cols; ++c)
      m = std::max(m, x[r * cols + c]);
    for (std::size_t c = 0; c < cols; ++c)
      s += std::exp(x[r * cols + c] - m);
    for (std::size_t c = 0; c < cols; ++c)
      y[r * cols + c] = scaleOf(t) * std::exp(x[r * cols + c] - m) / s;
  }
  return y;
}

std::vector<double> toDouble(const std::vector<float> &v) { return std::vector<double>(v.begin(), v.end()); }
std::vector<float> toFloat(const std::vector<double> &v) { return std::vector<float>(v.begin(), v.end()); }

void test_forward_every_type(void **) {
  NnFixture f;
  Tensor x = f.var(FLOAT, {ROWS, COLS}, "x");
  std::vector<float> scalings;
  for (NonLinearityType t : kTypes) {
    float scaling = -1;
    Tensor y = popnn::nonLinearity(f.graph, t, x, scaling, f.prog);
    scalings.push_back(scaling);
    f.readable(y, "y" + std::to_string(int(t)));
  }
  f.build();
  const auto hx = floats(ROWS * COLS, 1);
  f.write("x", hx);
  f.engine->run(0);
  for (std::size_t i = 0; i < sizeof kTypes / sizeof kTypes[0]; ++i) {
    NonLinearityType t = kTypes[i];
    assert_true(scalings[i] == float(scaleOf(t)));
    std::vector<float> want = toFloat(forward(t, toDouble(hx), COLS));
    expectNear(f.read<float>("y" + std::to_string(int(t)), want.size()), want, popnn::asString(t), 1e-5f);
  }
  expectNear(f.read<float>("x.r", hx.size()), hx, "x unchanged", 0);
}

// The gradient of L = sum(g * f(x)) with respect to x by central differences of the host forward.
std::vector<double> finiteDifferences(NonLinearityType t, const std::vector<double> &x, const std::vector<double> &g,
                                      std::size_t cols) {
  const double h = 1e-4;
  std::vector<double> d(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<double> xp = x, xm = x;
    xp[i] += h;
    xm[i] -= h;
    std::vector<double> yp = forward(t, xp, cols), ym = forward(t, xm, cols);
    double lp = 0, lm = 0;
    for (std::size_t j = 0; j < x.size(); ++j) {
      lp += g[j] * yp[j];
      lm += g[j] * ym[j];
    }
    d[i] = (lp - lm) / (2 * h);
  }
  return d;
}

void test_gradient_every_type(void **) {
  NnFixture f;
  Tensor g = f.var(FLOAT, {ROWS, COLS}, "g");
  for (NonLinearityType t : kTypes) {
    // Each type reads its own act tensor: written below with the output or the input as the type wants.
    Tensor a = f.var(FLOAT, {ROWS, COLS}, "act" + std::to_string(int(t)));
    Tensor d = popnn::nonLinearityInputGradient(f.graph, t, a, g, f.prog);
    f.readable(d, "d" + std::to_string(int(t)));
  }
  f.build();
  const auto hx = toDouble(floats(ROWS * COLS, 2)), hg = toDouble(floats(ROWS * COLS, 5));
  f.write("g", toFloat(hg));
  for (NonLinearityType t : kTypes)
    f.write("act" + std::to_string(int(t)), toFloat(gradientTakesInput(t) ? hx : forward(t, hx, COLS)));
  f.engine->run(0);
  for (NonLinearityType t : kTypes) {
    std::vector<float> want = toFloat(finiteDifferences(t, hx, hg, COLS));
    // Scaled softmax gradients are 1e4 times larger; central differences of the double forward are good to ~1e-6.
    expectNear(f.read<float>("d" + std::to_string(int(t)), want.size()), want, popnn::asString(t), 2e-4f);
  }
}

void test_in_place_compute_set_views_many_tiles(void **) {
  NnFixture f;
  const std::size_t N = 1000;
  Tensor a = f.var(FLOAT, {N}, "a"), b = f.var(FLOAT, {COLS, ROWS}, "b"), c = f.var(FLOAT, {N}, "c");
  Tensor s = f.var(FLOAT, {ROWS, COLS}, "s"), l = f.var(FLOAT, {ROWS, COLS}, "l"), g = f.var(FLOAT, {N}, "g");
  ComputeSet cs = f.graph.addComputeSet("both");
  popnn::nonLinearityInPlace(f.graph, NonLinearityType::TANH, a, cs);
  float scaling = 0;
  popnn::nonLinearityInPlace(f.graph, NonLinearityType::RELU, c, scaling, cs);
  assert_true(scaling == 1.0f);
  f.prog.add(Execute(cs));
  popnn::sigmoidInPlace(f.graph, b.transpose(), f.prog); // a transposed view, in place
  popnn::softmaxStableInPlace(f.graph, s, f.prog);
  Tensor ls = popnn::logSoftmax(f.graph, l, f.prog);
  f.readable(ls, "ls");
  Tensor ge = popnn::geluErf(f.graph, l, f.prog); // the named form of GELU_ERF, on l (logSoftmax left it)
  f.readable(ge, "ge");
  ComputeSet gcs = f.graph.addComputeSet("grad");
  Tensor d = popnn::nonLinearityInputGradient(f.graph, NonLinearityType::TANH, a, g, gcs);
  f.prog.add(Execute(gcs));
  f.readable(d, "d");
  f.build();
  auto ha = floats(N, 3), hb = floats(COLS * ROWS, 4), hc = floats(N, 5), hs = floats(ROWS * COLS, 6);
  auto hl = floats(ROWS * COLS, 7), hg = floats(N, 8);
  for (auto &[name, v] : std::vector<std::pair<std::string, std::vector<float> *> >{
           {"a", &ha}, {"b", &hb}, {"c", &hc}, {"s", &hs}, {"l", &hl}, {"g", &hg}})
    f.write(name, *v);
  f.engine->run(0);
  std::vector<float> wa(N), wc(N), wb(hb.size()), wd(N);
  for (std::size_t i = 0; i < N; ++i) {
    wa[i] = std::tanh(ha[i]);
    wc[i] = std::max(hc[i], 0.0f);
    wd[i] = hg[i] * (1 - wa[i] * wa[i]);
  }
  for (std::size_t i = 0; i < hb.size(); ++i)
    wb[i] = float(sigmoid(hb[i]));
  expectNear(f.read<float>("a.r", N), wa, "tanh in cs");
  expectNear(f.read<float>("c.r", N), wc, "relu in cs");
  expectNear(f.read<float>("b.r", hb.size()), wb, "sigmoid of a transposed view");
  expectNear(f.read<float>("d", N), wd, "tanh gradient in cs", 1e-4f);
  expectNear(f.read<float>("s.r", hs.size()), toFloat(forward(NonLinearityType::SOFTMAX_STABLE, toDouble(hs), COLS)),
             "softmax in place");
  std::vector<double> wl = forward(NonLinearityType::SOFTMAX, toDouble(hl), COLS);
  for (double &v : wl)
    v = std::log(v);
  expectNear(f.read<float>("ls", hl.size()), toFloat(wl), "log-softmax", 1e-5f);
  std::vector<float> wge(hl.size());
  for (std::size_t i = 0; i < hl.size(); ++i)
    wge[i] = float(elementwise(NonLinearityType::GELU_ERF, hl[i]));
  expectNear(f.read<float>("ge", hl.size()), wge, "geluErf", 1e-5f);
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor x = f.var(FLOAT, {3, 4}, "x"), k = f.var(INT, {3, 4}, "k"), y = f.var(FLOAT, {4, 3}, "y");
  Tensor scalar = f.var(FLOAT, {}, "scalar");
  ComputeSet cs = f.graph.addComputeSet();
  Sequence &p = f.prog;
  using poputil::poplibs_error;
  expectThrow<poplibs_error>([&] { popnn::relu(f.graph, k, p); }, "only FLOAT");
  expectThrow<poplibs_error>(
      [&] { popnn::nonLinearityInputGradient(f.graph, NonLinearityType::TANH, x, y, p); }, "outGradient has shape");
  expectThrow<poplibs_error>([&] { popnn::nonLinearityInPlace(f.graph, NonLinearityType::SOFTMAX, x, cs); },
                             "use the form that takes a program::Sequence");
  expectThrow<poplibs_error>(
      [&] { popnn::nonLinearityInputGradient(f.graph, NonLinearityType::SOFTMAX_STABLE, x, x, cs); },
      "use the form that takes a program::Sequence");
  expectThrow<poplibs_error>([&] { popnn::softmaxInPlace(f.graph, scalar, p); }, "rank 1 or more");
  expectThrow<poplibs_error>([&] { popnn::nonLinearityInPlace(f.graph, NonLinearityType(99), x, p); },
                             "unknown non-linearity type 99");
  expectThrow<poplibs_error>([&] { popnn::reluInPlace(f.graph, x[0].broadcast(2, 0), p); }, "aliased elements");
  Tensor unmapped = f.graph.addVariable(FLOAT, {5}, "unmapped");
  expectThrow<poplibs_error>([&] { popnn::tanh(f.graph, unmapped, p); }, "unmapped elements");
  f.graph.setTileMapping(unmapped, 0);
}

// NonLinearityDefUtil.hpp: types written, every token read back, and an unknown token refused.
void test_text_forms(void **) {
  std::ostringstream os;
  os << popnn::NonLinearityType::RELU << "|" << popnn::NonLinearityType::SOFTMAX_STABLE;
  assert_string_equal(os.str().c_str(), "relu|softmax (stable)");
  std::istringstream in("relu sigmoid hard_sigmoid tanh gelu gelu_erf swish softmax softmax_stable softmax_scaled");
  const popnn::NonLinearityType want[] = {
      popnn::NonLinearityType::RELU,           popnn::NonLinearityType::SIGMOID,
      popnn::NonLinearityType::HARD_SIGMOID,   popnn::NonLinearityType::TANH,
      popnn::NonLinearityType::GELU,           popnn::NonLinearityType::GELU_ERF,
      popnn::NonLinearityType::SWISH,          popnn::NonLinearityType::SOFTMAX,
      popnn::NonLinearityType::SOFTMAX_STABLE, popnn::NonLinearityType::SOFTMAX_SCALED};
  for (popnn::NonLinearityType w : want) {
    popnn::NonLinearityType t = popnn::NonLinearityType::RELU;
    in >> t;
    assert_int_equal(int(t), int(w));
  }
  std::istringstream bad("cube");
  popnn::NonLinearityType t;
  expectThrow<poputil::poplibs_error>([&] { bad >> t; }, "'cube'");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_forward_every_type),
                                     cmocka_unit_test(test_gradient_every_type),
                                     cmocka_unit_test(test_in_place_compute_set_views_many_tiles),
                                     cmocka_unit_test(test_errors),
                                     cmocka_unit_test(test_text_forms)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
