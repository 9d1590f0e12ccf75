// A user's program on Graph::addExternalVariable (a variable the host reaches by its name) and
// Graph::addExternalExchangeVertex (a vertex of an external exchange compute set; on the emulator it runs as an
// ordinary vertex and the SDK's placement rules are enforced).
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("external_codelet.cpp");

  // An external variable: written and read by the host under its name.
  Tensor shared = graph.addExternalVariable(FLOAT, {2}, "shared");
  check(shared.numElements() == 2 && shared.elementType() == FLOAT, "addExternalVariable makes a FLOAT[2] variable");
  graph.setTileMapping(shared[0], 0);
  graph.setTileMapping(shared[1], 1);
  std::string dup = refusal<poplar_error>([&] { graph.addExternalVariable(FLOAT, {1}, "shared"); });
  check(has(dup, "'shared'") && has(dup, "name of its own"), "a second external variable 'shared' is refused: " + dup);
  std::string empty = refusal<poplar_error>([&] { graph.addExternalVariable(FLOAT, {1}, ""); });
  check(has(empty, "name is empty"), "an empty name is refused: " + empty);

  // External exchange vertices: one per tile, tile 0 sends XREQ; they run as ordinary vertices.
  ComputeSet external = graph.addComputeSet("external");
  for (unsigned i = 0; i < 2; ++i) {
    VertexRef v = graph.addExternalExchangeVertex(external, "Doubles", 4, i == 1, i == 0);
    graph.connect(v["x"], shared[i]);
    graph.setTileMapping(v, i);
  }
  std::string mixed = refusal<graph_object_creation_error>([&] { graph.addVertex(external, "Doubles"); });
  check(has(mixed, "cannot mix"), "an ordinary vertex in the external compute set is refused: " + mixed);
  ComputeSet ordinary = graph.addComputeSet("ordinary");
  Tensor y = graph.addVariable(FLOAT, {}, "y");
  graph.setTileMapping(y, 2);
  graph.setTileMapping(graph.addVertex(ordinary, "Doubles", {{"x", y}}), 2);
  std::string mixed2 =
      refusal<graph_object_creation_error>([&] { graph.addExternalExchangeVertex(ordinary, "Doubles", 0, false, false); });
  check(has(mixed2, "cannot mix"), "an external exchange vertex in an ordinary compute set is refused: " + mixed2);

  Engine engine(graph, Execute(external));
  engine.load(device);
  std::vector<float> in = {1.5f, -3.0f}, out(2);
  engine.writeTensor("shared", in.data(), in.data() + 2);
  engine.run(0);
  engine.readTensor("shared", out.data(), out.data() + 2);
  check(out[0] == 3.0f && out[1] == -6.0f, "the host writes 'shared', the vertices double it, the host reads 3, -6");

  // Compile-time rules: two on one tile; XREQ sent from two tiles.
  for (int rule = 0; rule < 2; ++rule) {
    Graph g(device.getTarget());
    g.addCodelets("external_codelet.cpp");
    Tensor z = g.addVariable(FLOAT, {2}, "z");
    g.setTileMapping(z, 0);
    ComputeSet cs = g.addComputeSet("cs");
    for (unsigned i = 0; i < 2; ++i) {
      VertexRef v = g.addExternalExchangeVertex(cs, "Doubles", 0, false, rule == 1);
      g.connect(v["x"], z[i]);
      g.setTileMapping(v, rule == 0 ? 0 : i);
    }
    std::string why = refusal<graph_program_compilation_error>([&] { Engine e(g, Execute(cs)); });
    if (rule == 0)
      check(has(why, "two external exchange vertices on tile 0"),
            "two external exchange vertices on one tile fail compilation: " + why);
    else
      check(has(why, "XREQ senders on tiles 0 and 1"), "two XREQ senders fail compilation: " + why);
  }
  return checksDone("graph_external: all checks passed");
}
