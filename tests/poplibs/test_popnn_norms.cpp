// popnn's batch and group normalisation against a host reference: statistics (biased and unbiased, one- and
// two-pass), whitening, normalising (with gamma and beta, and the folded inference form), the parameter gradients
// and updates, and the input gradients against central finite differences of the host forward; activations of
// rank 4 (convolutional) and 2 (fully connected); group statistics of empty activations; the argument errors. FLOAT only: popops' HALF support is not on
// this branch, so HALF is not tested here.
#include <cmath>

#include <popnn/BatchNorm.hpp>
#include <popnn/GroupNorm.hpp>

#include "norm_reference.hpp"
#include "popnn_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popnn_test::NnFixture;
using namespace norm_reference;

namespace {

const float EPS = 1e-3f;

// Runs every batch-norm function on acts of `shape` and checks each result.
void batchNormCase(const std::vector<std::size_t> &shape) {
  NnFixture f(16);
  const std::size_t B = shape[0], C = shape[1], n = [&] {
    std::size_t p = 1;
    for (std::size_t s : shape)
      p *= s;
    return p;
  }();
  const Host h = batchNormHost(B, C, n / (B * C));
  Tensor x = f.var(FLOAT, shape, "x"), g = f.var(FLOAT, shape, "g");
  Tensor gamma = f.var(FLOAT, {C}, "gamma"), beta = f.var(FLOAT, {C}, "beta");
  Tensor scale = f.var(FLOAT, {1}, "scale");
  Sequence &p = f.prog;
  auto stats = popnn::bn::batchNormStatistics(f.graph, x, EPS, p, false, false);
  auto stable = popnn::bn::batchNormStatistics(f.graph, x, EPS, p, true, true);
  f.readable(stats.first, "mean");
  f.readable(stats.second, "invStd");
  f.readable(stable.second, "invStdUnbiased");
  f.readable(popnn::bn::batchNormWhiten(f.graph, x, stats.first, stats.second, p), "whitened");
  auto out = popnn::bn::batchNormalise(f.graph, x, gamma, beta, stats.first, stats.second, p);
  f.readable(out.first, "normalised");
  f.readable(popnn::bn::batchNormalise(f.graph, x, gamma, beta, p), "folded");
  auto pg = popnn::bn::batchNormParamGradients(f.graph, x, g, stats.first, stats.second, p);
  auto pgw = popnn::bn::batchNormParamGradients(f.graph, out.second, g, p);
  f.readable(pg.first, "gammaDelta");
  f.readable(pg.second, "betaDelta");
  f.readable(pgw.first, "gammaDelta.w");
  f.readable(popnn::bn::batchNormGradients(f.graph, x, g, stats.first, stats.second, gamma, p), "dx");
  f.readable(popnn::bn::batchNormGradients(f.graph, out.second, g, stats.second, gamma, p), "dx.w");
  // Updates last: gamma += -0.5 * gammaDelta (float scale), then beta += scale * betaDelta (tensor scale) on copies.
  Tensor gamma2 = f.var(FLOAT, {C}, "gamma2"), beta2 = f.var(FLOAT, {C}, "beta2");
  popnn::bn::batchNormParamUpdate(f.graph, pg.first, pg.second, -0.5f, gamma2, beta2, p);
  popnn::bn::batchNormParamUpdate(f.graph, pg.first, pg.second, scale, gamma2, beta2, p);
  f.build();

  const Vec hx = toDouble(floats(n, 1)), hg = toDouble(floats(n, 2));
  Vec hgamma(C), hbeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    hgamma[c] = 0.5 + 0.25 * double(c);
    hbeta[c] = 0.1 * double(c) - 0.2;
  }
  f.write("x", toFloat(hx));
  f.write("g", toFloat(hg));
  f.write("gamma", toFloat(hgamma));
  f.write("beta", toFloat(hbeta));
  f.write("gamma2", toFloat(hgamma));
  f.write("beta2", toFloat(hbeta));
  f.write("scale", std::vector<float>{0.25f});
  f.engine->run(0);

  Vec mean, invStd, meanU, invStdU;
  h.statistics(hx, false, EPS, mean, invStd);
  h.statistics(hx, true, EPS, meanU, invStdU);
  expectNear(f.read<float>("mean", C), toFloat(mean), "mean");
  expectNear(f.read<float>("invStd", C), toFloat(invStd), "invStdDev (one pass)", 1e-4f);
  expectNear(f.read<float>("invStdUnbiased", C), toFloat(invStdU), "invStdDev (unbiased, two passes)", 1e-4f);
  const Vec w = h.whiten(hx, mean, invStd);
  expectNear(f.read<float>("whitened", n), toFloat(w), "whitened", 1e-4f);
  expectNear(f.read<float>("normalised", n), toFloat(h.scaleShift(w, hgamma, hbeta)), "normalised", 1e-4f);
  expectNear(f.read<float>("folded", n), toFloat(h.scaleShift(hx, hgamma, hbeta)), "folded form", 1e-5f);
  Vec gd, bd;
  h.paramGradients(w, hg, gd, bd);
  expectNear(f.read<float>("gammaDelta", C), toFloat(gd), "gammaDelta", 1e-4f);
  expectNear(f.read<float>("gammaDelta.w", C), toFloat(gd), "gammaDelta from whitened", 1e-4f);
  expectNear(f.read<float>("betaDelta", C), toFloat(bd), "betaDelta", 1e-5f);
  const std::vector<float> dx = toFloat(h.inputGradient(hx, hg, hgamma, hbeta, EPS));
  expectNear(f.read<float>("dx", n), dx, "input gradient", 2e-3f);
  expectNear(f.read<float>("dx.w", n), dx, "input gradient from whitened", 2e-3f);
  Vec wantGamma(C), wantBeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    wantGamma[c] = hgamma[c] - 0.25 * gd[c];
    wantBeta[c] = hbeta[c] - 0.25 * bd[c];
  }
  expectNear(f.read<float>("gamma2.r", C), toFloat(wantGamma), "gamma updated", 1e-4f);
  expectNear(f.read<float>("beta2.r", C), toFloat(wantBeta), "beta updated", 1e-4f);
}

// HALF activations, gradients, gamma and beta: FLOAT statistics and parameter deltas, HALF results rounded once
// (the whitened activations are HALF, so what is computed from them carries their rounding: tolerances 2e-3 for
// the deltas and 5e-3 for the input gradient, kHalfTol for the element-wise results).
void test_batch_norm_half(void **) {
  NnFixture f(16);
  const std::vector<std::size_t> shape = {4, 3, 2, 3};
  const std::size_t B = 4, C = 3, n = 72;
  const Host h = batchNormHost(B, C, n / (B * C));
  Tensor x = f.var(HALF, shape, "x"), g = f.var(HALF, shape, "g");
  Tensor gamma = f.var(HALF, {C}, "gamma"), beta = f.var(HALF, {C}, "beta");
  Sequence &p = f.prog;
  auto stats = popnn::bn::batchNormStatistics(f.graph, x, EPS, p, false, true);
  assert_true(stats.first.elementType() == FLOAT && stats.second.elementType() == FLOAT);
  f.readable(stats.first, "mean");
  f.readable(stats.second, "invStd");
  auto out = popnn::bn::batchNormalise(f.graph, x, gamma, beta, stats.first, stats.second, p);
  assert_true(out.first.elementType() == HALF && out.second.elementType() == HALF);
  f.readable(out.first, "normalised");
  f.readable(out.second, "whitened");
  auto pg = popnn::bn::batchNormParamGradients(f.graph, x, g, stats.first, stats.second, p);
  f.readable(pg.first, "gammaDelta");
  f.readable(pg.second, "betaDelta");
  Tensor dx = popnn::bn::batchNormGradients(f.graph, x, g, stats.first, stats.second, gamma, p);
  assert_true(dx.elementType() == HALF);
  f.readable(dx, "dx");
  popnn::bn::batchNormParamUpdate(f.graph, pg.first, pg.second, -0.5f, gamma, beta, p);
  f.build();
  const std::vector<float> fx = floats(n, 1), fg = floats(n, 2); // exact in half
  std::vector<float> fgamma(C), fbeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    fgamma[c] = 0.5f + 0.25f * float(c);
    fbeta[c] = 0.125f * float(c) - 0.25f;
  }
  f.writeHalf("x", fx);
  f.writeHalf("g", fg);
  f.writeHalf("gamma", fgamma);
  f.writeHalf("beta", fbeta);
  f.engine->run(0);
  Vec mean, invStd;
  h.statistics(toDouble(fx), false, EPS, mean, invStd);
  expectNear(f.read<float>("mean", C), toFloat(mean), "mean", 1e-5f);
  expectNear(f.read<float>("invStd", C), toFloat(invStd), "invStdDev (stable)", 1e-4f);
  const std::vector<float> w = f.rh(toFloat(h.whiten(toDouble(fx), mean, invStd)));
  expectNear(f.readHalf("whitened", n), w, "whitened", kHalfTol);
  expectNear(f.readHalf("normalised", n),
             f.rh(toFloat(h.scaleShift(toDouble(w), toDouble(fgamma), toDouble(fbeta)))), "normalised", kHalfTol);
  Vec gd, bd;
  h.paramGradients(toDouble(w), toDouble(fg), gd, bd);
  expectNear(f.read<float>("gammaDelta", C), toFloat(gd), "gammaDelta", 2e-3f);
  expectNear(f.read<float>("betaDelta", C), toFloat(bd), "betaDelta", 1e-5f);
  expectNear(f.readHalf("dx", n), toFloat(h.inputGradient(toDouble(fx), toDouble(fg), toDouble(fgamma),
                                                          toDouble(fbeta), EPS)),
             "input gradient", 5e-3f);
  std::vector<float> wantGamma(C), wantBeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    wantGamma[c] = f.rh(fgamma[c] - 0.5f * f.rh(float(gd[c])));
    wantBeta[c] = f.rh(fbeta[c] - 0.5f * f.rh(float(bd[c])));
  }
  expectNear(f.readHalf("gamma.r", C), wantGamma, "gamma updated (FLOAT deltas into HALF)", kHalfTol);
  expectNear(f.readHalf("beta.r", C), wantBeta, "beta updated", kHalfTol);
}

void test_batch_norm_conv(void **) { batchNormCase({4, 3, 2, 3}); }
void test_batch_norm_fully_connected(void **) { batchNormCase({6, 5}); }

void test_group_norm(void **) {
  NnFixture f(16);
  const std::size_t B = 2, C = 6, F = 5, G = 3, n = B * C * F;
  const Host h = stridedGroupHost(B, C, F, G);
  Tensor x = f.var(FLOAT, {B, C, F}, "x"), g = f.var(FLOAT, {B, C, F}, "g");
  Tensor gamma = f.var(FLOAT, {C}, "gamma"), beta = f.var(FLOAT, {C}, "beta");
  Sequence &p = f.prog;
  auto stats = popnn::gn::groupNormStatistics(f.graph, x, EPS, p, G, false);
  auto statsU = popnn::gn::groupNormStatistics(f.graph, x, EPS, p, G, true);
  f.readable(stats.first, "mean");
  f.readable(stats.second, "invStd");
  f.readable(statsU.second, "invStdU");
  f.readable(popnn::gn::groupNormWhiten(f.graph, x, stats.first, stats.second, p), "whitened");
  auto out = popnn::gn::groupNormalise(f.graph, x, gamma, beta, stats.first, stats.second, p);
  f.readable(out.first, "normalised");
  auto pg = popnn::gn::groupNormParamGradients(f.graph, out.second, g, p);
  f.readable(pg.first, "gammaDelta");
  f.readable(pg.second, "betaDelta");
  f.readable(popnn::gn::groupNormGradients(f.graph, out.second, g, stats.second, gamma, p), "dx");
  Tensor gamma2 = f.var(FLOAT, {C}, "gamma2"), beta2 = f.var(FLOAT, {C}, "beta2");
  popnn::gn::groupNormParamUpdate(f.graph, pg.first, pg.second, -0.5f, gamma2, beta2, p);
  f.build();
  const Vec hx = toDouble(floats(n, 3)), hg = toDouble(floats(n, 4));
  Vec hgamma(C), hbeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    hgamma[c] = 1.5 - 0.2 * double(c);
    hbeta[c] = 0.05 * double(c);
  }
  f.write("x", toFloat(hx));
  f.write("g", toFloat(hg));
  f.write("gamma", toFloat(hgamma));
  f.write("beta", toFloat(hbeta));
  f.write("gamma2", toFloat(hgamma));
  f.write("beta2", toFloat(hbeta));
  f.engine->run(0);
  Vec mean, invStd, meanU, invStdU;
  h.statistics(hx, false, EPS, mean, invStd);
  h.statistics(hx, true, EPS, meanU, invStdU);
  expectNear(f.read<float>("mean", B * G), toFloat(mean), "group mean");
  expectNear(f.read<float>("invStd", B * G), toFloat(invStd), "group invStdDev", 1e-4f);
  expectNear(f.read<float>("invStdU", B * G), toFloat(invStdU), "group invStdDev (unbiased)", 1e-4f);
  const Vec w = h.whiten(hx, mean, invStd);
  expectNear(f.read<float>("whitened", n), toFloat(w), "group whitened", 1e-4f);
  expectNear(f.read<float>("normalised", n), toFloat(h.scaleShift(w, hgamma, hbeta)), "group normalised", 1e-4f);
  Vec gd, bd;
  h.paramGradients(w, hg, gd, bd);
  expectNear(f.read<float>("gammaDelta", C), toFloat(gd), "group gammaDelta", 1e-4f);
  expectNear(f.read<float>("betaDelta", C), toFloat(bd), "group betaDelta", 1e-5f);
  expectNear(f.read<float>("dx", n), toFloat(h.inputGradient(hx, hg, hgamma, hbeta, EPS)), "group input gradient",
             2e-3f);
  Vec wantGamma(C), wantBeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    wantGamma[c] = hgamma[c] - 0.5 * gd[c];
    wantBeta[c] = hbeta[c] - 0.5 * bd[c];
  }
  expectNear(f.read<float>("gamma2.r", C), toFloat(wantGamma), "group gamma updated", 1e-4f);
  expectNear(f.read<float>("beta2.r", C), toFloat(wantBeta), "group beta updated", 1e-4f);
}

// groupNormStatistics of activations with no element per group: mean 0 and invStdDev 1/sqrt(eps) per
// (batch, group); no batch gives empty statistics. The program runs (a fill, no reduction).
void test_group_norm_empty(void **) {
  NnFixture f(4);
  const float eps = 0.25f; // invStdDev 2
  struct Case {
    std::vector<std::size_t> shape;
    unsigned groups;
    std::size_t stats;
  };
  const std::vector<Case> cases = {{{2, 3, 0}, 1, 2}, {{1, 0, 3}, 1, 1}, {{3, 4, 0}, 2, 6}, {{0, 5}, 1, 0},
                                   {{0, 3, 0}, 1, 0}};
  std::vector<std::pair<Tensor, Tensor>> stats;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    Tensor x = f.graph.addVariable(FLOAT, cases[i].shape, "x" + std::to_string(i));
    f.graph.setTileMapping(x, 0);
    stats.push_back(popnn::gn::groupNormStatistics(f.graph, x, eps, f.prog, cases[i].groups, true));
    assert_int_equal(stats.back().first.numElements(), cases[i].stats);
    assert_int_equal(stats.back().second.numElements(), cases[i].stats);
    assert_true(stats.back().first.elementType() == FLOAT);
    if (cases[i].stats) {
      f.readable(stats.back().first, "mean" + std::to_string(i));
      f.readable(stats.back().second, "inv" + std::to_string(i));
    }
  }
  f.build();
  f.engine->run(0);
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (cases[i].stats) {
      expectNear(f.read<float>("mean" + std::to_string(i), cases[i].stats), std::vector<float>(cases[i].stats, 0.0f),
                 "empty group mean", 0);
      expectNear(f.read<float>("inv" + std::to_string(i), cases[i].stats), std::vector<float>(cases[i].stats, 2.0f),
                 "empty group invStdDev", 0);
    }
  // The other group-norm operations still refuse empty activations.
  Tensor e = f.graph.addVariable(FLOAT, {1, 3, 0}, "e");
  f.graph.setTileMapping(e, 0);
  expectThrow<poputil::poplibs_error>(
      [&] { popnn::gn::groupNormWhiten(f.graph, e, stats[1].first, stats[1].second, f.prog); }, "are empty");
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor x = f.var(FLOAT, {2, 6, 3}, "x"), xi = f.var(INT, {2, 6, 3}, "xi"), v = f.var(FLOAT, {6}, "v");
  Tensor five = f.var(FLOAT, {5}, "five"), g = f.var(FLOAT, {2, 6, 2}, "g"), s2 = f.var(FLOAT, {2}, "s2");
  Sequence &p = f.prog;
  using poputil::poplibs_error;
  namespace bn = popnn::bn;
  namespace gn = popnn::gn;
  expectThrow<poplibs_error>([&] { bn::batchNormStatistics(f.graph, xi, EPS, p, false); }, "only FLOAT");
  expectThrow<poplibs_error>([&] { bn::batchNormStatistics(f.graph, v, EPS, p, false); }, "rank 2 or more");
  expectThrow<poplibs_error>([&] { bn::batchNormStatistics(f.graph, x, EPS, p, false, false, INT); },
                             "partialsType int is not supported");
  expectThrow<poplibs_error>([&] { bn::batchNormWhiten(f.graph, x, five, v, p); }, "6 statistics");
  expectThrow<poplibs_error>([&] { bn::batchNormalise(f.graph, x, five, v, v, v, p); }, "gamma has shape {5}");
  expectThrow<poplibs_error>([&] { bn::batchNormalise(f.graph, x, v, five, p); }, "addend has shape {5}");
  expectThrow<poplibs_error>([&] { bn::batchNormParamGradients(f.graph, x, g, p); }, "gradsIn has shape {2,6,2}");
  expectThrow<poplibs_error>([&] { bn::batchNormParamUpdate(f.graph, v, five, 1.0f, v, v, p); }, "differ in size");
  expectThrow<poplibs_error>([&] { bn::batchNormParamUpdate(f.graph, v, v, s2, v, v, p); },
                             "pass a one-element tensor");
  expectThrow<poplibs_error>([&] { gn::groupNormStatistics(f.graph, x, EPS, p, 4, false); },
                             "4 groups do not divide the 6 channels");
  expectThrow<poplibs_error>([&] { gn::groupNormStatistics(f.graph, x, EPS, p, 0, false); }, "numGroups is 0");
  expectThrow<poplibs_error>([&] { gn::groupNormWhiten(f.graph, x, five, five, p); },
                             "not a multiple of the batch size 2");
  expectThrow<poplibs_error>([&] { gn::groupNormGradients(f.graph, x, x, v, five, p); }, "gamma has shape {5}");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_batch_norm_conv),
                                     cmocka_unit_test(test_batch_norm_fully_connected),
                                     cmocka_unit_test(test_batch_norm_half),
                                     cmocka_unit_test(test_group_norm), cmocka_unit_test(test_group_norm_empty),
                                     cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
