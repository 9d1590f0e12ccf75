// popops::allTrue: a LOGICAL_AND reduction over every dimension.
#include "popops/AllTrue.hpp"

#include "poplibs_support.hpp"
#include "popops/Fill.hpp"
#include "popops/Reduce.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

poplar::Tensor allTrue(poplar::Graph &graph, poplar::Tensor A, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext) {
  const std::string name = poplibs_support::operationName(debugContext, "popops::", "allTrue");
  if (!A.valid())
    throw poputil::poplibs_error(name + ": the input is an invalid (default-constructed) tensor");
  if (A.elementType() != poplar::BOOL)
    throw poputil::poplibs_error(name + ": the input holds " + A.elementType().toString() +
                                 ", not BOOL; compare it (e.g. popops::neq with 0) first");
  if (A.numElements() == 0) {
    poplar::Tensor t = graph.addVariable(poplar::BOOL, {}, name + "/out");
    graph.setTileMapping(t, 0);
    fill(graph, t, true, prog, name);
    return t;
  }
  poplar::Tensor flat = A.flatten();
  return reduce(graph, flat, {0}, Operation::LOGICAL_AND, prog, name);
}

} // namespace popops
