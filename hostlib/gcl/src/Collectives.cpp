// The collectives of gcl/Collectives.hpp.
//
// Every reduction folds a [total replicas, ...] tensor of rows, row g holding global replica g's data, in replica
// order with popops element-wise programs (foldInReplicaOrder, exported in gcl/FoldOrder.hpp): the order is a fixed
// function of the global replica index, and one instance with R replicas and N instances with R / N each run the
// same fold on the same rows: the same bits.
// In one instance the rows are gathered to replica 0 (one CrossReplicaCopy per other replica: R - 1 steps), which
// reduces them and broadcasts the result along a binary tree (ceil(log2 R) steps, each one CrossReplicaCopy that
// doubles the replicas holding it). Across instances each replica gets all rows through MPI (instances.hpp) and
// reduces them itself.
#include "gcl/Collectives.hpp"
#include "gcl/FoldOrder.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

#include <popops/ElementWise.hpp>
#include <popops/Zero.hpp>
#include <poputil/exceptions.hpp>

#include "debug_name.hpp"
#include "options.hpp"
#include "instances.hpp"
#include "rows.hpp"

namespace gcl {

namespace {

using detail::ReplicaLayout;
using poplar::Graph;
using poplar::Tensor;
using poplar::program::Copy;
using poplar::program::CrossReplicaCopy;
using poplar::program::Sequence;

std::string name(const std::string &prefix, const std::string &what) { return detail::debugName(prefix, what); }

void checkData(const Tensor &data, const char *what) {
  if (!data.valid())
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the data tensor is invalid (default-constructed)");
  if (data.numElements() == 0)
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the data tensor has no elements");
}

void checkMean(CollectiveOperator op, const Tensor &data) {
  if (op == CollectiveOperator::MEAN && data.elementType() != poplar::FLOAT && data.elementType() != poplar::HALF)
    throw poputil::poplibs_error("gcl: MEAN of " + data.elementType().toString() +
                                 " data; MEAN takes FLOAT or HALF, use ADD for integers");
}

/// Appends the copy of replica `from`'s `src` to replica `to`'s `dst`.
void copyBetween(Sequence &prog, const Tensor &src, const Tensor &dst, unsigned from, unsigned to,
                 const std::string &debug) {
  std::map<unsigned, unsigned> map;
  map[from] = to;
  prog.add(CrossReplicaCopy(src, dst, map, debug));
}

/// Copies `t` of local replica `root` to every local replica along a binary tree: in step k the 2^k replicas that
/// hold it (counted from the root) send it to the next 2^k, all in one CrossReplicaCopy.
void broadcastTree(Sequence &prog, const Tensor &t, unsigned root, unsigned replicas, const std::string &debug) {
  for (unsigned have = 1; have < replicas; have *= 2) {
    std::map<unsigned, unsigned> map;
    for (unsigned i = 0; i < have && i + have < replicas; ++i)
      map[(root + i) % replicas] = (root + i + have) % replicas;
    prog.add(CrossReplicaCopy(t, t, map, debug));
  }
}

/// A [total, data's shape] tensor of rows, row g for global replica g, every row laid out like `data`.
Tensor newRows(Graph &graph, const Tensor &data, unsigned total, const std::string &debug) {
  std::vector<Tensor> rows;
  for (unsigned g = 0; g < total; ++g)
    rows.push_back(graph.clone(data, name(debug, "row" + std::to_string(g))).expand({0}));
  return poplar::concat(rows, 0);
}

/// Gathers every replica's `data` into rows: across instances into every replica; in one instance into local
/// replica 0 only, unless `everywhere` (then broadcast from there).
Tensor gatherRows(Graph &graph, const Tensor &data, const ReplicaLayout &layout, bool everywhere, Sequence &prog,
                  const std::string &debug) {
  Tensor rows = newRows(graph, data, layout.total, debug);
  if (layout.instances > 1) {
    detail::gatherAcrossInstances(graph, data, rows, layout, prog, name(debug, "instances"));
    return rows;
  }
  prog.add(Copy(data, rows[0], false, name(debug, "gatherOwn")));
  for (unsigned r = 1; r < layout.local; ++r)
    copyBetween(prog, data, rows[r], r, 0, name(debug, "gather"));
  if (everywhere)
    broadcastTree(prog, rows, 0, layout.local, name(debug, "gatherBroadcast"));
  return rows;
}

/// `op` over every replica's `data` of every instance, the same bits in every replica (see the file comment).
Tensor reduceAll(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog, const std::string &debug,
                 const char *what) {
  const ReplicaLayout layout = detail::replicaLayout(graph, what);
  if (op == CollectiveOperator::LOCAL) {
    Tensor out = graph.clone(data, name(debug, "local"));
    prog.add(Copy(data, out));
    return out;
  }
  checkMean(op, data);
  Tensor rows = gatherRows(graph, data, layout, false, prog, debug);
  std::vector<Tensor> parts;
  for (unsigned g = 0; g < layout.total; ++g)
    parts.push_back(rows[g]);
  Tensor out = foldInReplicaOrder(graph, parts, op, prog, debug);
  if (layout.instances == 1)
    broadcastTree(prog, out, 0, layout.local, name(debug, "result"));
  return out;
}

} // namespace

namespace detail {
Tensor gatherRowsEverywhere(Graph &graph, const Tensor &data, const ReplicaLayout &layout, Sequence &prog,
                            const std::string &debug) {
  return gatherRows(graph, data, layout, true, prog, debug);
}
} // namespace detail

Tensor foldInReplicaOrder(Graph &graph, const std::vector<Tensor> &parts, CollectiveOperator op, Sequence &prog,
                          const std::string &debugPrefix) {
  namespace pe = popops::expr;
  if (parts.empty())
    throw poputil::poplibs_error("gcl::foldInReplicaOrder: no parts to fold; give one tensor per replica");
  for (std::size_t g = 1; g < parts.size(); ++g)
    if (parts[g].shape() != parts[0].shape() || parts[g].elementType() != parts[0].elementType())
      throw poputil::poplibs_error("gcl::foldInReplicaOrder: part " + std::to_string(g) +
                                   " differs from part 0 in shape or element type; every part must be alike");
  if (op == CollectiveOperator::LOCAL)
    throw poputil::poplibs_error("gcl::foldInReplicaOrder: CollectiveOperator::LOCAL is no reduction");
  checkMean(op, parts[0]);
  const std::string &debug = debugPrefix;
  Tensor out = graph.clone(parts[0], name(debug, "reduced"));
  prog.add(Copy(parts[0], out, false, name(debug, "row0")));
  if (op == CollectiveOperator::SQUARE_ADD)
    popops::squareInPlace(graph, out, prog, name(debug, "square"));
  for (std::size_t g = 1; g < parts.size(); ++g) {
    const Tensor &row = parts[g];
    const std::string step = name(debug, "fold" + std::to_string(g));
    switch (op) {
    case CollectiveOperator::ADD:
    case CollectiveOperator::MEAN:
      popops::addInPlace(graph, out, row, prog, step);
      break;
    case CollectiveOperator::MUL:
      popops::mulInPlace(graph, out, row, prog, step);
      break;
    case CollectiveOperator::MIN:
      popops::minInPlace(graph, out, row, prog, step);
      break;
    case CollectiveOperator::MAX:
      popops::maxInPlace(graph, out, row, prog, step);
      break;
    case CollectiveOperator::LOGICAL_AND:
      popops::logicalAndInPlace(graph, out, row, prog, step);
      break;
    case CollectiveOperator::LOGICAL_OR:
      popops::logicalOrInPlace(graph, out, row, prog, step);
      break;
    case CollectiveOperator::SQUARE_ADD:
      popops::mapInPlace(graph, pe::Add(pe::_1, pe::Mul(pe::_2, pe::_2)), {out, row}, prog, step);
      break;
    case CollectiveOperator::LOCAL:
      break; // refused above
    }
  }
  if (op == CollectiveOperator::MEAN)
    popops::divInPlace(graph, out, float(parts.size()), prog, name(debug, "mean"));
  return out;
}

Tensor allGatherWithOutput(Graph &graph, const Tensor &data, Sequence &prog, const std::string &debugPrefix,
                           const poplar::OptionFlags &options) {
  detail::checkOptions(options, "allGatherWithOutput");
  checkData(data, "allGatherWithOutput");
  return gatherRows(graph, data, detail::replicaLayout(graph, "allGatherWithOutput"), true, prog, debugPrefix);
}

Tensor allReduceWithOutput(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                           const std::string &debugPrefix, const poplar::OptionFlags &options) {
  detail::checkOptions(options, "allReduceWithOutput");
  checkData(data, "allReduceWithOutput");
  return reduceAll(graph, data, op, prog, debugPrefix, "allReduceWithOutput");
}

void allReduceToDestination(Graph &graph, const Tensor &data, const Tensor &destination, CollectiveOperator op,
                            Sequence &prog, const std::string &debugPrefix, const poplar::OptionFlags &options) {
  if (destination.shape() != data.shape() || destination.elementType() != data.elementType())
    throw poputil::poplibs_error("gcl::allReduceToDestination: the destination's shape or type differs from the "
                                 "data's; give a destination like the data (graph.clone(data))");
  prog.add(Copy(allReduceWithOutput(graph, data, op, prog, debugPrefix, options), destination));
}

void allReduceInPlace(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                      const std::string &debugPrefix, const poplar::OptionFlags &options) {
  allReduceToDestination(graph, data, data, op, prog, debugPrefix, options);
}

Tensor reduceScatterWithOutput(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                               const std::string &debugPrefix, const poplar::OptionFlags &options) {
  detail::checkOptions(options, "reduceScatterWithOutput");
  checkData(data, "reduceScatterWithOutput");
  const ReplicaLayout layout = detail::replicaLayout(graph, "reduceScatterWithOutput");
  const std::size_t n = data.numElements(), k = (n + layout.total - 1) / layout.total;
  Tensor reduced = reduceAll(graph, data.flatten(), op, prog, debugPrefix, "reduceScatterWithOutput");
  Tensor out = graph.addLinearlyMappedVariable(data.elementType(), {k}, name(debugPrefix, "scattered"));
  if (k * layout.total != n)
    popops::zero(graph, out, prog, name(debugPrefix, "pad"));
  // Local replica r is global replica offset + r: it keeps that part of the result (a copy to itself).
  for (unsigned r = 0; r < layout.local; ++r) {
    const std::size_t begin = std::size_t(layout.offset + r) * k;
    if (begin >= n)
      continue;
    const std::size_t end = std::min(n, begin + k);
    copyBetween(prog, reduced.slice(begin, end), out.slice(0, end - begin), r, r, name(debugPrefix, "scatter"));
  }
  return out;
}

Tensor broadcastWithOutput(Graph &graph, const Tensor &data, Sequence &prog, unsigned rootReplica,
                           const std::string &debugPrefix, const poplar::OptionFlags &options) {
  detail::checkOptions(options, "broadcastWithOutput");
  checkData(data, "broadcastWithOutput");
  const ReplicaLayout layout = detail::replicaLayout(graph, "broadcastWithOutput");
  if (rootReplica >= layout.total)
    throw poputil::poplibs_error("gcl::broadcastWithOutput: root replica " + std::to_string(rootReplica) +
                                 " does not exist; the run has " + std::to_string(layout.total) + " replica(s)");
  if (layout.instances > 1) {
    // Every replica gets every row; it keeps the root's.
    Tensor rows = gatherRows(graph, data, layout, true, prog, name(debugPrefix, "broadcast"));
    Tensor out = graph.clone(data, name(debugPrefix, "broadcast"));
    prog.add(Copy(rows[rootReplica], out));
    return out;
  }
  Tensor out = graph.clone(data, name(debugPrefix, "broadcast"));
  prog.add(Copy(data, out));
  broadcastTree(prog, out, rootReplica, layout.local, name(debugPrefix, "broadcast"));
  return out;
}

} // namespace gcl
