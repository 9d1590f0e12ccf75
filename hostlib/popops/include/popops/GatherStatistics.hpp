// Histograms of a tensor's values (popops/GatherStatistics.hpp), counted on the tiles that hold the values.
#ifndef POPOPS_GATHERSTATISTICS_HPP
#define POPOPS_GATHERSTATISTICS_HPP

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new histogram of `input` (FLOAT or HALF, any shape) over the bin edges `levels` (the input's element type,
/// ascending, any shape; flattened): levels.numElements() + 1 counts, where entry 0 counts the elements below
/// levels[0], entry i those with levels[i-1] <= x < levels[i], and the last entry those at or above the last level
/// (and NaNs). With `absoluteOfInput` each element's magnitude is counted instead. Each tile counts its own
/// elements with one vertex per worker; the partial counts are then summed over the tiles by a reduction.
///
/// Options: `useFloatArithmetic` ("true" or "false", default "false"): count in float and return a FLOAT tensor
/// (exact only up to 2^24 per entry) instead of an UNSIGNED_INT one. Throws poplar::invalid_option for another
/// option or value, poputil::poplibs_error for other element types or mismatched `levels`.
poplar::Tensor histogram(poplar::Graph &graph, const poplar::Tensor &input, const poplar::Tensor &levels,
                         bool absoluteOfInput, poplar::program::Sequence &prog,
                         const poplar::DebugContext &debugContext = {},
                         const poplar::OptionFlags &options = {});

/// As above into `output`: levels.numElements() + 1 elements of FLOAT or UNSIGNED_INT, which selects the
/// arithmetic. With `updateOutput` the counts are added to what `output` holds; otherwise they replace it. An
/// output not (completely) mapped is mapped linearly.
void histogram(poplar::Graph &graph, const poplar::Tensor &input, poplar::Tensor &output, bool updateOutput,
               const poplar::Tensor &levels, bool absoluteOfInput, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_GATHERSTATISTICS_HPP
