// The grouped collectives of gcl/Collectives.hpp (Graphcore's *CrossReplica names with a CommGroup).
//
// Every replica gathers every replica's data as rows (rows.hpp), folds the rows of each group in replica order
// (foldInReplicaOrder, so a group's members get the same bits), and keeps its own group's result: one
// CrossReplicaCopy per group whose map sends each member's copy of that group's result to itself. The work is
// the gather plus one fold per group on every replica; the groups' results are identical wherever computed.
#include "gcl/Collectives.hpp"
#include "gcl/FoldOrder.hpp"

#include <algorithm>
#include <map>
#include <vector>

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

std::string name(const poplar::DebugContext &dc, const std::string &what) {
  return detail::debugName(dc.getPathName(), what);
}

/// The groups' members, by global replica index, each group in replica order.
std::vector<std::vector<unsigned>> groupsOf(const CommGroup &group, unsigned total, const char *what) {
  std::vector<std::vector<unsigned>> groups;
  if (group.type == CommGroupType::ALL || group.replicaGroupSize == 0 || group.replicaGroupSize == total) {
    groups.emplace_back();
    for (unsigned g = 0; g < total; ++g)
      groups.back().push_back(g);
    return groups;
  }
  const unsigned k = group.replicaGroupSize;
  if (total % k != 0)
    throw poputil::poplibs_error(std::string("gcl::") + what + ": a replica group of " + std::to_string(k) +
                                 " does not divide the " + std::to_string(total) +
                                 " replicas; choose a group size that divides the replica count");
  const unsigned n = total / k; // the number of groups
  groups.resize(n);
  for (unsigned g = 0; g < total; ++g) {
    if (group.type == CommGroupType::CONSECUTIVE)
      groups[g / k].push_back(g);
    else
      groups[g % n].push_back(g);
  }
  return groups;
}

void checkData(const Tensor &data, const char *what) {
  if (!data.valid() || data.numElements() == 0)
    throw poputil::poplibs_error(std::string("gcl::") + what +
                                 ": the data tensor is invalid or has no elements; give a mapped tensor");
}

/// Each local replica copies its own group's `perGroup[i]` (the same on every replica) into `out`.
void keepOwnGroup(Sequence &prog, const std::vector<Tensor> &perGroup, const Tensor &out,
                  const std::vector<std::vector<unsigned>> &groups, const ReplicaLayout &layout,
                  const std::string &debug) {
  for (std::size_t i = 0; i < groups.size(); ++i) {
    std::map<unsigned, unsigned> self;
    for (unsigned g : groups[i])
      if (g >= layout.offset && g < layout.offset + layout.local)
        self[g - layout.offset] = g - layout.offset;
    if (!self.empty())
      prog.add(CrossReplicaCopy(perGroup[i], out, self, debug));
  }
}

/// `op` over each group's rows: one fold per group.
std::vector<Tensor> foldGroups(Graph &graph, const Tensor &rows, const std::vector<std::vector<unsigned>> &groups,
                               CollectiveOperator op, Sequence &prog, const std::string &debug) {
  std::vector<Tensor> out;
  for (std::size_t i = 0; i < groups.size(); ++i) {
    std::vector<Tensor> parts;
    for (unsigned g : groups[i])
      parts.push_back(rows[g]);
    out.push_back(foldInReplicaOrder(graph, parts, op, prog, debug + "/group" + std::to_string(i)));
  }
  return out;
}

Tensor reduceGroups(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog, const CommGroup &group,
                    const poplar::DebugContext &dc, const char *what) {
  checkData(data, what);
  const ReplicaLayout layout = detail::replicaLayout(graph, what);
  Tensor out = graph.clone(data, name(dc, "reduced"));
  if (op == CollectiveOperator::LOCAL) {
    prog.add(Copy(data, out));
    return out;
  }
  const auto groups = groupsOf(group, layout.total, what);
  Tensor rows = detail::gatherRowsEverywhere(graph, data, layout, prog, name(dc, "gather"));
  keepOwnGroup(prog, foldGroups(graph, rows, groups, op, prog, name(dc, "fold")), out, groups, layout,
               name(dc, "keep"));
  return out;
}

void checkLike(const Tensor &a, const Tensor &b, const char *what) {
  if (a.shape() != b.shape() || a.elementType() != b.elementType())
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the destination has shape " + a.shapeToString() +
                                 " of " + a.elementType().toString() + ", the result " + b.shapeToString() + " of " +
                                 b.elementType().toString() + "; give a destination like the result");
}

} // namespace

Tensor allReduceCrossReplica(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                             const CommGroup &group, const poplar::DebugContext &debugContext,
                             const poplar::OptionFlags &options) {
  detail::checkOptions(options, "allReduceCrossReplica");
  return reduceGroups(graph, data, op, prog, group, debugContext, "allReduceCrossReplica");
}

Tensor allReduceCrossReplica(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                             const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  return allReduceCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

void allReduceToDestinationCrossReplica(Graph &graph, const Tensor &data, const Tensor &destination,
                                        CollectiveOperator op, Sequence &prog, const CommGroup &group,
                                        const poplar::DebugContext &debugContext,
                                        const poplar::OptionFlags &options) {
  checkLike(destination, data, "allReduceToDestinationCrossReplica");
  prog.add(Copy(allReduceCrossReplica(graph, data, op, prog, group, debugContext, options), destination));
}

void allReduceToDestinationCrossReplica(Graph &graph, const Tensor &data, const Tensor &destination,
                                        CollectiveOperator op, Sequence &prog,
                                        const poplar::DebugContext &debugContext,
                                        const poplar::OptionFlags &options) {
  allReduceToDestinationCrossReplica(graph, data, destination, op, prog, CommGroup(), debugContext, options);
}

void allReduceInPlaceCrossReplica(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                                  const CommGroup &group, const poplar::DebugContext &debugContext,
                                  const poplar::OptionFlags &options) {
  allReduceToDestinationCrossReplica(graph, data, data, op, prog, group, debugContext, options);
}

void allReduceInPlaceCrossReplica(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                                  const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  allReduceInPlaceCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

Tensor allGatherCrossReplica(Graph &graph, const Tensor &data, Sequence &prog, const CommGroup &group,
                             const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  detail::checkOptions(options, "allGatherCrossReplica");
  const char *what = "allGatherCrossReplica";
  checkData(data, what);
  const ReplicaLayout layout = detail::replicaLayout(graph, what);
  const auto groups = groupsOf(group, layout.total, what);
  Tensor rows = detail::gatherRowsEverywhere(graph, data, layout, prog, name(debugContext, "gather"));
  if (groups.size() == 1)
    return rows;
  std::vector<Tensor> perGroup;
  for (const auto &members : groups) {
    std::vector<Tensor> own;
    for (unsigned g : members)
      own.push_back(rows.slice(g, g + 1, 0));
    perGroup.push_back(poplar::concat(own, 0));
  }
  Tensor out = graph.clone(perGroup[0], name(debugContext, "gathered"));
  keepOwnGroup(prog, perGroup, out, groups, layout, name(debugContext, "keep"));
  return out;
}

Tensor allGatherCrossReplica(Graph &graph, const Tensor &data, Sequence &prog,
                             const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  return allGatherCrossReplica(graph, data, prog, CommGroup(), debugContext, options);
}

void allGatherToDestinationCrossReplica(Graph &graph, const Tensor &data, const Tensor &destination, Sequence &prog,
                                        const CommGroup &group, const poplar::DebugContext &debugContext,
                                        const poplar::OptionFlags &options) {
  Tensor gathered = allGatherCrossReplica(graph, data, prog, group, debugContext, options);
  checkLike(destination, gathered, "allGatherToDestinationCrossReplica");
  prog.add(Copy(gathered, destination));
}

void allGatherToDestinationCrossReplica(Graph &graph, const Tensor &data, const Tensor &destination, Sequence &prog,
                                        const poplar::DebugContext &debugContext,
                                        const poplar::OptionFlags &options) {
  allGatherToDestinationCrossReplica(graph, data, destination, prog, CommGroup(), debugContext, options);
}

Tensor reduceScatterCrossReplica(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                                 const CommGroup &group, const poplar::DebugContext &debugContext,
                                 const poplar::OptionFlags &options) {
  detail::checkOptions(options, "reduceScatterCrossReplica");
  const char *what = "reduceScatterCrossReplica";
  checkData(data, what);
  const ReplicaLayout layout = detail::replicaLayout(graph, what);
  const auto groups = groupsOf(group, layout.total, what);
  const std::size_t size = groups[0].size(), n = data.numElements(), k = (n + size - 1) / size;
  Tensor reduced = reduceGroups(graph, data.flatten(), op, prog, group, debugContext, what);
  Tensor out = graph.addLinearlyMappedVariable(data.elementType(), {k}, name(debugContext, "scattered"));
  if (k * size != n)
    popops::zero(graph, out, prog, name(debugContext, "pad"));
  // The i-th member of every group keeps part i: one copy per part, each member to itself.
  for (std::size_t i = 0; i < size; ++i) {
    const std::size_t begin = i * k;
    if (begin >= n)
      continue;
    const std::size_t end = std::min(n, begin + k);
    std::map<unsigned, unsigned> self;
    for (const auto &members : groups) {
      unsigned g = members[i];
      if (g >= layout.offset && g < layout.offset + layout.local)
        self[g - layout.offset] = g - layout.offset;
    }
    if (!self.empty())
      prog.add(CrossReplicaCopy(reduced.slice(begin, end), out.slice(0, end - begin), self,
                                name(debugContext, "scatter")));
  }
  return out;
}

Tensor reduceScatterCrossReplica(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                                 const poplar::DebugContext &debugContext, const poplar::OptionFlags &options) {
  return reduceScatterCrossReplica(graph, data, op, prog, CommGroup(), debugContext, options);
}

void reduceScatterToDestinationCrossReplica(Graph &graph, const Tensor &data, const Tensor &destination,
                                            CollectiveOperator op, Sequence &prog, const CommGroup &group,
                                            const poplar::DebugContext &debugContext,
                                            const poplar::OptionFlags &options) {
  Tensor part = reduceScatterCrossReplica(graph, data, op, prog, group, debugContext, options);
  checkLike(destination, part, "reduceScatterToDestinationCrossReplica");
  prog.add(Copy(part, destination));
}

void reduceScatterToDestinationCrossReplica(Graph &graph, const Tensor &data, const Tensor &destination,
                                            CollectiveOperator op, Sequence &prog,
                                            const poplar::DebugContext &debugContext,
                                            const poplar::OptionFlags &options) {
  reduceScatterToDestinationCrossReplica(graph, data, destination, op, prog, CommGroup(), debugContext, options);
}

std::vector<unsigned> perIPUTiles(const Graph &graph, unsigned offset, unsigned count, bool sorted, bool) {
  const poplar::Target &target = graph.getTarget();
  const unsigned perIpu = target.getTilesPerIPU();
  if (offset + count > perIpu)
    throw poputil::poplibs_error("gcl::perIPUTiles: tiles [" + std::to_string(offset) + ", " +
                                 std::to_string(offset + count) + ") do not fit the " + std::to_string(perIpu) +
                                 " tiles of an IPU");
  std::vector<unsigned> tiles;
  for (unsigned ipu = 0; ipu < target.getNumIPUs(); ++ipu)
    for (unsigned t = 0; t < count; ++t)
      tiles.push_back(ipu * perIpu + offset + t);
  if (sorted)
    std::sort(tiles.begin(), tiles.end());
  return tiles;
}

} // namespace gcl
