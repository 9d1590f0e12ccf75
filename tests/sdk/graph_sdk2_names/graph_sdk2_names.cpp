// A user's program on Graph, Tensor and Device names of the SDK's 2.x API reference: numVertices and
// numComputeSets, registerCycleEstimator/getCycleEstimate (the estimator sees the vertex's field sizes),
// getVariableTileMapping (constants left out), findUnbroadcastTensor (broadcast dimensions back to size 1),
// Tensor::getConstantData (device bytes of a constant; false for a variable) and Device::supportsGraphStreaming.
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <poplar/CycleEstimateFunc.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

static std::string str(const std::vector<Interval> &list) {
  std::string s;
  for (std::size_t i = 0; i < list.size(); ++i)
    s += "[" + std::to_string(list[i].begin()) + "," + std::to_string(list[i].end()) + ")";
  return s;
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  check(!device.supportsGraphStreaming(), "supportsGraphStreaming is false on the emulated card");
  Graph graph(device.getTarget());
  graph.addCodelets("graph_sdk2_names_codelets.cpp");
  check(graph.numComputeSets() == 0 && graph.numVertices() == 0, "an empty graph has no compute sets or vertices");

  Tensor x = graph.addVariable(FLOAT, {6}, "x");
  graph.setTileMapping(x.slice(0, 2), 0);
  graph.setTileMapping(x.slice(2, 6), 1);
  ComputeSet cs = graph.addComputeSet("add");
  graph.addComputeSet("empty");
  VertexRef v0 = graph.addVertex(cs, "AddOne", {{"x", x.slice(0, 2)}});
  VertexRef v1 = graph.addVertex(cs, "AddOne", {{"x", x.slice(2, 6)}});
  graph.setTileMapping(v0, 0);
  graph.setTileMapping(v1, 1);
  check(graph.numComputeSets() == 2, "numComputeSets counts both compute sets, the empty one too");
  check(graph.numVertices() == 2 && graph.numVertices() == graph.getNumVertices(), "numVertices is 2");

  // A cycles-only estimator: 10 cycles plus 3 a element, from the size of field x.
  graph.registerCycleEstimator("AddOne", [](const VertexIntrospector &v, const Target &) {
    return std::uint64_t(10 + 3 * v.getFieldInfo("x").size());
  });
  check(graph.getCycleEstimate(v0) == 16 && graph.getCycleEstimate(v1) == 22,
        "getCycleEstimate runs the registered estimator: " + std::to_string(graph.getCycleEstimate(v0)) + ", " +
            std::to_string(graph.getCycleEstimate(v1)));
  check(graph.getPerfEstimate(v1).flops == 0, "a cycle estimator gives no flops");
  bool threw = false;
  try {
    graph.registerCycleEstimator("AddOne", CycleEstimateFunc());
  } catch (const poplar_error &) {
    threw = true;
  }
  check(threw, "an empty cycle estimator is refused with poplar_error");

  // getVariableTileMapping: the same intervals as getTileMapping, without the constant's elements.
  Tensor c = graph.addConstant<float>(FLOAT, {2}, {5.0f, 7.0f}, "c");
  graph.setTileMapping(c, 2);
  Tensor mixed = concat(x.slice(0, 3), c);
  Graph::TileToTensorMapping all = graph.getTileMapping(mixed), vars = graph.getVariableTileMapping(mixed);
  check(str(all[2]) == "[3,5)" && vars[2].empty(), "the constant on tile 2 is left out: " + str(vars[2]));
  check(str(vars[0]) == "[0,2)" && str(vars[1]) == "[2,3)", "variable elements keep their tiles: " + str(vars[0]) +
                                                                  " " + str(vars[1]));

  // findUnbroadcastTensor: a {4,3} broadcast of a {1,3} row, and a {3,2} made by broadcasting each element.
  Tensor row = x.slice(0, 3).reshape({1, 3});
  Tensor rows = row.broadcast(4, 0);
  Tensor found = graph.findUnbroadcastTensor(rows);
  check(found.shape() == std::vector<std::size_t>({1, 3}) && found == row, "a broadcast of rows gives the row back");
  Tensor cols = x.slice(0, 3).reshape({3, 1}).broadcast(2, 1);
  check(graph.findUnbroadcastTensor(cols).shape() == std::vector<std::size_t>({3, 1}),
        "a broadcast along the inner dimension gives {3,1}");
  check(graph.findUnbroadcastTensor(x.reshape({2, 3})) == x.reshape({2, 3}), "a tensor with no broadcast is itself");

  // getConstantData: the constant's float bytes; a variable has none.
  float data[2] = {0, 0};
  check(c.getConstantData(data) && data[0] == 5.0f && data[1] == 7.0f, "getConstantData gives 5 and 7");
  Tensor h = graph.addConstant<float>(HALF, {1}, 1.0f, "h");
  graph.setTileMapping(h, 3);
  std::uint16_t bits = 0;
  check(h.getConstantData(&bits) && bits == 0x3c00, "a HALF constant's data is its IEEE half bits (0x3c00)");
  check(!x.getConstantData(data) && data[0] == 5.0f, "a variable has no constant data and dst is untouched");

  // The graph still compiles and runs with the estimator registered.
  graph.createHostWrite("x", x);
  graph.createHostRead("x", x);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  std::vector<float> in = {0, 1, 2, 3, 4, 5}, out(6);
  engine.writeTensor("x", in.data(), in.data() + in.size());
  engine.run(0);
  engine.readTensor("x", out.data(), out.data() + out.size());
  check(out[0] == 1 && out[5] == 6, "the compute set ran: x[5] = " + std::to_string(out[5]));

  return checksDone("all SDK 2.x graph names checks passed");
}
