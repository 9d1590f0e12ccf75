// A user's program on poplar/CSRFunctions.hpp: it turns floating-point exceptions on (the SDK's default
// FloatingPointBehaviour), stochastic rounding off, saves and restores the state with
// getAndModifyFloatingPointBehaviour, and divides by zero, overflows and makes a NaN. On the emulated tiles the
// arithmetic is fixed (hostlib/poplar/README.md): the program runs to the end and the results are IEEE's quiet
// ones; the saved state holds nanoo, the one field modelled (for QUARTER conversions). A state tensor of the
// wrong type is refused.
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include <poplar/CSRFunctions.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  FloatingPointBehaviour all;
  check(all.inv && all.div0 && all.oflo && all.esr && all.nanoo, "the default behaviour has every field true");
  FloatingPointBehaviour some(false, true, false, true, false);
  FloatingPointBehaviour negated = !some;
  check(negated.inv && !negated.div0 && negated.oflo && !negated.esr && negated.nanoo, "operator! negates each field");

  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("fp_codelets.cpp");

  const float big = std::numeric_limits<float>::max();
  const std::vector<float> a = {1.0f, big, 0.0f, 6.0f}, b = {0.0f, 0.5f, 0.0f, 3.0f};
  Tensor ta = graph.addConstant(FLOAT, {4}, a.data(), "a");
  Tensor tb = graph.addConstant(FLOAT, {4}, b.data(), "b");
  Tensor out = graph.addVariable(FLOAT, {4}, "out");
  for (Tensor t : {ta, tb, out})
    graph.setTileMapping(t, 2);
  ComputeSet cs = graph.addComputeSet("divide");
  graph.setTileMapping(graph.addVertex(cs, "Divide", {{"a", ta}, {"b", tb}, {"out", out}}), 2);

  Sequence prog;
  setFloatingPointBehaviour(graph, prog, all, "exceptionsOn");
  setStochasticRounding(graph, prog, false, "roundToNearest");
  Tensor saved = getAndModifyFloatingPointBehaviour(graph, prog, FloatingPointBehaviour(true, true, true, false, false),
                                                    FloatingPointBehaviour(false, false, false, true, true), "save");
  prog.add(Execute(cs));
  setFloatingPointBehaviour(graph, prog, saved, "restore");
  graph.createHostRead("out", out);
  graph.createHostRead("saved", saved);
  check(saved.elementType() == UNSIGNED_INT && saved.numElements() == 1, "the saved state is one UNSIGNED_INT");

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  float result[4] = {0, 0, 0, 0};
  unsigned state = 99;
  engine.readTensor("out", result);
  engine.readTensor("saved", &state);
  check(std::isinf(result[0]) && result[0] > 0, "1/0 is +inf and does not stop the program");
  check(std::isinf(result[1]) && result[1] > 0, "max/0.5 overflows to +inf");
  check(std::isnan(result[2]), "0/0 is NaN");
  check(result[3] == 2.0f, "6/3 is 2");
  check(state == FP_CONTROL_NANOO, "the saved state holds the nanoo the first call set (the one field modelled)");

  bool refused = false;
  try {
    Sequence p;
    setFloatingPointBehaviour(graph, p, out, "restore");
  } catch (const poplar_error &e) {
    refused = std::string(e.what()).find("UNSIGNED_INT") != std::string::npos;
  }
  check(refused, "a state tensor that is not one UNSIGNED_INT is refused, naming the type wanted");
  return checksDone("csr functions: all checks passed");
}
