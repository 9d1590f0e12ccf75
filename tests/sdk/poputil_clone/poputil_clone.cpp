// poputil's clone helpers that take a TensorCloneMethod, as Graphcore's DuplicateTensor and CopyToIpu tests use
// them: duplicate of a broadcast view keeping its aliases, and copyToIpu / createIpuCopy onto the second IPU of a
// two-IPU model; values checked after a run.
#include <cstdio>
#include <string>
#include <vector>

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/Util.hpp>
#include <poputil/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel model;
  model.numIPUs = 2;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph g(device.getTarget());
  const unsigned perIpu = g.getTarget().getTilesPerIPU();

  Tensor x = g.addVariable(INT, {4}, "x");
  for (unsigned i = 0; i < 4; ++i)
    g.setTileMapping(x[i], i % perIpu);
  Sequence prog;
  Tensor dup = poputil::duplicate(g, x.broadcast(2, 0), prog, "dup", TensorCloneMethod::PRESERVE_ORDER_AND_ALIASES);
  check(dup.numElements() == 8 && dup.containsAliases(), "duplicate keeps the broadcast's aliases");
  Tensor moved = poputil::copyToIpu(g, x, prog, 1, "moved", TensorCloneMethod::CREATE_NEW_ORDER);
  const auto mapping = g.getTileMapping(moved);
  bool onIpu1 = true;
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    onIpu1 = onIpu1 && (mapping[tile].empty() || tile / perIpu == 1);
  check(onIpu1 && mapping[perIpu + 2].size() == 1, "copyToIpu maps the copy tile for tile onto IPU 1");
  Tensor src, dst;
  Tensor made = poputil::createIpuCopy(g, x.broadcast(3, 0), 1, src, dst, "made");
  check(made.containsAliases() && src.numElements() == 4 && dst.numElements() == 4,
        "createIpuCopy: an aliased clone, copy tensors with each element once");
  prog.add(Copy(src, dst));
  try {
    poputil::copyToIpu(g, x, prog, 2);
    check(false, "copyToIpu to IPU 2 of 2 refused");
  } catch (const poputil::poplibs_error &e) {
    check(std::string(e.what()).find("dstIPU 2") != std::string::npos, "copyToIpu to IPU 2 of 2 refused");
  }
  g.createHostWrite("x", x);
  g.createHostRead("dup", dup.slice(4, 8));
  g.createHostRead("moved", moved);
  g.createHostRead("made", made.slice(8, 12));
  Engine engine(g, prog);
  engine.load(device);
  std::vector<int> in = {1, 2, 3, 4}, a(4), b(4), c(4);
  engine.writeTensor("x", in.data(), in.data() + 4);
  engine.run(0);
  engine.readTensor("dup", a.data(), a.data() + 4);
  engine.readTensor("moved", b.data(), b.data() + 4);
  engine.readTensor("made", c.data(), c.data() + 4);
  check(a == in && b == in && c == in, "the copies hold x");
  return checksDone("all poputil clone checks passed");
}
