// A user's program on runtime_error::ErrorInfo (what the device reported with a run-time error), on
// Device::temporarilyDetach (the device comes back with attach() without reloading the engine) and on the SDK 2.x
// Engine::getProfile (both profiles in one value).
#include <functional>
#include <string>

#include <poplar/Engine.hpp>
#include <poplar/Error.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

// The ErrorInfo of the E that f() throws (a default ErrorInfo when it throws nothing).
template <class E> runtime_error::ErrorInfo infoOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const E &e) {
    return e.getErrorInfo();
  }
  return runtime_error::ErrorInfo();
}

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("error_info_codelets.cpp");
  Tensor x = graph.addVariable(INT, {}, "x");
  graph.setTileMapping(x, 0);
  graph.setInitialValue(x, 41);
  graph.createHostRead("x", x);
  ComputeSet add = graph.addComputeSet("add");
  graph.setTileMapping(graph.addVertex(add, "AddOne", {{"x", x}}), 0);
  Tensor address = graph.addConstant<unsigned>(UNSIGNED_INT, {}, 4u, "address");
  graph.setTileMapping(address, 2);
  ComputeSet bad = graph.addComputeSet("bad");
  graph.setTileMapping(graph.addVertex(bad, "StoresTo", {{"address", address}}), 2);
  Engine engine(graph, {Execute(add), Execute(bad)}, OptionFlags{{"debug.instrument", "true"}});
  engine.load(device);

  // ErrorInfo of an error the program causes before the device runs: the default (no code, no tile).
  runtime_error::ErrorInfo none;
  check(none.code == ErrorCode::NONE && none.tile == 0xffffffffu && none.computeSet.empty(),
        "a default ErrorInfo has code NONE, no tile and no compute set");

  // A simulated tile error: its code, tile and compute set.
  std::vector<ErrorLocation> onTile0 = engine.getSimulatedErrorLocations("add");
  engine.insertSimulatedError(ErrorCode::FLOATING_POINT_OVERFLOW, onTile0.at(0));
  runtime_error::ErrorInfo simulated = infoOf<application_runtime_error>([&] { engine.run(0); });
  check(simulated.code == ErrorCode::FLOATING_POINT_OVERFLOW && simulated.tile == 0 && simulated.computeSet == "add",
        "a simulated FLOATING_POINT_OVERFLOW reports its code, tile 0 and compute set 'add'");
  engine.insertSimulatedError(ErrorCode::LINK_DOWN, onTile0.at(0));
  runtime_error::ErrorInfo link = infoOf<recoverable_runtime_error>([&] { engine.run(0); });
  check(link.code == ErrorCode::LINK_DOWN && link.tile == 0xffffffffu,
        "a simulated LINK_DOWN reports its code and no tile (a link belongs to no tile)");
  engine.clearSimulatedErrors();

  // A real fault: the store to address 4 on tile 2 is an invalid address; caught as a runtime_error, the base.
  runtime_error::ErrorInfo fault = infoOf<runtime_error>([&] { engine.run(1); });
  check(fault.code == ErrorCode::INVALID_ADDRESS && fault.tile == 2,
        "the card's store fault reports INVALID_ADDRESS on tile 2 (" + errorCodeToString(fault.code) + ", tile " +
            std::to_string(fault.tile) + ")");
  device.reset();

  // temporarilyDetach: not attached until attach(), runs refused, then the engine runs with its tensors kept.
  engine.run(0);
  device.temporarilyDetach();
  check(!device.isAttached(), "after temporarilyDetach the device is not attached");
  std::string refused = refusal<application_runtime_error>([&] { engine.run(0); });
  check(has(refused, "temporarily detached") && has(refused, "device.attach()"),
        "a run while temporarily detached is refused, naming device.attach(): " + refused);
  check(device.attach() && device.isAttached(), "attach() takes the device back");
  engine.run(0);
  int v = 0;
  engine.readTensor("x", &v, &v + 1);
  check(v == 43, "the engine was not reloaded: x kept the first run's 42 and is now 43 (x = " + std::to_string(v) +
                     ")");
  device.detach();
  std::string notAttached = refusal<poplar_error>([&] { device.temporarilyDetach(); });
  check(has(notAttached, "not attached") && has(notAttached, "attach()"),
        "temporarilyDetach of a detached device throws poplar_error naming attach(): " + notAttached);

  // getProfile: the graph profile's entries and the execution profile's in one map.
  engine.load(device);
  engine.run(0);
  ProfileValue both = engine.getProfile();
  ProfileValue graphProfile = engine.getGraphProfile(), execution = engine.getExecutionProfile();
  check(both.size() == graphProfile.size() + execution.size(), "getProfile has the entries of both profiles (" +
                                                                   std::to_string(both.size()) + ")");
  check(both["computeSets"] == graphProfile["computeSets"] && both["simulation"] == execution["simulation"],
        "getProfile's computeSets are the graph profile's and its simulation the execution profile's");
  return checksDone("error_info_detach: all checks passed");
}
