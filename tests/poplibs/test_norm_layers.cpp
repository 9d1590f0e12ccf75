// The normalisation layers built on group norm (popnn::ln layer norm, popnn::in instance norm, popnn::gn with
// contiguous channel groups) and poplin's per-channel blocks (poplin/Norms.hpp, also distributed over "replicas"
// through a reduce callback), against a double host reference: statistics, whitening, normalising, the parameter
// gradients and update, and the input gradient against central finite differences of the host forward. FLOAT and
// HALF activations (HALF compared with the reference's half rounding of each result), plus popnn's operation
// counts and parameter creation and the argument errors.
#include <cmath>
#include <functional>

#include <poplar/exceptions.hpp>
#include <poplin/Norms.hpp>
#include <poplin/codelets.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/ScaledAdd.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/LayerNorm.hpp>
#include <popnn/Norms.hpp>

#include "norm_reference.hpp"
#include "popnn_test.hpp"

using namespace poplar;
using namespace poplar::program;
using namespace poplibs_test;
using popnn_test::NnFixture;
using namespace norm_reference;

namespace {

const float EPS = 1e-3f;
const std::size_t B = 2, C = 6, F = 5, N = B * C * F;

// The tensors each case reads back, built by `layer` on x, g, gamma and beta.
struct Built {
  Tensor mean, invStd, whitened, normalised, gammaDelta, betaDelta, dx;
};

// Runs one layer (FLOAT or HALF activations) and compares everything with `host`. The layer updates gamma2 and
// beta2 with scale -0.5 from its deltas.
void runCase(const Type &type, const Host &host,
             const std::function<Built(Graph &, Tensor, Tensor, Tensor, Tensor, Tensor, Tensor, Sequence &)> &layer,
             const char *what, std::size_t tiles = 16) {
  NnFixture f(tiles);
  poplin::addCodelets(f.graph);
  const bool half = type == HALF;
  Tensor x = f.var(type, {B, C, F}, "x"), g = f.var(type, {B, C, F}, "g");
  Tensor gamma = f.var(type, {C}, "gamma"), beta = f.var(type, {C}, "beta");
  Tensor gamma2 = f.var(type, {C}, "gamma2"), beta2 = f.var(type, {C}, "beta2");
  Built r = layer(f.graph, x, g, gamma, beta, gamma2, beta2, f.prog);
  assert_true(r.mean.elementType() == FLOAT && r.invStd.elementType() == FLOAT);
  assert_true(r.whitened.elementType() == type && r.normalised.elementType() == type && r.dx.elementType() == type);
  f.readable(r.mean, "mean");
  f.readable(r.invStd, "invStd");
  f.readable(r.whitened, "whitened");
  f.readable(r.normalised, "normalised");
  f.readable(r.gammaDelta, "gammaDelta");
  f.readable(r.betaDelta, "betaDelta");
  f.readable(r.dx, "dx");
  f.build();
  const std::vector<float> fx = floats(N, 3), fg = floats(N, 4); // exact in half
  std::vector<float> fgamma(C), fbeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    fgamma[c] = 1.5f - 0.25f * float(c);
    fbeta[c] = 0.125f * float(c);
  }
  auto put = [&](const char *h, const std::vector<float> &v) { half ? f.writeHalf(h, v) : f.write(h, v); };
  auto get = [&](const char *h, std::size_t n) { return half ? f.readHalf(h, n) : f.read<float>(h, n); };
  put("x", fx);
  put("g", fg);
  put("gamma", fgamma);
  put("beta", fbeta);
  put("gamma2", fgamma);
  put("beta2", fbeta);
  f.engine->run(0);
  const std::string w = what;
  const float tol = half ? kHalfTol : 1e-4f;
  auto round = [&](const Vec &v) { return half ? f.rh(toFloat(v)) : toFloat(v); };
  Vec mean, invStd;
  host.statistics(toDouble(fx), false, EPS, mean, invStd);
  expectNear(f.read<float>("mean", host.numStats), toFloat(mean), (w + " mean").c_str());
  expectNear(f.read<float>("invStd", host.numStats), toFloat(invStd), (w + " invStdDev").c_str(), 1e-4f);
  // HALF: the whitened values are rounded once; later steps start from those rounded values, as the device does.
  const std::vector<float> wh = round(host.whiten(toDouble(fx), mean, invStd));
  expectNear(get("whitened", N), wh, (w + " whitened").c_str(), tol);
  expectNear(get("normalised", N), round(host.scaleShift(toDouble(wh), toDouble(fgamma), toDouble(fbeta))),
             (w + " normalised").c_str(), tol);
  Vec gd, bd;
  host.paramGradients(toDouble(wh), toDouble(fg), gd, bd);
  expectNear(f.read<float>("gammaDelta", C), toFloat(gd), (w + " gammaDelta").c_str(), half ? 2e-3f : 1e-4f);
  expectNear(f.read<float>("betaDelta", C), toFloat(bd), (w + " betaDelta").c_str(), 1e-5f);
  // The input gradient through the statistics: finite differences of the double forward (HALF: 1e-2, the
  // whitened activations the device uses carry half's rounding).
  expectNear(get("dx", N), toFloat(host.inputGradient(toDouble(fx), toDouble(fg), toDouble(fgamma),
                                                      toDouble(fbeta), EPS)),
             (w + " input gradient").c_str(), half ? 1e-2f : 2e-3f);
  std::vector<float> wantGamma(C), wantBeta(C);
  for (std::size_t c = 0; c < C; ++c) {
    wantGamma[c] = float(fgamma[c] - 0.5 * gd[c]);
    wantBeta[c] = float(fbeta[c] - 0.5 * bd[c]);
  }
  expectNear(get("gamma2.r", C), half ? f.rh(wantGamma) : wantGamma, (w + " gamma updated").c_str(),
             half ? 4e-3f : 1e-4f);
  expectNear(get("beta2.r", C), half ? f.rh(wantBeta) : wantBeta, (w + " beta updated").c_str(),
             half ? 4e-3f : 1e-4f);
}

// A popnn group-norm-family layer: statistics by `stats`, the rest through the forms taking the raw activations
// and their statistics (so both overload families run: whitened ones inside groupNormalise).
template <typename StatsFn>
Built gnFamily(Graph &graph, Tensor x, Tensor g, Tensor gamma, Tensor beta, Tensor gamma2, Tensor beta2,
               Sequence &p, StatsFn stats, const OptionFlags &options) {
  Built r;
  auto s = stats(graph, x, p);
  r.mean = s.first;
  r.invStd = s.second;
  r.whitened = popnn::gn::groupNormWhiten(graph, x, s.first, s.second, p, {}, options);
  auto out = popnn::gn::groupNormalise(graph, x, gamma, beta, s.first, s.second, p, {}, options);
  r.normalised = out.first;
  auto pg = popnn::gn::groupNormParamGradients(graph, x, g, s.first, s.second, p, FLOAT, {}, options);
  r.gammaDelta = pg.first;
  r.betaDelta = pg.second;
  r.dx = popnn::gn::groupNormGradients(graph, x, g, s.first, s.second, gamma, p, FLOAT, {}, options);
  popnn::gn::groupNormParamUpdate(graph, pg.first, pg.second, -0.5f, gamma2, beta2, p, {}, options);
  return r;
}

Host layerHost() {
  return Host{B, C, F, B, [](std::size_t b, std::size_t) { return b; }};
}
Host instanceHost() {
  return Host{B, C, F, B * C, [](std::size_t b, std::size_t c) { return b * C + c; }};
}
// Three contiguous groups of two channels.
Host contiguousHost() {
  return Host{B, C, F, B * 3, [](std::size_t b, std::size_t c) { return b * 3 + c / 2; }};
}

Built layerNorm(Graph &graph, Tensor x, Tensor g, Tensor gamma, Tensor beta, Tensor gamma2, Tensor beta2,
                Sequence &p) {
  Built r;
  auto s = popnn::ln::layerNormStatistics(graph, x, EPS, p, false, true);
  r.mean = s.first;
  r.invStd = s.second;
  r.whitened = popnn::ln::layerNormWhiten(graph, x, s.first, s.second, p);
  auto out = popnn::ln::layerNormalise(graph, x, gamma, beta, s.first, s.second, p);
  r.normalised = out.first;
  auto pg = popnn::ln::layerNormParamGradients(graph, out.second, g, p);
  r.gammaDelta = pg.first;
  r.betaDelta = pg.second;
  r.dx = popnn::ln::layerNormGradients(graph, out.second, g, s.second, gamma, p);
  // The tensor-scale update.
  Tensor scale = graph.addConstant(FLOAT, {1}, -0.5f, "scale");
  graph.setTileMapping(scale, 0);
  popnn::ln::layerNormParamUpdate(graph, pg.first, pg.second, scale, gamma2, beta2, p);
  return r;
}

Built instanceNorm(Graph &graph, Tensor x, Tensor g, Tensor gamma, Tensor beta, Tensor gamma2, Tensor beta2,
                   Sequence &p) {
  Built r;
  auto s = popnn::in::instanceNormStatistics(graph, x, EPS, p, false, false);
  r.mean = s.first;
  r.invStd = s.second;
  r.whitened = popnn::in::instanceNormWhiten(graph, x, s.first, s.second, p);
  r.normalised = popnn::in::instanceNormalise(graph, x, gamma, beta, s.first, s.second, p).first;
  auto pg = popnn::in::instanceNormParamGradients(graph, x, g, s.first, s.second, p);
  r.gammaDelta = pg.first;
  r.betaDelta = pg.second;
  r.dx = popnn::in::instanceNormGradients(graph, x, g, s.first, s.second, gamma, p);
  popnn::in::instanceNormParamUpdate(graph, pg.first, pg.second, -0.5f, gamma2, beta2, p);
  return r;
}

Built contiguousGroups(Graph &graph, Tensor x, Tensor g, Tensor gamma, Tensor beta, Tensor gamma2, Tensor beta2,
                       Sequence &p) {
  const OptionFlags contiguous{{"groupNormStridedChannelGrouping", "false"}};
  return gnFamily(
      graph, x, g, gamma, beta, gamma2, beta2, p,
      [&](Graph &gr, Tensor a, Sequence &pr) {
        return popnn::gn::groupNormStatistics(gr, a, EPS, pr, 3, false, false, FLOAT, {}, contiguous);
      },
      contiguous);
}

// poplin's per-channel blocks chained into a batch-norm layer. With `replicas` > 1 the statistics and their
// gradients take the distributed forms with a callback that plays the other replicas as copies of this one (it
// multiplies each partial by `replicas` and records its calls), so the expected values are this replica's.
Built poplinLayer(Graph &graph, Tensor x, Tensor g, Tensor gamma, Tensor beta, Tensor gamma2, Tensor beta2,
                  Sequence &p, unsigned replicas, unsigned *calls) {
  Built r;
  poplin::DistributedNormReduceCallback cb = [replicas, calls](Graph &gr, const std::vector<Tensor> &in,
                                                               Sequence &pr, unsigned groupSize,
                                                               const DebugContext &, const OptionFlags &) {
    assert_int_equal(groupSize, replicas);
    ++*calls;
    std::vector<Tensor> out;
    for (const Tensor &t : in)
      out.push_back(popops::map(gr, popops::expr::_1 * popops::expr::Const(float(replicas)), {t}, pr));
    return out;
  };
  const unsigned normSize = unsigned(B) * replicas;
  auto s = replicas > 1 ? poplin::distributedNormStatistics(graph, x, EPS, p, false, cb, normSize, true)
                        : poplin::normStatistics(graph, x, EPS, p, false, false);
  r.mean = s.first;
  r.invStd = s.second;
  r.whitened = poplin::normWhiten(graph, x, s.first, s.second, p);
  r.normalised = poplin::normalise(graph, r.whitened, gamma, beta, p);
  auto pg = poplin::normParamGradients(graph, r.whitened, g, p);
  r.gammaDelta = pg.first;
  r.betaDelta = pg.second;
  Tensor gw = poplin::normGradients(graph, g, gamma, p);
  r.dx = replicas > 1
             ? poplin::distributedNormStatisticsGradients(graph, r.whitened, gw, s.second, p, cb, normSize)
             : poplin::normStatisticsGradients(graph, r.whitened, gw, s.second, p);
  // The FLOAT deltas in the parameters' type, as popnn's updates do.
  popops::scaledAddTo(graph, gamma2, popops::cast(graph, pg.first, gamma2.elementType(), p), -0.5f, p);
  popops::scaledAddTo(graph, beta2, popops::cast(graph, pg.second, beta2.elementType(), p), -0.5f, p);
  return r;
}

Host batchHost() {
  return batchNormHost(B, C, F);
}

void test_layer_norm(void **) {
  runCase(FLOAT, layerHost(), layerNorm, "layer norm");
  runCase(HALF, layerHost(), layerNorm, "layer norm (half)");
}

void test_instance_norm(void **) {
  runCase(FLOAT, instanceHost(), instanceNorm, "instance norm");
  runCase(HALF, instanceHost(), instanceNorm, "instance norm (half)");
}

void test_group_norm_contiguous(void **) {
  runCase(FLOAT, contiguousHost(), contiguousGroups, "contiguous group norm");
  runCase(HALF, contiguousHost(), contiguousGroups, "contiguous group norm (half)");
}

void test_poplin_norms(void **) {
  unsigned calls = 0;
  auto local = [&](Graph &gr, Tensor x, Tensor g, Tensor ga, Tensor be, Tensor ga2, Tensor be2, Sequence &p) {
    return poplinLayer(gr, x, g, ga, be, ga2, be2, p, 1, &calls);
  };
  runCase(FLOAT, batchHost(), local, "poplin norms");
  runCase(HALF, batchHost(), local, "poplin norms (half)");
  assert_int_equal(calls, 0);
  auto distributed = [&](Graph &gr, Tensor x, Tensor g, Tensor ga, Tensor be, Tensor ga2, Tensor be2, Sequence &p) {
    return poplinLayer(gr, x, g, ga, be, ga2, be2, p, 3, &calls);
  };
  runCase(FLOAT, batchHost(), distributed, "poplin distributed norms");
  // Two partial means for the statistics (stable algorithm: mean, then variance), one pair for the gradients.
  assert_int_equal(calls, 3);
}

void test_params_and_flops(void **) {
  NnFixture f(4);
  Tensor acts = f.var(HALF, {2, 6, 3, 3}, "acts"), fc = f.var(FLOAT, {4, 10}, "fc");
  auto params = popnn::createNormParams(f.graph, acts);
  assert_true(params.first.shape() == std::vector<std::size_t>{6} && params.first.elementType() == HALF);
  assert_true(params.second.shape() == std::vector<std::size_t>{6} && params.second.elementType() == HALF);
  assert_true(popnn::createNormGamma(f.graph, fc).shape() == std::vector<std::size_t>{10});
  assert_true(popnn::createNormBeta(f.graph, fc).elementType() == FLOAT);
  assert_true(poplin::createNormGamma(f.graph, acts, FLOAT).elementType() == FLOAT);
  assert_true(poplin::createNormBeta(f.graph, acts, FLOAT).shape() == std::vector<std::size_t>{6});
  auto pp = poplin::createNormParams(f.graph, fc);
  assert_true(pp.first.shape() == std::vector<std::size_t>{10} && pp.second.elementType() == FLOAT);
  // Every parameter is mapped (a graph with an unmapped variable would not compile).
  for (const Tensor &t : {params.first, params.second, pp.first, pp.second})
    assert_true(f.graph.getTileMapping(t).size() > 0);
  // Counts: forward 2 per element (+ 6 per element and 5 per statistic with the statistics), backward 8 per
  // element and 2 per statistic, update 3 per element and 4 per parameter.
  assert_int_equal(popnn::getNormFwdFlops(6, 100, false), 200);
  assert_int_equal(popnn::getNormFwdFlops(6, 100), 630);
  assert_int_equal(popnn::getNormBwdFlops(6, 100), 812);
  assert_int_equal(popnn::getNormWuFlops(6, 100), 324);
  assert_int_equal(popnn::in::getFwdFlops(4, 25, true), 620);
  assert_int_equal(popnn::in::getBwdFlops(4, 25), 808);
  assert_int_equal(popnn::in::getWuFlops(4, 25), 316);
}

void test_errors(void **) {
  NnFixture f(4);
  Tensor x = f.var(FLOAT, {2, 6, 3}, "x"), v = f.var(FLOAT, {6}, "v"), five = f.var(FLOAT, {5}, "five");
  Tensor xi = f.var(INT, {2, 6, 3}, "xi"), g = f.var(FLOAT, {2, 6, 2}, "g");
  Sequence &p = f.prog;
  using poputil::poplibs_error;
  expectThrow<poplar::invalid_option>(
      [&] { popnn::gn::groupNormStatistics(f.graph, x, EPS, p, 3, false, false, FLOAT, {}, {{"bogus", "1"}}); },
      "unknown option 'bogus'");
  expectThrow<poplar::invalid_option>(
      [&] {
        popnn::ln::layerNormStatistics(f.graph, x, EPS, p, false, false, FLOAT, {},
                                       {{"groupNormStridedChannelGrouping", "maybe"}});
      },
      "is not true or false");
  expectThrow<poplibs_error>([&] { poplin::normStatistics(f.graph, xi, EPS, p, false); }, "only FLOAT and HALF");
  expectThrow<poplibs_error>([&] { poplin::normStatistics(f.graph, v, EPS, p, false); }, "rank 2 or more");
  expectThrow<poplibs_error>([&] { poplin::normStatistics(f.graph, x, EPS, p, false, false, HALF); },
                             "partialsType half is not supported");
  expectThrow<poplibs_error>([&] { poplin::normWhiten(f.graph, x, five, v, p); }, "mean has shape {5}");
  expectThrow<poplibs_error>([&] { poplin::normalise(f.graph, x, v, five, p); }, "beta has shape {5}");
  expectThrow<poplibs_error>([&] { poplin::normParamGradients(f.graph, x, g, p); }, "gradsIn has shape {2,6,2}");
  expectThrow<poplibs_error>(
      [&] {
        poplin::distributedNormStatistics(
            f.graph, x, EPS, p, false,
            [](Graph &, const std::vector<Tensor> &in, Sequence &, unsigned, const DebugContext &,
               const OptionFlags &) { return in; },
            5);
      },
      "normSize 5 is not a multiple of the 2 batch elements");
  expectThrow<poplibs_error>([&] { popnn::in::instanceNormWhiten(f.graph, x, five, five, p); },
                             "not a multiple of the batch size 2");
}

} // namespace

int main() {
  const struct CMUnitTest tests[] = {cmocka_unit_test(test_layer_norm),          cmocka_unit_test(test_instance_norm),
                                     cmocka_unit_test(test_group_norm_contiguous), cmocka_unit_test(test_poplin_norms),
                                     cmocka_unit_test(test_params_and_flops),      cmocka_unit_test(test_errors)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
