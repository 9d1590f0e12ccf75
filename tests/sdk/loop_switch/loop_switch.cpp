// program::Loop, ended by an ErrorProgram in its body after a known number of turns, and the Switch factories:
// switchWithBoundsChecking runs the matching case and stops the run on a value with no case;
// switchWithUnreachableDefault runs the cases added to it.
#include <iostream>
#include <string>
#include <utility>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel ipuModel;
  ipuModel.tilesPerIPU = 4;
  Device device = ipuModel.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("count_codelets.cpp");

  Tensor n = graph.addVariable(UNSIGNED_INT, {}, "n");
  Tensor limit = graph.addConstant<unsigned>(UNSIGNED_INT, {}, 7u, "limit");
  Tensor done = graph.addVariable(UNSIGNED_INT, {}, "done");
  Tensor zero = graph.addConstant<unsigned>(UNSIGNED_INT, {}, 0u, "zero");
  for (Tensor t : {n, limit, done, zero})
    graph.setTileMapping(t, 1);
  ComputeSet cs = graph.addComputeSet("countUp");
  graph.setTileMapping(graph.addVertex(cs, "CountUp", {{"n", n}, {"limit", limit}, {"done", done}}), 1);

  // The error that ends the loop carries the count (ErrorProgram sends its debug tensor with the message).
  Sequence loop({Copy(zero, n), Loop(Sequence({Execute(cs), If(done, ErrorProgram("the count reached", n))}))});

  // Switch on `which` (written by the host): case 0 writes 100, case 1 writes 200 into `out`.
  Tensor which = graph.addVariable(INT, {}, "which");
  Tensor out = graph.addVariable(INT, {}, "out");
  Tensor c100 = graph.addConstant<int>(INT, {}, 100, "c100"), c200 = graph.addConstant<int>(INT, {}, 200, "c200");
  for (Tensor t : {which, out, c100, c200})
    graph.setTileMapping(t, 2);
  std::vector<std::pair<std::int32_t, Program> > cases;
  cases.push_back(std::make_pair(0, Program(Copy(c100, out))));
  cases.push_back(std::make_pair(1, Program(Copy(c200, out))));
  Switch checked = Switch::switchWithBoundsChecking(which, cases, "checked");
  Switch unreachable = Switch::switchWithUnreachableDefault(which, "unreachable");
  unreachable.add(0, Copy(c200, out)).add(1, Copy(c100, out));
  graph.createHostWrite("which", which);
  graph.createHostRead("out", out);
  graph.createHostRead("n", n);

  Engine engine(graph, {loop, checked, unreachable});
  engine.load(device);
  try {
    engine.run(0);
    std::cout << "the loop did not end\n";
  } catch (const application_runtime_error &e) {
    std::cout << "loop ended: " << e.what() << "\n";
  }

  int v = 1, result = 0;
  engine.writeTensor("which", &v);
  engine.run(1);
  engine.readTensor("out", &result);
  std::cout << "checked case 1: " << result << "\n";
  engine.run(2);
  engine.readTensor("out", &result);
  std::cout << "unreachable-default case 1: " << result << "\n";
  v = 5;
  engine.writeTensor("which", &v);
  try {
    engine.run(1);
    std::cout << "an out-of-range value did not stop the run\n";
  } catch (const application_runtime_error &e) {
    std::cout << "out of range stopped: " << (std::string(e.what()).find("matches no case") != std::string::npos)
              << "\n";
  }
  return 0;
}
