// poputil/VarStructure.hpp. A partitionable tensor is built from one variable per distinct block shape (at most two
// sizes per dimension: the full block and the remainder), each variable holding all blocks of its shape with the
// block index outermost, so every block is contiguous; the variables are then concatenated back into `shape`.
#include "poputil/VarStructure.hpp"

#include <algorithm>
#include <numeric>

#include "poputil/DebugInfo.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

using poplar::Tensor;

namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

void checkPartitions(std::size_t rank, const std::vector<std::size_t> &nPartitions, const char *fn) {
  if (rank != nPartitions.size())
    throw poplibs_error(std::string(fn) + ": the tensor has " + std::to_string(rank) + " dimensions but nPartitions has " +
                        std::to_string(nPartitions.size()) + " entries; give one partition count per dimension");
  for (std::size_t n : nPartitions)
    if (n == 0)
      throw poplibs_error(std::string(fn) + ": a partition count is 0; each dimension needs at least one part");
}

// Steps `index` through [0, limits) with index[0] fastest; false once every combination was visited.
bool nextIndex(std::vector<std::size_t> &index, const std::vector<std::size_t> &limits) {
  for (std::size_t d = 0; d < index.size(); ++d) {
    if (++index[d] < limits[d])
      return true;
    index[d] = 0;
  }
  return false;
}

} // namespace

Tensor createPartitionableTensor(poplar::Graph &graph, const poplar::Type &type, const std::vector<std::size_t> &shape,
                                 const std::vector<std::size_t> &nPartitions, const poplar::DebugContext &debugContext) {
  PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, nPartitions), "poputil::createPartitionableTensor");
  checkPartitions(shape.size(), nPartitions, "createPartitionableTensor");
  if (shape.empty() || std::find(shape.begin(), shape.end(), 0) != shape.end()) {
    Tensor t = graph.addVariable(type, shape, {di});
    di.addOutput(t);
    return t;
  }
  const std::size_t rank = shape.size();
  // Per dimension: the extents of the (one or two) groups of blocks, and the block size of each group.
  std::vector<std::vector<std::size_t> > extent(rank), block(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    const std::size_t b = ceilDiv(shape[d], nPartitions[d]), rem = shape[d] % b;
    extent[d].push_back(shape[d] - rem);
    block[d].push_back(b);
    if (rem) {
      extent[d].push_back(rem);
      block[d].push_back(rem);
    }
  }
  // One variable per combination of groups, index[0] fastest: [blocks per dim..., block shape...] shuffled so
  // that each dimension's block count sits next to its block size, then merged.
  std::vector<Tensor> vars;
  std::vector<std::size_t> index(rank, 0), choices(rank);
  for (std::size_t d = 0; d < rank; ++d)
    choices[d] = extent[d].size();
  do {
    std::vector<std::size_t> varShape(2 * rank), merged(rank);
    std::vector<unsigned> order(2 * rank);
    for (std::size_t d = 0; d < rank; ++d) {
      const std::size_t b = block[d][index[d]];
      varShape[d] = extent[d][index[d]] / b;
      varShape[rank + d] = b;
      order[2 * d] = unsigned(d);
      order[2 * d + 1] = unsigned(rank + d);
      merged[d] = extent[d][index[d]];
    }
    vars.push_back(graph.addVariable(type, varShape, {di}).dimShuffle(order).reshape(merged));
  } while (nextIndex(index, choices));
  // Join the variables one dimension at a time. Their order has index[0] fastest, so the groups of the last
  // dimension are the slowest-varying: entry g * n + k for group g. Joining those along that dimension leaves the
  // same layout over the remaining dimensions, so walk d from the last to the first.
  for (std::size_t d = rank; d-- > 0;) {
    const std::size_t groups = choices[d];
    if (groups == 1)
      continue;
    const std::size_t n = vars.size() / groups;
    std::vector<Tensor> next;
    for (std::size_t k = 0; k < n; ++k) {
      std::vector<Tensor> parts;
      for (std::size_t g = 0; g < groups; ++g)
        parts.push_back(vars[g * n + k]);
      next.push_back(poplar::concat(parts, unsigned(d)));
    }
    vars.swap(next);
  }
  di.addOutput(vars[0]);
  return vars[0];
}

void iterateTensorPartitions(const Tensor &t, const std::vector<std::size_t> &nPartitions,
                             const std::function<void(const std::vector<std::size_t> &, const Tensor &)> &f) {
  checkPartitions(t.rank(), nPartitions, "iterateTensorPartitions");
  const std::vector<std::size_t> shape = t.shape();
  std::vector<std::size_t> index(shape.size(), 0);
  do {
    Tensor s = t;
    for (std::size_t d = 0; d < shape.size(); ++d) {
      const std::size_t b = ceilDiv(shape[d], nPartitions[d]);
      s = s.slice(std::min(index[d] * b, shape[d]), std::min((index[d] + 1) * b, shape[d]), unsigned(d));
    }
    f(index, s);
  } while (nextIndex(index, nPartitions));
}

unsigned detectInnermostGrouping(const poplar::Graph &graph, const Tensor &t0) {
  if (t0.rank() == 0)
    throw poplibs_error("detectInnermostGrouping: the tensor has rank 0; there is no innermost dimension to group");
  if (t0.numElements() == 0)
    return 1;
  Tensor row = t0;
  while (row.rank() > 1)
    row = row[0];
  // The longest contiguous prefix of the first row, by bisection (contiguity of a prefix is monotonic).
  std::size_t lo = 1, hi = row.numElements();
  while (lo < hi) {
    const std::size_t mid = hi - (hi - lo) / 2;
    if (row.slice(0, mid).isContiguous())
      lo = mid;
    else
      hi = mid - 1;
  }
  std::size_t largest = 0;
  for (const auto &regions : graph.getTileMapping(row, false))
    for (const auto &r : regions)
      largest = std::max<std::size_t>(largest, r.size());
  std::size_t grouping = std::gcd(largest, hi);
  if (grouping == 0 || row.numElements() % grouping != 0)
    grouping = 1;
  return unsigned(grouping);
}

std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph &graph, const Tensor &t) {
  if (t.rank() == 0)
    throw poplibs_error("detectDimGroupings: the tensor has rank 0; there is no dimension to group");
  std::vector<GroupingInfo> found;
  const unsigned rank = t.rank();
  // t's dimensions, then the groups found so far, the latest outermost (just after t's dimensions).
  Tensor grouped = t;
  unsigned total = 1;
  for (;;) {
    unsigned best = 1, bestDim = 0;
    for (unsigned d = 0; d < rank; ++d) {
      if (grouped.dim(d) == 1)
        continue;
      // Dimension d followed by the groups found so far, as one innermost dimension.
      const Tensor candidate = grouped.dimRoll(d, rank - 1).flatten(rank - 1, grouped.rank());
      const unsigned g = detectInnermostGrouping(graph, candidate);
      unsigned here = g % total ? 1u : g / total;
      here = unsigned(std::gcd<std::size_t>(here, grouped.dim(d)));
      if (here > best) {
        best = here;
        bestDim = d;
      }
    }
    if (best == 1)
      break;
    found.emplace_back(bestDim, best);
    total *= best;
    grouped = grouped.reshapePartial(bestDim, bestDim + 1, {grouped.dim(bestDim) / best, best})
                  .dimRoll(bestDim + 1, rank);
  }
  return found;
}

} // namespace poputil
