// Recovery after a tile fault, with the Poplar API only: the recoverable_runtime_error names its recovery action;
// device.reset() (or engine.load(device)) and a new run() bring the device back.
#include <iostream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("faulty.cpp");

  Tensor x = graph.addVariable(INT, {}, "x");
  graph.setTileMapping(x, 0);
  graph.setInitialValue(x, 41);
  graph.createHostRead("x", x);
  ComputeSet bad = graph.addComputeSet("bad");
  graph.setTileMapping(graph.addVertex(bad, "Refuses", {{"x", x}}), 0);
  ComputeSet good = graph.addComputeSet("good");
  graph.setTileMapping(graph.addVertex(good, "Adds", {{"x", x}}), 0);

  Engine engine(graph, {Execute(bad), Execute(good)});
  engine.load(device);
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      engine.run(0);
      std::cout << "no fault?\n";
      return 1;
    } catch (const poplar::recoverable_runtime_error &e) {
      std::cout << "fault, recovery action " << toString(e.getRecoveryAction()) << "\n";
      std::string what = e.what();
      if (what.find("device.reset()") != std::string::npos)
        std::cout << "the message names device.reset()\n";
    }
    if (attempt == 0) {
      device.reset();
      std::cout << "device.reset()\n";
    } else {
      engine.load(device);
      std::cout << "engine.load(device)\n";
    }
    engine.run(1);
    int v = 0;
    engine.readTensor("x", &v, &v + 1);
    std::cout << "x = " << v << "\n";
  }
  return 0;
}
