// Programs beyond Sequence: Block, WriteUndef, Sync of each kind, Copy with its flags, and ErrorProgram, which
// stops the run with poplar::application_runtime_error carrying its message and the debug tensor.
#include <iostream>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  Tensor a = graph.addConstant<int>(INT, {4}, {5, 6, 7, 8});
  Tensor b = graph.addVariable(INT, {4}, "b");
  Tensor c = graph.addVariable(INT, {4}, "c");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  graph.setTileMapping(c, 2);
  graph.createHostRead("c", c);

  Sequence ok;
  ok.add(WriteUndef(b));
  ok.add(Block(Copy(a, b, /*dontOutline=*/true)));
  ok.add(Sync(SyncType::INTERNAL));
  ok.add(Sync(SyncType::EXTERNAL));
  ok.add(Sync(SyncType::GLOBAL));
  ok.add(Copy(b.reverse(0), c, false));
  Sequence failing(Copy(a, c), ErrorProgram("the input was rejected", c), Copy(b, c));

  Engine engine(graph, {ok, failing});
  engine.load(device);
  engine.run(0);
  int out[4];
  engine.readTensor("c", out, out + 4);
  std::cout << "c: " << out[0] << " " << out[1] << " " << out[2] << " " << out[3] << "\n";
  try {
    engine.run(1);
    std::cout << "ErrorProgram did not stop the run\n";
    return 1;
  } catch (const poplar::application_runtime_error &e) {
    std::cout << "caught: " << e.what() << "\n";
  }
  engine.run(0);
  std::cout << "runs again after the error\n";
  return 0;
}
