// poplar/RandomSeed.hpp as a user repeats random numbers: read the tiles' generator state with getHwSeeds, draw,
// put the state back with setHwSeeds, draw again: the two draws match, and differ from a draw that follows without
// the reset. A bad seeds tensor is refused.
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/RandomSeed.hpp>
#include <poprand/RandomGen.hpp>
#include <poprand/codelets.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel model;
  Device device = model.createDevice();
  const Target &target = device.getTarget();
  Graph g(target);
  poprand::addCodelets(g);
  Tensor ref = g.addVariable(FLOAT, {64}, VariableMappingMethod::LINEAR, "ref");

  Sequence prog;
  Tensor saved = getHwSeeds(g, prog, "save");
  check(saved.elementType() == UNSIGNED_INT &&
            saved.shape() == std::vector<std::size_t>({target.getNumTiles(), target.getNumWorkerContexts(), 4}),
        "getHwSeeds: UNSIGNED_INT {tiles, workers, 4}");
  Tensor first = poprand::uniform(g, nullptr, 0, ref, FLOAT, 0.0, 1.0, prog, "first");
  Tensor next = poprand::uniform(g, nullptr, 0, ref, FLOAT, 0.0, 1.0, prog, "next");
  setHwSeeds(g, saved, prog, "restore");
  Tensor again = poprand::uniform(g, nullptr, 0, ref, FLOAT, 0.0, 1.0, prog, "again");
  Tensor after = getHwSeeds(g, prog);
  g.createHostRead("first", first);
  g.createHostRead("next", next);
  g.createHostRead("again", again);
  g.createHostRead("saved", saved);
  g.createHostRead("after", after);

  try {
    setHwSeeds(g, ref, prog);
    check(false, "setHwSeeds(FLOAT {64}) refused");
  } catch (const poplar_error &e) {
    check(std::string(e.what()).find("UNSIGNED_INT of shape") != std::string::npos, "setHwSeeds(FLOAT {64}) refused");
  }

  Engine engine(g, prog);
  engine.load(device);
  engine.run(0);
  std::vector<float> a(64), b(64), c(64);
  std::vector<unsigned> s(saved.numElements()), t(after.numElements());
  engine.readTensor("first", a.data(), a.data() + 64);
  engine.readTensor("next", b.data(), b.data() + 64);
  engine.readTensor("again", c.data(), c.data() + 64);
  engine.readTensor("saved", s.data(), s.data() + s.size());
  engine.readTensor("after", t.data(), t.data() + t.size());
  check(a == c, "the draw after setHwSeeds repeats the first draw");
  check(a != b, "the draw that follows without the reset differs");
  check(s != t, "drawing advanced the state getHwSeeds reads");
  bool inRange = true;
  for (float v : a)
    inRange = inRange && v >= 0.0f && v <= 1.0f;
  check(inRange, "the draws are in [0, 1]");
  return checksDone("all random seed checks passed");
}
