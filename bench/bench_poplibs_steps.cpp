// Two PopLibs workloads of issue 34 on the ipu2 IPU Model: poplin's matMul 256x256x256 float and one step of popnn's
// LSTM (batch 16, 256 inputs, 256 outputs, float). For each: the simulated cycles of a run (less an empty
// program's, checked identical over the runs), the host wall time of a run, and its ratio to a baseline run
// alternately with it: the same operation computed in double on the host (bench_stats.hpp). Results are checked
// against that host computation; nothing is asserted about speed.
// It uses only the installed API, so bench/poplibs_steps_vs.sh can build it against an earlier install tree
// (the previous main) and alternate the two programs.
// Usage: bench_poplibs_steps [runs] [--json]   (--json: one line of figures for poplibs_steps_vs.sh)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <popnn/Lstm.hpp>
#include <popnn/codelets.hpp>
#include <popops/Fill.hpp>
#include <popops/codelets.hpp>

#include "bench_stats.hpp"

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t N = 256;                                    // the matMul's m, k and n
const std::size_t LSTM_BATCH = 16, LSTM_IN = 256, LSTM_OUT = 256; // the LSTM step
const float LSTM_WEIGHT = 0.01f;

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One workload: its graph's programs (0 fills the operands, 1 runs the operation, 2 is empty), how to check its
// result, and its host computation in double (the baseline, returning its seconds).
struct Workload {
  std::string name;
  std::function<void(Graph &, std::vector<Program> &)> build;
  std::function<bool(Engine &)> check;
  std::function<double()> host;
};

struct Figures {
  unsigned long long cycles = 0;
  bool cyclesSteady = true, correct = false;
  double compile = 0, load = 0;
  bench::Pair wall; // baseline: the host computation; subject: a simulated run
};

Figures measure(Device &device, const Workload &w, int runs) {
  Figures f;
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poplin::addCodelets(graph);
  popnn::addCodelets(graph);
  std::vector<Program> progs;
  w.build(graph, progs);
  progs.push_back(Sequence());
  Engine engine(graph, progs, OptionFlags{{"target.hostSyncTimeout", "3600"}});
  engine.load(device);
  f.compile = engine.getPhaseSeconds("compile");
  f.load = engine.getPhaseSeconds("load");
  engine.run(0);
  engine.run(2);
  const unsigned long long empty = engine.getLastRunCycles();
  bool first = true;
  f.wall = bench::alternate(runs, w.host, [&] {
    const double t0 = now();
    engine.run(1);
    const double t = now() - t0;
    const unsigned long long total = engine.getLastRunCycles(), c = total - std::min(total, empty);
    if (!first && c != f.cycles)
      f.cyclesSteady = false;
    f.cycles = c;
    first = false;
    return t;
  });
  f.correct = w.check(engine);
  return f;
}

// matMul N^3: operands of ones and twos, so every result is 2N.
Workload matMulWorkload() {
  Workload w;
  w.name = "matMul " + std::to_string(N) + "x" + std::to_string(N) + "x" + std::to_string(N) + " float";
  w.build = [](Graph &graph, std::vector<Program> &progs) {
    Tensor a = poplin::createMatMulInputLHS(graph, FLOAT, {N, N}, {N, N}, "a");
    Tensor b = poplin::createMatMulInputRHS(graph, FLOAT, {N, N}, {N, N}, "b");
    Sequence init, prog;
    popops::fill(graph, a, 1.0f, init);
    popops::fill(graph, b, 2.0f, init);
    graph.createHostRead("c", poplin::matMul(graph, a, b, prog, "matMul"));
    progs.push_back(init);
    progs.push_back(prog);
  };
  w.check = [](Engine &e) {
    std::vector<float> c(N * N);
    e.readTensor("c", c.data(), c.data() + c.size());
    return std::all_of(c.begin(), c.end(), [](float v) { return v == 2.0f * float(N); });
  };
  w.host = [] {
    const double t0 = now();
    std::vector<double> a(N * N, 1.0), b(N * N, 2.0), c(N * N, 0.0);
    for (std::size_t i = 0; i < N; ++i)
      for (std::size_t k = 0; k < N; ++k)
        for (std::size_t j = 0; j < N; ++j)
          c[i * N + j] += a[i * N + k] * b[k * N + j];
    volatile double keep = c[N * N - 1];
    (void)keep;
    return now() - t0;
  };
  return w;
}

// The output of one LSTM step from a zero state, inputs of 1, every weight LSTM_WEIGHT and zero biases: each gate's
// input is LSTM_IN * LSTM_WEIGHT.
double lstmExpected() {
  const double z = double(LSTM_IN) * LSTM_WEIGHT, s = 1.0 / (1.0 + std::exp(-z));
  return s * std::tanh(s * std::tanh(z));
}

Workload lstmWorkload() {
  Workload w;
  w.name = "LSTM step: batch " + std::to_string(LSTM_BATCH) + ", " + std::to_string(LSTM_IN) + " in, " +
           std::to_string(LSTM_OUT) + " out, float";
  w.build = [](Graph &graph, std::vector<Program> &progs) {
    popnn::lstm::LstmParams params(FLOAT, LSTM_BATCH, 1, {LSTM_IN, LSTM_OUT});
    params.outputFullSequence = false;
    Tensor in = popnn::lstm::createInput(graph, params, "in");
    popnn::lstm::LstmState state = popnn::lstm::createInitialState(graph, params, "state");
    popnn::lstm::LstmWeights weights = popnn::lstm::createWeights(graph, params, "weights");
    Sequence init, prog;
    popops::fill(graph, in, 1.0f, init);
    popops::fill(graph, weights.inputWeights, LSTM_WEIGHT, init);
    popops::fill(graph, weights.outputWeights, LSTM_WEIGHT, init);
    popops::fill(graph, weights.biases, 0.0f, init);
    popnn::lstm::zeroInitialState(graph, state, init);
    std::pair<Tensor, Tensor> out = popnn::lstm::lstmFwd(graph, params, state, in, weights, nullptr, prog, "lstm");
    graph.createHostRead("h", out.first);
    progs.push_back(init);
    progs.push_back(prog);
  };
  w.check = [](Engine &e) {
    std::vector<float> h(LSTM_BATCH * LSTM_OUT);
    e.readTensor("h", h.data(), h.data() + h.size());
    const double want = lstmExpected();
    return std::all_of(h.begin(), h.end(), [want](float v) { return std::fabs(v - want) <= 1e-5; });
  };
  w.host = [] {
    // The step in double: four gate products [B, in + out] x [in + out, out], the non-linearities, c and h.
    const double t0 = now();
    const std::size_t k = LSTM_IN + LSTM_OUT;
    std::vector<double> x(LSTM_BATCH * k, 0.0), wts(4 * k * LSTM_OUT, LSTM_WEIGHT), h(LSTM_BATCH * LSTM_OUT);
    for (std::size_t b = 0; b < LSTM_BATCH; ++b)
      for (std::size_t i = 0; i < LSTM_IN; ++i)
        x[b * k + i] = 1.0;
    std::vector<double> gates(4 * LSTM_OUT);
    for (std::size_t b = 0; b < LSTM_BATCH; ++b) {
      std::fill(gates.begin(), gates.end(), 0.0);
      for (std::size_t g = 0; g < 4; ++g)
        for (std::size_t i = 0; i < k; ++i)
          for (std::size_t o = 0; o < LSTM_OUT; ++o)
            gates[g * LSTM_OUT + o] += x[b * k + i] * wts[(g * k + i) * LSTM_OUT + o];
      for (std::size_t o = 0; o < LSTM_OUT; ++o) {
        auto sig = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
        const double c = sig(gates[o]) * std::tanh(gates[2 * LSTM_OUT + o]);
        h[b * LSTM_OUT + o] = sig(gates[3 * LSTM_OUT + o]) * std::tanh(c);
      }
    }
    volatile double keep = h[0];
    (void)keep;
    return now() - t0;
  };
  return w;
}

} // namespace

int main(int argc, char **argv) {
  int runs = 5;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0)
      json = true;
    else
      runs = std::max(1, std::atoi(argv[i]));
  }
  Device device = IPUModel("ipu2").createDevice();
  int failures = 0;
  std::string line = "{";
  const Workload workloads[] = {matMulWorkload(), lstmWorkload()};
  for (const Workload &w : workloads) {
    const Figures f = measure(device, w, runs);
    failures += !f.correct + !f.cyclesSteady;
    if (json) {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%s\"%s\": {\"cycles\": %llu, \"run_s\": %.6f, \"host_s\": %.6f}",
                    line.size() > 1 ? ", " : "", w.name.c_str(), f.cycles, f.wall.subject.median(),
                    f.wall.baseline.median());
      line += buf;
      continue;
    }
    std::printf("%s\n  simulated %llu cycles a run (%s over %d runs); result %s\n", w.name.c_str(), f.cycles,
                f.cyclesSteady ? "identical" : "NOT identical", runs, f.correct ? "correct" : "WRONG");
    std::printf("  host wall per run %s; baseline, the operation in double on the host, %s; ratio %.1f\n",
                bench::format(f.wall.subject, 1.0, "s").c_str(), bench::format(f.wall.baseline, 1e3, "ms").c_str(),
                f.wall.ratio());
    std::printf("  compile %.2f s, load %.2f s\n", f.compile, f.load);
  }
  if (json)
    std::printf("%s}\n", line.c_str());
  return failures ? 1 : 0;
}
