// A user's program that calls popops and links only what it calls: g++ --std=c++11 link_popops_only.cpp -lpoplar
// -lpopops, never -lpoputil (which libpopops needs). It is linked with a RUNPATH to the install's lib folder (as
// Ubuntu's g++ records -Wl,-rpath) and run with no LD_LIBRARY_PATH: the program's RUNPATH finds libpoplar and
// libpopops, and only libpopops' own RUNPATH ($ORIGIN) can find libpoputil.
#include <cstdio>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  Tensor a = graph.addVariable(FLOAT, {4}, VariableMappingMethod::LINEAR, "a");
  Tensor b = graph.addVariable(FLOAT, {4}, VariableMappingMethod::LINEAR, "b");
  Sequence prog;
  Tensor sum = popops::add(graph, a, b, prog, "sum");
  graph.createHostWrite("a", a);
  graph.createHostWrite("b", b);
  graph.createHostRead("sum", sum);

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> av = {1, 2, 3, 4}, bv = {10, 20, 30, 40}, out(4);
  engine.writeTensor("a", av.data());
  engine.writeTensor("b", bv.data());
  engine.run(0);
  engine.readTensor("sum", out.data());
  std::printf("sum: %g %g %g %g\n", out[0], out[1], out[2], out[3]);
  return 0;
}
