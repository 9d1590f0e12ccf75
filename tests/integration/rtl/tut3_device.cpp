// Tutorial 3 (tests/tutorials/tut3/tut3.cpp) on a card that the DeviceManager attaches to instead of the IPU
// Model, as tutorial 1's "IPU hardware" section does: the same graph, codelets and output, so that the run on
// the RTL card (IPU_EMU_DEVICES=rtl-tiny) can be compared with the model (IPU_EMU_DEVICES=model:rtl-tiny).
// Usage: tut3_device CODELETS.cpp
#include <iostream>
#include <string>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>

using namespace poplar;
using namespace poplar::program;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: tut3_device CODELETS.cpp\n";
    return 2;
  }
  // Attach to the first single-IPU device the driver lists.
  DeviceManager manager = DeviceManager::createDeviceManager();
  Device device;
  bool success = false;
  for (auto &hwDevice : manager.getDevices(poplar::TargetType::IPU, 1)) {
    device = std::move(hwDevice);
    if ((success = device.attach()))
      break;
  }
  if (!success) {
    std::cerr << "Error attaching to device" << std::endl;
    return 1;
  }
  Target target = device.getTarget();

  // From here on, tutorial 3 unchanged.
  Graph graph(target);
  graph.addCodelets(argv[1]);

  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v1[i], i);
    graph.setTileMapping(v2[i], i);
  }

  Sequence prog;
  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  graph.setTileMapping(c1, 0);
  prog.add(Copy(c1, v1));

  ComputeSet computeSet = graph.addComputeSet("computeSet");
  for (unsigned i = 0; i < 4; ++i) {
    VertexRef vtx = graph.addVertex(computeSet, "SumVertex");
    graph.connect(vtx["in"], v1.slice(i, 4));
    graph.connect(vtx["out"], v2[i]);
    graph.setTileMapping(vtx, i);
    graph.setCycleEstimate(vtx, 20);
  }
  prog.add(Execute(computeSet));
  prog.add(PrintTensor("v2", v2));

  Engine engine(graph, prog);
  engine.load(device);

  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";
  return 0;
}
