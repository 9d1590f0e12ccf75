// Tutorial 7 (matrix-vector multiplication optimisation), written after the seed user guide: a planner picks how
// many segments to split each row into, DotProductVertex computes partial sums per segment and ReduceVertex adds
// them up. Usage: matrix-vector [numRows numCols [ipu1|ipu2|hw] [--profile]]; without arguments it runs the demo:
// 10000 x 1000 on ipu2 with the profile summary (`make demo` runs it that way). "hw" runs on the first card the
// DeviceManager can attach to instead of an IPU Model, the modification the seed suggests for every tutorial.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

#ifndef CODELETS
#define CODELETS "matrix-mul-codelets.cpp"
#endif

static unsigned ceilDiv(unsigned a, unsigned b) { return (a + b - 1) / b; }

struct Cost {
  unsigned compute, exchange, reduceExchange, reduceCompute;
  unsigned total() const { return compute + exchange + reduceExchange + reduceCompute; }
};

// Estimates the cycles of one split from the worst tile of each phase: partial sums (each worker runs its share of
// the tile's vertices at about 3 cycles per multiply-add plus a fixed overhead), the exchange of the input vector
// segment, the exchange of the partial sums to the reducing tile, and the reduction.
static Cost estimateCycles(const Target &target, unsigned numRows, unsigned numCols, unsigned split) {
  unsigned numTiles = target.getNumTiles(), workers = target.getNumWorkerContexts();
  unsigned exchangeBytes = target.getExchangeBytesPerCycle();
  unsigned verticesPerTile = ceilDiv(numRows * split, numTiles);
  unsigned segment = ceilDiv(numCols, split);
  unsigned rowsPerTile = ceilDiv(numRows, numTiles);
  Cost c;
  c.compute = ceilDiv(verticesPerTile, workers) * (segment * 3 + 30);
  c.exchange = segment * 4 / exchangeBytes;
  c.reduceExchange = rowsPerTile * split * 4 / exchangeBytes;
  c.reduceCompute = ceilDiv(rowsPerTile, workers) * (split * 6 + 18);
  return c;
}

// Tries every split and keeps the cheapest.
static unsigned calcOptimalColAxisSplit(const Target &target, unsigned numRows, unsigned numCols) {
  unsigned best = 1, worst = 0;
  Cost bestCost = estimateCycles(target, numRows, numCols, 1);
  for (unsigned split = 1; split <= numCols; ++split) {
    Cost c = estimateCycles(target, numRows, numCols, split);
    worst = std::max(worst, c.total());
    if (c.total() < bestCost.total()) {
      best = split;
      bestCost = c;
    }
  }
  std::cout << "Best split chosen:\n"
            << "colsAxisSplit=" << best << ", total cost=" << bestCost.total() << " (compute cost=" << bestCost.compute
            << ", exchange cost=" << bestCost.exchange << ",\n"
            << "                                reduce exchange cost=" << bestCost.reduceExchange << ",\n"
            << "                                reduce compute cost=" << bestCost.reduceCompute << ")\n"
            << "Worst cost seen: " << worst << "\n";
  return best;
}

static Program buildMultiplyProgram(Graph &graph, Tensor matrix, Tensor in, Tensor out) {
  const Target &target = graph.getTarget();
  unsigned numTiles = target.getNumTiles();
  unsigned numRows = unsigned(matrix.dim(0)), numCols = unsigned(matrix.dim(1));
  unsigned split = calcOptimalColAxisSplit(target, numRows, numCols);

  // Create a tensor to hold the intermediate calculated partial sums
  Tensor partials = graph.addVariable(FLOAT, {numRows, split}, "partials");

  // The input vector is spread over the tiles in chunks of 16 elements: few exchange descriptors per receiving tile,
  // and no tile has to send its chunk to more than a few hundred tiles.
  unsigned numChunks = ceilDiv(numCols, 16);
  for (unsigned j = 0; j < numChunks; ++j)
    graph.setTileMapping(in.slice(j * 16, std::min(numCols, (j + 1) * 16)),
                         unsigned(std::uint64_t(j) * numTiles / numChunks));

  // The partial sums: one vertex per row segment, placed with its data. Vertices of the same segment share tiles,
  // so each tile needs one segment of the input vector (as the planner assumes).
  ComputeSet mulCS = graph.addComputeSet("mulCS");
  unsigned numVertices = numRows * split;
  for (unsigned i = 0; i < split; ++i) {
    unsigned beginCol = i * numCols / split, endCol = (i + 1) * numCols / split;
    for (unsigned row = 0; row < numRows; ++row) {
      unsigned tile = unsigned((std::uint64_t(i) * numRows + row) * numTiles / numVertices);
      VertexRef v = graph.addVertex(mulCS, "DotProductVertex",
                                    {{"a", matrix[row].slice(beginCol, endCol)},
                                     {"b", in.slice(beginCol, endCol)},
                                     {"out", partials[row][i]}});
      graph.setTileMapping(v, tile);
      graph.setTileMapping(matrix[row].slice(beginCol, endCol), tile);
      graph.setTileMapping(partials[row][i], tile);
    }
  }

  // The reduction: one vertex per output element.
  ComputeSet reduceCS = graph.addComputeSet("reduceCS");
  for (unsigned row = 0; row < numRows; ++row) {
    unsigned tile = unsigned(std::uint64_t(row) * numTiles / numRows);
    VertexRef v = graph.addVertex(reduceCS, "ReduceVertex", {{"in", partials[row]}, {"out", out[row]}});
    graph.setTileMapping(v, tile);
    graph.setTileMapping(out[row], tile);
  }
  return Sequence(Execute(mulCS), Execute(reduceCS));
}

// Cycle estimates for the IPU Model (worker cycles), in the form of PopLibs' own estimators: a dot product issues one
// paired load with an f32v2 multiply-accumulate per 64-bit data-path vector after a fixed 5-cycle setup; a reduction
// of n partials into one output costs 4 + 1 + n * (1 + 1) (PopLibs' reduce estimate with one vector per partial).
static void registerEstimators(Graph &graph) {
  graph.registerPerfEstimator("DotProductVertex", [](const VertexIntrospector &v, const Target &target) {
    std::size_t n = v.getFieldInfo("a").size(), width = target.getDataPathWidth() / 32;
    return VertexPerfEstimate(5 + (n + width - 1) / width, 2 * n);
  });
  graph.registerPerfEstimator("ReduceVertex", [](const VertexIntrospector &v, const Target &) {
    std::size_t n = v.getFieldInfo("in").size();
    return VertexPerfEstimate(5 + 2 * n, n);
  });
}

// An IPU Model of `version`, or for "hw" the first single-IPU device the DeviceManager can attach to (as the seed's
// tut1_ipu_hardware does).
static Device createDevice(const std::string &version) {
  if (version != "hw") {
    IPUModel ipuModel(version.c_str());
    return ipuModel.createDevice();
  }
  DeviceManager manager = DeviceManager::createDeviceManager();
  for (auto &hwDevice : manager.getDevices(TargetType::IPU, 1)) {
    Device device = std::move(hwDevice);
    if (device.attach())
      return device;
  }
  std::cerr << "Error attaching to device\n";
  std::exit(1);
}

static double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

int main(int argc, char **argv) {
  if (argc == 2) {
    std::cerr << "usage: " << argv[0] << " [numRows numCols [ipu1|ipu2|hw] [--profile]]\n";
    return 1;
  }
  unsigned numRows = argc > 2 ? unsigned(std::atoi(argv[1])) : 10000;
  unsigned numCols = argc > 2 ? unsigned(std::atoi(argv[2])) : 1000;
  const char *version = argc > 3 && argv[3][0] != '-' ? argv[3] : "ipu2";
  bool profile = argc < 3 || (argc > 3 && std::strcmp(argv[argc - 1], "--profile") == 0);
  std::cout << "Multiplying matrix of size " << numRows << "x" << numCols << " by vector of size " << numCols
            << "\n";

  auto t0 = std::chrono::steady_clock::now();
  std::cout << "Creating environment (compiling vertex programs)\n";
  Device device = createDevice(version);
  Target target = device.getTarget();
  Graph graph(target);
  graph.addCodelets(CODELETS);
  registerEstimators(graph);

  std::cout << "Constructing compute graph and control program\n";
  Tensor matrix = graph.addVariable(FLOAT, {numRows, numCols}, "matrix");
  Tensor inputVector = graph.addVariable(FLOAT, {numCols}, "inputVector");
  Tensor outputVector = graph.addVariable(FLOAT, {numRows}, "outputVector");
  // buildMultiplyProgram maps the input vector.

  DataStream inStreamV = graph.addHostToDeviceFIFO("inputVector", FLOAT, numCols);
  DataStream inStreamM = graph.addHostToDeviceFIFO("inputMatrix", FLOAT, numCols * numRows);
  DataStream outStream = graph.addDeviceToHostFIFO("out", FLOAT, numRows);

  Program mulProg = buildMultiplyProgram(graph, matrix, inputVector, outputVector);
  Sequence prog({Copy(inStreamV, inputVector), Copy(inStreamM, matrix), mulProg, Copy(outputVector, outStream)});
  double buildSeconds = since(t0);

  std::vector<float> hMatrix(std::size_t(numRows) * numCols), hInput(numCols), hOutput(numRows);
  for (unsigned col = 0; col < numCols; ++col) {
    hInput[col] = float(col % 7) - 3.0f;
    for (unsigned row = 0; row < numRows; ++row)
      hMatrix[std::size_t(row) * numCols + col] = float((row * 3 + col) % 11) * 0.5f - 2.0f;
  }

  auto t1 = std::chrono::steady_clock::now();
  Engine engine(graph, prog);
  double compileSeconds = since(t1);
  auto t2 = std::chrono::steady_clock::now();
  engine.load(device);
  double loadSeconds = since(t2);
  engine.connectStream("inputVector", &hInput[0]);
  engine.connectStream("inputMatrix", &hMatrix[0]);
  engine.connectStream("out", &hOutput[0]);

  std::cout << "Running graph program to multiply matrix by vector\n";
  auto t3 = std::chrono::steady_clock::now();
  engine.run(0);
  double runSeconds = since(t3);

  bool ok = true;
  for (unsigned row = 0; row < numRows; ++row) {
    double expected = 0;
    for (unsigned col = 0; col < numCols; ++col)
      expected += double(hMatrix[std::size_t(row) * numCols + col]) * hInput[col];
    if (std::fabs(hOutput[row] - expected) > 1e-3 * (1.0 + std::fabs(expected))) {
      if (ok)
        std::cerr << "ERROR: output " << row << ": expected " << expected << " got " << hOutput[row] << "\n";
      ok = false;
    }
  }
  std::cout << (ok ? "Multiplication result OK\n" : "Multiplication result WRONG\n");
  if (profile)
    engine.printProfileSummary(std::cout, OptionFlags{{"showExecutionSteps", "true"}});
  std::cout << "Program cycles: " << engine.getLastRunCycles() << "\n";
  std::cout << "Measured cycles (tile model): " << engine.getLastRunMeasuredCycles() << "\n";
  std::cout << "Wall time: graph construction " << buildSeconds << " s, compile " << compileSeconds << " s, load "
            << loadSeconds << " s, run " << runSeconds << " s, total "
            << buildSeconds + compileSeconds + loadSeconds + runSeconds << " s\n";
  return ok ? 0 : 1;
}
