// program::PrintTensor with a PrintTensorFmt (poplar/PrintTensor.hpp): other brackets and separator, fixed and
// scientific digits, a summary past the threshold in every dimension, FloatFormat::None; the same layout from an
// Executable read back from its serialized form.
#include <iostream>
#include <sstream>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Executable.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/PrintTensor.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());

  Tensor f = graph.addConstant<float>(FLOAT, {2, 2}, {0.5f, -2.0f, 3.25f, 1000.0f});
  std::vector<int> count(10);
  for (int i = 0; i < 10; ++i)
    count[i] = i;
  Tensor v = graph.addConstant<int>(INT, {10}, count);
  std::vector<unsigned> grid(36);
  for (unsigned i = 0; i < 36; ++i)
    grid[i] = i;
  Tensor g = graph.addConstant<unsigned>(UNSIGNED_INT, {6, 6}, grid);
  graph.setTileMapping(f, 0);
  graph.setTileMapping(v, 1);
  graph.setTileMapping(g, 2);

  typedef PrintTensorFmt::FloatFormat FF;
  Sequence prog({PrintTensor("fixed", f, PrintTensorFmt(1000, 3, 75, 2, FF::Fixed, ',', '(', ')')),
                 PrintTensor("sci", f.slice(0, 1, 0), PrintTensorFmt(1000, 3, 75, 3, FF::Scientific)),
                 PrintTensor("auto", f.slice(1, 2, 0), PrintTensorFmt(1000, 3, 75, 3)),
                 PrintTensor("summary", v, PrintTensorFmt(5, 2)), PrintTensor("whole", v, PrintTensorFmt(10, 2)),
                 PrintTensor("grid", g, PrintTensorFmt(20, 1, 75, 8, FF::None, ' ', '<', '>')),
                 PrintTensor(v.slice(0, 3), PrintTensorFmt(1000, 3, 75, 8, FF::Auto, ';'))});
  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);

  // The format travels with a serialized executable.
  std::stringstream file;
  compileGraph(graph, {prog}).serialize(file);
  Engine fromFile(Executable::deserialize(file));
  fromFile.load(device); // replaces `engine` on the device
  std::ostringstream captured;
  fromFile.setPrintTensorStream(captured);
  fromFile.run(0);
  std::string text = captured.str();
  std::cout << "from a serialized executable: " << text.substr(0, text.find('\n')) << "\n";
  return 0;
}
