// A user's program for the CPU target, written as for Graphcore's CPU target (one tile): its vertex is never given
// a tile mapping. The compute set runs on the CPU device's tile.
#include <cstdio>
#include <vector>

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  Device device = Device::createCPUDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("negate_codelets.cpp");
  Tensor in = graph.addVariable(FLOAT, {3}, "in");
  Tensor out = graph.addVariable(FLOAT, {3}, "out");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("negate");
  graph.addVertex(cs, "Negate", {{"in", in}, {"out", out}}); // no setTileMapping for the vertex
  graph.createHostWrite("in", in);
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  std::vector<float> inValues = {1.5f, -2.0f, 0.25f}, outValues(3, 0.0f);
  engine.writeTensor("in", inValues.data());
  engine.run(0);
  engine.readTensor("out", outValues.data());
  std::printf("negated: %g %g %g\n", outValues[0], outValues[1], outValues[2]);
  return 0;
}
