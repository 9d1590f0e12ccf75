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

} // namespace poputil
