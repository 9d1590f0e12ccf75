// popops/NaN.hpp: each tile that holds elements of the source flags them (a map) and a LOGICAL_OR reduction
// gathers the flags into one scalar BOOL; both run on the device.
#include "popops/NaN.hpp"

#include "op_name.hpp"
#include "poplibs_support.hpp"
#include "popops/ElementWise.hpp"
#include "popops/Reduce.hpp"
#include "poputil/exceptions.hpp"

namespace popops {

using poplar::Tensor;
using poputil::poplibs_error;

namespace {

Tensor anyFlagged(poplar::Graph &graph, const Tensor &src, bool orInf, poplar::program::Sequence &prog,
                  const std::string &name) {
  if (!src.valid())
    throw poplibs_error(name + ": the source is an invalid (default-constructed) tensor");
  if (src.elementType() != poplar::FLOAT && src.elementType() != poplar::HALF)
    throw poplibs_error(name + ": the source holds " + src.elementType().toString() +
                        "; pass a FLOAT or HALF tensor (integers have no NaN)");
  if (src.numElements() == 0) {
    Tensor none = graph.addConstant(poplar::BOOL, {}, false, name + "/none");
    graph.setTileMapping(none, 0);
    return none;
  }
  const Tensor flat = src.flatten();
  Tensor flags = orInf ? map(graph, !expr::IsFinite(expr::_1), {flat}, prog, name + "/flags")
                       : map(graph, expr::IsNaN(expr::_1), {flat}, prog, name + "/flags");
  return reduce(graph, flags, {0}, Operation::LOGICAL_OR, prog, name + "/any");
}

} // namespace

Tensor hasNaN(poplar::Graph &graph, const Tensor &src, poplar::program::Sequence &prog,
              const poplar::DebugContext &debugContext) {
  return anyFlagged(graph, src, false, prog, opName(debugContext, "hasNaN"));
}

Tensor hasNaNOrInf(poplar::Graph &graph, const Tensor &src, poplar::program::Sequence &prog,
                   const poplar::DebugContext &debugContext) {
  return anyFlagged(graph, src, true, prog, opName(debugContext, "hasNaNOrInf"));
}

} // namespace popops
