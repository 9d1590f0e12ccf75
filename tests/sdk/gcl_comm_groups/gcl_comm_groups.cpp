// Graphcore's grouped collectives on 4 replicas: allReduceCrossReplica over all replicas, over CONSECUTIVE pairs
// ({0,1}, {2,3}) and over ORTHOGONAL pairs ({0,2}, {1,3}); allGatherCrossReplica over CONSECUTIVE pairs;
// reduceScatterCrossReplica over ORTHOGONAL pairs; perIPUTiles; a group size that does not divide the replicas.
#include <cstdio>
#include <string>
#include <vector>

#include <gcl/Collectives.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  const unsigned replicas = 4;
  const std::size_t n = 4;
  IPUModel model;
  model.numIPUs = replicas;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget(), replication_factor(replicas));
  popops::addCodelets(graph);
  Tensor x = graph.addLinearlyMappedVariable(FLOAT, {n}, "x");
  Sequence prog(Copy(graph.addHostToDeviceFIFO("x", FLOAT, n), x));
  const gcl::CommGroup pairs(gcl::CommGroupType::CONSECUTIVE, 2), strided(gcl::CommGroupType::ORTHOGONAL, 2);
  Tensor all = gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::ADD, prog, {"all"});
  Tensor cons = gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::ADD, prog, pairs, {"pairs"});
  Tensor orth = gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::MAX, prog, strided, {"strided"});
  Tensor gath = gcl::allGatherCrossReplica(graph, x, prog, pairs, {"gather"});
  Tensor scat = gcl::reduceScatterCrossReplica(graph, x, gcl::CollectiveOperator::ADD, prog, strided, {"scatter"});
  Tensor inPlace = graph.clone(x, "inPlace");
  prog.add(Copy(x, inPlace));
  gcl::allReduceInPlaceCrossReplica(graph, inPlace, gcl::CollectiveOperator::MEAN, prog, pairs, {"mean"});
  const char *names[] = {"all", "cons", "orth", "gath", "scat", "mean"};
  Tensor outs[] = {all, cons, orth, gath, scat, inPlace};
  for (unsigned i = 0; i < 6; ++i)
    prog.add(Copy(outs[i], graph.addDeviceToHostFIFO(names[i], FLOAT, outs[i].numElements())));

  check(gath.shape() == std::vector<std::size_t>{2, n}, "allGatherCrossReplica gives [group size, n]");
  check(scat.numElements() == n / 2, "reduceScatterCrossReplica gives n / group size elements");

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<std::vector<float> > in(replicas, std::vector<float>(n));
  std::vector<std::vector<std::vector<float> > > out(6, std::vector<std::vector<float> >(replicas));
  for (unsigned r = 0; r < replicas; ++r) {
    for (std::size_t i = 0; i < n; ++i)
      in[r][i] = float(10 * r + i);
    engine.connectStream("x", r, in[r].data());
    for (unsigned k = 0; k < 6; ++k) {
      out[k][r].resize(outs[k].numElements());
      engine.connectStream(names[k], r, out[k][r].data());
    }
  }
  engine.run(0);
  bool okAll = true, okCons = true, okOrth = true, okGath = true, okScat = true, okMean = true;
  for (unsigned r = 0; r < replicas; ++r) {
    const unsigned c0 = r / 2 * 2, o0 = r % 2; // first member of r's CONSECUTIVE / ORTHOGONAL pair
    for (std::size_t i = 0; i < n; ++i) {
      okAll = okAll && out[0][r][i] == in[0][i] + in[1][i] + in[2][i] + in[3][i];
      okCons = okCons && out[1][r][i] == in[c0][i] + in[c0 + 1][i];
      okOrth = okOrth && out[2][r][i] == std::max(in[o0][i], in[o0 + 2][i]);
      okGath = okGath && out[3][r][i] == in[c0][i] && out[3][r][n + i] == in[c0 + 1][i];
      okMean = okMean && out[5][r][i] == (in[c0][i] + in[c0 + 1][i]) / 2;
    }
    const unsigned member = r / 2; // r's index within its ORTHOGONAL pair
    for (std::size_t i = 0; i < n / 2; ++i)
      okScat = okScat && out[4][r][i] == in[o0][member * 2 + i] + in[o0 + 2][member * 2 + i];
  }
  check(okAll, "allReduceCrossReplica ADD over all replicas");
  check(okCons, "allReduceCrossReplica ADD over CONSECUTIVE pairs");
  check(okOrth, "allReduceCrossReplica MAX over ORTHOGONAL pairs");
  check(okGath, "allGatherCrossReplica over CONSECUTIVE pairs");
  check(okScat, "reduceScatterCrossReplica ADD over ORTHOGONAL pairs");
  check(okMean, "allReduceInPlaceCrossReplica MEAN over CONSECUTIVE pairs");

  std::vector<unsigned> tiles = gcl::perIPUTiles(graph, 1, 2);
  check(tiles.size() == 2 && tiles[0] == 1 && tiles[1] == 2, "perIPUTiles on one replica's IPU");
  bool threw = false;
  try {
    Sequence p2;
    gcl::allReduceCrossReplica(graph, x, gcl::CollectiveOperator::ADD, p2,
                               gcl::CommGroup(gcl::CommGroupType::CONSECUTIVE, 3));
  } catch (const poputil::poplibs_error &e) {
    threw = std::string(e.what()).find("does not divide") != std::string::npos;
  }
  check(threw, "a group of 3 on 4 replicas is refused");
  return checksDone("all comm group checks passed");
}
