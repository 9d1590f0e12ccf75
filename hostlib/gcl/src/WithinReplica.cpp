// gcl::allReduceWithinReplica: a reduction across the IPUs of one replica (row i of the data on IPU i), built
// from the same in-order fold as the cross-replica reductions (foldInReplicaOrder), then copied back to every
// row, so every IPU holds the same bits.
#include "gcl/Collectives.hpp"
#include "gcl/FoldOrder.hpp"

#include <vector>

#include <poputil/exceptions.hpp>

#include "debug_name.hpp"
#include "options.hpp"

namespace gcl {

poplar::Tensor allReduceWithinReplica(poplar::Graph &graph, const poplar::Tensor &data, CollectiveOperator op,
                                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext,
                                      const poplar::OptionFlags &options) {
  const char *what = "allReduceWithinReplica";
  detail::checkOptions(options, what);
  const unsigned ipus = graph.getTarget().getNumIPUs();
  if (!data.valid() || data.rank() == 0 || data.dim(0) != ipus)
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the data's dimension 0 must hold one row per IPU "
                                 "of the graph (" + std::to_string(ipus) + "), but its shape is " +
                                 (data.valid() ? data.shapeToString() : std::string("(invalid tensor)")) +
                                 "; concatenate one expanded tensor per IPU");
  const std::string debug = detail::debugName(debugContext.getPathName(), "withinReplica");
  poplar::Tensor out = graph.clone(data, debug + "/out");
  if (op == CollectiveOperator::LOCAL) {
    prog.add(poplar::program::Copy(data, out, false, debug + "/local"));
    return out;
  }
  std::vector<poplar::Tensor> rows;
  for (unsigned i = 0; i < ipus; ++i)
    rows.push_back(data[i]);
  poplar::Tensor reduced = foldInReplicaOrder(graph, rows, op, prog, debug);
  for (unsigned i = 0; i < ipus; ++i)
    prog.add(poplar::program::Copy(reduced, out[i], false, debug + "/toIpu" + std::to_string(i)));
  return out;
}

} // namespace gcl
