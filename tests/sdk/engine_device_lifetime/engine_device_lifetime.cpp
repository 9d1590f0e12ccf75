// A user's program that loads engines as SDK examples do: on a temporary device (engine.load(
// Device::createCPUDevice())), with loadAndRun on a temporary IPU Model device, and on a Device object that goes
// out of scope (or is moved from) before the engine runs. The engine shares its device, so every run works.
#include <cstdio>
#include <memory>
#include <vector>

#include <poplar/Device.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

// An engine whose program copies "in" to "out" on the device (host handles "in" and "out").
static Engine copyEngine(const Target &target) {
  Graph graph(target);
  Tensor in = graph.addVariable(INT, {3}, "in");
  Tensor out = graph.addVariable(INT, {3}, "out");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 0);
  graph.createHostWrite("in", in);
  graph.createHostRead("out", out);
  return Engine(graph, Sequence({Copy(in, out)}));
}

static void runAndPrint(Engine &engine, const char *what, int base) {
  std::vector<int> in = {base, base + 1, base + 2}, out(3, 0);
  engine.writeTensor("in", in.data());
  engine.run(0);
  engine.readTensor("out", out.data());
  std::printf("%s: %d %d %d\n", what, out[0], out[1], out[2]);
}

int main() {
  // 1. A temporary CPU device.
  Engine onCpu = copyEngine(Target::createCPUTarget());
  onCpu.load(Device::createCPUDevice());
  runAndPrint(onCpu, "temporary cpu device", 10);

  // 2. loadAndRun on a temporary IPU Model device (runs program 0 once), then more runs.
  IPUModel model;
  model.tilesPerIPU = 4;
  Engine onModel = copyEngine(model.createTarget());
  onModel.loadAndRun(model.createDevice());
  runAndPrint(onModel, "temporary ipu model device", 20);

  // 3. The caller's Device object is destroyed before the engine runs.
  Engine outliving = copyEngine(model.createTarget());
  {
    std::unique_ptr<Device> device(new Device(model.createDevice()));
    outliving.load(*device);
    device.reset();
  }
  runAndPrint(outliving, "engine outlives its device", 30);

  // 4. The caller's Device is moved from, and the new owner is destroyed too.
  Engine afterMove = copyEngine(model.createTarget());
  Device first = model.createDevice();
  afterMove.load(first);
  {
    Device second(std::move(first));
  }
  runAndPrint(afterMove, "device moved and destroyed", 40);
  std::printf("attached: %s\n", first.isValid() ? "moved-from device still valid" : "done");
  return 0;
}
