// A user's program on gcl/CollectiveBalancedReorder.hpp: a 3x5 FLOAT tensor whose elements lie on tiles 2, 0 and 3
// out of index order is reordered for 2 replicas. The host rearrangement round-trips a buffer; on the device a
// gathered (collectives) tensor written in gathered order reads back in reference order through
// undoRearrangeForCollective, and a reference-order copy into that view lands in gathered order. Then the
// refusals.
#include <cstring>
#include <string>
#include <vector>

#include <gcl/CollectiveBalancedReorder.hpp>
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poputil/exceptions.hpp>

#include "sdk_check.hpp"

using namespace poplar;
using namespace poplar::program;

int main() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor ref = graph.addVariable(FLOAT, {3, 5}, "ref");
  Tensor flat = ref.flatten();
  graph.setTileMapping(flat.slice(0, 7), 2);   // 7 elements: 4 per replica, one of padding
  graph.setTileMapping(flat.slice(7, 13), 0);  // 6 elements: 3 per replica
  graph.setTileMapping(flat.slice(13, 15), 3); // 2 elements: 1 per replica
  gcl::CollectiveBalancedReorder cbr(graph, ref, 2, DebugNameAndId("cbr"));
  const gcl::CollectiveBalancedHostRearrangement &host = cbr.getHostRearrangement();
  check(host.replicationFactor == 2 && host.totalElementsPerReplica == 8,
        "2 replicas of 8 elements: tiles 0, 2, 3 give each replica 3 + 4 + 1");
  check(host.getNumRearrangedTensorElems() == 16 && cbr.getNumRearrangedTensorElems() == 16,
        "the gathered order has 16 elements (15 and one of padding)");
  check(cbr.getReferenceTensor().shape() == ref.shape(), "the reference tensor is kept");
  // Replica 0's part: tile 0's first 3 (7, 8, 9), tile 2's first 4 (0..3), tile 3's first (13); replica 1 the rest.
  std::vector<float> values(15), gathered(16, -1), back(15, 0);
  for (unsigned i = 0; i < 15; ++i)
    values[i] = float(i);
  host.rearrangeForCollective(reinterpret_cast<const char *>(values.data()), reinterpret_cast<char *>(gathered.data()),
                              sizeof(float));
  const std::vector<float> want{7, 8, 9, 0, 1, 2, 3, 13, 10, 11, 12, 4, 5, 6, -1, 14};
  check(gathered == want, "rearrangeForCollective: 7 8 9 0 1 2 3 13 | 10 11 12 4 5 6 (pad) 14");
  host.undoRearrangeForCollective(reinterpret_cast<const char *>(gathered.data()), reinterpret_cast<char *>(back.data()),
                                  sizeof(float));
  check(back == values, "undoRearrangeForCollective gives the reference order back: 0 .. 14");

  Tensor slice = cbr.createReplicaSlice(FLOAT);
  const auto sliceMap = graph.getTileMapping(slice);
  check(slice.numElements() == 8 && sliceMap[0].size() == 1 && sliceMap[0][0].size() == 3 &&
            sliceMap[2][0].size() == 4 && sliceMap[3][0].size() == 1 && sliceMap[1].empty(),
        "createReplicaSlice: 8 elements, 3 on tile 0, 4 on tile 2, 1 on tile 3, none on tile 1");
  Tensor coll = cbr.createCollectivesTensor(FLOAT, "coll");
  check(coll.rank() == 2 && coll.dim(0) == 2 && coll.dim(1) == 8, "createCollectivesTensor: shape {2, 8}");
  Tensor coll2 = cbr.createCollectivesTensor(FLOAT, "coll2");
  Tensor view = cbr.undoRearrangeForCollective(coll);
  check(view.shape() == ref.shape(), "undoRearrangeForCollective views it in the reference shape {3, 5}");
  Tensor out = graph.addVariable(FLOAT, {3, 5}, "out");
  graph.setTileMapping(out, 1);
  graph.createHostWrite("coll", coll);
  graph.createHostRead("out", out);
  graph.createHostWrite("ref", ref);
  graph.createHostRead("coll2", coll2);
  Sequence prog({Copy(view, out), Copy(ref, cbr.undoRearrangeForCollective(coll2))});
  Engine engine(graph, prog);
  engine.load(device);
  engine.writeTensor("coll", gathered.data(), gathered.data() + 16);
  engine.writeTensor("ref", values.data(), values.data() + 15);
  engine.run(0);
  std::vector<float> outBack(15, 0), coll2Back(16, 0);
  engine.readTensor("out", outBack.data(), outBack.data() + 15);
  engine.readTensor("coll2", coll2Back.data(), coll2Back.data() + 16);
  check(outBack == values, "on the device: a gathered tensor read through the view is the reference order 0 .. 14");
  coll2Back[14] = -1; // the padding element is not written
  check(coll2Back == want, "on the device: a reference-order copy into the view lands in gathered order");

  // Refusals.
  check(has(refusal<poputil::poplibs_error>([&] { gcl::CollectiveBalancedReorder bad(graph, ref, 0); }),
            "replication factor is 0"),
        "a replication factor of 0 is refused");
  Tensor loose = graph.addVariable(FLOAT, {4}, "loose");
  graph.setTileMapping(loose.slice(0, 2), 0);
  check(has(refusal<poputil::poplibs_error>([&] { gcl::CollectiveBalancedReorder bad(graph, loose, 2); }),
            "2 of the reference tensor's 4 elements have no tile mapping"),
        "a reference tensor with unmapped elements is refused naming how many");
  check(has(refusal<poputil::poplibs_error>([&] { cbr.undoRearrangeForCollective(out); }), "the tensor has 15 elements"),
        "undoRearrangeForCollective of a tensor of the wrong size is refused");
  check(has(refusal<poputil::poplibs_error>(
                [&] { host.rearrangeForCollective(nullptr, nullptr, 0); }),
            "elemByteSize 0"),
        "an element size of 0 bytes is refused");
  // A grain of 2 elements: each tile's share rounds up to whole grains (tile 2: 7 -> 8, 4 per replica).
  gcl::CollectiveBalancedReorder grains(graph, ref, 2, {}, false, 2);
  check(grains.getHostRearrangement().totalElementsPerReplica == 10,
        "with a grain of 2 each replica's part is 4 + 4 + 2 = 10 elements");
  return checksDone("gcl balanced reorder: all checks passed");
}
