// A user's build script and program: reads the SDK version from `popc --version` and checks that it matches
// poplar::versionString(), compiles codelets with the SDK's popc command line (--target=NAME, a target list
// --target cpu,ipu1,ipu2, -O, -I DIR, -D NAME=VALUE), loads the .gp and runs its vertex.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

static std::string firstLineOf(const std::string &command) {
  FILE *p = popen(command.c_str(), "r");
  if (!p)
    return "";
  char buf[512] = {0};
  std::string line = std::fgets(buf, sizeof buf, p) ? buf : "";
  pclose(p);
  while (!line.empty() && (line[line.size() - 1] == '\n' || line[line.size() - 1] == '\r'))
    line.erase(line.size() - 1);
  return line;
}

static bool runs(const std::string &command) {
  std::printf("+ %s\n", command.c_str());
  std::fflush(stdout);
  return std::system(command.c_str()) == 0;
}

int main() {
  const std::string version = versionString(), hash = packageHash();
  check(version.compare(0, 2, "3.") == 0 && version == version.substr(0, version.find(' ')) + " (" + hash + ")",
        "versionString() is the SDK version and the package hash: " + version);
  check(hash.size() == 10 && hash.find_first_not_of("0123456789abcdef") == std::string::npos,
        "packageHash() is ten hex digits");
  check(firstLineOf("popc --version") == "POPLAR version " + version, "popc --version prints versionString()");

  std::system("mkdir -p inc");
  std::ofstream("inc/scale_offset.h") << "#define OFFSET 1\n";
  check(runs("popc --target=ipu2 -O3 -I inc -D SCALE=3 scale_codelets.cpp -o a.gp"), "popc --target=ipu2 -O3 -I -D");
  check(runs("popc --target cpu,ipu1,ipu2 -O2 -Iinc -DSCALE=3 scale_codelets.cpp -o b.gp"),
        "popc --target cpu,ipu1,ipu2 with joined -I and -D");
  check(!runs("popc --target ipu2 -I inc scale_codelets.cpp -o c.gp 2>/dev/null"), "popc without -D SCALE fails");
  check(!runs("popc --target=nosuchipu -I inc -D SCALE=3 scale_codelets.cpp -o d.gp 2>/dev/null"),
        "popc refuses an unknown target");

  IPUModel model;
  model.tilesPerIPU = 2;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  graph.addCodelets("b.gp");
  Tensor v = graph.addVariable(INT, {3}, "v");
  graph.setTileMapping(v, 1);
  ComputeSet cs = graph.addComputeSet("scale");
  VertexRef vx = graph.addVertex(cs, "ScaleAndOffset", {{"v", v}});
  graph.setTileMapping(vx, 1);
  graph.createHostWrite("v_in", v);
  graph.createHostRead("v_out", v);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  std::vector<int> in = {1, 2, 3}, out(3, 0);
  engine.writeTensor("v_in", in.data());
  engine.run(0);
  engine.readTensor("v_out", out.data());
  check(out[0] == 4 && out[1] == 7 && out[2] == 10, "the codelet compiled with -D SCALE=3 and -I runs");
  return checksDone("popc command line: all checks passed");
}
