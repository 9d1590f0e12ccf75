// poplar::compileModule and poplar::Module: one program compiled for an IPU device, its tile images walked
// segment by segment, saved, and run from the saved file by an Engine (Executable::deserialize).
#include <cstddef>
#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Module.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

/// The program both targets compile: the host's numbers go to tile 0, are reversed onto the last tile and return.
static Sequence reverser(Graph &graph) {
  Tensor a = graph.addVariable(INT, {4}, "a");
  Tensor b = graph.addVariable(INT, {4}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, graph.getTarget().getNumTiles() - 1);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 4);
  return Sequence(Copy(in, a), Copy(a.reverse(0), b), Copy(b, out));
}

int main() {
  DeviceManager manager = DeviceManager::createDeviceManager();
  std::vector<Device> devices = manager.getDevices(TargetType::IPU, 1);
  Device device;
  for (std::size_t i = 0; i < devices.size(); ++i)
    if (devices[i].attach()) {
      device = std::move(devices[i]);
      break;
    }
  const Target target = device.getTarget();
  Graph graph(target);
  int steps = 0;
  Module module = compileModule(graph, reverser(graph), OptionFlags(), [&](int, int) { ++steps; }, {"reverser"});
  check(steps > 0, "compileModule reports its progress");

  // The segments of every tile's image.
  std::size_t segments = 0, badTiles = 0, short_ = 0;
  std::set<std::size_t> tiles;
  module.forEachSegment([&](std::size_t tile, std::size_t, std::size_t fileSize, std::size_t memorySize,
                            const char *data) {
    ++segments;
    tiles.insert(tile);
    badTiles += tile >= target.getNumTiles();
    short_ += fileSize > memorySize || (fileSize > 0 && data == 0);
  });
  check(segments > 0 && badTiles == 0, "forEachSegment walks segments of the target's tiles");
  check(tiles.count(0) == 1 && tiles.count(target.getNumTiles() - 1) == 1,
        "the tiles the program uses have segments");
  check(short_ == 0, "each segment holds at most the bytes it covers in memory");
  std::size_t loadable = 0, empty = 0;
  module.forEachLoadableSegment([&](std::size_t, std::size_t, std::size_t size, const char *data) {
    ++loadable;
    empty += size == 0 || data == 0;
  });
  check(loadable > 0 && empty == 0, "forEachLoadableSegment skips empty segments");

  // Saved and run: the module is an executable file.
  {
    std::ofstream os("reverser.module", std::ios::binary);
    module.serialize(os);
  }
  std::ifstream is("reverser.module", std::ios::binary);
  Engine engine(Executable::deserialize(is));
  engine.load(device);
  std::vector<int> host = {1, 2, 3, 4}, back(4, 0);
  engine.connectStream("in", host.data());
  engine.connectStream("out", back.data());
  engine.run(0);
  check(back == std::vector<int>({4, 3, 2, 1}), "a saved module runs in an Engine from Executable::deserialize");

  // Moving leaves the source empty.
  Module moved(std::move(module));
  std::size_t movedSegments = 0;
  moved.forEachLoadableSegment([&](std::size_t, std::size_t, std::size_t, const char *) { ++movedSegments; });
  check(movedSegments == loadable, "a moved Module holds the compiled program");
  checkMessage(refusal<poplar_error>([&] { module.forEachSegment(
              [](std::size_t, std::size_t, std::size_t, std::size_t, const char *) {}); }),
          "compileModule", "a moved-from Module is refused, naming compileModule");
  Module none;
  std::ofstream sink("empty.module", std::ios::binary);
  checkMessage(refusal<poplar_error>([&] { none.serialize(sink); }), "compileModule",
          "a default-constructed Module is refused, naming compileModule");

  // Only IPU modules have tile images (as the SDK says).
  IPUModel ipuModel;
  Device modelDevice = ipuModel.createDevice();
  Graph modelGraph(modelDevice.getTarget());
  Module modelModule = compileModule(modelGraph, reverser(modelGraph));
  checkMessage(refusal<poplar_error>([&] { modelModule.serialize(sink); }), "TargetType::IPU",
          "serializing an IPU_MODEL module is refused, naming the IPU target");
  checkMessage(refusal<poplar_error>([&] { modelModule.forEachLoadableSegment(
              [](std::size_t, std::size_t, std::size_t, const char *) {}); }),
          "TargetType::IPU", "walking an IPU_MODEL module's segments is refused");

  // Bad options are refused as compileGraph refuses them.
  OptionFlags bad;
  bad.set("debug.noSuchOption", "true");
  checkMessage(refusal<invalid_option>([&] { compileModule(graph, Sequence(), bad); }), "debug.noSuchOption",
          "an unknown option is refused with invalid_option, naming it");
  return checksDone("compileModule checked");
}
