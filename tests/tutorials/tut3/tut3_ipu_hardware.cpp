// Tutorial 3 on "IPU hardware": tut3.cpp's program on the first single-IPU device the DeviceManager can attach to
// (as in tut1_ipu_hardware.cpp), so the same binary runs on a PCI card through vfio (the QEMU guest) and on an
// in-process model card (IPU_EMU_DEVICES=tiny). The codelets are a precompiled .gp (argv[1], made by popc): a
// machine without the RISC-V compiler, such as the guest, can still run it.
#include <iostream>
#include <string>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>

using namespace poplar;
using namespace poplar::program;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::cerr << "usage: " << argv[0] << " tut3_codelets.gp\n";
    return 2;
  }

  // Create the DeviceManager which is used to discover devices
  DeviceManager manager = DeviceManager::createDeviceManager();

  // Attach to the first single IPU that is free
  Device device;
  bool success = false;
  for (auto &hwDevice : manager.getDevices(poplar::TargetType::IPU, 1)) {
    device = std::move(hwDevice);
    std::cerr << "Trying to attach to IPU " << device.getId() << std::endl;
    if ((success = device.attach())) {
      std::cerr << "Attached to IPU " << device.getId() << std::endl;
      break;
    }
  }
  if (!success) {
    std::cerr << "Error attaching to device" << std::endl;
    return -1;
  }
  Target target = device.getTarget();

  // Create the Graph object
  Graph graph(target);

  // Add the precompiled codelets to the graph
  graph.addCodelets(argv[1]);

  // Add variables to the graph
  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v1[i], i);
    graph.setTileMapping(v2[i], i);
  }

  // Create a control program that is a sequence of steps
  Sequence prog;

  // Add steps to initialize the variables
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

  // Add step to execute the compute set
  prog.add(Execute(computeSet));

  // Add step to print out v2
  prog.add(PrintTensor("v2", v2));

  // Create the engine
  Engine engine(graph, prog);
  engine.load(device);

  // Run the control program
  std::cout << "Running program\n";
  engine.run(0);
  std::cout << "Program complete\n";

  return 0;
}
