// Profiling through the SDK's API: the graph and execution profiles as ProfileValues, JSON and CBOR, and the
// profile summary with options, for a program of copies and a host stream on the IPU Model.
#include <iostream>
#include <sstream>
#include <vector>

#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Target target = device.getTarget();
  Graph graph(target);

  Tensor a = graph.addVariable(FLOAT, {8}, "a");
  Tensor b = graph.addVariable(FLOAT, {8}, "b");
  for (unsigned i = 0; i < 8; ++i)
    graph.setTileMapping(a[i], i);
  graph.setTileMapping(b, 9);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 8);
  graph.createHostRead("b", b);

  OptionFlags engineOptions;
  engineOptions.set("debug.instrument", "true");
  engineOptions.set("debug.computeInstrumentationLevel", "device");
  Engine engine(graph, Sequence(Copy(in, a), Copy(a, b)), engineOptions);
  engine.load(device);
  std::vector<float> data(8, 1.5f);
  engine.connectStream("in", data.data());
  engine.run(0);

  ProfileValue graphProfile = engine.getGraphProfile();
  ProfileValue executionProfile = engine.getExecutionProfile();
  std::cout << "target type: " << graphProfile["target"]["type"].asString() << "\n";
  std::cout << "tiles match: " << (graphProfile["target"]["numTiles"].asUInt() == target.getNumTiles() ? "yes" : "no")
            << "\n";
  std::cout << "profilerMode: " << executionProfile["profilerMode"].asString() << "\n";
  std::cout << "programs run: " << executionProfile["programTrace"].size() << "\n";
  std::cout << "cycles match: "
            << (executionProfile["simulation"]["cycles"].asUInt() == engine.getLastRunCycles() ? "yes" : "no")
            << "\n";
  const ProfileValue &steps = executionProfile["simulation"]["steps"];
  for (std::size_t i = 0; i < steps.size(); ++i)
    std::cout << "step " << i << ": " << steps[i]["type"].asString() << "\n";

  std::ostringstream json, cbor;
  serializeToJSON(json, graphProfile, true);
  serializeToCBOR(cbor, executionProfile);
  std::cout << "json starts with brace: " << (json.str()[0] == '{' ? "yes" : "no") << "\n";
  std::cout << "cbor is a map: " << ((static_cast<unsigned char>(cbor.str()[0]) >> 5) == 5 ? "yes" : "no") << "\n";

  OptionFlags summaryOptions;
  summaryOptions.set("showExecutionSteps", "true");
  printProfileSummary(std::cout, graphProfile, executionProfile, summaryOptions);
  engine.resetExecutionProfile();
  std::cout << "after reset: " << engine.getExecutionProfile()["programTrace"].size() << "\n";
  return 0;
}
