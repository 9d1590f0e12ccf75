// Checks of a floating-point tensor for NaN (and infinite) elements, computed on the tiles that hold it.
#ifndef POPOPS_NAN_HPP
#define POPOPS_NAN_HPP

#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new scalar BOOL tensor, true when any element of `src` (FLOAT or HALF, any shape) is a NaN; the check is
/// appended to `prog`. An empty `src` gives false. Throws poputil::poplibs_error for other element types.
poplar::Tensor hasNaN(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// As hasNaN, true when any element is a NaN or an infinity.
poplar::Tensor hasNaNOrInf(poplar::Graph &graph, const poplar::Tensor &src, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_NAN_HPP
