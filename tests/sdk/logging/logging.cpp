// POPLAR_LOG_LEVEL and POPLAR_LOG_DEST as the SDK documents them: with INFO and a file destination, Poplar's
// messages (prefix "PO:") go to the file, not to the program's output.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

int main() {
  setenv("POPLAR_LOG_LEVEL", "info", 1); // levels are case-insensitive
  setenv("POPLAR_LOG_DEST", "poplar.log", 1);
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Tensor t = graph.addVariable(poplar::INT, {2}, "t");
  graph.setTileMapping(t, 0);
  auto out = graph.addDeviceToHostFIFO("out", poplar::INT, 2);
  poplar::Engine engine(graph, poplar::program::Copy(t, out));
  engine.load(device);
  int values[2];
  engine.connectStream("out", values);
  engine.run(0);

  std::ifstream log("poplar.log");
  std::string line;
  int poplarLines = 0, otherLines = 0;
  while (std::getline(log, line))
    (line.compare(0, 6, "PO:[I]") == 0 ? poplarLines : otherLines)++;
  std::cout << "info lines with the PO prefix: " << (poplarLines >= 3 ? "at least 3" : "too few") << "\n";
  std::cout << "other lines: " << otherLines << "\n";
  return 0;
}
