// Remote buffers: rows of off-chip storage that Copy programs move to and from tensors at a row index held in a
// tensor, and that the host fills and reads with copyToRemoteBuffer / copyFromRemoteBuffer. The buffer's getters
// report its shape, the hints it was made with and its row streams.
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
  // The hints as given, the row streams each way, and equality by buffer.
  RemoteBuffer hinted = graph.addRemoteBuffer("hinted", HALF, 8, 2, true, true);
  std::cout << "hints: store " << store.isRearrangeOnHost() << store.isOptimisedForMemory() << ", hinted "
            << hinted.isRearrangeOnHost() << hinted.isOptimisedForMemory() << "\n";
  DataStream toIpu = store.getHostToIpuStream(), toHost = store.getIpuToHostStream();
  std::cout << "streams: " << (toIpu.type() == DataStreamType::HostToDeviceFIFO) << (toIpu.numElements() == width)
            << (toIpu.elementType() == FLOAT) << (toHost.type() == DataStreamType::DeviceToHostFIFO)
            << (toHost.numElements() == width) << "\n";
  std::cout << "equality: " << (store == store) << (store != hinted) << "\n";
  return 0;
}
