// popnn/Gru.hpp (forward pass) on a 16-tile IPU Model against a host GRU in double: FLOAT with the full output
// sequence, a permuted cell order with only the last output, HALF; the created tensors' shapes and the errors.
#include <cmath>

#include <poplar/exceptions.hpp>

#include <poplin/codelets.hpp>
#include <popnn/Gru.hpp>

#include "popnn_test.hpp"

using namespace poplar;
using namespace poplibs_test;
using popnn_test::NnFixture;
namespace gru = popnn::gru;

namespace {

const std::size_t T = 3, B = 2, I = 5, O = 4;

// The host GRU: weights wi {3, I, O}, wo {3, O, O}, b {3, O} in gate slots `order`; returns {T, B, O}.
std::vector<float> hostGru(const std::vector<float> &x, const std::vector<float> &h0, const std::vector<float> &wi,
                           const std::vector<float> &wo, const std::vector<float> &b,
                           const std::vector<BasicGruCellUnit> &order) {
  std::size_t slot[3];
  for (std::size_t k = 0; k < 3; ++k)
    slot[order[k]] = k;
  std::vector<double> h(h0.begin(), h0.end());
  std::vector<float> seq;
  // Pre-activation sum of gate slot k for batch entry n and unit j, with `hin` as the recurrent input.
  auto sum = [&](std::size_t t, std::size_t n, std::size_t j, std::size_t k, const std::vector<double> &hin) {
    double s = b[k * O + j];
    for (std::size_t i = 0; i < I; ++i)
      s += double(x[(t * B + n) * I + i]) * wi[(k * I + i) * O + j];
    for (std::size_t i = 0; i < O; ++i)
      s += hin[n * O + i] * wo[(k * O + i) * O + j];
    return s;
  };
  for (std::size_t t = 0; t < T; ++t) {
    std::vector<double> rh(B * O), u(B * O), nh(B * O);
    for (std::size_t n = 0; n < B; ++n)
      for (std::size_t j = 0; j < O; ++j) {
        rh[n * O + j] = h[n * O + j] / (1.0 + std::exp(-sum(t, n, j, slot[BASIC_GRU_CELL_RESET_GATE], h)));
        u[n * O + j] = 1.0 / (1.0 + std::exp(-sum(t, n, j, slot[BASIC_GRU_CELL_UPDATE_GATE], h)));
      }
    for (std::size_t n = 0; n < B; ++n)
      for (std::size_t j = 0; j < O; ++j) {
        const double c = std::tanh(sum(t, n, j, slot[BASIC_GRU_CELL_CANDIDATE], rh)), e = u[n * O + j];
        nh[n * O + j] = e * h[n * O + j] + (1 - e) * c;
      }
    h = nh;
    seq.insert(seq.end(), h.begin(), h.end());
  }
  return seq;
}

void check(const Type &type, bool fullSequence, bool permuted, float tol) {
  NnFixture f(16);
  poplin::addCodelets(f.graph);
  gru::GruParams p(type, B, T, {I, O});
  p.outputFullSequence = fullSequence;
  if (permuted)
    p.cellOrder = {BASIC_GRU_CELL_CANDIDATE, BASIC_GRU_CELL_RESET_GATE, BASIC_GRU_CELL_UPDATE_GATE};
  Tensor in = gru::createInput(f.graph, p, "in");
  Tensor h0 = gru::createInitialState(f.graph, p, "h0", {}, 0);
  gru::GruWeights w = gru::createWeights(f.graph, p, "w", {{"availableMemoryProportion", "0.5"}});
  assert_true(in.shape() == (std::vector<std::size_t>{T, B, I}));
  assert_true(h0.shape() == (std::vector<std::size_t>{B, O}));
  assert_true(w.inputWeights.shape() == (std::vector<std::size_t>{3, I, O}));
  assert_true(w.outputWeights.shape() == (std::vector<std::size_t>{3, O, O}));
  assert_true(w.biases.shape() == (std::vector<std::size_t>{3, O}));
  f.graph.createHostWrite("in", in);
  f.graph.createHostWrite("h0", h0);
  f.graph.createHostWrite("wi", w.inputWeights);
  f.graph.createHostWrite("wo", w.outputWeights);
  f.graph.createHostWrite("b", w.biases);
  Tensor out = gru::gruFwd(f.graph, p, h0, in, w, 0, f.prog, "gru");
  assert_true(out.shape() == (fullSequence ? std::vector<std::size_t>{T, B, O} : std::vector<std::size_t>{B, O}));
  f.readable(out, "out");
  f.build();
  // Small weights (about +-0.5) keep the gates away from saturation, so that the check is sensitive.
  std::vector<float> x = scaled(T * B * I, 1, 0.25f), h = scaled(B * O, 2, 0.25f);
  std::vector<float> wi = scaled(3 * I * O, 4, 0.125f), wo = scaled(3 * O * O, 5, 0.125f), b = scaled(3 * O, 6, 0.125f);
  auto put = [&](const char *handle, std::vector<float> &v) {
    if (type == HALF) {
      v = f.rh(v);
      f.writeHalf(handle, v);
    } else {
      f.write(handle, v);
    }
  };
  put("in", x);
  put("h0", h);
  put("wi", wi);
  put("wo", wo);
  put("b", b);
  f.engine->run(0);
  std::vector<float> want = hostGru(x, h, wi, wo, b, p.cellOrder);
  if (!fullSequence)
    want.erase(want.begin(), want.end() - B * O);
  std::vector<float> got = type == HALF ? f.readHalf("out", want.size()) : f.read<float>("out", want.size());
  expectNear(got, want, "gru output", tol);
}

// FLOAT: sums of a dozen products of values below 1; 1e-5 relative (absolute below 1) covers float rounding.
void test_float(void **) { check(FLOAT, true, false, 1e-5f); }
void test_float_permuted_last(void **) { check(FLOAT, false, true, 1e-5f); }
// HALF: the gates and states rounded to half at every step: about 1e-2 absolute on values below 1.
void test_half(void **) { check(HALF, true, false, 1e-2f); }

void test_errors(void **) {
  NnFixture f(4);
  poplin::addCodelets(f.graph);
  gru::GruParams p(FLOAT, B, T, {I, O});
  assert_true(gru::getDefaultBasicGruCellOrder().front() == BASIC_GRU_CELL_RESET_GATE);
  Tensor in = gru::createInput(f.graph, p, "in");
  Tensor h0 = gru::createInitialState(f.graph, p, "h0", {}, 0);
  gru::GruWeights w = gru::createWeights(f.graph, p, "w");
  expectThrow<poputil::poplibs_error>([&] { gru::gruFwd(f.graph, p, h0, in.slice(0, 2), w, 0, f.prog); },
                                      "the input must be float {3, 2, 5}");
  gru::GruParams bad = p;
  bad.cellOrder[0] = BASIC_GRU_CELL_CANDIDATE;
  expectThrow<poputil::poplibs_error>([&] { gru::createInput(f.graph, bad, "x"); }, "permutation");
  gru::GruParams after = p;
  after.resetAfter = true;
  // resetAfter weights carry a second (recurrent) bias per gate.
  expectThrow<poputil::poplibs_error>([&] { gru::gruFwd(f.graph, after, h0, in, w, 0, f.prog); },
                                      "the biases (resetAfter) must be float {3, 2, 4}, not float {3,4}");
  expectThrow<poplar::invalid_option>([&] { gru::createInput(f.graph, p, "x", {{"bogus", "1"}}); }, "bogus");
}

} // namespace

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_float),
      cmocka_unit_test(test_float_permuted_last),
      cmocka_unit_test(test_half),
      cmocka_unit_test(test_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
