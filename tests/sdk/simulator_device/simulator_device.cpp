// A user's program that makes its devices as SDK test harnesses do: Device::createSimulatorDevice(target, opts)
// for a small IPU target, and Device::createVirtualDevice(tilesPerIPU) for fewer tiles of a device; each runs a
// copy mapped to its last tile. Bad arguments are refused.
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// Copies 3 ints through the device's last tile; returns what came back.
static std::vector<int> roundTrip(const Device &device) {
  Graph graph(device.getTarget());
  unsigned last = device.getTarget().getNumTiles() - 1;
  Tensor a = graph.addVariable(INT, {3}, "a");
  Tensor b = graph.addVariable(INT, {3}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, last);
  graph.createHostWrite("a", a);
  graph.createHostRead("b", b);
  Engine engine(graph, Copy(a, b));
  engine.load(device);
  std::vector<int> in = {7, 8, 9}, out(3, 0);
  engine.writeTensor("a", in.data());
  engine.run(0);
  engine.readTensor("b", out.data());
  return out;
}

template <typename E, typename F> static bool throws(F f) {
  try {
    f();
  } catch (const E &) {
    return true;
  }
  return false;
}

int main() {
  OptionFlags trace{{"debug.trace", "false"}};
  Device sim = Device::createSimulatorDevice(Target::createIPUTarget(1, 4, "ipu2"), trace);
  check(sim.getTarget().getNumTiles() == 4, "createSimulatorDevice has the target's tiles");
  check(roundTrip(sim) == std::vector<int>({7, 8, 9}), "the simulator device runs a program");

  IPUModel model;
  model.tilesPerIPU = 6;
  Device full = model.createDevice();
  Device half = full.createVirtualDevice(3);
  check(half.getTarget().getNumTiles() == 3 && full.getTarget().getNumTiles() == 6,
        "createVirtualDevice(3) has 3 tiles per IPU");
  check(roundTrip(half) == std::vector<int>({7, 8, 9}), "the virtual device runs a program");

  check(throws<invalid_option>([] {
          Device::createSimulatorDevice(Target::createIPUTarget(1, 4, "ipu2"), OptionFlags{{"nope", "1"}});
        }),
        "an unknown simulator option throws invalid_option");
  check(throws<poplar_error>([] { Device::createSimulatorDevice(Target::createCPUTarget()); }),
        "a simulator device of the CPU target is refused");
  check(throws<poplar_error>([&] { full.createVirtualDevice(7); }) &&
            throws<poplar_error>([&] { full.createVirtualDevice(0); }),
        "createVirtualDevice refuses 0 and more tiles than the device has");
  return checksDone("devices: all checks passed");
}
