// A user's program on Engine's simulated errors (ErrorLocation in poplar/Error.hpp): the locations of a tile and of
// a compute set, an inserted error failing the runs of the program that executes that compute set (not those of
// a program that does not), the exception type of each kind of code, erase and clear, and the refusals.
#include <functional>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Error.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("add_one_codelet.cpp");
  // Compute set "first" adds one on tiles 0 and 1, "second" on tile 2; program 0 runs first, program 1 second.
  Tensor x = graph.addVariable(FLOAT, {6}, "x");
  ComputeSet first = graph.addComputeSet("first"), second = graph.addComputeSet("second");
  for (unsigned tile = 0; tile < 3; ++tile) {
    Tensor part = x.slice(tile * 2, tile * 2 + 2);
    graph.setTileMapping(part, tile);
    VertexRef v = graph.addVertex(tile < 2 ? first : second, "AddOne", {{"x", part}});
    graph.setTileMapping(v, tile);
  }
  graph.setInitialValue(x, std::vector<float>(6, 0.0f));
  graph.createHostRead("x", x);
  Engine engine(graph, {Execute(first), Execute(second)});
  engine.load(device);

  // Locations: by tile (the compute sets with vertices there) and by compute set (its tiles).
  std::vector<ErrorLocation> onTile1 = engine.getSimulatedErrorLocations(1);
  std::vector<ErrorLocation> ofFirst = engine.getSimulatedErrorLocations("first");
  std::vector<ErrorLocation> onTile3 = engine.getSimulatedErrorLocations(3);
  check(onTile1.size() == 1 && onTile1[0].getTile() == 1, "tile 1 has one location (compute set first)");
  check(ofFirst.size() == 2 && ofFirst[0].getTile() == 0 && ofFirst[1].getTile() == 1 && ofFirst[1] == onTile1[0],
        "compute set first has a location on tiles 0 and 1; tile 1's is the same location");
  check(onTile3.empty(), "tile 3, with no vertices, has no locations");
  check(engine.getSimulatedErrorLocations("first", 1).size() == 1, "maxLocations limits the list");

  // An armed error fails program 0 (which runs "first") and leaves program 1 alone.
  engine.insertSimulatedError(ErrorCode::FLOATING_POINT_OVERFLOW, ofFirst[0]);
  std::string overflow = refusal<application_runtime_error>([&] { engine.run(0); });
  check(has(overflow, "FLOATING_POINT_OVERFLOW") && has(overflow, "tile 0") && has(overflow, "'first'"),
        "a run of program 0 throws application_runtime_error naming the code, tile and compute set: " + overflow);
  engine.run(1);
  float values[6];
  engine.readTensor("x", values);
  check(values[0] == 0.0f && values[4] == 1.0f, "program 1 (compute set second) runs; program 0 did not add");
  check(has(refusal<application_runtime_error>([&] { engine.run(0); }), "FLOATING_POINT_OVERFLOW"),
        "the error stays armed: the next run of program 0 fails again");

  // Each kind of code has its exception type.
  engine.insertSimulatedError(ErrorCode::LINK_DOWN, ofFirst[0]);
  bool resetAction = false;
  try {
    engine.run(0);
  } catch (const recoverable_runtime_error &e) {
    resetAction = e.getRecoveryAction() == RecoveryAction::IPU_RESET && has(e.what(), "LINK_DOWN");
  }
  check(resetAction, "LINK_DOWN throws recoverable_runtime_error with IPU_RESET");
  engine.insertSimulatedError(ErrorCode::IPU_MEMORY_FAILURE, ofFirst[0]);
  check(has(refusal<unrecoverable_runtime_error>([&] { engine.run(0); }), "IPU_MEMORY_FAILURE"),
        "IPU_MEMORY_FAILURE throws unrecoverable_runtime_error");

  // Erase and clear disarm.
  engine.eraseSimulatedError(ofFirst[0]);
  engine.insertSimulatedError(ErrorCode::TRAP, ofFirst[1]);
  check(has(refusal<application_runtime_error>([&] { engine.run(0); }), "tile 1"),
        "after erasing tile 0's error, tile 1's TRAP fails the run");
  engine.clearSimulatedErrors();
  engine.run(0);
  engine.readTensor("x", values);
  check(values[0] == 1.0f && values[2] == 1.0f, "after clearSimulatedErrors, program 0 runs and adds one");
  engine.eraseSimulatedError(onTile1[0]);
  check(true, "erasing a location with nothing armed does nothing");

  // Refusals.
  check(has(refusal<poplar_error>([&] { engine.insertSimulatedError(ErrorCode::NONE, ofFirst[0]); }), "NONE"),
        "inserting ErrorCode::NONE is refused");
  check(has(refusal<poplar_error>([&] { engine.getSimulatedErrorLocations(4); }), "below 4"),
        "a tile past the target's is refused");
  std::string noSet = refusal<poplar_error>([&] { engine.getSimulatedErrorLocations("third"); });
  check(has(noSet, "'third'") && has(noSet, "first, second"),
        "an unknown compute set is refused, naming the graph's: " + noSet);
  return checksDone("all simulated error checks passed");
}
