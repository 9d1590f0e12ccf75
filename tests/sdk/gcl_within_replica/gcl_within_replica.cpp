// gcl across the IPUs of one replica, as popart and TensorFlow shard a tensor: one row per IPU, concatenated;
// allReduceWithinReplica leaves every row holding the reduction. Also gcl's options (accepted names, refused
// values and names) and perIPUTiles from gcl/TileAllocation.hpp.
#include <string>
#include <vector>

#include <gcl/Collectives.hpp>
#include <gcl/TileAllocation.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <popops/codelets.hpp>
#include <poputil/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

template <typename F> static bool refusedAsInvalidOption(F f) {
  try {
    f();
  } catch (const poplar::invalid_option &) {
    return true;
  }
  return false;
}

int main() {
  const std::size_t n = 3;
  IPUModel model;
  model.numIPUs = 2;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  popops::addCodelets(graph);

  std::vector<unsigned> tiles = gcl::perIPUTiles(graph, 1, 2);
  check(tiles == std::vector<unsigned>({1, 2, 5, 6}), "perIPUTiles(graph, 1, 2) is 1 2 5 6");

  // Row i lives on IPU i (tile 0 of IPU 0, tile 4 = tile 0 of IPU 1).
  Tensor a = graph.addVariable(FLOAT, {n}, "onIpu0"), b = graph.addVariable(FLOAT, {n}, "onIpu1");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 4);
  Tensor rows = concat(a.expand({0}), b.expand({0}));
  Sequence prog;
  prog.add(Copy(graph.addHostToDeviceFIFO("in", FLOAT, 2 * n), rows.flatten()));
  OptionFlags accepted = {{"useSynclessCollectives", "true"}, {"maxBytesPerTile", "35000"},
                          {"topology", "ring-on-line"}};
  Tensor sum = gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::ADD, prog, "sum", accepted);
  Tensor max = gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::MAX, prog, "max");
  Tensor mean = gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::MEAN, prog, "mean");
  Tensor local = gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::LOCAL, prog, "local");
  check(graph.getTileMapping(sum[1])[4].size() == 1 && graph.getTileMapping(sum[0])[0].size() == 1,
        "the result's rows are mapped like the data's");
  prog.add(Copy(concat({sum.flatten(), max.flatten(), mean.flatten(), local.flatten()}),
                graph.addDeviceToHostFIFO("out", FLOAT, 8 * n)));

  check(refusedAsInvalidOption([&] {
          Sequence p;
          gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::ADD, p, "x",
                                      {{"maxBytesPerTile", "-1"}});
        }),
        "maxBytesPerTile -1 refused");
  check(refusedAsInvalidOption([&] {
          Sequence p;
          gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::ADD, p, "x",
                                      {{"useSynclessCollectives", "maybe"}});
        }),
        "useSynclessCollectives maybe refused");
  check(refusedAsInvalidOption([&] {
          Sequence p;
          gcl::allReduceWithinReplica(graph, rows, gcl::CollectiveOperator::ADD, p, "x", {{"noSuchOption", "1"}});
        }),
        "an unknown gcl option refused");
  bool wrongShape = false;
  try {
    Sequence p;
    gcl::allReduceWithinReplica(graph, a, gcl::CollectiveOperator::ADD, p, "x");
  } catch (const poputil::poplibs_error &) {
    wrongShape = true;
  }
  check(wrongShape, "data without one row per IPU refused");

  Engine engine(graph, prog);
  engine.load(device);
  std::vector<float> in = {1, -5, 2.5f, 3, 4, -1.5f}, out(8 * n);
  engine.connectStream("in", in.data());
  engine.connectStream("out", out.data());
  engine.run(0);
  bool sumOk = true, maxOk = true, meanOk = true, localOk = true;
  for (unsigned row = 0; row < 2; ++row)
    for (std::size_t i = 0; i < n; ++i) {
      const float x = in[i], y = in[n + i];
      sumOk = sumOk && out[row * n + i] == x + y;
      maxOk = maxOk && out[2 * n + row * n + i] == (x > y ? x : y);
      meanOk = meanOk && out[4 * n + row * n + i] == (x + y) / 2;
      localOk = localOk && out[6 * n + row * n + i] == in[row * n + i];
    }
  check(sumOk, "ADD: both IPUs hold 4 -1 1");
  check(maxOk, "MAX: both IPUs hold 3 4 2.5");
  check(meanOk, "MEAN: both IPUs hold 2 -0.5 0.5");
  check(localOk, "LOCAL: each IPU keeps its row");
  return checksDone("all checks passed");
}
