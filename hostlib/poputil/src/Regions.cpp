// poputil/Util.hpp: interval arithmetic (merging, splitting a tile's regions between vertices), dimension
// factoring and the HALF cast checks.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "poputil/Util.hpp"
#include "poputil/exceptions.hpp"

namespace poputil {

using poplar::Interval;

void mergeAdjacentRegions(std::vector<Interval> &regions) {
  std::sort(regions.begin(), regions.end(),
            [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
  std::vector<Interval> merged;
  for (const Interval &r : regions) {
    if (r.size() == 0)
      continue;
    if (!merged.empty() && merged.back().end() == r.begin())
      merged.back() = Interval(merged.back().begin(), r.end());
    else
      merged.push_back(r);
  }
  regions.swap(merged);
}

void mergeAdjacentRegions(std::vector<std::vector<Interval> > &mapping) {
  for (auto &tile : mapping)
    mergeAdjacentRegions(tile);
}

std::vector<Interval> flattenIntervals(const std::vector<std::vector<Interval> > &intervals) {
  std::vector<Interval> all;
  for (const auto &list : intervals)
    all.insert(all.end(), list.begin(), list.end());
  return all;
}

std::size_t intervalSequenceNumElements(const std::vector<std::vector<Interval> > &seq) {
  std::size_t n = 0;
  for (const auto &list : seq)
    for (const Interval &i : list)
      n += i.size();
  return n;
}

namespace {

std::size_t sizeOf(const Interval &i) { return i.size(); }
std::size_t sizeOf(const std::vector<Interval> &seq) { return intervalSequenceNumElements({seq}); }

// Elements [offset, offset + len) of an interval, or of a sequence (as a sequence).
Interval pieceOf(const Interval &i, std::size_t offset, std::size_t len) {
  return Interval(i.begin() + offset, i.begin() + offset + len);
}
std::vector<Interval> pieceOf(const std::vector<Interval> &seq, std::size_t offset, std::size_t len) {
  std::vector<Interval> out;
  for (const Interval &i : seq) {
    if (len == 0)
      break;
    if (offset >= i.size()) {
      offset -= i.size();
      continue;
    }
    const std::size_t take = std::min(len, i.size() - offset);
    out.push_back(pieceOf(i, offset, take));
    len -= take;
    offset = 0;
  }
  return out;
}

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// The split shared by both forms of splitRegions: counts grains, decides how many grains each partition takes
// (the fewest partitions that keep the largest as small as the limits allow), then hands out the items in order.
template <typename Item>
std::vector<std::vector<Item> > split(const std::vector<Item> &items, unsigned grainSize, unsigned maxPartitions,
                                      unsigned minPerPartition, unsigned maxPerPartition, unsigned maxPerRegion) {
  if (grainSize == 0 || maxPartitions == 0)
    throw poplibs_error("splitRegions: grainSize and maxPartitions must be at least 1");
  std::size_t total = 0;
  for (const Item &it : items)
    total += sizeOf(it);
  std::vector<std::vector<Item> > parts;
  if (total == 0)
    return parts;
  // Pieces of a region are whole grains long, but never shorter than one grain.
  const std::size_t pieceLimit = std::max<std::size_t>(grainSize, grainSize * (maxPerRegion / grainSize));
  const std::size_t grains = ceilDiv(total, grainSize);
  std::size_t perPart = ceilDiv(grains, maxPartitions);
  perPart = std::max<std::size_t>(1, std::min<std::size_t>(perPart, maxPerPartition / grainSize));
  if (minPerPartition != 0) {
    const std::size_t minGrains = ceilDiv(minPerPartition, grainSize);
    const std::size_t mostParts = std::max<std::size_t>(1, grains / minGrains);
    perPart = std::max(perPart, ceilDiv(grains, mostParts));
  }
  const std::size_t count = ceilDiv(grains, perPart);
  parts.resize(count);
  std::size_t item = 0, offset = 0;
  for (std::size_t p = 0; p < count; ++p) {
    // Grains [p * grains / count, (p + 1) * grains / count): spreads the grains as evenly as count allows.
    const std::size_t first = std::min(total, p * grains / count * grainSize);
    const std::size_t last = std::min(total, (p + 1) * grains / count * grainSize);
    for (std::size_t want = last - first; want > 0;) {
      if (offset == sizeOf(items[item])) {
        ++item;
        offset = 0;
        continue;
      }
      const std::size_t take = std::min({want, pieceLimit, sizeOf(items[item]) - offset});
      parts[p].push_back(pieceOf(items[item], offset, take));
      offset += take;
      want -= take;
    }
  }
  return parts;
}

} // namespace

std::vector<std::vector<Interval> > splitRegions(const std::vector<Interval> &regions, unsigned grainSize,
                                                 unsigned maxPartitions, unsigned minElementsPerPartition,
                                                 unsigned maxElementsPerPartition, unsigned maxElementsPerRegion) {
  return split(regions, grainSize, maxPartitions, minElementsPerPartition, maxElementsPerPartition,
               maxElementsPerRegion);
}

std::vector<std::vector<std::vector<Interval> > >
splitRegions(const std::vector<std::vector<Interval> > &regions, unsigned grainSize, unsigned maxPartitions,
             unsigned minElementsPerPartition, unsigned maxElementsPerPartition, unsigned maxElementsPerRegion) {
  return split(regions, grainSize, maxPartitions, minElementsPerPartition, maxElementsPerPartition,
               maxElementsPerRegion);
}

std::vector<std::vector<Interval> > splitRegionsBetweenWorkers(const poplar::Target &target,
                                                               const std::vector<Interval> &regions,
                                                               unsigned grainSize, unsigned minElementsPerPartition,
                                                               unsigned maxElementsPerPartition,
                                                               unsigned maxElementsPerRegion) {
  return splitRegions(regions, grainSize, target.getNumWorkerContexts(), minElementsPerPartition,
                      maxElementsPerPartition, maxElementsPerRegion);
}

std::vector<std::vector<std::vector<Interval> > >
splitRegionsBetweenWorkers(const poplar::Target &target, const std::vector<std::vector<Interval> > &regions,
                           unsigned grainSize, unsigned minElementsPerPartition, unsigned maxElementsPerPartition,
                           unsigned maxElementsPerRegion) {
  return splitRegions(regions, grainSize, target.getNumWorkerContexts(), minElementsPerPartition,
                      maxElementsPerPartition, maxElementsPerRegion);
}

std::vector<int> balancedPartition(int rangeUpperBound, int splitCount) {
  if (splitCount <= 0 || rangeUpperBound < 0)
    throw poplibs_error("balancedPartition: the range must not be negative and the split count must be positive");
  std::vector<int> counts(std::size_t(splitCount), rangeUpperBound / splitCount);
  for (int i = 0; i < rangeUpperBound % splitCount; ++i)
    ++counts[std::size_t(i)];
  return counts;
}

double castToDeviceHalfValue(const poplar::Target &target, double input) {
  const float f = float(input);
  std::vector<unsigned char> bits(target.getTypeSize(poplar::HALF));
  poplar::copyFloatToDeviceHalf(target, &f, bits.data(), 1);
  float back = 0;
  poplar::copyDeviceHalfToFloat(target, bits.data(), &back, 1);
  return back;
}

bool checkAccuracyWhenCast(const poplar::Target &target, double input, poplar::Type inputType,
                           poplar::Type outputType, double tolerance) {
  if (inputType == poplar::HALF && outputType == poplar::FLOAT)
    return true;
  if (inputType != poplar::FLOAT || outputType != poplar::HALF)
    throw poplibs_error("checkAccuracyWhenCast: only FLOAT to HALF and HALF to FLOAT are checked, not " +
                        inputType.toString() + " to " + outputType.toString());
  const float f = float(input);
  return std::fabs(double(f)) * tolerance > std::fabs(castToDeviceHalfValue(target, f) - double(f));
}

poplar::Tensor factorDims(const poplar::Tensor &t, const std::vector<std::size_t> &factors, unsigned startDim) {
  const unsigned n = unsigned(factors.size());
  if (startDim + n > t.rank())
    throw poplibs_error("factorDims: dimensions " + std::to_string(startDim) + " to " + std::to_string(startDim + n) +
                        " are beyond the tensor's rank " + std::to_string(t.rank()));
  // Each dimension becomes [outer, factor] in place; then the factors move behind all the outer parts.
  std::vector<std::size_t> pairs;
  for (unsigned d = 0; d < n; ++d) {
    if (factors[d] == 0 || t.dim(startDim + d) % factors[d] != 0)
      throw poplibs_error("factorDims: factor " + std::to_string(factors[d]) + " does not divide dimension " +
                          std::to_string(startDim + d) + " of size " + std::to_string(t.dim(startDim + d)));
    pairs.push_back(t.dim(startDim + d) / factors[d]);
    pairs.push_back(factors[d]);
  }
  std::vector<unsigned> from, to;
  for (unsigned d = 0; d < n; ++d) {
    from.push_back(startDim + 2 * d); // outer part of dimension d
    to.push_back(startDim + d);
  }
  for (unsigned d = 0; d < n; ++d) {
    from.push_back(startDim + 2 * d + 1); // its factor
    to.push_back(startDim + n + d);
  }
  return t.reshapePartial(startDim, startDim + n, pairs).dimShufflePartial(from, to);
}

poplar::Tensor unfactorDims(const poplar::Tensor &t, unsigned numDims, unsigned startDim) {
  if (startDim + 2 * numDims > t.rank())
    throw poplibs_error("unfactorDims: dimensions " + std::to_string(startDim) + " to " +
                        std::to_string(startDim + 2 * numDims) + " are beyond the tensor's rank " +
                        std::to_string(t.rank()));
  // Bring each factor back next to its outer part, then merge the pairs.
  std::vector<unsigned> from, to;
  for (unsigned d = 0; d < numDims; ++d) {
    from.push_back(startDim + d);
    to.push_back(startDim + 2 * d);
    from.push_back(startDim + numDims + d);
    to.push_back(startDim + 2 * d + 1);
  }
  const poplar::Tensor paired = t.dimShufflePartial(from, to);
  std::vector<std::size_t> merged;
  for (unsigned d = 0; d < numDims; ++d)
    merged.push_back(paired.dim(startDim + 2 * d) * paired.dim(startDim + 2 * d + 1));
  return paired.reshapePartial(startDim, startDim + 2 * numDims, merged);
}

std::vector<Interval> calculateUnshufflingIntervals(const std::vector<Interval> &intervals) {
  std::vector<std::size_t> order(intervals.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return intervals[a].begin() < intervals[b].begin(); });
  // Where each interval starts in the concatenation (in the given order).
  std::vector<std::size_t> start(intervals.size());
  std::size_t at = 0;
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    start[i] = at;
    at += intervals[i].size();
  }
  std::vector<Interval> result;
  for (std::size_t k : order)
    result.push_back(Interval(start[k], start[k] + intervals[k].size()));
  return result;
}

} // namespace poputil
