// Tensor helpers: copies of a tensor with the same shape and tile mapping, flat/multi-dimensional indices, dimension
// factoring, and the interval arithmetic that splits a tile's regions between vertices.
#ifndef POPUTIL_UTIL_HPP
#define POPUTIL_UTIL_HPP

#include <climits>
#include <cstddef>
#include <string>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/MetadataCreation.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>

namespace poputil {

/// A new variable with `t`'s type, shape and tile mapping (element i on the tile of t's element i). Elements of
/// t that are unmapped are mapped linearly in the clone.
poplar::Tensor cloneToGraph(poplar::Graph &graph, const poplar::Tensor &t,
                            const poplar::DebugContext &debugContext = {});

/// A new variable like `src` (cloneToGraph) and a copy of src into it appended to `prog`.
poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {});

/// A clone of `src` made by graph.clone(src, debugContext, method) and a copy of src into it appended to `prog`.
/// When the clone keeps src's aliases, each element of storage is copied once.
poplar::Tensor duplicate(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method);

/// `N` clones of `t` (graph.clone(t, ..., method)) stacked in a new outer dimension: shape {N, t.shape()...}.
/// Throws poplibs_error when N is 0.
poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
                      const poplar::DebugContext &debugContext, poplar::TensorCloneMethod method);

/// `N` clones of `t` stacked in a new outer dimension: shape {N, t.shape()...}; clone i is mapped like t.
/// Throws poplibs_error when N is 0.
poplar::Tensor cloneN(poplar::Graph &graph, const poplar::Tensor &t, unsigned N,
                      const poplar::DebugContext &debugContext = {});

/// The index into each dimension of a tensor of `shape` of element `index` of its flattened form (row-major: the
/// last dimension varies fastest). `index` must be below the product of `shape`.
template <class T> std::vector<T> unflattenIndex(const std::vector<T> &shape, std::size_t index) {
  std::vector<T> coord(shape.size());
  for (std::size_t i = shape.size(); i > 0; --i) {
    coord[i - 1] = T(index % shape[i - 1]);
    index /= shape[i - 1];
  }
  return coord;
}

/// The index in the flattened form of a tensor of `shape` of the element at `indices` (one per dimension): the
/// inverse of unflattenIndex.
template <class T> std::size_t flattenIndex(const std::vector<T> &shape, const std::vector<T> &indices) {
  std::size_t index = 0;
  for (std::size_t i = 0; i < shape.size() && i < indices.size(); ++i)
    index = index * std::size_t(shape[i]) + std::size_t(indices[i]);
  return index;
}

/// Sorts `regions` and joins those that touch; empty regions are dropped. The regions must not overlap.
void mergeAdjacentRegions(std::vector<poplar::Interval> &regions);
/// The same for each tile's regions of a mapping.
void mergeAdjacentRegions(std::vector<std::vector<poplar::Interval> > &mapping);

/// All the intervals of `intervals`, in order, in one list.
std::vector<poplar::Interval> flattenIntervals(const std::vector<std::vector<poplar::Interval> > &intervals);

/// Splits `regions` (in order) into at most `maxPartitions` partitions of whole grains of `grainSize` elements
/// (the last partition may end in a partial grain). The partitions are as even as possible, and as few as give
/// that largest size; each holds at least `minElementsPerPartition` elements where the total allows, at most
/// `maxElementsPerPartition` (rounded down to grains, which may add partitions), and no piece of a region longer
/// than `maxElementsPerRegion` (rounded down to grains). No elements give no partition.
std::vector<std::vector<poplar::Interval> > splitRegions(const std::vector<poplar::Interval> &regions,
                                                         unsigned grainSize, unsigned maxPartitions,
                                                         unsigned minElementsPerPartition = 0,
                                                         unsigned maxElementsPerPartition = UINT_MAX,
                                                         unsigned maxElementsPerRegion = UINT_MAX);
/// As above for a list of interval sequences, each counted as one region of its total size: a partition's piece
/// of a sequence is itself a sequence.
std::vector<std::vector<std::vector<poplar::Interval> > >
splitRegions(const std::vector<std::vector<poplar::Interval> > &regions, unsigned grainSize, unsigned maxPartitions,
             unsigned minElementsPerPartition = 0, unsigned maxElementsPerPartition = UINT_MAX,
             unsigned maxElementsPerRegion = UINT_MAX);
/// splitRegions with one partition per worker context of `target`'s tiles.
std::vector<std::vector<poplar::Interval> >
splitRegionsBetweenWorkers(const poplar::Target &target, const std::vector<poplar::Interval> &regions,
                           unsigned grainSize, unsigned minElementsPerPartition = 0,
                           unsigned maxElementsPerPartition = UINT_MAX, unsigned maxElementsPerRegion = UINT_MAX);
/// The same for interval sequences.
std::vector<std::vector<std::vector<poplar::Interval> > >
splitRegionsBetweenWorkers(const poplar::Target &target, const std::vector<std::vector<poplar::Interval> > &regions,
                           unsigned grainSize, unsigned minElementsPerPartition = 0,
                           unsigned maxElementsPerPartition = UINT_MAX, unsigned maxElementsPerRegion = UINT_MAX);

/// The number of elements of all the intervals of `seq`.
std::size_t intervalSequenceNumElements(const std::vector<std::vector<poplar::Interval> > &seq);

/// [0, rangeUpperBound) split into `splitCount` counts as equal as possible, the larger ones first.
std::vector<int> balancedPartition(int rangeUpperBound, int splitCount);

/// `input` as the device's HALF would hold it (through float, rounded to nearest even), back as a double.
double castToDeviceHalfValue(const poplar::Target &target, double input);

/// True when `input` survives a cast from `inputType` to `outputType` within the relative `tolerance` (FLOAT to
/// HALF: the rounding error is below |input| * tolerance, so an overflow or a flush to zero fails; HALF to FLOAT
/// always holds). Throws poputil::poplibs_error for other pairs of types.
bool checkAccuracyWhenCast(const poplar::Target &target, double input, poplar::Type inputType,
                           poplar::Type outputType, double tolerance);

/// Deprecated in the SDK in favour of poplar::createConstantMetadataTensor, which it calls: a one-element
/// QUARTER_METADATA constant holding the format and scale (the scale in [-32, 31], else poplar_error).
poplar::Tensor createConstantMetadataTensor(poplar::Graph &graph, poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale);
/// Deprecated in the SDK in favour of poplar::createVariableMetadataTensor, which it calls: a one-element
/// QUARTER_METADATA variable whose initial value is the format and scale.
poplar::Tensor createVariableMetadataTensor(poplar::Graph &graph, poplar::QuarterMetadata::Format fp8Format,
                                            int fp8Scale);

/// `t` with each dimension startDim + d (d < factors.size()) split into [dim / factors[d], factors[d]], the outer
/// parts first and then the factors: {A, B} with factors {a, b} becomes {A / a, B / b, a, b}. Each factor must
/// divide its dimension (else poputil::poplibs_error).
poplar::Tensor factorDims(const poplar::Tensor &t, const std::vector<std::size_t> &factors, unsigned startDim = 0);
/// The inverse of factorDims over `numDims` dimensions from startDim.
poplar::Tensor unfactorDims(const poplar::Tensor &t, unsigned numDims, unsigned startDim = 0);

/// For `intervals` (disjoint) taken in their given order and concatenated, where each one lands: result[k] is
/// the range of that concatenation holding the k-th interval in ascending order of begin, so slicing the
/// concatenation by the result restores ascending order.
std::vector<poplar::Interval> calculateUnshufflingIntervals(const std::vector<poplar::Interval> &intervals);

} // namespace poputil

#endif // POPUTIL_UTIL_HPP
