// cloneToIpu, createIpuCopy, copyToIpu, cloneToGraph: a tensor's clone moved tile for tile onto another IPU or
// (virtual) graph, and the copy to it; cloneAndExpandAliasing: a clone whose repeated elements become new ones.
#include <string>
#include <unordered_set>
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

std::pair<poplar::Tensor, unsigned> cloneAndExpandAliasing(poplar::Graph &graph, const poplar::Tensor &t,
                                                           unsigned offset, const poplar::DebugContext &debugContext) {
  if (!t.valid())
    throw poplibs_error("cloneAndExpandAliasing: the tensor is invalid (default-constructed)");
  poplar::Tensor out = graph.addVariable(t.elementType(), t.shape(), debugContext);
  const poplar::Tensor flat = t.flatten(), outFlat = out.flatten();
  // The first view of each element of storage keeps its tile; every later view of it (an alias) becomes a new
  // element, and those are spread linearly from tile `offset` on so that no tile receives all the repeats.
  std::vector<bool> repeat(flat.numElements(), false);
  std::unordered_set<unsigned long long> seen;
  std::size_t at = 0;
  for (const poplar::VariableInterval &r : flat.getVarRegions())
    for (std::size_t o = r.interval.begin(); o < r.interval.end(); ++o, ++at)
      repeat[at] = !seen.insert((static_cast<unsigned long long>(r.var.id) << 40) | o).second;
  std::vector<poplar::Tensor> repeats;
  const auto mapping = graph.getTileMapping(flat, false);
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const poplar::Interval &iv : mapping[tile])
      for (std::size_t b = iv.begin(), e; b < iv.end(); b = e) {
        for (e = b + 1; e < iv.end() && repeat[e] == repeat[b];)
          ++e;
        if (!repeat[b])
          graph.setTileMapping(outFlat.slice(b, e), tile);
      }
  for (std::size_t b = 0, e; b < repeat.size(); b = e) {
    for (e = b + 1; e < repeat.size() && repeat[e] == repeat[b];)
      ++e;
    if (repeat[b])
      repeats.push_back(outFlat.slice(b, e));
  }
  if (repeats.empty())
    return {out, offset};
  const poplar::Tensor extra = poplar::concat(repeats);
  auto [extraMapping, next] = calcLinearTileMappingAndNewOffset(graph, extra, offset);
  graph.setTileMapping(extra, extraMapping);
  return {out, next};
}

} // namespace poputil
