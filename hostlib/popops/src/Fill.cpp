// The compute-set forms of popops::fill and popops::zero: a constant expression written into listed regions, on
// the tiles the caller names (map's vertices with a given mapping instead of the output's own).
#include "popops/Fill.hpp"

#include "map_internal.hpp"
#include "poplibs_support.hpp"
#include "poputil/exceptions.hpp"

namespace popops::detail {

void fillRegions(poplar::Graph &graph, const poplar::Tensor &t,
                 const std::vector<std::vector<poplar::Interval> > &regions, poplar::ComputeSet cs,
                 const expr::Expr &value, const poplar::DebugContext &debugContext) {
  if (!t.valid())
    throw poputil::poplibs_error(debugContext.getPathName() +
                                 ": the tensor is an invalid (default-constructed) tensor");
  mapRegionsIntoComputeSet(graph, value, t, regions, cs, debugContext.getPathName());
}

} // namespace popops::detail
