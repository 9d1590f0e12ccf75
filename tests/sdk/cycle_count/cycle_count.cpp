// A user's program on poplar/CycleCount.hpp: cycleCount times a program on a tile (longer work, more cycles),
// cycleStamp reads tiles' cycle counters at a point of a program (later stamps are larger), each a {low, high}
// pair of UNSIGNED_INT read on the host. A tile outside the graph is refused.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/CycleCount.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/SyncType.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// A sequence whose vertex on tile 1 loops `iterations` times.
static Sequence spin(Graph &graph, unsigned iterations, const std::string &name) {
  Tensor n = graph.addConstant<unsigned>(UNSIGNED_INT, {}, iterations, name + "/n");
  Tensor acc = graph.addVariable(UNSIGNED_INT, {}, name + "/acc");
  graph.setTileMapping(n, 1);
  graph.setTileMapping(acc, 1);
  ComputeSet cs = graph.addComputeSet(name);
  graph.setTileMapping(graph.addVertex(cs, "Spin", {{"n", n}, {"acc", acc}}), 1);
  return Sequence({Execute(cs)});
}

static std::uint64_t read64(Engine &engine, const std::string &handle) {
  unsigned words[2] = {0, 0};
  engine.readTensor(handle, words);
  return (static_cast<std::uint64_t>(words[1]) << 32) | words[0];
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("spin_codelets.cpp");

  Sequence small = spin(graph, 10, "small");
  Sequence large = spin(graph, 20000, "large");
  Tensor smallCount = cycleCount(graph, small, 1, SyncType::INTERNAL, "smallCount");
  Tensor largeCount = cycleCount(graph, large, 1, SyncType::INTERNAL, "largeCount");
  Sequence stamped;
  Tensor first = cycleStamp(graph, stamped, 2, SyncType::INTERNAL);
  stamped.add(spin(graph, 1000, "between"));
  std::vector<Tensor> later = cycleStamp(graph, stamped, {0, 3}, SyncType::GLOBAL);
  graph.createHostRead("smallCount", smallCount);
  graph.createHostRead("largeCount", largeCount);
  graph.createHostRead("first", first);
  graph.createHostRead("later0", later[0]);
  graph.createHostRead("later3", later[1]);
  check(smallCount.elementType() == UNSIGNED_INT && smallCount.numElements() == 2 && later.size() == 2,
        "results are two UNSIGNED_INT words");

  Engine engine(graph, {small, large, stamped});
  engine.load(device);
  engine.run(0);
  engine.run(1);
  engine.run(2);
  std::uint64_t s = read64(engine, "smallCount"), l = read64(engine, "largeCount");
  std::uint64_t f = read64(engine, "first"), a = read64(engine, "later0"), b = read64(engine, "later3");
  check(s > 0 && l > s + 20000, "cycleCount: 20000 iterations take more cycles than 10");
  check(f > 0 && a > f && b > f, "cycleStamp: stamps after the work are later on every tile");
  bool refused = false;
  try {
    Sequence p;
    cycleStamp(graph, p, 4, SyncType::INTERNAL);
  } catch (const poplar_error &) {
    refused = true;
  }
  check(refused, "a tile outside the graph is refused");
  return checksDone("cycle count: all checks passed");
}
