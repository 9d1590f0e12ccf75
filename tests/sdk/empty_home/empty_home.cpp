// The simplest program with a codelet of its own, run with an empty HOME: everything libpoplar needs at run time
// (the tile C library, runtime, linker scripts, boards) must come from the install, not from a build cache.
#include <iostream>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

int main() {
  poplar::IPUModel model;
  poplar::Device device = model.createDevice();
  poplar::Graph graph(device.getTarget());
  graph.addCodelets("double.cpp");
  poplar::Tensor v = graph.addVariable(poplar::FLOAT, {4}, "v");
  graph.setTileMapping(v, 0);
  poplar::ComputeSet cs = graph.addComputeSet("double");
  poplar::VertexRef vx = graph.addVertex(cs, "Double", {{"v", v}});
  graph.setTileMapping(vx, 0);
  auto in = graph.addHostToDeviceFIFO("in", poplar::FLOAT, 4);
  auto out = graph.addDeviceToHostFIFO("out", poplar::FLOAT, 4);
  poplar::program::Sequence prog({poplar::program::Copy(in, v), poplar::program::Execute(cs),
                                  poplar::program::Copy(v, out)});
  poplar::Engine engine(graph, prog);
  engine.load(device);
  float input[4] = {1, 2, 3, 4}, output[4] = {0, 0, 0, 0};
  engine.connectStream("in", input);
  engine.connectStream("out", output);
  engine.run(0);
  std::cout << "doubled:";
  for (float f : output)
    std::cout << " " << f;
  std::cout << "\n";
  return 0;
}
