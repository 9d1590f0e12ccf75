// poplin's pre-arranged right operands as a user of Graphcore's SDK writes them (C++11, linked with -lpoplin
// -lpopops -lpoputil -lpoplar), on an IPU Model of 16 tiles: a B made elsewhere (mapped on one tile) is copied by
// preArrangeMatMulInputRHS / preArrangeMatMulGroupedInputRHS into the matmul's layout, then multiplied with the
// inputRHSIsPreArranged option; the products must equal the double host products within 1e-5 (FLOAT) and 1e-2
// (HALF operands, FLOAT result). createMatMulOutput's one-type form gives the product's shape and type.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "sdk_check.hpp"
#include "sdk_half.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t G = 2, M = 4, K = 5, N = 3;

std::vector<float> values(std::size_t n, unsigned seed, const Target &target, const Type &type) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = float(int((i * 31 + seed * 7) % 19) - 9) / 8.0f;
  return asDeviceValues(target, type, v);
}

void run(Device &device, const Type &type) {
  const Target &target = device.getTarget();
  Graph graph(target);
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  const OptionFlags preArranged{{"inputRHSIsPreArranged", "true"}};
  Tensor a = poplin::createMatMulGroupedInputLHS(graph, type, FLOAT, {G, M, K}, {G, K, N}, "a");
  Tensor b = graph.addVariable(type, {G, K, N}, "b");
  graph.setTileMapping(b, 3);
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  Sequence prog;
  Tensor b0 = poplin::preArrangeMatMulInputRHS(graph, {M, K}, b[0], prog, FLOAT, "b0");
  Tensor bg = poplin::preArrangeMatMulGroupedInputRHS(graph, {G, M, K}, b, prog, FLOAT, "bg");
  Tensor c0 = poplin::matMul(graph, a[0], b0, prog, FLOAT, "c0", preArranged);
  Tensor cg = poplin::matMulGrouped(graph, a, bg, prog, FLOAT, "cg", preArranged);
  graph.createHostRead("c0", c0);
  graph.createHostRead("cg", cg);
  const std::string t = type == HALF ? "half" : "float";
  check(b0.shape() == std::vector<std::size_t>({K, N}) && bg.shape() == b.shape() && b0.elementType() == type,
        t + ": the pre-arranged operands keep B's shape and type");
  Engine engine(graph, prog);
  engine.load(device);
  const std::vector<float> ha = values(G * M * K, 1, target, type), hb = values(G * K * N, 2, target, type);
  writeAs(engine, target, type, "a", ha);
  writeAs(engine, target, type, "b", hb);
  engine.run(0);
  std::vector<float> got0(M * N), gotG(G * M * N);
  engine.readTensor("c0", got0.data(), got0.data() + got0.size());
  engine.readTensor("cg", gotG.data(), gotG.data() + gotG.size());
  double err0 = 0, errG = 0;
  for (std::size_t g = 0; g < G; ++g)
    for (std::size_t i = 0; i < M; ++i)
      for (std::size_t j = 0; j < N; ++j) {
        double want = 0;
        for (std::size_t k = 0; k < K; ++k)
          want += double(ha[(g * M + i) * K + k]) * hb[(g * K + k) * N + j];
        errG = std::max(errG, std::fabs(gotG[(g * M + i) * N + j] - want));
        if (g == 0)
          err0 = std::max(err0, std::fabs(got0[i * N + j] - want));
      }
  const double tol = type == HALF ? 1e-2 : 1e-5;
  check(err0 <= tol * 4, t + ": matMul with a pre-arranged B equals the host product");
  check(errG <= tol * 4, t + ": matMulGrouped with a pre-arranged grouped B equals the host product");
}

} // namespace

int main() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 16;
  Device device = model.createDevice();
  run(device, FLOAT);
  run(device, HALF);
  Graph graph(device.getTarget());
  Tensor out = poplin::createMatMulOutput(graph, HALF, {M, K}, {K, N}, "out");
  check(out.shape() == std::vector<std::size_t>({M, N}) && out.elementType() == HALF,
        "createMatMulOutput with one type gives the product's shape and type");
  Sequence prog;
  checkThrows([&] { poplin::preArrangeMatMulInputRHS(graph, {M, K}, graph.addVariable(FLOAT, {K + 1, N}), prog); },
              "B has shape", "a B that does not fit aShape is refused");
  return checksDone("poplin pre-arrange example: all checks passed");
}
