// With nothing set (no IPU_EMU_DEVICES), a program written for IPU hardware finds devices shaped like the SDK's
// Mk2 IPUs: one IPU of 1472 tiles x 624 KiB that runs code on its last tile, and multi-IPU devices of 2, 4, 8 and
// 16 IPUs under their own ids.
#include <cstdlib>
#include <iostream>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  if (std::getenv("IPU_EMU_DEVICES")) {
    std::cout << "IPU_EMU_DEVICES is set: this test checks the default devices\n";
    return 1;
  }
  DeviceManager manager = DeviceManager::createDeviceManager();
  for (unsigned ipus : {1u, 2u, 4u, 8u, 16u}) {
    std::vector<Device> devices = manager.getDevices(TargetType::IPU, ipus);
    std::cout << ipus << "-IPU devices: " << devices.size();
    if (!devices.empty())
      std::cout << ", id " << devices[0].getId() << ", " << devices[0].getTarget().getNumIPUs() << " x "
                << devices[0].getTarget().getTilesPerIPU() << " tiles";
    std::cout << "\n";
  }

  std::vector<Device> ones = manager.getDevices(TargetType::IPU, 1);
  Device device;
  for (auto &d : ones)
    if (d.attach()) {
      device = std::move(d);
      break;
    }
  const Target target = device.getTarget();
  std::cout << "attached: " << target.getTilesPerIPU() << " tiles x " << target.getBytesPerTile() << " bytes, "
            << target.getNumWorkerContexts() << " workers\n";

  // The last tile receives the first tile's numbers and sends them back to the host.
  Graph graph(target);
  Tensor first = graph.addVariable(INT, {4}, "first");
  Tensor last = graph.addVariable(INT, {4}, "last");
  graph.setTileMapping(first, 0);
  graph.setTileMapping(last, target.getNumTiles() - 1);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 4);
  Engine engine(graph, Sequence(Copy(in, first), Copy(first, last), Copy(last, out)));
  engine.load(device);
  std::vector<int> host{7, 8, 9, 10}, back(4, 0);
  engine.connectStream("in", host.data());
  engine.connectStream("out", back.data());
  engine.run(0);
  std::cout << "tile " << target.getNumTiles() - 1 << " returned: " << back[0] << " " << back[1] << " " << back[2]
            << " " << back[3] << "\n";
  return 0;
}
