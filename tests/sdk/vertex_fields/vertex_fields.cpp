// Vertex field queries: Graph::getFieldSize of each kind of field, getMaxFieldDim, getMaxVertexFieldValue(As) with
// the errors they document, and what a perf estimator sees through VertexIntrospector/FieldData (name, rank,
// sizes, plain values). The vertex then runs, so the fields are what the tile computes with.
#include <iostream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/VertexIntrospector.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("field_codelets.cpp");

  Tensor in = graph.addConstant<float>(FLOAT, {5}, 1.0f, "in");
  Tensor a = graph.addConstant<float>(FLOAT, {2}, 2.0f, "a"), b = graph.addConstant<float>(FLOAT, {3}, 3.0f, "b");
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  for (Tensor t : {in, a, b, out})
    graph.setTileMapping(t, 0);
  ComputeSet cs = graph.addComputeSet("fields");
  VertexRef v = graph.addVertex(cs, "Fields", {{"in", in}, {"out", out}});
  graph.setTileMapping(v, 0);
  graph.setFieldSize(v["lists"], 2);
  graph.connect(v["lists"][0], a);
  graph.connect(v["lists"][1], b);
  graph.setInitialValue(v["count"], static_cast<unsigned short>(7));
  graph.setInitialValue(v["scale"], 0.5f);
  std::vector<int> offsets;
  offsets.push_back(10);
  offsets.push_back(20);
  offsets.push_back(30);
  graph.setInitialValue(v["offsets"], ArrayRef<int>(offsets));

  std::cout << "getFieldSize in " << graph.getFieldSize(v["in"]) << ", lists " << graph.getFieldSize(v["lists"])
            << ", lists[1] " << graph.getFieldSize(v["lists"][1]) << ", out " << graph.getFieldSize(v["out"]) << "\n";
  std::cout << "getMaxFieldDim in/0 " << graph.getMaxFieldDim("Fields", "in", 0) << ", lists/1 "
            << graph.getMaxFieldDim("Fields", "lists", 1) << "\n";
  std::cout << "getMaxVertexFieldValue count " << graph.getMaxVertexFieldValue("Fields", "count") << ", as unsigned "
            << graph.getMaxVertexFieldValueAs<unsigned>("Fields", "count") << ", in "
            << graph.getMaxVertexFieldValue("Fields", "in") << "\n";
  try {
    graph.getMaxFieldDim("Fields", "in", 1);
  } catch (const poplar_error &e) {
    std::cout << "in/1: " << e.what() << "\n";
  }
  try {
    graph.getMaxVertexFieldValue("NoSuchVertex", "in");
  } catch (const unknown_vertex_type &) {
    std::cout << "unknown vertex type: unknown_vertex_type\n";
  }
  try {
    graph.getMaxFieldDim("Fields", "nothing", 0);
  } catch (const unknown_field &) {
    std::cout << "unknown field: unknown_field\n";
  }
  try {
    graph.getFieldSize(v["lists"][2]);
  } catch (const index_error &) {
    std::cout << "lists[2]: index_error\n";
  }

  graph.registerPerfEstimator("Fields", [](const VertexIntrospector &vertex, const Target &target) {
    FieldData lists = vertex.getFieldInfo("lists"), count = vertex.getFieldInfo("count");
    FieldData offsetsField = vertex.getFieldInfo("offsets");
    std::vector<int> values = offsetsField.getInitialValues<int>(target);
    std::cout << "estimator: " << lists.name() << " rank " << lists.rank() << " items " << lists.size() << " sizes "
              << lists.getSizeAtIndex(0) << "," << lists.getSizeAtIndex(1) << "; " << count.name() << " rank "
              << count.rank() << " value " << count.getInitialValue<unsigned short>(target) << "; offsets "
              << values.size() << " values, last " << values.back() << "\n";
    return VertexPerfEstimate(100, 10);
  });
  graph.createHostRead("out", out);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  engine.run(0);
  float result = 0;
  engine.readTensor("out", &result);
  // (5 * 1 + 2 * 2 + 3 * 3) * 0.5 + 7 + 60
  std::cout << "out " << result << "\n";
  return 0;
}
