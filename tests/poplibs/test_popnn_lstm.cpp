// popnn/Lstm.hpp (forward pass) on a 16-tile IPU Model against a host LSTM in double: FLOAT with the
// full output sequence, a permuted cell order and only the last output, HALF; the created tensors' shapes,
// zeroInitialState, LstmState::getAsTensor, the forward flops, and the errors.
#include <cmath>

#include <poplar/exceptions.hpp>

#include <poplin/codelets.hpp>
#include <popnn/Lstm.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn_test::NnFixture;
namespace lstm = popnn::lstm;

namespace {

struct Host {
  std::vector<float> outSeq, cell; // {T, B, O} and {B, O}
};

// The host LSTM: weights wi {4, I, O}, wo {4, O, O}, b {4, O} in gate slots `order`.
Host hostLstm(const std::vector<float> &x, const std::vector<float> &h0, const std::vector<float> &c0,
              const std::vector<float> &wi, const std::vector<float> &wo, const std::vector<float> &b, std::size_t T,
              std::size_t B, std::size_t I, std::size_t O, const std::vector<BasicLstmCellUnit> &order) {
  std::vector<double> h(h0.begin(), h0.end()), c(c0.begin(), c0.end());
  Host r;
  for (std::size_t t = 0; t < T; ++t) {
    std::vector<double> nh(B * O), nc(B * O);
    for (std::size_t n = 0; n < B; ++n)
      for (std::size_t j = 0; j < O; ++j) {
        double gate[4];
        for (std::size_t k = 0; k < 4; ++k) {
          double s = b[k * O + j];
          for (std::size_t i = 0; i < I; ++i)
            s += double(x[(t * B + n) * I + i]) * wi[(k * I + i) * O + j];
          for (std::size_t i = 0; i < O; ++i)
            s += h[n * O + i] * wo[(k * O + i) * O + j];
          gate[order[k]] = order[k] == BASIC_LSTM_CELL_CANDIDATE ? std::tanh(s) : 1.0 / (1.0 + std::exp(-s));
        }
        nc[n * O + j] = gate[BASIC_LSTM_CELL_FORGET_GATE] * c[n * O + j] +
                        gate[BASIC_LSTM_CELL_INPUT_GATE] * gate[BASIC_LSTM_CELL_CANDIDATE];
        nh[n * O + j] = gate[BASIC_LSTM_CELL_OUTPUT_GATE] * std::tanh(nc[n * O + j]);
      }
    h = nh;
    c = nc;
    r.outSeq.insert(r.outSeq.end(), h.begin(), h.end());
  }
  r.cell.assign(c.begin(), c.end());
  return r;
}

void check(const Type &type, bool fullSequence, bool permuted, bool zeroState, float tol) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  const std::size_t T = 3, B = 2, I = 5, O = 4;
  lstm::LstmParams p(type, B, T, {I, O});
  p.outputFullSequence = fullSequence;
  if (permuted)
    p.cellOrder = {BASIC_LSTM_CELL_CANDIDATE, BASIC_LSTM_CELL_OUTPUT_GATE, BASIC_LSTM_CELL_FORGET_GATE,
                   BASIC_LSTM_CELL_INPUT_GATE};
  Tensor in = lstm::createInput(f.graph, p, "in");
  lstm::LstmState s = lstm::createInitialState(f.graph, p, "state");
  lstm::LstmWeights w = lstm::createWeights(f.graph, p, "w", {{"availableMemoryProportion", "0.5"}});
  assert_true(in.shape() == (std::vector<std::size_t>{T, B, I}));
  assert_true(s.getAsTensor().shape() == (std::vector<std::size_t>{2, B, O}));
  assert_true(w.inputWeights.shape() == (std::vector<std::size_t>{4, I, O}));
  assert_true(w.outputWeights.shape() == (std::vector<std::size_t>{4, O, O}));
  assert_true(w.biases.shape() == (std::vector<std::size_t>{4, O}));
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("h0", s.output);
  f.graph.createHostWrite("c0", s.cellState);
  f.graph.createHostWrite("wi", w.inputWeights);
  f.graph.createHostWrite("wo", w.outputWeights);
  f.graph.createHostWrite("b", w.biases);
  if (zeroState)
    lstm::zeroInitialState(f.graph, s, f.prog, "zero");
  std::pair<Tensor, Tensor> r = lstm::lstmFwd(f.graph, p, s, in, w, 0, f.prog, "lstm");
  assert_true(r.first.shape() == (fullSequence ? std::vector<std::size_t>{T, B, O} : std::vector<std::size_t>{B, O}));
  f.readable(r.first, "out");
  f.readable(r.second, "cell");
  f.build();
  // Small weights (about +-0.5) keep the gates away from saturation, so that the check is sensitive.
  std::vector<float> x = scaled(T * B * I, 1, 0.25f), h0 = scaled(B * O, 2, 0.125f), c0 = scaled(B * O, 3, 0.25f);
  std::vector<float> wi = scaled(4 * I * O, 4, 0.125f), wo = scaled(4 * O * O, 5, 0.125f), b = scaled(4 * O, 6, 0.125f);
  auto put = [&](const char *h, const std::vector<float> &v) {
    if (type == HALF)
      f.writeHalf(h, v);
    else
      f.write(h, v);
  };
  put("in", x);
  put("h0", h0);
  put("c0", c0);
  put("wi", wi);
  put("wo", wo);
  put("b", b);
  f.engine->run(0);
  if (zeroState) {
    std::fill(h0.begin(), h0.end(), 0.0f);
    std::fill(c0.begin(), c0.end(), 0.0f);
  }
  Host want = hostLstm(x, h0, c0, wi, wo, b, T, B, I, O, p.cellOrder);
  std::vector<float> wantOut =
      fullSequence ? want.outSeq : std::vector<float>(want.outSeq.end() - B * O, want.outSeq.end());
  auto get = [&](const char *h, std::size_t n) { return type == HALF ? f.readHalf(h, n) : f.read<float>(h, n); };
  expectNear(get("out", wantOut.size()), wantOut, "lstm output", tol);
  expectNear(get("cell", B * O), want.cell, "lstm cell state", tol);
}

void test_float(void **) { check(FLOAT, true, false, false, 1e-4f); }
void test_float_permuted_last(void **) { check(FLOAT, false, true, true, 1e-4f); }
// HALF: the gates and states rounded to half at every step: about 1e-2 absolute on values below 1.
void test_half(void **) { check(HALF, true, false, false, 1e-2f); }

void test_flops_and_errors(void **) {
  lstm::LstmParams p(FLOAT, 2, 3, {5, 4});
  // 2 * (5 + 4) * 16 per batch entry and step for the products, 4 * 4 for the cell update.
  assert_int_equal(lstm::getBasicLstmCellFwdFlops(p), 2 * 3 * (2 * 5 * 16 + 2 * 4 * 16 + 4 * 4));
  assert_true(lstm::getDefaultBasicLstmCellOrder().front() == BASIC_LSTM_CELL_FORGET_GATE);
  NnFixture f(4);
  poplin::addCodelets(f.graph);
  Tensor in = lstm::createInput(f.graph, p, "in");
  lstm::LstmState s = lstm::createInitialState(f.graph, p, "s");
  lstm::LstmWeights w = lstm::createWeights(f.graph, p, "w");
  // The forward intermediates for training (checked in test_popnn_lstm_training.cpp): {T, 7, B, out}.
  Tensor inter;
  lstm::lstmFwd(f.graph, p, s, in, w, &inter, f.prog);
  assert_true(inter.shape() == (std::vector<std::size_t>{3, 7, 2, 4}));
  expectThrow<poputil::poplibs_error>([&] { lstm::lstmFwd(f.graph, p, s, in.slice(0, 2), w, 0, f.prog); },
                                      "the input must be float {3, 2, 5}");
  lstm::LstmParams bad = p;
  bad.cellOrder[0] = BASIC_LSTM_CELL_INPUT_GATE;
  expectThrow<poputil::poplibs_error>([&] { lstm::createInput(f.graph, bad, "x"); }, "permutation");
  expectThrow<poplar::invalid_option>([&] { lstm::createInput(f.graph, p, "x", {{"bogus", "1"}}); }, "bogus");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_float_permuted_last),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_flops_and_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
