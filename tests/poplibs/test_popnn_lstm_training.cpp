// popnn/Lstm.hpp training passes (lstmFwd with intermediates, lstmBwd, lstmWU, lstmBwdWithWU, both forms of the
// last-step gradient) on a 16-tile IPU Model. The reference is independent of the device's formulas: the gradients
// of the scalar L = sum(outputGrad * output) + sum(dhT * h_T) + sum(dcT * c_T) by central finite differences of a
// host LSTM in double (step 1e-6: the truncation and rounding errors are below 1e-8, far under the tolerances).
#include <cmath>

#include <poplin/codelets.hpp>
#include <popnn/Lstm.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn_test::NnFixture;
namespace lstm = popnn::lstm;

namespace {

const std::size_t T = 3, B = 2, I = 3, O = 4;

// Every value the loss depends on, in the layout of the device tensors.
struct Values {
  std::vector<double> x, h0, c0, wi, wo, b; // {T,B,I} {B,O} {B,O} {4,I,O} {4,O,O} {4,O}
};

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

// L for the LSTM with gate slots `order`; og {T,B,O} (or {B,O} for the last output only), dhT and dcT {B,O}.
double loss(const Values &v, const std::vector<BasicLstmCellUnit> &order, bool fullSequence,
            const std::vector<double> &og, const std::vector<double> &dhT, const std::vector<double> &dcT) {
  std::vector<double> h = v.h0, c = v.c0;
  double L = 0;
  for (std::size_t t = 0; t < T; ++t) {
    std::vector<double> nh(B * O), nc(B * O);
    for (std::size_t n = 0; n < B; ++n)
      for (std::size_t j = 0; j < O; ++j) {
        double gate[4];
        for (std::size_t k = 0; k < 4; ++k) {
          double s = v.b[k * O + j];
          for (std::size_t i = 0; i < I; ++i)
            s += v.x[(t * B + n) * I + i] * v.wi[(k * I + i) * O + j];
          for (std::size_t i = 0; i < O; ++i)
            s += h[n * O + i] * v.wo[(k * O + i) * O + j];
          gate[order[k]] = order[k] == BASIC_LSTM_CELL_CANDIDATE ? std::tanh(s) : sigmoid(s);
        }
        const std::size_t e = n * O + j;
        nc[e] = gate[BASIC_LSTM_CELL_FORGET_GATE] * c[e] +
                gate[BASIC_LSTM_CELL_INPUT_GATE] * gate[BASIC_LSTM_CELL_CANDIDATE];
        nh[e] = gate[BASIC_LSTM_CELL_OUTPUT_GATE] * std::tanh(nc[e]);
        if (fullSequence)
          L += og[t * B * O + e] * nh[e];
        else if (t == T - 1)
          L += og[e] * nh[e];
      }
    h = nh;
    c = nc;
  }
  for (std::size_t e = 0; e < B * O; ++e)
    L += dhT[e] * h[e] + dcT[e] * c[e];
  return L;
}

// dL/dp for every element p of `member` of v, by central differences.
std::vector<float> numericGradient(Values v, std::vector<double> Values::*member,
                                   const std::vector<BasicLstmCellUnit> &order, bool fullSequence,
                                   const std::vector<double> &og, const std::vector<double> &dhT,
                                   const std::vector<double> &dcT) {
  const double step = 1e-6;
  std::vector<float> g((v.*member).size());
  for (std::size_t i = 0; i < g.size(); ++i) {
    const double keep = (v.*member)[i];
    (v.*member)[i] = keep + step;
    const double up = loss(v, order, fullSequence, og, dhT, dcT);
    (v.*member)[i] = keep - step;
    const double down = loss(v, order, fullSequence, og, dhT, dcT);
    (v.*member)[i] = keep;
    g[i] = float((up - down) / (2 * step));
  }
  return g;
}

// How the test calls the training passes.
enum class Api { BWD_THEN_WU, BWD_WITH_WU_STATE, BWD_WITH_WU_CELL_ONLY };

void check(const Type &type, bool fullSequence, bool permuted, Api api, float tol) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  lstm::LstmParams p(type, B, T, {I, O});
  p.outputFullSequence = fullSequence;
  if (permuted)
    p.cellOrder = {BASIC_LSTM_CELL_OUTPUT_GATE, BASIC_LSTM_CELL_CANDIDATE, BASIC_LSTM_CELL_INPUT_GATE,
                   BASIC_LSTM_CELL_FORGET_GATE};
  // The debug context given each way a caller can: a string, a const char *, a DebugContext, a DebugNameAndId.
  Tensor in = lstm::createInput(f.graph, p, std::string("in"));
  lstm::LstmState s = lstm::createInitialState(f.graph, p, poplar::DebugContext("state"));
  lstm::LstmWeights w = lstm::createWeights(f.graph, p, poplar::DebugNameAndId("w"));
  Tensor inter;
  std::pair<Tensor, Tensor> fwd = lstm::lstmFwd(f.graph, p, s, in, w, &inter, f.prog, "fwd");
  assert_true(inter.shape() == (std::vector<std::size_t>{T, 7, B, O}));
  const std::vector<std::size_t> ogShape = fullSequence ? std::vector<std::size_t>{T, B, O} : std::vector<std::size_t>{B, O};
  Tensor og = f.var(type, ogShape, "og");
  lstm::LstmState last;
  last.output = f.var(type, {B, O}, "dhT");
  last.cellState = f.var(type, {B, O}, "dcT");
  Tensor inputGrad;
  lstm::LstmWeights dw;
  lstm::LstmState d0;
  if (api == Api::BWD_THEN_WU) {
    Tensor bwdInter;
    d0 = lstm::lstmBwd(f.graph, p, f.prog, s, inter, w, in, fwd.first, og, &last, &inputGrad, &bwdInter, "bwd");
    assert_true(bwdInter.shape() == (std::vector<std::size_t>{T, 4, B, O}));
    dw = lstm::lstmWU(f.graph, p, f.prog, s, inter, bwdInter, w, in, fwd.first, "wu");
  } else if (api == Api::BWD_WITH_WU_STATE) {
    d0 = lstm::lstmBwdWithWU(f.graph, p, f.prog, s, inter, w, in, fwd.first, og, &last, &inputGrad, dw, "bwdwu");
  } else {
    d0 = lstm::lstmBwdWithWU(f.graph, p, f.prog, s, inter, w, in, fwd.first, og, &last.cellState, &inputGrad, dw,
                             "bwdwu");
  }
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("h0", s.output);
  f.graph.createHostWrite("c0", s.cellState);
  f.graph.createHostWrite("wi", w.inputWeights);
  f.graph.createHostWrite("wo", w.outputWeights);
  f.graph.createHostWrite("b", w.biases);
  f.readable(inputGrad, "dx");
  f.readable(d0.output, "dh0");
  f.readable(d0.cellState, "dc0");
  f.readable(dw.inputWeights, "dwi");
  f.readable(dw.outputWeights, "dwo");
  f.readable(dw.biases, "db");
  f.build();
  // Small values keep the gates away from saturation, so that every gradient is sizeable.
  std::vector<float> x = scaled(T * B * I, 1, 0.25f), h0 = scaled(B * O, 2, 0.125f), c0 = scaled(B * O, 3, 0.25f);
  std::vector<float> wi = scaled(4 * I * O, 4, 0.125f), wo = scaled(4 * O * O, 5, 0.125f), b = scaled(4 * O, 6, 0.125f);
  std::vector<float> ogv = scaled(fullSequence ? T * B * O : B * O, 7, 0.25f), dhT = scaled(B * O, 8, 0.25f),
                     dcT = scaled(B * O, 9, 0.25f);
  if (api == Api::BWD_WITH_WU_CELL_ONLY)
    std::fill(dhT.begin(), dhT.end(), 0.0f); // that form takes no final output gradient
  auto put = [&](const char *h, std::vector<float> &v) {
    if (type == HALF) {
      v = f.rh(v); // the reference sees the values the device holds
      f.writeHalf(h, v);
    } else {
      f.write(h, v);
    }
  };
  put("in", x);
  put("h0", h0);
  put("c0", c0);
  put("wi", wi);
  put("wo", wo);
  put("b", b);
  put("og", ogv);
  put("dhT", dhT);
  put("dcT", dcT);
  f.engine->run(0);

  auto d = [](const std::vector<float> &v) { return std::vector<double>(v.begin(), v.end()); };
  Values v{d(x), d(h0), d(c0), d(wi), d(wo), d(b)};
  auto want = [&](std::vector<double> Values::*m) {
    return numericGradient(v, m, p.cellOrder, fullSequence, d(ogv), d(dhT), d(dcT));
  };
  auto get = [&](const char *h, std::size_t n) { return type == HALF ? f.readHalf(h, n) : f.read<float>(h, n); };
  expectNear(get("dx", T * B * I), want(&Values::x), "input gradient", tol);
  expectNear(get("dh0", B * O), want(&Values::h0), "initial output gradient", tol);
  expectNear(get("dc0", B * O), want(&Values::c0), "initial cell state gradient", tol);
  expectNear(get("dwi", 4 * I * O), want(&Values::wi), "input weights gradient", tol);
  expectNear(get("dwo", 4 * O * O), want(&Values::wo), "output weights gradient", tol);
  expectNear(get("db", 4 * O), want(&Values::b), "biases gradient", tol);
}

// FLOAT: sums of a few dozen products of values below 1, 1e-4 relative (or absolute below 1) covers the rounding.
void test_float_bwd_then_wu(void **) { check(FLOAT, true, false, Api::BWD_THEN_WU, 1e-4f); }
void test_float_last_permuted(void **) { check(FLOAT, false, true, Api::BWD_WITH_WU_STATE, 1e-4f); }
void test_float_cell_only(void **) { check(FLOAT, true, false, Api::BWD_WITH_WU_CELL_ONLY, 1e-4f); }
// HALF: every intermediate is rounded to 11 significant bits and the weight gradients sum T*B = 6 terms; 2e-2
// absolute on gradients below 1 is a few half ulps of the largest terms.
void test_half(void **) { check(HALF, true, false, Api::BWD_THEN_WU, 2e-2f); }

void test_errors(void **) {
  NnFixture f(4);
  poplin::addCodelets(f.graph);
  lstm::LstmParams p(FLOAT, B, T, {I, O});
  Tensor in = lstm::createInput(f.graph, p, "in");
  lstm::LstmState s = lstm::createInitialState(f.graph, p, "s");
  lstm::LstmWeights w = lstm::createWeights(f.graph, p, "w");
  Tensor inter;
  std::pair<Tensor, Tensor> fwd = lstm::lstmFwd(f.graph, p, s, in, w, &inter, f.prog);
  Tensor og = f.graph.addVariable(FLOAT, {T, B, O}, "og");
  const lstm::LstmState *none = 0;
  expectThrow<poputil::poplibs_error>(
      [&] { lstm::lstmBwd(f.graph, p, f.prog, s, inter.slice(0, 2), w, in, fwd.first, og, none, 0, 0); },
      "the forward intermediates");
  expectThrow<poputil::poplibs_error>(
      [&] { lstm::lstmBwd(f.graph, p, f.prog, s, inter, w, in, fwd.first, og[0], none, 0, 0); },
      "the output gradient");
  lstm::LstmParams gelu = p;
  gelu.activation = popnn::NonLinearityType::GELU;
  expectThrow<poputil::poplibs_error>(
      [&] { lstm::lstmBwd(f.graph, gelu, f.prog, s, inter, w, in, fwd.first, og, none, 0, 0); }, "SIGMOID, TANH");
  expectThrow<poputil::poplibs_error>(
      [&] { lstm::lstmWU(f.graph, p, f.prog, s, inter, og, w, in, fwd.first); }, "the backward intermediates");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float_bwd_then_wu), cmocka_unit_test(test_float_last_permuted),
      cmocka_unit_test(test_float_cell_only),   cmocka_unit_test(test_half),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
