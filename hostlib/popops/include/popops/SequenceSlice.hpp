// popops::sequenceSlice: copies runs of rows between two tensors at offsets and lengths held in tensors.
#ifndef popops_SequenceSlice_hpp
#define popops_SequenceSlice_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// Adds to `prog` the copies tOut[tOutOffset[k] + j] = tIn[tInOffset[k] + j] for j < tN[k], for every entry k of
/// the rank-1 UNSIGNED_INT (or INT) tensors tN, tInOffset and tOutOffset (all of one size), whose values are
/// read on the device. tIn and tOut have rank 2 or more and the same element count per outermost row; their
/// element type is FLOAT, HALF, INT or UNSIGNED_INT. Rows past the end of either tensor are not copied. With
/// `zeroUnused`, every row of tOut no entry writes becomes 0; otherwise it keeps its value. No two entries may
/// write one row. Throws poputil::poplibs_error for other types or shapes.
void sequenceSlice(poplar::Graph &graph, const poplar::Tensor &tIn, const poplar::Tensor &tOut,
                   const poplar::Tensor &tN, const poplar::Tensor &tInOffset, const poplar::Tensor &tOutOffset,
                   bool zeroUnused, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // popops_SequenceSlice_hpp
