// Engine's ArrayRef forms, as Graphcore's Engine declares them: writeTensor/readTensor(handle, ArrayRef<T>),
// connectStream(handle, ArrayRef<T>), copyToRemoteBuffer(ArrayRef<T>, ...) and copyFromRemoteBuffer(handle,
// ArrayRef<T>, ...): the view is the buffer, written or read in place. Also isHostToDevice/isDeviceToHost/
// isRemoteBuffer of a stream's DataStreamType.
#include <iostream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

static void print(const char *label, const std::vector<int> &v) {
  std::cout << label;
  for (std::size_t i = 0; i < v.size(); ++i)
    std::cout << " " << v[i];
  std::cout << "\n";
}

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(INT, {4}, "x");
  Tensor y = graph.addVariable(INT, {4}, "y");
  graph.setTileMapping(x, 1);
  graph.setTileMapping(y, 2);
  graph.createHostWrite("x", x);
  graph.createHostRead("y", y);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 4);
  RemoteBuffer row = graph.addRemoteBuffer("row", INT, 4);
  std::cout << "in: to device " << isHostToDevice(in.type()) << ", to host " << isDeviceToHost(in.type())
            << "; out: to device " << isHostToDevice(out.type()) << ", to host " << isDeviceToHost(out.type())
            << "; remote " << isRemoteBuffer(out.type()) << isRemoteBuffer(DataStreamType::RemoteBuffer) << "\n";
  // Program 0: y = x * 1, sent to the host stream and to the remote buffer's row.
  // Program 1: y comes from the host stream, then the remote buffer's row goes into y.
  Engine engine(graph, {Sequence({Copy(x, y), Copy(y, out), Copy(y, row)}), Sequence({Copy(in, y)}),
                        Sequence({Copy(row, y)})});
  engine.load(device);

  std::vector<int> hostX(4), hostY(4, 0), streamed(4, 0), fromRow(4, 0), toRow(4);
  for (int i = 0; i < 4; ++i) {
    hostX[i] = 10 + i;
    toRow[i] = 100 + i;
  }
  engine.writeTensor("x", ArrayRef<int>(hostX));
  engine.connectStream("out", ArrayRef<int>(streamed));
  engine.run(0);
  engine.readTensor("y", ArrayRef<int>(hostY));
  print("y after writeTensor(ArrayRef):", hostY);
  print("stream out (ArrayRef):", streamed);
  engine.copyFromRemoteBuffer("row", ArrayRef<int>(fromRow), 0);
  print("copyFromRemoteBuffer(ArrayRef):", fromRow);

  std::vector<int> streamedIn(4);
  for (int i = 0; i < 4; ++i)
    streamedIn[i] = -i;
  engine.connectStream("in", ArrayRef<int>(streamedIn));
  engine.run(1);
  engine.readTensor("y", ArrayRef<int>(hostY));
  print("stream in (ArrayRef):", hostY);

  engine.copyToRemoteBuffer(ArrayRef<int>(toRow), "row", 0);
  engine.run(2);
  engine.readTensor("y", ArrayRef<int>(hostY));
  print("copyToRemoteBuffer(ArrayRef):", hostY);
  return 0;
}
