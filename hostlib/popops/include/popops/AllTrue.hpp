// Whether every element of a BOOL tensor is true.
#ifndef POPOPS_ALLTRUE_HPP
#define POPOPS_ALLTRUE_HPP

#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A new scalar BOOL tensor: the logical AND of every element of `A` (a reduction over all its dimensions; true
/// for an empty A). Throws poputil::poplibs_error when A is not BOOL.
poplar::Tensor allTrue(poplar::Graph &graph, poplar::Tensor A, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_ALLTRUE_HPP
