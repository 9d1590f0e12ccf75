// PopLibs operations for the cycle calibration table (issue 37 item 6): each operation is built alone on a one-tile
// ipu2 IPU Model (IPUModel("ipu2") with tilesPerIPU = 1), so the whole operation runs on one tile and its cost is
// the vertices PopLibs puts there, with no tile-mapping choice between our library and Graphcore's to tell apart.
// For each it prints one line, "op|shape|type|cycles", where cycles are the compute sets' cycles the IPU Model time
// model charges (the OnTileExecute steps of the execution profile, without syncs and exchanges).
// bench/calib_reference.py computes Graphcore's figure for the same shapes; bench_calibration.py table puts them
// side by side. Usage: bench_calib_ops [--quick] (quick: the smallest shape of each kind, for the ctest).
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/NonLinearity.hpp>
#include <popnn/codelets.hpp>
#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>

#include "profile_split.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

// Builds `body` into a fresh graph on `device`, runs it once (instrumented) and prints the compute cycles.
void measure(const Device &device, const std::string &op, const std::string &shape, const char *type,
             const std::function<void(Graph &, Sequence &)> &body) {
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  Sequence prog;
  body(graph, prog);
  Engine e(graph, prog, OptionFlags{{"debug.instrument", "true"}});
  e.load(device);
  e.run(0);
  std::printf("%s|%s|%s|%llu\n", op.c_str(), shape.c_str(), type,
              (unsigned long long)bench::lastRunSplit(e).compute);
  std::fflush(stdout);
}

Tensor onTile0(Graph &g, Type t, std::vector<std::size_t> shape, const char *name) {
  Tensor x = g.addVariable(t, shape, name);
  g.setTileMapping(x, 0);
  return x;
}

} // namespace

int main(int argc, char **argv) {
  const bool quick = argc > 1 && std::strcmp(argv[1], "--quick") == 0;
  IPUModel model("ipu2");
  model.tilesPerIPU = 1;
  Device device = model.createDevice();

  measure(device, "add", "6000", "float", [](Graph &g, Sequence &p) {
    popops::add(g, onTile0(g, FLOAT, {6000}, "a"), onTile0(g, FLOAT, {6000}, "b"), p, "add");
  });
  measure(device, "reduce", "96x64/1", "float", [](Graph &g, Sequence &p) {
    popops::reduce(g, onTile0(g, FLOAT, {96, 64}, "a"), {1}, popops::Operation::ADD, p, "reduce");
  });
  const unsigned mm[][3] = {{96, 64, 64}, {192, 128, 64}, {256, 128, 128}};
  for (unsigned i = 0; i < (quick ? 1u : 3u); ++i) {
    const std::size_t m = mm[i][0], k = mm[i][1], n = mm[i][2];
    measure(device, "matmul", std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n), "half",
            [&](Graph &g, Sequence &p) {
              Tensor a = poplin::createMatMulInputLHS(g, HALF, {m, k}, {k, n}, "a");
              Tensor b = poplin::createMatMulInputRHS(g, HALF, {m, k}, {k, n}, "b");
              poplin::matMul(g, a, b, p, HALF, "matMul");
            });
  }
  measure(device, "conv", "1x16x10x10,3x3,16", "half", [](Graph &g, Sequence &p) {
    poplin::ConvParams params(HALF, 1, {10, 10}, {3, 3}, 16, 16, 1);
    Tensor in = poplin::createInput(g, params, "in");
    Tensor w = poplin::createWeights(g, params, "w");
    poplin::convolution(g, in, w, params, false, p, "conv");
  });
  measure(device, "softmax", "8x256", "float", [](Graph &g, Sequence &p) {
    popnn::nonLinearity(g, popnn::NonLinearityType::SOFTMAX_STABLE, onTile0(g, FLOAT, {8, 256}, "x"), p, "softmax");
  });
  measure(device, "dynamicSlice", "64x256/0:1", "float", [](Graph &g, Sequence &p) {
    Tensor t = onTile0(g, FLOAT, {64, 256}, "t");
    Tensor offset = onTile0(g, UNSIGNED_INT, {1}, "offset");
    popops::dynamicSlice(g, t, offset, {0}, {1}, p, "dynamicSlice");
  });
  return 0;
}
