// A user's program on poplar/RuntimeOptions.hpp: RuntimeOptions built from OptionFlags (a name that is not a
// run-time option, or a malformed value, is refused with invalid_option), compared and hashed, and given to
// Engine::run (this run only) and Engine::prepare (every run after deploy). The effect is checked on
// target.hostSyncTimeout: a host callback that takes 0.3 s fails a run whose limit is 0.1 s, and "0" means no limit.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/RuntimeOptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// "ok" when building RuntimeOptions from `flags` throws invalid_option whose message contains `needle`.
static bool refused(const OptionFlags &flags, const char *needle) {
  try {
    RuntimeOptions r(flags);
  } catch (const invalid_option &e) {
    return std::strstr(e.what(), needle) != nullptr;
  }
  return false;
}

// Runs `run` and says whether it ended with the host sync timeout.
static bool timedOut(const std::function<void()> &run) {
  try {
    run();
  } catch (const poplar_error &e) {
    return std::strstr(e.what(), "host sync timeout") != nullptr;
  }
  return false;
}

int main() {
  // Building, comparing, hashing.
  RuntimeOptions none;
  RuntimeOptions quick(OptionFlags{{"target.hostSyncTimeout", "0.1"}, {"target.syncMethod", "polling"}});
  RuntimeOptions same(OptionFlags{{"target.syncMethod", "polling"}, {"target.hostSyncTimeout", "0.1"}});
  RuntimeOptions copy(quick);
  check(quick == same && copy == quick && none != quick, "equal option sets compare equal, whatever their order");
  check(std::hash<RuntimeOptions>()(quick) == std::hash<RuntimeOptions>()(same), "equal option sets hash equal");
  check(quick.getFlags().at("target.hostSyncTimeout") == "0.1", "the options are kept as given");
  check(refused({{"debug.instrument", "true"}}, "not a run-time option"),
        "an engine option that is not a run-time option is refused, naming the fix");
  check(refused({{"target.hostSyncTimeout", "soon"}}, "target.hostSyncTimeout"), "a malformed value is refused");
  check(refused({{"streamCallbacks.multiThreadMode", "many"}}, "singleThread"),
        "a multiThreadMode outside the SDK's list is refused, listing it");
  RuntimeOptions threads(OptionFlags{{"streamCallbacks.multiThreadMode", "dedicated"},
                                     {"streamCallbacks.numWorkerThreads", "auto"},
                                     {"streamCallbacks.numaAware", "true"},
                                     {"target.syncPollPeriodUs", "10"},
                                     {"target.exceptionPollPeriodUs", "250000"}});
  check(threads.getFlags().size() == 5, "every documented run-time option is accepted");

  // A program whose one stream copy is served by a callback that takes 0.3 s.
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(INT, {1}, "x");
  graph.setTileMapping(x, 0);
  graph.createHostRead("x", x);
  Engine engine(graph, Sequence({Copy(graph.addHostToDeviceFIFO("in", INT, 1), x)}));
  int served = 0;
  engine.connectStreamToCallback("in", [&served](void *p) {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    int v = 40 + ++served;
    std::memcpy(p, &v, sizeof v);
  });
  engine.load(device);
  engine.run(0);
  int value = 0;
  engine.readTensor("x", &value);
  check(value == 41, "with the engine's options (300 s) the slow callback's run completes: x = " +
                         std::to_string(value));
  check(timedOut([&] { engine.run(0, "quick", quick); }),
        "run(0, name, RuntimeOptions{hostSyncTimeout 0.1}) ends with the host sync timeout");
  engine.run(0);
  engine.readTensor("x", &value);
  check(value == 43, "the next run without RuntimeOptions has the engine's limit again: x = " +
                         std::to_string(value));

  // prepare(device, options): every run after deploy goes by them; a run's own options go over them.
  engine.prepare(device, quick);
  engine.deploy();
  check(timedOut([&] { engine.run(0); }), "after prepare(device, {hostSyncTimeout 0.1}) a plain run times out");
  engine.run(0, "no limit", RuntimeOptions(OptionFlags{{"target.hostSyncTimeout", "0"}}));
  engine.readTensor("x", &value);
  check(value == 45, "a run's own hostSyncTimeout \"0\" (no limit) goes over prepare's: x = " +
                         std::to_string(value));

  return checksDone("all RuntimeOptions checks passed");
}
