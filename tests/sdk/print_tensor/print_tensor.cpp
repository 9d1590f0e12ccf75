// PrintTensor's output format: "title: [a b c]" for vectors, one bracketed row per line for matrices and up,
// floating-point values with seven decimals; setPrintTensorStream sends the output to another stream.
#include <iostream>
#include <sstream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  Tensor f = graph.addConstant<float>(FLOAT, {3}, {0.5f, -2.0f, 3.25f});
  Tensor m = graph.addConstant<int>(INT, {2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor h = graph.addConstant<float>(HALF, {2}, {1.5f, 2.0f});
  Tensor cube = graph.addConstant<unsigned>(UNSIGNED_INT, {2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  graph.setTileMapping(f, 0);
  graph.setTileMapping(m, 1);
  graph.setTileMapping(h, 2);
  graph.setTileMapping(cube, 3);

  Sequence prog(PrintTensor("f", f), PrintTensor("m", m), PrintTensor("h", h), PrintTensor("cube", cube),
                PrintTensor("slice", m.slice(1, 3, 1)));
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  std::ostringstream captured;
  engine.setPrintTensorStream(captured);
  engine.run(0);
  std::cout << "captured " << captured.str().size() << " characters, first line: "
            << captured.str().substr(0, captured.str().find('\n')) << "\n";
  return 0;
}
