// A user's program that loads two engines on one device, as the SDK allows: a second load replaces the first.
// Both engines stream data through FIFOs (their staging buffers sit at the same device addresses), so each load
// must take the other engine off the card. Engine A is loaded, then B; B runs, then A runs (it loads itself again)
// and both results are checked. Then: A destroyed while B is loaded, B destroyed while A waits to be reloaded,
// a load after an Abort, and a device detached under a loaded engine.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/StreamCallback.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// Feeds 1, 2, 3 then 11, 12, 13 and so on: a callback object the engine keeps across its loads.
class Counter : public LegacyStreamCallback {
public:
  void fetch(void *p) override {
    int values[3] = {next_, next_ + 1, next_ + 2};
    next_ += 10;
    std::memcpy(p, values, sizeof values);
  }

private:
  int next_ = 1;
};

// An engine that reads three ints from stream "in" and sends them back on stream "out", and its constant {add,
// add, add} on stream "k": the host adds the two, so each engine's result is told apart by its constant.
static Engine addingEngine(const Target &target, int add, bool abortAfter = false) {
  Graph graph(target);
  Tensor x = graph.addVariable(INT, {3}, "x");
  graph.setTileMapping(x, 0);
  Tensor k = graph.addConstant<int>(INT, {3}, {add, add, add}, "k");
  graph.setTileMapping(k, 1);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 3);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 3);
  DataStream konst = graph.addDeviceToHostFIFO("k", INT, 3);
  Sequence prog({Copy(in, x), Copy(x, out), Copy(k, konst)});
  if (abortAfter)
    prog.add(Abort("stopped on purpose"));
  return Engine(graph, prog);
}

// Runs `engine` once with `in` on its input stream; returns "x0 x1 x2 + k".
static std::string runOnce(Engine &engine, std::vector<int> in) {
  std::vector<int> out(3), k(3);
  engine.connectStream("in", in.data());
  engine.connectStream("out", out.data());
  engine.connectStream("k", k.data());
  engine.run(0);
  return std::to_string(out[0] + k[0]) + " " + std::to_string(out[1] + k[1]) + " " + std::to_string(out[2] + k[2]);
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  const Target &target = device.getTarget();

  // 1. A, then B on the same device: B runs, then A runs again (loading itself back) with its callback.
  {
    Engine a = addingEngine(target, 100), b = addingEngine(target, 200);
    a.connectStreamToCallback("in", std::unique_ptr<StreamCallback>(new Counter()));
    std::vector<int> aOut(3), aK(3);
    a.connectStream("out", aOut.data());
    a.connectStream("k", aK.data());
    a.load(device);
    a.run(0);
    check(aOut[0] + aK[0] == 101 && aOut[2] + aK[2] == 103, "A's first run gives 101..103");
    b.load(device);
    check(runOnce(b, {1, 2, 3}) == "201 202 203", "B, loaded over A, runs: 201 202 203");
    a.run(0);
    check(aOut[0] + aK[0] == 111 && aOut[2] + aK[2] == 113,
          "A runs after B (reloaded, its callback still connected): " + std::to_string(aOut[0] + aK[0]));
    check(runOnce(b, {5, 6, 7}) == "205 206 207", "B runs after A, loading itself back: 205 206 207");
    // Loading the same engine twice in a row replaces it with itself.
    b.load(device);
    b.load(device);
    check(runOnce(b, {0, 0, 0}) == "200 200 200", "B loaded twice in a row runs");
  }

  // 2. A destroyed while B is loaded: B keeps running.
  {
    Engine b = addingEngine(target, 20);
    {
      Engine a = addingEngine(target, 10);
      a.load(device);
      b.load(device);
    }
    check(runOnce(b, {1, 1, 1}) == "21 21 21", "B runs after A (not loaded) was destroyed");
  }

  // 3. The reverse: B, loaded last, is destroyed; A loads itself back on the device B left.
  {
    Engine a = addingEngine(target, 30);
    a.load(device);
    {
      Engine b = addingEngine(target, 40);
      b.load(device);
      check(runOnce(b, {1, 2, 3}) == "41 42 43", "B runs over A");
    }
    check(runOnce(a, {1, 2, 3}) == "31 32 33", "A runs after the loaded B was destroyed");
  }

  // 4. An engine that aborts leaves the card stopped mid-program; another engine then loads and runs.
  {
    Engine aborting = addingEngine(target, 50, true);
    aborting.load(device);
    bool aborted = false;
    try {
      runOnce(aborting, {1, 2, 3});
    } catch (const application_runtime_error &e) {
      aborted = std::strstr(e.what(), "stopped on purpose") != nullptr;
    }
    check(aborted, "the Abort ends the run with application_runtime_error");
    Engine next = addingEngine(target, 60);
    next.load(device);
    check(runOnce(next, {1, 2, 3}) == "61 62 63", "an engine loaded after the Abort runs");
  }

  // 5. The device detached under a loaded engine: run says to load it again, load then works, destruction is clean.
  {
    Engine a = addingEngine(target, 70);
    a.load(device);
    device.detach();
    bool refused = false;
    try {
      runOnce(a, {1, 2, 3});
    } catch (const application_runtime_error &e) {
      refused = std::strstr(e.what(), "engine.load(device)") != nullptr;
    }
    check(refused, "run on a detached device throws application_runtime_error naming engine.load(device)");
    a.load(device);
    check(runOnce(a, {1, 2, 3}) == "71 72 73", "load after detach attaches again and runs");
    device.detach();
  }

  return checksDone("all second-load checks passed");
}
