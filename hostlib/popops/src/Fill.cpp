// The compute-set forms of popops::fill and popops::zero: a constant expression written into listed regions, on
// the tiles the caller names (map's vertices with a given mapping instead of the output's own).
#include "popops/Fill.hpp"

#include "map_internal.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"
#include "vertex_names.hpp"

namespace popops::detail {

void fillRegions(poplar::Graph &graph, const poplar::Tensor &t,
                 const std::vector<std::vector<poplar::Interval> > &regions, poplar::ComputeSet cs,
                 const expr::Expr &value, const poplar::DebugContext &debugContext) {
  if (!t.valid())
    throw poputil::poplibs_error(debugContext.getPathName() +
                                 ": the tensor is an invalid (default-constructed) tensor");
  mapRegionsIntoComputeSet(graph, value, t, regions, cs, debugContext.getPathName());
}

void fillNarrowRegions(poplar::Graph &graph, const poplar::Tensor &out, const poplar::TileToTensorMapping &regions,
                       poplar::ComputeSet cs, unsigned bits, const std::string &name) {
  const std::size_t size = out.elementType().getSize();
  if (size != 1 && size != 2)
    throw poputil::poplibs_error(name + ": element type " + out.elementType().toString() +
                                 " is not a 1- or 2-byte type");
  // The vertex sees the elements as the unsigned type of their size, so signed values are passed as their bits.
  const poplar::Type as = size == 2 ? poplar::UNSIGNED_SHORT : poplar::UNSIGNED_CHAR;
  const poplar::Tensor flat = out.flatten().reinterpret(as);
  const std::string vertex = poputil::detail::templateVertex("popops::Fill", {as});
  for (unsigned tile = 0; tile < regions.size(); ++tile)
    for (const poplar::Interval &iv : regions[tile]) {
      if (iv.size() == 0)
        continue;
      poplar::VertexRef v = graph.addVertex(cs, vertex);
      graph.setTileMapping(v, tile);
      graph.connect(v["out"], flat.slice(iv));
      if (size == 2)
        graph.setInitialValue(v["value"], static_cast<unsigned short>(bits));
      else
        graph.setInitialValue(v["value"], static_cast<unsigned char>(bits));
    }
}

} // namespace popops::detail
