// Remote buffers: rows of off-chip storage that Copy programs move to and from tensors at a row index held in a
// tensor, and that the host fills and reads with copyToRemoteBuffer / copyFromRemoteBuffer.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  const unsigned rows = 3, width = 4;
  RemoteBuffer store = graph.addRemoteBuffer("store", FLOAT, width, rows);
  Tensor work = graph.addVariable(FLOAT, {width}, "work");
  Tensor index = graph.addVariable(UNSIGNED_INT, {1}, "index");
  Tensor two = graph.addConstant<unsigned>(UNSIGNED_INT, {1}, {2});
  graph.setTileMapping(work, 0);
  graph.setTileMapping(index, 0);
  graph.setTileMapping(two, 0);
  graph.createHostWrite("index", index);

  // Read row `index`, write it back to row 2 and to row 0.
  Sequence prog;
  prog.add(Copy(store, work, index));
  prog.add(PrintTensor("row", work));
  prog.add(Copy(work, store, two));
  prog.add(Copy(work, store));

  Engine engine(graph, prog);
  engine.load(device);
  for (unsigned r = 0; r < rows; ++r) {
    std::vector<float> data(width);
    for (unsigned i = 0; i < width; ++i)
      data[i] = float(10 * r + i);
    engine.copyToRemoteBuffer(data.data(), "store", r);
  }
  unsigned one = 1;
  engine.writeTensor("index", &one, &one + 1);
  engine.run(0);

  for (unsigned r = 0; r < rows; ++r) {
    std::vector<float> data(width);
    engine.copyFromRemoteBuffer("store", data.data(), r);
    std::cout << "store[" << r << "]:";
    for (unsigned i = 0; i < width; ++i)
      std::cout << " " << data[i];
    std::cout << "\n";
  }
  std::cout << "repeats " << store.getRepeats() << ", elements " << store.numElements() << "\n";
  return 0;
}
