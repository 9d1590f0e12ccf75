// popops/ElementWiseUtil.hpp: the output of an element-wise operation takes the layout of its best-spread input
// that could itself be written in parallel (no aliased elements, no constants); otherwise it is mapped linearly.
#include "popops/ElementWiseUtil.hpp"

#include "poplibs_support.hpp"
#include "poputil/TileMapping.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

Tensor createOutputForElementWiseOp(poplar::Graph &graph, const std::vector<Tensor> &inputs,
                                    const poplar::Type &outputType, const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::operationName(debugContext, "popops::", "createOutputForElementWiseOp");
  if (inputs.empty())
    throw poplibs_error(name + ": no inputs; pass the operation's input tensors");
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].valid())
      throw poplibs_error(name + ": input " + std::to_string(i) + " is an invalid (default-constructed) tensor");
    if (inputs[i].shape() != inputs[0].shape())
      throw poplibs_error(name + ": input " + std::to_string(i) + " has shape " + inputs[i].shapeToString() +
                          " but input 0 has " + inputs[0].shapeToString() + "; pass inputs of one shape");
  }
  Tensor out = graph.addVariable(outputType, inputs[0].shape(), name + "/out");
  poplar::TileToTensorMapping best;
  std::size_t bestTiles = 0;
  for (const Tensor &t : inputs) {
    poplar::TileToTensorMapping m = graph.getTileMapping(t, false);
    std::size_t mapped = 0;
    for (const auto &tile : m)
      for (const auto &iv : tile)
        mapped += iv.size();
    const std::size_t tiles = poputil::getNumTilesUsed(m);
    // A broadcast input maps many elements to the few it aliases, and a constant's placement says nothing about
    // where work should run: copying either layout would pile the output's writes onto those tiles.
    if (mapped == t.numElements() && tiles > bestTiles && t.isParallelWriteable()) {
      best = m;
      bestTiles = tiles;
    }
  }
  if (bestTiles > 0)
    graph.setTileMapping(out, best);
  else
    poputil::mapTensorLinearly(graph, out);
  return out;
}

} // namespace popops
