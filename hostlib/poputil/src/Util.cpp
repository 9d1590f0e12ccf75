// Clones and duplicates of tensors.
#include "poputil/Util.hpp"

#include <vector>

#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

poplar::Tensor cloneToGraph(poplar::Graph &graph, const poplar::Tensor &t, const poplar::DebugContext &debugContext) {
  if (!t.valid())
    throw poplibs_error("clone: the tensor is invalid (default-constructed)");
  poplar::Tensor out = graph.addVariable(t.elementType(), t.shape(), debugContext);
  auto mapping = graph.getTileMapping(t, false);
  std::size_t mapped = 0;
  for (const auto &tile : mapping)
    for (const auto &i : tile)
      mapped += i.size();
  if (mapped == t.numElements())
    graph.setTileMapping(out, mapping);
  else
    mapTensorLinearly(graph, out);
  return out;
}

poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext) {
  poplar::Tensor out = cloneToGraph(graph, src, debugContext);
  prog.add(poplar::program::Copy(src, out));
  return out;
}

poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method) {
  poplar::Tensor out = graph.clone(src, debugContext, method);
  poplar::Tensor from = src, to = out;
  if (src.containsAliases() && out.containsAliases()) {
    // A copy may not write an element twice: copy each element of storage once (the clone aliases as src does).
    const poplar::Tensor srcFlat = src.flatten(), outFlat = out.flatten();
    const auto regions = graph.getSortedContiguousRegions(srcFlat, {{0, srcFlat.numElements()}}, true);
    std::vector<poplar::Interval> flat;
    for (const auto &seq : regions)
      flat.insert(flat.end(), seq.begin(), seq.end());
    from = poplar::concat(srcFlat.slices(flat));
    to = poplar::concat(outFlat.slices(flat));
  }
  prog.add(poplar::program::Copy(from, to, false, debugContext));
  return out;
}

poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
                      const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method) {
  if (N == 0)
    throw poplibs_error("cloneN: N is 0; ask for one or more clones");
  return graph.cloneN(t, N, debugContext, method);
}

poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
                      const poplar::DebugContext &debugContext) {
  if (N == 0)
    throw poplibs_error("cloneN: N is 0; ask for one or more clones");
  const std::string name = debugContext.getPathName();
  std::vector<poplar::Tensor> clones;
  for (unsigned i = 0; i < N; ++i)
    clones.push_back(cloneToGraph(graph, t, name.empty() ? name : name + "/" + std::to_string(i)).expand({0}));
  return poplar::concat(clones, 0);
}

// The SDK's deprecated poputil spellings of Poplar's metadata-tensor constructors.
poplar::Tensor createConstantMetadataTensor(poplar::Graph &graph, poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale) {
  return poplar::createConstantMetadataTensor(graph, fp8Format, fp8Scale, {"poputil::createConstantMetadataTensor"});
}

poplar::Tensor createVariableMetadataTensor(poplar::Graph &graph, poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale) {
  return poplar::createVariableMetadataTensor(graph, fp8Format, fp8Scale, {"poputil::createVariableMetadataTensor"});
}

} // namespace poputil
