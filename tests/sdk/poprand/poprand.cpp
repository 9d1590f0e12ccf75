// poprand as a training program uses it: weights initialised from a truncated normal, dropout on activations,
// with a seed the host writes; popops counts the kept elements on the device. The same seed must give the same
// numbers on another run and on a device with another number of tiles.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/Reduce.hpp>
#include <popops/codelets.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <cmath>
#include <iostream>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

const std::size_t kRows = 64, kCols = 100;

struct Result {
  std::vector<float> weights, dropped;
  float kept = 0;
};

/// Builds and runs the program on an IPU Model of `tiles` tiles with seed {s0, s1}.
Result runOn(unsigned tiles, unsigned s0, unsigned s1) {
  IPUModel model("ipu2");
  model.tilesPerIPU = tiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  poprand::addCodelets(graph);

  Tensor seed = graph.addVariable(UNSIGNED_INT, {2}, "seed");
  graph.setTileMapping(seed, 0);
  Tensor weights = graph.addVariable(FLOAT, {kRows, kCols}, "weights");
  poputil::mapTensorLinearly(graph, weights);
  Tensor acts = graph.addVariable(FLOAT, {kRows, kCols}, "acts");
  poputil::mapTensorLinearly(graph, acts);

  Sequence prog;
  Tensor init = poprand::truncatedNormal(graph, &seed, 0, weights, FLOAT, 0.0, 0.1, 2.0, prog, "init");
  prog.add(Copy(init, weights));
  Tensor dropped = poprand::dropout(graph, &seed, 1, acts, acts, 0.75, 1.0 / 0.75, prog, "dropout");
  Tensor mask = poprand::bernoulli(graph, &seed, 1, acts, FLOAT, 0.75, prog, "mask");
  Tensor kept = popops::reduce(graph, mask.flatten(), {0}, popops::Operation::ADD, prog, "count");

  graph.createHostWrite("seed", seed);
  graph.createHostWrite("acts", acts);
  graph.createHostRead("weights", weights);
  graph.createHostRead("dropped", dropped);
  graph.createHostRead("kept", kept);
  Engine engine(graph, prog);
  engine.load(device);
  const unsigned seedValue[2] = {s0, s1};
  std::vector<float> ones(kRows * kCols, 1.0f);
  engine.writeTensor("seed", seedValue, seedValue + 2);
  engine.writeTensor("acts", ones.data(), ones.data() + ones.size());
  engine.run(0);
  Result r;
  r.weights.resize(kRows * kCols);
  r.dropped.resize(kRows * kCols);
  engine.readTensor("weights", r.weights.data(), r.weights.data() + r.weights.size());
  engine.readTensor("dropped", r.dropped.data(), r.dropped.data() + r.dropped.size());
  engine.readTensor("kept", &r.kept, &r.kept + 1);
  return r;
}

const char *yes(bool b) { return b ? "yes" : "NO"; }

} // namespace

int main() {
  Result a = runOn(8, 42, 7);
  bool inBounds = true;
  double mean = 0;
  for (float w : a.weights) {
    inBounds = inBounds && std::fabs(w) <= 0.2f;
    mean += w;
  }
  mean /= double(a.weights.size());
  std::cout << "weights within 2 standard deviations: " << yes(inBounds) << "\n";
  std::cout << "weights mean near 0: " << yes(std::fabs(mean) < 0.01) << "\n";
  std::size_t keptDropout = 0;
  bool scaled = true;
  for (float x : a.dropped) {
    keptDropout += x != 0.0f;
    scaled = scaled && (x == 0.0f || x == float(1.0 / 0.75));
  }
  std::cout << "dropout scales kept values by 1/0.75: " << yes(scaled) << "\n";
  std::cout << "dropout keeps the elements the mask of the same seed keeps: "
            << yes(double(keptDropout) == double(a.kept)) << "\n";
  const double n = double(kRows * kCols), sd = std::sqrt(n * 0.75 * 0.25);
  std::cout << "kept fraction near 0.75: " << yes(std::fabs(a.kept - 0.75 * n) < 4 * sd) << "\n";
  Result again = runOn(8, 42, 7), other = runOn(3, 42, 7), reseeded = runOn(8, 43, 7);
  std::cout << "same seed, same numbers: " << yes(again.weights == a.weights && again.dropped == a.dropped) << "\n";
  std::cout << "same seed on 3 tiles, same numbers: " << yes(other.weights == a.weights) << "\n";
  std::cout << "other seed, other numbers: " << yes(reseeded.weights != a.weights) << "\n";
  try {
    IPUModel model("ipu2");
    model.tilesPerIPU = 2;
    Device device = model.createDevice();
    Graph graph(device.getTarget());
    poprand::addCodelets(graph);
    Tensor ref = graph.addVariable(FLOAT, {4}, "ref");
    graph.setTileMapping(ref, 0);
    Sequence prog;
    poprand::bernoulli(graph, nullptr, 0, ref, FLOAT, 1.5, prog);
    std::cout << "probability 1.5: accepted\n";
  } catch (const poputil::poplibs_error &e) {
    std::cout << "probability 1.5: poplibs_error\n";
  }
  return 0;
}
