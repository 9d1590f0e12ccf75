// The collectives of gcl/Collectives.hpp. All data moves through program::CrossReplicaCopy; reductions are popops
// reductions over the gathered data, which every replica computes the same way (see the header).
#include "gcl/Collectives.hpp"

#include <algorithm>
#include <cstddef>
#include <map>
#include <vector>

#include <popops/Reduce.hpp>
#include <popops/Zero.hpp>
#include <poputil/exceptions.hpp>

namespace gcl {

namespace {

using poplar::Graph;
using poplar::Tensor;
using poplar::program::Copy;
using poplar::program::CrossReplicaCopy;
using poplar::program::Sequence;

std::string name(const std::string &prefix, const std::string &what) {
  return prefix.empty() ? "gcl/" + what : prefix + "/" + what;
}

void checkData(const Graph &graph, const Tensor &data, const char *what) {
  if (!data.valid())
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the data tensor is invalid (default-constructed)");
  if (data.numElements() == 0)
    throw poputil::poplibs_error(std::string("gcl::") + what + ": the data tensor has no elements");
  (void)graph;
}

/// Appends the copy of replica `from`'s `src` to replica `to`'s `dst`.
void copyBetween(Sequence &prog, const Tensor &src, const Tensor &dst, unsigned from, unsigned to,
                 const std::string &debug) {
  std::map<unsigned, unsigned> map;
  map[from] = to;
  prog.add(CrossReplicaCopy(src, dst, map, debug));
}

popops::Operation reduction(CollectiveOperator op) {
  switch (op) {
  case CollectiveOperator::ADD:
  case CollectiveOperator::MEAN:
    return popops::Operation::ADD;
  case CollectiveOperator::MUL:
    return popops::Operation::MUL;
  case CollectiveOperator::MIN:
    return popops::Operation::MIN;
  case CollectiveOperator::MAX:
    return popops::Operation::MAX;
  case CollectiveOperator::LOGICAL_AND:
    return popops::Operation::LOGICAL_AND;
  case CollectiveOperator::LOGICAL_OR:
    return popops::Operation::LOGICAL_OR;
  case CollectiveOperator::SQUARE_ADD:
    return popops::Operation::SQUARE_ADD;
  case CollectiveOperator::LOCAL:
    break;
  }
  throw poputil::poplibs_error("gcl: CollectiveOperator::LOCAL is no reduction");
}

/// `op` over the gathered rows of every replica: the same reduction, in the same order, in every replica.
Tensor reduceGathered(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                      const std::string &debug) {
  if (op == CollectiveOperator::LOCAL) {
    Tensor out = graph.clone(data, name(debug, "local"));
    prog.add(Copy(data, out));
    return out;
  }
  if (op == CollectiveOperator::MEAN && data.elementType() != poplar::FLOAT && data.elementType() != poplar::HALF)
    throw poputil::poplibs_error("gcl: MEAN of " + data.elementType().toString() +
                                 " data; MEAN takes FLOAT or HALF, use ADD for integers");
  Tensor gathered = allGatherWithOutput(graph, data, prog, debug);
  if (op != CollectiveOperator::MEAN)
    return popops::reduce(graph, gathered, {0}, reduction(op), prog, name(debug, "reduce"));
  Tensor scale = graph.addConstant(poplar::FLOAT, {}, 1.0f / float(graph.getReplicationFactor()),
                                   name(debug, "meanScale"));
  graph.setTileMapping(scale, 0);
  return popops::reduce(graph, gathered, {0}, popops::ReduceParams(popops::Operation::ADD, false, scale), prog,
                        name(debug, "mean"));
}

} // namespace

Tensor allGatherWithOutput(Graph &graph, const Tensor &data, Sequence &prog, const std::string &debugPrefix,
                           const poplar::OptionFlags &) {
  checkData(graph, data, "allGatherWithOutput");
  const unsigned replicas = graph.getReplicationFactor();
  std::vector<Tensor> rows;
  for (unsigned from = 0; from < replicas; ++from) {
    Tensor row = graph.clone(data, name(debugPrefix, "gathered" + std::to_string(from)));
    for (unsigned to = 0; to < replicas; ++to)
      copyBetween(prog, data, row, from, to, name(debugPrefix, "gather"));
    rows.push_back(row.expand({0}));
  }
  return poplar::concat(rows, 0);
}

Tensor allReduceWithOutput(Graph &graph, const Tensor &data, CollectiveOperator op, Sequence &prog,
                           const std::string &debugPrefix, const poplar::OptionFlags &) {
  checkData(graph, data, "allReduceWithOutput");
  return reduceGathered(graph, data, op, prog, debugPrefix);
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
                               const std::string &debugPrefix, const poplar::OptionFlags &) {
  checkData(graph, data, "reduceScatterWithOutput");
  const unsigned replicas = graph.getReplicationFactor();
  const std::size_t n = data.numElements(), k = (n + replicas - 1) / replicas;
  Tensor reduced = reduceGathered(graph, data.flatten(), op, prog, debugPrefix);
  Tensor out = graph.addLinearlyMappedVariable(data.elementType(), {k}, name(debugPrefix, "scattered"));
  if (k * replicas != n)
    popops::zero(graph, out, prog, name(debugPrefix, "pad"));
  for (unsigned r = 0; r < replicas && r * k < n; ++r) {
    const std::size_t begin = r * k, end = std::min(n, begin + k);
    copyBetween(prog, reduced.slice(begin, end), out.slice(0, end - begin), r, r, name(debugPrefix, "scatter"));
  }
  return out;
}

Tensor broadcastWithOutput(Graph &graph, const Tensor &data, Sequence &prog, unsigned rootReplica,
                           const std::string &debugPrefix, const poplar::OptionFlags &) {
  checkData(graph, data, "broadcastWithOutput");
  const unsigned replicas = graph.getReplicationFactor();
  if (rootReplica >= replicas)
    throw poputil::poplibs_error("gcl::broadcastWithOutput: root replica " + std::to_string(rootReplica) +
                                 " does not exist; the graph has " + std::to_string(replicas) + " replica(s)");
  Tensor out = graph.clone(data, name(debugPrefix, "broadcast"));
  for (unsigned to = 0; to < replicas; ++to)
    copyBetween(prog, data, out, rootReplica, to, name(debugPrefix, "broadcast"));
  return out;
}

} // namespace gcl
