// popnn's distributed batch norm (bn::distributedBatchNormStatistics and both distributedBatchNormGradients) as a
// user of Graphcore's SDK calls it (C++11, linked with -lpopnn -lpoplin -lpopops -lpoputil -lpoplar), on an IPU
// Model of 16 tiles, against a double host reference (means over the batch and the field per channel, the biased
// variance, invStdDev = 1 / sqrt(var + eps); the input gradient invStdDev * (g - mean(g) - xhat * mean(g * xhat))
// with g = gradsIn * gamma):
// - normBatchSize equal to the replica's batch: no reduction, the callback is not called;
// - normBatchSize twice the batch with a callback that sums two identical replicas (doubles its inputs): the
//   statistics and gradients of the duplicated batch are those of one batch, and the callback is called.
// FLOAT must match within 1e-4.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popnn/BatchNorm.hpp>
#include <popnn/codelets.hpp>
#include <poplin/codelets.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t N = 4, C = 3, F = 4; // batch, channels, field (2 x 2)
const float EPS = 1e-3f;
unsigned calls = 0;

// Sums two identical replicas: each partial statistic doubled.
std::vector<Tensor> twoReplicas(Graph &graph, const std::vector<Tensor> &in, Sequence &prog, unsigned,
                                const DebugContext &, const OptionFlags &) {
  ++calls;
  std::vector<Tensor> out;
  for (std::size_t i = 0; i < in.size(); ++i)
    out.push_back(popops::map(graph, popops::expr::_1 + popops::expr::_1, {in[i]}, prog));
  return out;
}

float value(std::size_t i, unsigned seed) { return float(int((i * 41 + seed * 17) % 37) - 18) / 12.0f; }

Tensor input(Graph &graph, const std::vector<std::size_t> &shape, const std::string &name) {
  Tensor t = graph.addVariable(FLOAT, shape, name);
  poputil::mapTensorLinearly(graph, t);
  graph.createHostWrite(name, t);
  return t;
}

double maxError(const std::vector<float> &got, const std::vector<double> &want) {
  double e = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    e = std::max(e, std::fabs(got[i] - want[i]));
  return e;
}

void run(Device &device, unsigned normBatchSize) {
  std::vector<float> x(N * C * F), g(N * C * F), gamma(C);
  for (std::size_t i = 0; i < x.size(); ++i) {
    x[i] = value(i, 1);
    g[i] = value(i, 2);
  }
  for (std::size_t c = 0; c < C; ++c)
    gamma[c] = 0.5f + float(c);
  // The host reference in double.
  std::vector<double> mean(C, 0), inv(C, 0), dx(N * C * F);
  for (std::size_t c = 0; c < C; ++c) {
    double s = 0, ss = 0, gm = 0, gxm = 0;
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f)
        s += x[(n * C + c) * F + f];
    mean[c] = s / double(N * F);
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f)
        ss += (x[(n * C + c) * F + f] - mean[c]) * (x[(n * C + c) * F + f] - mean[c]);
    inv[c] = 1.0 / std::sqrt(ss / double(N * F) + EPS);
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f) {
        const std::size_t i = (n * C + c) * F + f;
        gm += double(g[i]) * gamma[c];
        gxm += double(g[i]) * gamma[c] * (x[i] - mean[c]) * inv[c];
      }
    gm /= double(N * F);
    gxm /= double(N * F);
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t f = 0; f < F; ++f) {
        const std::size_t i = (n * C + c) * F + f;
        dx[i] = inv[c] * (double(g[i]) * gamma[c] - gm - (x[i] - mean[c]) * inv[c] * gxm);
      }
  }

  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Tensor acts = input(graph, {N, C, 2, 2}, "acts"), grads = input(graph, {N, C, 2, 2}, "grads");
  Tensor gam = input(graph, {C}, "gamma");
  Sequence prog;
  calls = 0;
  std::pair<Tensor, Tensor> stats =
      popnn::bn::distributedBatchNormStatistics(graph, acts, EPS, prog, false, twoReplicas, normBatchSize);
  Tensor whitened = popnn::bn::batchNormWhiten(graph, acts, stats.first, stats.second, prog);
  Tensor dxWhitened = popnn::bn::distributedBatchNormGradients(graph, whitened, grads, stats.second, gam, prog,
                                                               twoReplicas, normBatchSize);
  Tensor dxActs = popnn::bn::distributedBatchNormGradients(graph, acts, grads, stats.first, stats.second, gam, prog,
                                                           twoReplicas, normBatchSize);
  const unsigned callsMade = calls;
  graph.createHostRead("mean", stats.first);
  graph.createHostRead("inv", stats.second);
  graph.createHostRead("dxWhitened", dxWhitened);
  graph.createHostRead("dxActs", dxActs);
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("acts", x.data(), x.data() + x.size());
  engine.writeTensor("grads", g.data(), g.data() + g.size());
  engine.writeTensor("gamma", gamma.data(), gamma.data() + gamma.size());
  engine.run(0);
  std::vector<float> gotMean(C), gotInv(C), gotW(N * C * F), gotA(N * C * F);
  engine.readTensor("mean", gotMean.data(), gotMean.data() + C);
  engine.readTensor("inv", gotInv.data(), gotInv.data() + C);
  engine.readTensor("dxWhitened", gotW.data(), gotW.data() + gotW.size());
  engine.readTensor("dxActs", gotA.data(), gotA.data() + gotA.size());
  const std::string what = normBatchSize == N ? "one replica's batch" : "two identical replicas";
  check(normBatchSize == N ? callsMade == 0 : callsMade > 0,
        what + ": the reduce callback is called only when the batch spans replicas");
  check(maxError(gotMean, mean) <= 1e-4 && maxError(gotInv, inv) <= 1e-4 * inv[0],
        what + ": distributedBatchNormStatistics within 1e-4");
  check(maxError(gotW, dx) <= 1e-4, what + ": distributedBatchNormGradients from the whitened activations");
  check(maxError(gotA, dx) <= 1e-4, what + ": distributedBatchNormGradients from the activations");
}

} // namespace

int main() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  run(device, N);
  run(device, 2 * N);
  return checksDone("batch norm distributed example: all checks passed");
}
