// cloneToIpu, createIpuCopy, copyToIpu, cloneToGraph: a tensor's clone moved tile for tile onto another IPU or
// (virtual) graph, and the copy to it.
#include <string>
#include <vector>

#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

poplar::Tensor cloneToIpu(poplar::Graph &graph, const poplar::Tensor &t, unsigned dstIPU,
                          const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method) {
  const poplar::Target &target = graph.getTarget();
  if (dstIPU >= target.getNumIPUs())
    throw poplibs_error("cloneToIpu: dstIPU " + std::to_string(dstIPU) + " is not an IPU of the target, which has " +
                        std::to_string(target.getNumIPUs()) + " (0.." + std::to_string(target.getNumIPUs() - 1) +
                        ")");
  poplar::Tensor out = graph.clone(t, debugContext, method);
  // The clone's flat element i is t's flat element i (aliases included), so t's mapping, moved, maps it.
  const auto mapping = graph.getTileMapping(t);
  const unsigned perIpu = target.getTilesPerIPU();
  std::vector<std::vector<poplar::Interval> > moved(target.getNumTiles());
  for (std::size_t tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &i : mapping[tile])
      moved[dstIPU * perIpu + tile % perIpu].push_back(i);
  graph.setTileMapping(out, moved);
  return out;
}

poplar::Tensor cloneToGraph(poplar::Graph &srcGraph, poplar::Graph &dstGraph, const poplar::Tensor &t,
                            const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method) {
  auto mapping = srcGraph.getTileMapping(t);
  const std::size_t dstTiles = dstGraph.getTarget().getNumTiles();
  // Tile i of the source graph becomes tile i of the destination: each used tile must exist there.
  for (std::size_t tile = dstTiles; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty())
      throw poplibs_error("cloneToGraph: the tensor uses tile " + std::to_string(tile) +
                          " of the source graph; the destination graph has " + std::to_string(dstTiles) + " tiles");
  mapping.resize(dstTiles);
  poplar::Tensor out = dstGraph.clone(t, debugContext, method);
  dstGraph.setTileMapping(out, mapping);
  return out;
}

poplar::Tensor createIpuCopy(poplar::Graph &graph, const poplar::Tensor &t, unsigned dstIpu, poplar::Tensor &copySrc,
                             poplar::Tensor &copyDst, const poplar::DebugContext &debugContext,
                             poplar::TensorCloneMethod method) {
  poplar::Tensor out = cloneToIpu(graph, t, dstIpu, debugContext, method);
  copySrc = t;
  copyDst = out;
  if (out.containsAliases()) {
    // A copy may write each element once: keep one of each aliased group, at the same indices on both sides.
    const poplar::Tensor srcFlat = t.flatten(), dstFlat = out.flatten();
    const auto seqs = graph.getSortedContiguousRegions(srcFlat, {{0, srcFlat.numElements()}}, true);
    std::vector<poplar::Interval> keep;
    for (const auto &s : seqs)
      keep.insert(keep.end(), s.begin(), s.end());
    copySrc = poplar::concat(srcFlat.slices(keep));
    copyDst = poplar::concat(dstFlat.slices(keep));
  }
  return out;
}

poplar::Tensor copyToIpu(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                         unsigned dstIPU, const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method) {
  poplar::Tensor src, dst;
  poplar::Tensor out = createIpuCopy(graph, t, dstIPU, src, dst, debugContext, method);
  prog.add(poplar::program::Copy(src, dst, false, debugContext));
  return out;
}

} // namespace poputil
