// popops benchmark (issue 15, issue 20): element-wise add of two N-element float tensors and reduce ADD of an
// [N, 1] tensor over dimension 0, on the ipu2 IPU Model (default N = 10M). For each: compile and load wall time
// (one sample each: they are minutes on two cores), the run's wall time as the median of R runs with min and max,
// run alternately with the same operation done by a plain host loop (the baseline; their ratio is the speed
// figure), the simulated cycles (identical in every run, checked), cycles per element per tile next to the ideal
// the Target gives (one float vector per cycle: data path width / 32 floats per cycle per tile), and the run's
// cycles split by the execution profile (the engines are instrumented) into host copy, compute, exchange and
// sync/other, beside the vertices' own estimate. Checks the results, asserts nothing about speed.
// Usage: bench_popops [N] [board] [--runs R]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <numeric>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Fill.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include "bench_stats.hpp"
#include "profile_split.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// Keeps the compiler from dropping a host loop whose result nobody reads.
void clobber(void *p) { asm volatile("" : : "r"(p) : "memory"); }

// Runs program 1 of `e` `runs` times alternately with `hostLoop`; prints the figures. Returns false when the
// simulated cycles differ between runs (they must not: the model's time does not depend on the host).
bool report(const char *what, Engine &e, const Target &t, std::size_t n, double ideal, int runs,
            const std::function<void()> &hostLoop) {
  std::vector<std::uint64_t> cycles;
  bench::Pair p = bench::alternate(
      runs,
      [&] {
        Clock::time_point t0 = Clock::now();
        hostLoop();
        return since(t0);
      },
      [&] {
        Clock::time_point t0 = Clock::now();
        e.run(1);
        double s = since(t0);
        cycles.push_back(e.getLastRunCycles());
        return s;
      });
  const bool same = std::all_of(cycles.begin(), cycles.end(), [&](std::uint64_t c) { return c == cycles[0]; });
  const double perTile = double(n) / t.getNumTiles();
  std::printf("%-6s N=%zu: compile %.2f s, load %.2f s (one sample each)\n", what, n, e.getPhaseSeconds("compile"),
              e.getPhaseSeconds("load"));
  std::printf("%-6s run: %s wall; host loop %s; ratio %.1f (run / host loop, medians)\n", what,
              bench::format(p.subject, 1.0, "s").c_str(), bench::format(p.baseline, 1e3, "ms").c_str(), p.ratio());
  std::printf("%-6s cycles: %llu (%s in all %d runs); %.2f cycles/element/tile (ideal %.2f)\n", what,
              (unsigned long long)cycles.back(), same ? "identical" : "DIFFERENT", runs, double(cycles.back()) / perTile,
              ideal);
  const bench::CycleSplit split = bench::lastRunSplit(e);
  std::printf("%-6s split: %s; vertex estimate %llu\n", what, bench::format(split).c_str(),
              (unsigned long long)split.estimate);
  return same;
}

} // namespace

int main(int argc, char **argv) {
  std::vector<std::string> pos;
  int runs = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--runs") == 0 && i + 1 < argc)
      runs = std::max(1, std::atoi(argv[++i]));
    else
      pos.push_back(argv[i]);
  }
  std::size_t n = pos.size() > 0 ? std::strtoull(pos[0].c_str(), 0, 10) : 10000000;
  IPUModel model(pos.size() > 1 ? pos[1].c_str() : "ipu2");
  Device device = model.createDevice();
  const Target &target = device.getTarget();
  // Ideal: the data path moves getFloatVectorWidth() floats per cycle per tile.
  const double ideal = 1.0 / target.getFloatVectorWidth();
  std::printf("target %s: %u tiles, %u workers, data path %u bits (%u floats per cycle)\n",
              target.getTargetSystemString().c_str(), target.getNumTiles(), target.getNumWorkerContexts(),
              target.getDataPathWidth(), target.getFloatVectorWidth());
  const OptionFlags instrumented{{"debug.instrument", "true"}};
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
    Engine e(graph, {init, prog}, instrumented);
    e.load(device);
    e.run(0);
    std::vector<float> ha(n, 1.0f), hb(n, 2.0f), hc(n);
    failures += !report("add", e, target, n, ideal, runs, [&] {
      for (std::size_t i = 0; i < n; ++i)
        hc[i] = ha[i] + hb[i];
      clobber(hc.data());
    });
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
    Engine e(graph, {init, prog}, instrumented);
    e.load(device);
    e.run(0);
    std::vector<float> ha(n, 1.0f);
    float sum = 0;
    failures += !report("reduce", e, target, n, ideal, runs, [&] {
      sum = std::accumulate(ha.begin(), ha.end(), 0.0f);
      clobber(&sum);
    });
    float hr = 0;
    e.readTensor("r", &hr, &hr + 1);
    if (hr != float(n)) {
      std::printf("reduce: %g, want %zu\n", double(hr), n);
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
