// The structure of tensors: groupings of contiguous elements found from how a tensor is laid out and mapped, and
// tensors laid out so that each block of a partition is one contiguous region.
#ifndef POPUTIL_VARSTRUCTURE_HPP
#define POPUTIL_VARSTRUCTURE_HPP

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Tensor.hpp>

namespace poputil {

/// The size of the groups of consecutive elements of t's innermost dimension that are contiguous in memory and
/// kept together on a tile (1 when there is no grouping; also 1 for a tensor of no elements). It is estimated from
/// the first row: the longest contiguous prefix of it, and the largest region of it on any tile. Throws
/// poputil::poplibs_error for a rank-0 tensor.
unsigned detectInnermostGrouping(const poplar::Graph &graph, const poplar::Tensor &t);

/// A grouping: (dimension, size of its groups).
typedef std::pair<unsigned, unsigned> GroupingInfo;

/// Every grouping of t from the innermost outwards: each entry's dimension (of t's shape) is grouped by the size
/// given, with what earlier entries found grouped innermost. A dimension may appear more than once. Uses
/// detectInnermostGrouping; throws poputil::poplibs_error for a rank-0 tensor.
std::vector<GroupingInfo> detectDimGroupings(const poplar::Graph &graph, const poplar::Tensor &t);

/// A new variable of `shape` (no tile mapping) laid out so that each block of its partition into nPartitions[d]
/// parts along each dimension d is one contiguous region. Dimension d is cut into blocks of ceil(shape[d] /
/// nPartitions[d]) elements, the last block taking what remains (and later blocks, if any, being empty), as
/// iterateTensorPartitions cuts it. Throws poputil::poplibs_error when shape and nPartitions differ in length or
/// a partition count is 0.
poplar::Tensor createPartitionableTensor(poplar::Graph &graph, const poplar::Type &type,
                                         const std::vector<std::size_t> &shape,
                                         const std::vector<std::size_t> &nPartitions,
                                         const poplar::DebugContext &debugContext = {});

/// Calls f(i, block) for each block of t's partition into nPartitions[d] parts along each dimension d (the cut of
/// createPartitionableTensor), i being the block's index in each dimension; the first index changes fastest.
/// Throws poputil::poplibs_error when t's rank and nPartitions' length differ or a partition count is 0.
void iterateTensorPartitions(const poplar::Tensor &t, const std::vector<std::size_t> &nPartitions,
                             const std::function<void(const std::vector<std::size_t> &i, const poplar::Tensor &s)> &f);

} // namespace poputil

#endif // POPUTIL_VARSTRUCTURE_HPP
