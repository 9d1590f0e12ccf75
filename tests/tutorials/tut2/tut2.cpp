// Tutorial 2 (using PopLibs), written after the seed user guide: two 2x2 variables spread over four tiles,
// initialised from constants, added with popops::add, then added with a transposed view of the second operand.
#include <iostream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  // PopLibs' vertices must be in the graph before any popops call.
  popops::addCodelets(graph);

  Tensor v1 = graph.addVariable(FLOAT, {2, 2}, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {2, 2}, "v2");
  // v1 row-major over tiles 0..3, v2 column-major: the operands of each addition live on different tiles.
  for (unsigned i = 0; i < 2; ++i)
    for (unsigned j = 0; j < 2; ++j) {
      graph.setTileMapping(v1[i][j], i * 2 + j);
      graph.setTileMapping(v2[i][j], j * 2 + i);
    }

  Tensor c1 = graph.addConstant<float>(FLOAT, {4}, {1.0, 1.5, 2.0, 2.5});
  Tensor c2 = graph.addConstant<float>(FLOAT, {4}, {4.0, 3.0, 2.0, 1.0});
  graph.setTileMapping(c1, 0);
  graph.setTileMapping(c2, 0);

  Sequence prog;
  prog.add(Copy(c1, v1.flatten()));
  prog.add(Copy(c2, v2.flatten()));

  // v3 = v1 + v2
  Tensor v3 = popops::add(graph, v1, v2, prog, "Add");
  prog.add(PrintTensor("v3", v3));

  // v4 = v3 + v2
  Tensor v4 = popops::add(graph, v3, v2, prog, "Add");
  prog.add(PrintTensor("v4", v4));

  // v5 = v1 + transpose(v2)
  Tensor v5 = popops::add(graph, v1, v2.transpose(), prog, "Add");
  prog.add(PrintTensor("v5", v5));

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::cout << "Program complete\n";
  return 0;
}
