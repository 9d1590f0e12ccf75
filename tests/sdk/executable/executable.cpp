// Compilation as its own step (the Programmer's Guide "Compilation"): compileGraph gives an Executable, which is
// serialised to a file; a second process reads the file and runs it in an Engine without compiling again.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

static int runFrom(Executable exe, const char *who) {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Engine engine(std::move(exe));
  engine.load(device);
  float in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
  engine.connectStream("in", in);
  engine.connectStream("out", out);
  engine.run(0);
  std::cout << who << ": " << out[0] << " " << out[1] << " " << out[2] << " " << out[3] << "\n";
  return 0;
}

int main(int argc, char **argv) {
  const std::string file = "reversed.poplar_exec";
  if (argc > 1 && std::string(argv[1]) == "load") {
    std::ifstream is(file.c_str(), std::ios::binary);
    return runFrom(Executable::deserialize(is), "second process");
  }
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(FLOAT, {4}, "x");
  graph.setTileMapping(x, 0);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", FLOAT, 4);
  Tensor y = graph.addVariable(FLOAT, {4}, "y");
  graph.setTileMapping(y, 1);
  Sequence prog(Copy(in, x), Copy(x.reverse(0), y), Copy(y, out));

  Executable exe = compileGraph(graph, {prog});
  {
    std::ofstream os(file.c_str(), std::ios::binary);
    exe.serialize(os);
  }
  std::cout << "compiled and saved\n";
  std::ifstream is(file.c_str(), std::ios::binary);
  runFrom(Executable::deserialize(is), "second engine");
  std::string self = std::string(argv[0]) + " load";
  return std::system(self.c_str()) == 0 ? 0 : 1;
}
