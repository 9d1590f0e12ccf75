// A scalar broadcast to 1,000,000 elements on ipu2, the way a user writes it: a Copy of the broadcast scalar, and
// popops::addInPlace with the scalar as the second operand. Both must compile, run and give every element the
// scalar's value, and the tile that holds the scalar must not carry an exchange list per destination: its
// internal-exchange code stays under 4 KiB (the compiler relays a broadcast through the tiles it reaches).
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/ElementWise.hpp>
#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "sdk_check.hpp"

using namespace poplar;

namespace {

const std::size_t kElements = 1000000;
const unsigned long long kMaxExchangeCode = 4096;

// Builds, runs and checks one form; `copy` chooses Copy(broadcast) over addInPlace.
void broadcastOnce(bool copy) {
  const std::string form = copy ? "Copy(s.broadcast)" : "addInPlace(t, s)";
  IPUModel model("ipu2");
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);
  Tensor s = graph.addVariable(FLOAT, {1}, "s");
  graph.setTileMapping(s, 0);
  graph.setInitialValue(s, 2.5f);
  Tensor t = graph.addVariable(FLOAT, {kElements}, "t");
  poputil::mapTensorLinearly(graph, t);
  std::vector<float> start(kElements, copy ? -1.0f : 1.0f);
  graph.setInitialValue(t, ArrayRef<float>(start));
  program::Sequence prog;
  if (copy)
    prog.add(program::Copy(s.broadcast(kElements, 0), t));
  else
    popops::addInPlace(graph, t, s[0], prog);
  graph.createHostRead("t", t);

  Engine engine(graph, prog);
  engine.load(device);
  engine.run(0);
  std::vector<float> out(kElements);
  engine.readTensor("t", out.data(), out.data() + out.size());
  const float want = copy ? 2.5f : 3.5f;
  std::size_t wrong = 0;
  for (float v : out)
    wrong += v != want;
  check(wrong == 0, form + ": every one of the 1000000 elements is " + std::to_string(want).substr(0, 3));

  const ProfileValue profile = engine.getGraphProfile();
  const unsigned long long code =
      profile["memory"]["byCategory"]["internalExchangeCode"]["total"][0].asUInt();
  std::printf("%s: the scalar's tile holds %llu bytes of exchange code\n", form.c_str(), code);
  check(code < kMaxExchangeCode, form + ": the scalar's tile holds under 4 KiB of exchange code");
}

} // namespace

int main() {
  broadcastOnce(true);
  broadcastOnce(false);
  return checksDone("broadcast: all checks passed");
}
