// Functions: a program added once with Graph::addFunction and run by program::Call wherever it is needed.
#include <iostream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device);

  Tensor acc = graph.addVariable(INT, {3}, "acc");
  Tensor step = graph.addConstant<int>(INT, {3}, {1, 2, 3});
  Tensor tmp = graph.addVariable(INT, {3}, "tmp");
  graph.setTileMapping(acc, 1);
  graph.setTileMapping(step, 2);
  graph.setTileMapping(tmp, 1);
  graph.setInitialValue(acc, 100);
  graph.createHostRead("acc", acc);

  // Two functions: one prints acc, one sets it from step (through tmp on acc's tile).
  Function show = graph.addFunction(Sequence(PrintTensor("acc", acc)));
  Function reset = graph.addFunction(Sequence(Copy(step, tmp), Copy(tmp, acc)));

  Sequence prog{Call(show), Call(reset), Call(show), Repeat(2, Call(show))};
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  int out[3];
  engine.readTensor("acc", out, out + 3);
  std::cout << "acc after run: " << out[0] << " " << out[1] << " " << out[2] << "\n";
  return 0;
}
