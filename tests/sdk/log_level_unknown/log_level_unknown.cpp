// An unknown POPLAR_LOG_LEVEL is an error that names the variable and the accepted levels, not silence.
#include <cstdlib>
#include <iostream>
#include <string>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/exceptions.hpp>

int main() {
  setenv("POPLAR_LOG_LEVEL", "LOUD", 1);
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  poplar::Tensor t = graph.addVariable(poplar::INT, {2}, "t");
  graph.setTileMapping(t, 0);
  try {
    poplar::Engine engine(graph, poplar::program::Sequence());
    std::cout << "no error\n";
    return 1;
  } catch (const poplar::invalid_option &e) {
    std::string what = e.what();
    bool names = what.find("POPLAR_LOG_LEVEL") != std::string::npos && what.find("LOUD") != std::string::npos &&
                 what.find("TRACE") != std::string::npos;
    std::cout << "invalid_option naming the variable, value and levels: " << (names ? "yes" : what) << "\n";
  }
  return 0;
}
