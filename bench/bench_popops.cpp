// popops benchmark (issue 15): element-wise add of two N-element float tensors and reduce ADD of an [N, 1] tensor
// over dimension 0, on the ipu2 IPU Model (default N = 10M). Prints wall time per phase, simulated cycles, and
// cycles per element per tile next to the ideal the Target gives (one float vector per cycle on each worker-cycle
// share: data path width / 32 floats per cycle per tile). Checks the results, asserts nothing about speed.
// Usage: bench_popops [N] [board]
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

using namespace poplar;
using namespace poplar::program;

static void report(const char *what, Engine &e, const Target &t, std::size_t n, double ideal) {
  double perTile = double(n) / t.getNumTiles();
  std::uint64_t cycles = e.getLastRunCycles();
  std::printf("%-6s N=%zu: compile %.2f s, load %.2f s, run %.2f s wall; %llu cycles; %.2f cycles/element/tile "
              "(ideal %.2f)\n",
              what, n, e.getPhaseSeconds("compile"), e.getPhaseSeconds("load"), e.getPhaseSeconds("run"),
              (unsigned long long)cycles, double(cycles) / perTile, ideal);
}

int main(int argc, char **argv) {
  std::size_t n = argc > 1 ? std::strtoull(argv[1], 0, 10) : 10000000;
  IPUModel model(argc > 2 ? argv[2] : "ipu2");
  Device device = model.createDevice();
  const Target &target = device.getTarget();
  // Ideal: the data path moves getFloatVectorWidth() floats per cycle per tile.
  const double ideal = 1.0 / target.getFloatVectorWidth();
  std::printf("target %s: %u tiles, %u workers, data path %u bits (%u floats per cycle)\n",
              target.getTargetSystemString().c_str(), target.getNumTiles(), target.getNumWorkerContexts(),
              target.getDataPathWidth(), target.getFloatVectorWidth());
  int failures = 0;
  {
    Graph graph(target);
    popops::addCodelets(graph);
    Tensor a = graph.addVariable(FLOAT, {n}, "a"), b = graph.addVariable(FLOAT, {n}, "b");
    poputil::mapTensorLinearly(graph, a);
    poputil::mapTensorLinearly(graph, b);
    Sequence init, prog;
    popops::fill(graph, a, 1.0f, init);
    popops::fill(graph, b, 2.0f, init);
    Tensor c = popops::add(graph, a, b, prog, "add");
    graph.createHostRead("c", c);
    Engine e(graph, {init, prog});
    e.load(device);
    e.run(0);
    e.run(1);
    report("add", e, target, n, ideal);
    std::vector<float> hc(n);
    e.readTensor("c", hc.data(), hc.data() + n);
    for (std::size_t i = 0; i < n; ++i)
      if (hc[i] != 3.0f) {
        std::printf("add: c[%zu] = %g, want 3\n", i, double(hc[i]));
        ++failures;
        break;
      }
  }
  {
    Graph graph(target);
    popops::addCodelets(graph);
    Tensor a = graph.addVariable(FLOAT, {n, 1}, "a");
    poputil::mapTensorLinearly(graph, a);
    Sequence init, prog;
    popops::fill(graph, a, 1.0f, init);
    Tensor r = popops::reduce(graph, a, {0}, popops::Operation::ADD, prog, "reduce");
    graph.createHostRead("r", r);
    Engine e(graph, {init, prog});
    e.load(device);
    e.run(0);
    e.run(1);
    report("reduce", e, target, n, ideal);
    float hr = 0;
    e.readTensor("r", &hr, &hr + 1);
    if (hr != float(n)) {
      std::printf("reduce: %g, want %zu\n", double(hr), n);
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
