// Engines move: built in a function and returned, assigned with `auto e = Engine{...}`, kept in a vector.
#include <iostream>
#include <utility>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

static Engine makeEngine(Graph &graph, Tensor t, int value) {
  Tensor c = graph.addConstant<int>(INT, {2}, {value, value + 1});
  graph.setTileMapping(c, 0);
  return Engine(graph, Copy(c, t));
}

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  Tensor t = graph.addVariable(INT, {2}, "t");
  graph.setTileMapping(t, 0);
  graph.createHostRead("t", t);

  auto first = Engine{graph, Sequence()};
  std::vector<Engine> engines;
  engines.push_back(makeEngine(graph, t, 10));
  engines.push_back(makeEngine(graph, t, 20));
  first = std::move(engines[1]);
  for (unsigned i = 0; i < 2; ++i) {
    Engine &e = i == 0 ? engines[0] : first;
    e.load(device);
    e.run(0);
    int out[2];
    e.readTensor("t", out, out + 2);
    std::cout << "engine " << i << ": " << out[0] << " " << out[1] << "\n";
  }
  return 0;
}
