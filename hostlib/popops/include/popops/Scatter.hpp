// popops::scatter: XLA's scatter (tensorflow.org/xla/operation_semantics#scatter). Each index vector of `indices`
// names where in `operand` a window of `updates` goes; the window is written over the operand, or combined with
// it by a user computation.
#ifndef POPOPS_SCATTER_HPP
#define POPOPS_SCATTER_HPP

#include <cstddef>
#include <functional>
#include <vector>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// Writes windows of `updates` into `operand` (in place), one per index vector of `indices`, in index order (a
/// later window over the same elements wins).
/// - indexVectorDim: the dimension of `indices` holding the index vectors (indices.rank() for scalar indices).
/// - updateWindowDims: the dimensions of `updates` that are window dimensions (increasing); the others index the
///   index vectors, in the order of `indices`' other dimensions.
/// - insertWindowDims: the operand dimensions the window has size 1 in and `updates` leaves out.
/// - scatterDimsToOperandDims: component i of an index vector is the start in operand dimension [i]; the window
///   starts at 0 in the other dimensions.
/// Options: remapOutOfBoundIndices, paddingIndexUsed (true, false), as popops::dynamicSlice takes them. INT or
/// UNSIGNED_INT indices.
void scatter(poplar::Graph &graph, const poplar::Tensor &operand, const poplar::Tensor &indices,
             const poplar::Tensor &updates, std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims, std::vector<unsigned> scatterDimsToOperandDims,
             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
             const poplar::OptionFlags &optionFlags = poplar::OptionFlags());

/// How scatter combines: given the operand's current window and the update's window (in that order), adds the
/// program that computes the new window to the sequence and returns it.
typedef std::function<poplar::Tensor(poplar::Graph &, poplar::Tensor &, poplar::Tensor &,
                                     poplar::program::Sequence &)>
    UpdateComputationFunc;

/// The same, with each window of the operand replaced by updateComputation(operand window, update window).
void scatter(poplar::Graph &graph, const poplar::Tensor &operand, const poplar::Tensor &indices,
             const poplar::Tensor &updates, std::size_t indexVectorDim, std::vector<unsigned> updateWindowDims,
             std::vector<std::size_t> insertWindowDims, std::vector<unsigned> scatterDimsToOperandDims,
             UpdateComputationFunc &updateComputation, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {},
             const poplar::OptionFlags &optionFlags = poplar::OptionFlags());

} // namespace popops

#endif // POPOPS_SCATTER_HPP
