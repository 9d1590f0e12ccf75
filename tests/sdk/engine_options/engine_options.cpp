// poplar::EngineOptions: engine options checked where they are written (a typo fails at once, naming the option)
// and given to an Engine, compileGraph or compileModule in place of OptionFlags.
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/EngineOptions.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Module.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  EngineOptions none;
  check(none.getFlags().begin() == none.getFlags().end(), "a default EngineOptions holds no options");
  EngineOptions opts(OptionFlags{{"debug.instrument", "true"}, {"target.hostSyncTimeout", "30"}});
  EngineOptions reordered(OptionFlags{{"target.hostSyncTimeout", "30"}, {"debug.instrument", "true"}});
  check(opts == reordered && !(opts != reordered), "equal option sets compare equal, whatever their order");
  check(std::hash<EngineOptions>()(opts) == std::hash<EngineOptions>()(reordered), "equal option sets hash equal");
  check(opts != none, "different option sets differ");
  EngineOptions copy = opts;
  copy.set("debug.instrument", "false");
  check(copy != opts && opts == reordered, "set changes the copy only");

  // Checked as the Engine checks them.
  checkMessage(refusal<invalid_option>([] { EngineOptions bad(OptionFlags{{"debug.instrumnet", "true"}}); }),
          "debug.instrumnet", "an unknown option is refused with invalid_option, naming it");
  checkMessage(refusal<invalid_option>([] { EngineOptions bad(OptionFlags{{"target.hostSyncTimeout", "soon"}}); }),
          "target.hostSyncTimeout", "a malformed value is refused with invalid_option, naming the option");
  EngineOptions before = copy;
  checkMessage(refusal<invalid_option>([&] { copy.set("debug.instrument", "sometimes"); }), "debug.instrument",
          "set refuses a malformed value, naming the option");
  check(copy == before, "a refused set leaves the options as they were");

  // Given where OptionFlags go: an Engine honours them (debug.instrument measures per-step cycles).
  IPUModel model;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {4}, "a");
  Tensor b = graph.addVariable(FLOAT, {4}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);
  Sequence prog(Copy(in, a), Copy(a.reverse(0), b), Copy(b, out));
  Engine engine(graph, prog, opts);
  check(engine.getEngineOptions().at("target.hostSyncTimeout") == "30",
        "an Engine made with EngineOptions runs with them");
  engine.load(device);
  std::vector<float> host = {1, 2, 3, 4}, back(4, 0);
  engine.connectStream("in", host.data());
  engine.connectStream("out", back.data());
  engine.run(0);
  check(back == std::vector<float>({4, 3, 2, 1}), "the engine runs its program");
  Engine fromExecutable(compileGraph(graph, {prog}, opts), opts);
  check(fromExecutable.getEngineOptions().at("debug.instrument") == "true", "compileGraph takes EngineOptions");
  Module module = compileModule(graph, prog, opts);
  std::ofstream sink("module.bin", std::ios::binary);
  // An IPU_MODEL module exists but has no tile images to write: the refusal shows compileModule made one.
  check(has(refusal<poplar_error>([&] { module.serialize(sink); }), "IPU_MODEL"), "compileModule takes EngineOptions");
  return checksDone("EngineOptions checked");
}
