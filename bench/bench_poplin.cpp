// poplin benchmark (issue 16): matMul {m x k} * {k x n} float (default 1024 x 1024 x 1024) and a 3x3 convolution
// (default batch 4, 64 to 64 channels, 56x56, padding 1) on the ipu2 IPU Model. For each: the planner's split and
// cycle estimate, the simulated cycles of the run, their ratio, and wall time per phase. The results are
// checked (operands of ones and twos); nothing is asserted about speed.
// BENCH_POPLIN_PROFILE=1 in the environment adds each run's profile summary.
// Usage: bench_poplin [m k n [batch chans field [board]]]   (chans or field 0 skips the convolution)
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include <sys/resource.h>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/Convolution.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popops/Fill.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

namespace {

// The estimate in a plan report line ("...; estimate N cycles ...").
double estimateOf(const std::string &plan) {
  std::size_t at = plan.find("estimate ");
  return at == std::string::npos ? 0.0 : std::strtod(plan.c_str() + at + 9, nullptr);
}

// CPU seconds this process has used (all threads): on a shared host the wall time of a run mostly measures the
// other processes (at a load of 12 on 2 cores a run gets a tenth of a core), its CPU time the simulation's work.
double cpuSeconds() {
  struct rusage u {};
  getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

// The cycles of program 1 (the operation) less those of program 2 (empty): the runtime's fixed cost of a run.
void report(const char *what, Engine &e, const std::string &plan) {
  e.run(2);
  const auto empty = e.getLastRunCycles();
  const double cpu0 = cpuSeconds();
  e.run(1);
  const double runCpu = cpuSeconds() - cpu0;
  // BENCH_POPLIN_PROFILE=1 adds the profile summary (cycles by step).
  if (std::getenv("BENCH_POPLIN_PROFILE"))
    e.printProfileSummary(std::cout, OptionFlags{{"showExecutionSteps", "true"}});
  const double est = estimateOf(plan);
  const auto total = e.getLastRunCycles(), cycles = total - std::min(total, empty);
  std::printf("%s\n  plan: %s\n  planner estimate %.0f cycles, simulated %llu cycles (a run of it %llu less an "
              "empty program's %llu), simulated/estimate %.2f; wall: compile %.2f s, load %.2f s, run %.2f s "
              "(run CPU %.2f s)\n",
              what, plan.c_str(), est, (unsigned long long)cycles, (unsigned long long)total,
              (unsigned long long)empty, est > 0 ? double(cycles) / est : 0.0,
              e.getPhaseSeconds("compile"), e.getPhaseSeconds("load"), e.getPhaseSeconds("run"), runCpu);
}

// A 1024^3 product simulates for minutes on a shared host: no host sync limit of 300 s for it.
OptionFlags engineOptions() {
  OptionFlags o{{"target.hostSyncTimeout", "7200"}};
  if (std::getenv("BENCH_POPLIN_PROFILE"))
    o.set("debug.instrument", "true");
  return o;
}

// BENCH_POPLIN_PLAN_ONLY=1: print the plans (with their estimates) and stop before compiling.
bool planOnly() { return std::getenv("BENCH_POPLIN_PLAN_ONLY") != nullptr; }

std::size_t arg(int argc, char **argv, int i, std::size_t def) {
  return argc > i ? std::strtoull(argv[i], nullptr, 10) : def;
}

} // namespace

int main(int argc, char **argv) {
  const std::size_t m = arg(argc, argv, 1, 1024), k = arg(argc, argv, 2, 1024), n = arg(argc, argv, 3, 1024);
  const std::size_t batch = arg(argc, argv, 4, 4), chans = arg(argc, argv, 5, 64), field = arg(argc, argv, 6, 56);
  IPUModel model(argc > 7 ? argv[7] : "ipu2");
  Device device = model.createDevice();
  const Target &target = device.getTarget();
  std::printf("target %s: %u tiles, %u workers, %u bytes per tile\n", target.getTargetSystemString().c_str(),
              target.getNumTiles(), target.getNumWorkerContexts(), target.getBytesPerTile());
  int failures = 0;
  // Each benchmark is a lambda returning its failures (a plan-only run returns after printing the plan).
  failures += [&]() {
    int f = 0;
    Graph graph(target);
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    poplin::matmul::PlanningCache cache;
    Tensor a = poplin::createMatMulInputLHS(graph, FLOAT, {m, k}, {k, n}, "a", {}, &cache);
    Tensor b = poplin::createMatMulInputRHS(graph, FLOAT, {m, k}, {k, n}, "b", {}, &cache);
    Sequence init, prog;
    popops::fill(graph, a, 1.0f, init);
    popops::fill(graph, b, 2.0f, init);
    Tensor c = poplin::matMul(graph, a, b, prog, "matMul", {}, &cache);
    graph.createHostRead("c", c);
    std::ostringstream plan;
    poplin::matMulReportPlan(plan, graph, FLOAT, {m, k}, {k, n}, {}, &cache);
    if (planOnly()) {
      std::printf("%s", plan.str().c_str());
      return 0;
    }
    Engine e(graph, {init, prog, Sequence()}, engineOptions());
    e.load(device);
    e.run(0);
    std::string what = "matMul " + std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " float";
    std::string line = plan.str();
    report(what.c_str(), e, line.substr(line.find(": ") + 2, line.size() - line.find(": ") - 3));
    std::vector<float> hc(m * n);
    e.readTensor("c", hc.data(), hc.data() + hc.size());
    for (std::size_t i = 0; i < hc.size(); ++i)
      if (hc[i] != 2.0f * float(k)) {
        std::printf("matMul: c[%zu] = %g, want %g\n", i, double(hc[i]), 2.0 * double(k));
        ++f;
        break;
      }
    return f;
  }();
  if (chans && field)
    failures += [&]() {
    int f = 0;
    Graph graph(target);
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    poplin::PlanningCache cache;
    poplin::ConvParams p(FLOAT, batch, {field, field}, {3, 3}, chans, chans, 1);
    p.inputTransform.paddingLower = {1, 1};
    p.inputTransform.paddingUpper = {1, 1};
    Tensor in = poplin::createInput(graph, p, "in", {}, &cache);
    Tensor w = poplin::createWeights(graph, p, "w", {}, &cache);
    Sequence init, prog;
    // Filled in their storage order (channels last): the views of the API's order are one region per element.
    popops::fill(graph, in.dimShuffle({0, 2, 3, 1}), 1.0f, init);
    popops::fill(graph, w.dimShuffle({0, 3, 4, 2, 1}), 2.0f, init);
    Tensor out = poplin::convolution(graph, in, w, p, false, prog, "conv", {}, &cache);
    graph.createHostRead("out", out);
    std::ostringstream plan;
    poplin::reportPlanInfo(plan, graph, p, {}, &cache);
    if (planOnly()) {
      std::printf("%s", plan.str().c_str());
      return 0;
    }
    Engine e(graph, {init, prog, Sequence()}, engineOptions());
    e.load(device);
    e.run(0);
    std::string what = "convolution 3x3, batch " + std::to_string(batch) + ", " + std::to_string(chans) + " to " +
                       std::to_string(chans) + " channels, " + std::to_string(field) + "x" +
                       std::to_string(field) + ", padding 1, float";
    std::string line = plan.str();
    report(what.c_str(), e, line.substr(line.find("}: ") + 3, line.size() - line.find("}: ") - 4));
    // An interior output sums 9 * chans products of 1 * 2.
    std::vector<float> ho(out.numElements());
    e.readTensor("out", ho.data(), ho.data() + ho.size());
    const float want = 18.0f * float(chans);
    if (field > 2 && ho[field + 1] != want) {
      std::printf("convolution: out[1][1] = %g, want %g\n", double(ho[field + 1]), double(want));
      ++f;
    }
    return f;
  }();
  return failures ? 1 : 0;
}
