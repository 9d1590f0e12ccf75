// Rearranging a tensor's elements in memory without changing its values: batches of small matrix transposes on
// the tiles, and regrouping (making groups of consecutive elements along another dimension contiguous), as
// PopLibs' convolution and matmul layers use to hand a tensor over in the layout the next operation prefers.
#ifndef POPOPS_REARRANGE_HPP
#define POPOPS_REARRANGE_HPP

#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poputil/VarStructure.hpp>

namespace popops {
namespace rearrange {

/// Whether Graphcore's fast (assembly) transpose vertex would take `numTranspositions` matrices of numRows x
/// numColumns elements of `type`: 2-byte types (HALF, SHORT, UNSIGNED_SHORT) with both sides multiples of 4 and
/// QUARTER with both multiples of 8, at most 65535 transpositions. The answer only informs layout choices here:
/// addTransposeVertices transposes every valid type and shape with the same vertex.
bool canUseFastTranspose(const poplar::Target &target, const poplar::Type &type, unsigned numRows,
                         unsigned numColumns, unsigned numTranspositions);

/// Adds to `cs`, on each tile of `mapping` (a mapping of transposition indices to tiles), vertices that transpose
/// the matrices getInOut(i) gives for each index i the tile lists: `first` holds rows x cols elements in row-major
/// order and `second` receives its cols x rows transpose. Both must be on that tile. dType may be QUARTER, HALF,
/// FLOAT, SHORT, UNSIGNED_SHORT, INT or UNSIGNED_INT; rows and cols at most 65535. Throws poputil::poplibs_error
/// otherwise.
void addTransposeVertices(poplar::Graph &graph, const poplar::ComputeSet &cs, const poplar::Type &dType,
                          unsigned rows, unsigned cols, const poplar::Graph::TileToTensorMapping &mapping,
                          std::function<std::pair<const poplar::Tensor, const poplar::Tensor>(size_t)> getInOut,
                          const poplar::DebugContext &debugContext = {});

/// A new tensor holding `in` (rank 2 or more) with its two innermost dimensions swapped, each matrix transposed
/// by vertices added to `cs` on the tile of its first element (where its output is mapped too).
poplar::Tensor partialTranspose(poplar::Graph &graph, const poplar::Tensor &in, const poplar::ComputeSet &cs,
                                const poplar::DebugContext &debugContext = {});

/// The smallest group size worth regrouping for elements of `type`: 8 for QUARTER, 4 for 2-byte types, 2 for
/// 4-byte ones, 1 otherwise.
unsigned getMinimumRegroupGrainSize(const poplar::Type &type);

/// A new tensor with t's shape and values whose groups of to.second consecutive elements along dimension to.first
/// are contiguous in memory, from t grouped by `from`: the copies that bring each block to one tile go in
/// `copies`, the transposes in `transposeCS` (run the copies first). Throws poputil::poplibs_error when a
/// grouping names a dimension t lacks or does not divide it, or for a type addTransposeVertices does not take.
poplar::Tensor regroupTensor(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &copies,
                             const poplar::ComputeSet &transposeCS, const poputil::GroupingInfo &from,
                             const poputil::GroupingInfo &to, const poplar::DebugContext &debugContext = {});

/// As regroupIfBeneficial, towards the given grouping `to`: t unchanged when `to` does not divide its dimension,
/// t's rank is 1, t is already grouped on that dimension or its own grouping is smaller than the grain size;
/// otherwise the copies and the transposes are added to `prog`.
poplar::Tensor regroupIfPossible(poplar::Graph &graph, const poplar::Tensor &t, poplar::program::Sequence &prog,
                                 const poputil::GroupingInfo &to, const poplar::DebugContext &debugContext = {});

/// regroupTensor with the copies returned in a list.
poplar::Tensor regroupTensor(poplar::Graph &graph, const poplar::Tensor &t, std::vector<poplar::program::Copy> &copies,
                             const poplar::ComputeSet &transposeCS, const poputil::GroupingInfo &from,
                             const poputil::GroupingInfo &to, const poplar::DebugContext &debugContext = {});

/// `in` regrouped like `ref` (same shape) when their innermost groupings are on different dimensions and both are
/// multiples of the grain size; else `in` itself. Ranks below 2 and types that cannot be transposed are returned
/// unchanged. Copies and transposes are added to `prog`.
poplar::Tensor regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &ref,
                                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// As above with the copies returned in a list and the transposes added to `transposeCS`.
poplar::Tensor regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in, const poplar::Tensor &ref,
                                   std::vector<poplar::program::Copy> &copies, poplar::ComputeSet transposeCS,
                                   const poplar::DebugContext &debugContext = {});

/// `in` regrouped so that groups of preferredGrouping elements of its innermost dimension are contiguous, when its
/// own grouping is on another dimension and both are multiples of the grain size; else `in`. Throws
/// poputil::poplibs_error when preferredGrouping does not divide the innermost dimension.
poplar::Tensor regroupIfBeneficial(poplar::Graph &graph, const poplar::Tensor &in, std::size_t preferredGrouping,
                                   poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace rearrange
} // namespace popops

#endif // POPOPS_REARRANGE_HPP
