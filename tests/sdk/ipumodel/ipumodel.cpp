// The IPUModel's public fields as an SDK program sets them: the device's target reports them, and compileIPUCode
// decides whether the memory profile counts the tiles' code (the seed's "Profiling" section).
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

/// Runs a copy on a device of `model`, checks its result, and returns the profile line about code memory.
std::string codeLine(const IPUModel &model) {
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor in = graph.addVariable(FLOAT, {8}, "in");
  Tensor out = graph.addVariable(FLOAT, {8}, "out");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 1);
  graph.createHostWrite("in", in);
  graph.createHostRead("out", out);
  Engine engine(graph, Copy(in.reverse(0), out));
  engine.load(device);
  std::vector<float> host = {1, 2, 3, 4, 5, 6, 7, 8}, back(8);
  engine.writeTensor("in", host.data(), host.data() + host.size());
  engine.run(0);
  engine.readTensor("out", back.data(), back.data() + back.size());
  if (back[0] != 8 || back[7] != 1)
    std::cout << "copy on the model: WRONG\n";
  std::ostringstream summary;
  engine.printProfileSummary(summary);
  std::istringstream lines(summary.str());
  std::string line;
  while (std::getline(lines, line))
    if (line.find("Code, runtime, heap") != std::string::npos) {
      bool counted = line.find("not counted") == std::string::npos;
      return counted ? "code counted" : line.substr(line.find_first_not_of(' '));
    }
  return "no code line";
}

} // namespace

int main() {
  IPUModel model("ipu2");
  std::cout << "version " << model.IPUVersion << ": " << model.tilesPerIPU << " tiles x " << model.memoryPerTile
            << " bytes, " << model.numWorkerContexts << " workers\n";
  model.tilesPerIPU = 4;
  model.memoryPerTile = 256 * 1024;
  model.numWorkerContexts = 4;
  model.minIPUSyncDelay = 0;
  model.relativeSyncDelay = IPUModel::RelativeSyncDelayType::NO_DELAY;
  model.globalSyncCycles = 30;
  model.tileClockFrequency = 1.6e9;
  model.fp16InFp16OutConvUnitsPerTile = 4;
  model.compileIPUCode = true;

  Target t = model.createDevice().getTarget();
  std::cout << "target " << toString(t.getTargetType()) << ": " << t.getNumTiles() << " tiles x "
            << t.getBytesPerTile() << " bytes, " << t.getNumWorkerContexts() << " workers, global sync "
            << t.getGlobalSyncCycles() << ", clock " << t.getTileClockFrequency() / 1e6 << " MHz, half conv units "
            << t.getNumConvUnits(HALF, HALF) << "\n";

  std::cout << "compileIPUCode = true: " << codeLine(model) << "\n";
  model.compileIPUCode = false;
  std::cout << "compileIPUCode = false: " << codeLine(model) << "\n";

  // Global exchange constraints: given to the model, reported by its target, checked against its IPUs.
  IPUModel two("ipu2");
  two.numIPUs = 2;
  two.tilesPerIPU = 4;
  std::vector<GlobalExchangeFlow> flows{GlobalExchangeFlow(0, 1), GlobalExchangeFlow(1, 0)};
  two.globalExchangeConstraints.push_back(GlobalExchangeConstraint(2.0e11, flows));
  const Target twoTarget = two.createTarget();
  const auto &reported = twoTarget.getGlobalExchangeConstraints();
  std::cout << "global exchange constraints: " << reported.size() << ", flows " << reported[0].flows.size()
            << ", same as given: " << (reported[0] == two.globalExchangeConstraints[0] ? "yes" : "no") << "\n";
  two.globalExchangeConstraints.push_back(GlobalExchangeConstraint(1.0e9, {GlobalExchangeFlow(0, 2)}));
  try {
    two.createTarget();
    std::cout << "flow to IPU 2 accepted\n";
  } catch (const poplar_error &e) {
    std::cout << "flow to IPU 2: " << e.what() << "\n";
  }

  model.numWorkerContexts = 7;
  try {
    model.createDevice();
    std::cout << "7 workers accepted\n";
  } catch (const poplar_error &e) {
    std::cout << "7 workers: " << e.what() << "\n";
  }
  return 0;
}
