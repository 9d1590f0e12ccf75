// The replica-balanced layout of gcl/CollectiveBalancedReorder.hpp. Replica r's part of the gathered order is
// tile 0's share, then tile 1's, ... (tiles ascending, tiles without elements left out); a tile's share for
// replica r is the r-th run of `per` elements of that tile's elements in index order, the last runs short or
// empty (padding). The host rearrangement lists, in the reference order, where each run of elements sits in the
// gathered order.
#include "gcl/CollectiveBalancedReorder.hpp"

#include <algorithm>
#include <cstring>
#include <tuple>

#include <poputil/exceptions.hpp>

namespace gcl {

std::size_t CollectiveBalancedHostRearrangement::getNumRearrangedTensorElems() const {
  return std::size_t(replicationFactor) * totalElementsPerReplica;
}

void CollectiveBalancedHostRearrangement::rearrange(const char *in, char *out, std::int64_t elemByteSize,
                                                    bool refToGathered) const {
  if (elemByteSize <= 0)
    throw poputil::poplibs_error("gcl::CollectiveBalancedHostRearrangement: elemByteSize " +
                                 std::to_string(elemByteSize) + " is not positive; pass the element type's size "
                                 "in bytes");
  const std::size_t es = std::size_t(elemByteSize);
  std::size_t ref = 0;
  for (const poplar::Interval &s : gatheredToRefSlices) {
    if (refToGathered)
      std::memcpy(out + s.begin() * es, in + ref * es, s.size() * es);
    else
      std::memcpy(out + ref * es, in + s.begin() * es, s.size() * es);
    ref += s.size();
  }
}

void CollectiveBalancedHostRearrangement::rearrangeForCollective(const char *in, char *out,
                                                                 std::int64_t elemByteSize) const {
  rearrange(in, out, elemByteSize, true);
}

void CollectiveBalancedHostRearrangement::undoRearrangeForCollective(const char *in, char *out,
                                                                     std::int64_t elemByteSize) const {
  rearrange(in, out, elemByteSize, false);
}

CollectiveBalancedReorder::CollectiveBalancedReorder(poplar::Graph &graph, poplar::Tensor tensor,
                                                     unsigned replicationFactor, const poplar::DebugNameAndId &dnai,
                                                     bool, unsigned grainSize)
    : graph_(graph), reference_(tensor), dnai_(dnai) {
  const std::string what = "gcl::CollectiveBalancedReorder: ";
  if (replicationFactor == 0)
    throw poputil::poplibs_error(what + "the replication factor is 0; pass the number of replicas (at least 1)");
  if (grainSize == 0)
    throw poputil::poplibs_error(what + "the grain size is 0; pass at least 1 element");
  if (!tensor.valid())
    throw poputil::poplibs_error(what + "the reference tensor is invalid (default-constructed)");
  const auto mapping = graph.getTileMapping(tensor, false);
  // Runs of reference elements and where they go: (reference begin, gathered begin, length).
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> runs;
  std::size_t mapped = 0, offset = 0; // offset: the tile's share's start in a replica's part
  struct TileRuns {
    std::size_t offset, per;
    std::vector<poplar::Interval> intervals;
  };
  std::vector<TileRuns> tiles;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    std::vector<poplar::Interval> iv = mapping[tile];
    std::size_t n = 0;
    for (const auto &i : iv)
      n += i.size();
    if (n == 0)
      continue;
    std::sort(iv.begin(), iv.end());
    const std::size_t unit = std::size_t(replicationFactor) * grainSize;
    const std::size_t per = (n + unit - 1) / unit * grainSize;
    shares_.emplace_back(tile, per);
    tiles.push_back(TileRuns{offset, per, iv});
    offset += per;
    mapped += n;
  }
  if (mapped != tensor.numElements())
    throw poputil::poplibs_error(what + std::to_string(tensor.numElements() - mapped) + " of the reference tensor's " +
                                 std::to_string(tensor.numElements()) + " elements have no tile mapping; map every "
                                 "element (Graph::setTileMapping) before reordering it");
  host_.replicationFactor = replicationFactor;
  host_.totalElementsPerReplica = offset;
  for (const TileRuns &t : tiles) {
    std::size_t k = 0; // position in the tile's elements
    for (const auto &i : t.intervals) {
      std::size_t b = i.begin();
      while (b < i.end()) {
        const std::size_t replica = k / t.per, within = k % t.per;
        const std::size_t len = std::min(i.end() - b, t.per - within);
        runs.emplace_back(b, replica * offset + t.offset + within, len);
        b += len;
        k += len;
      }
    }
  }
  std::sort(runs.begin(), runs.end());
  for (const auto &r : runs) {
    const std::size_t g = std::get<1>(r), len = std::get<2>(r);
    auto &slices = host_.gatheredToRefSlices;
    if (!slices.empty() && slices.back().end() == g)
      slices.back() = poplar::Interval(slices.back().begin(), g + len);
    else
      slices.emplace_back(g, g + len);
  }
}

poplar::Tensor CollectiveBalancedReorder::newPart(const poplar::Type &type, const std::string &name) {
  poplar::Tensor t = graph_.addVariable(type, {host_.totalElementsPerReplica}, {dnai_, name});
  std::size_t at = 0;
  for (const auto &s : shares_) {
    graph_.setTileMapping(t.slice(at, at + s.second), s.first);
    at += s.second;
  }
  return t;
}

poplar::Tensor CollectiveBalancedReorder::createReplicaSlice(const poplar::Type &type) {
  return newPart(type, "cbrSlice");
}

poplar::Tensor CollectiveBalancedReorder::createCollectivesTensor(const poplar::Type &type,
                                                                  const std::string &debugPrefix) {
  std::vector<poplar::Tensor> rows;
  for (unsigned r = 0; r < host_.replicationFactor; ++r) {
    rows.push_back(newPart(type, debugPrefix + "/cbrSlice" + std::to_string(r)).expand({0}));
  }
  return poplar::concat(rows);
}

poplar::Tensor CollectiveBalancedReorder::undoRearrangeForCollective(const poplar::Tensor &tensor) const {
  if (!tensor.valid() || tensor.numElements() != host_.getNumRearrangedTensorElems())
    throw poputil::poplibs_error(
        "gcl::CollectiveBalancedReorder::undoRearrangeForCollective: the tensor has " +
        std::to_string(tensor.valid() ? tensor.numElements() : 0) + " elements, the gathered order has " +
        std::to_string(host_.getNumRearrangedTensorElems()) + "; pass a tensor made by createCollectivesTensor");
  return poplar::concat(tensor.flatten().slices(host_.gatheredToRefSlices)).reshape(reference_.shape());
}

} // namespace gcl
