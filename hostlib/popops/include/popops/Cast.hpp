// Converting a tensor's elements to another type.
#ifndef POPOPS_CAST_HPP
#define POPOPS_CAST_HPP

#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Type.hpp>

#include "popops/ElementWise.hpp"

namespace popops {

/// A new tensor of `dstType` with `src`'s shape and mapping holding src's values converted (floats to integers
/// truncate toward zero; non-zero is true).
inline poplar::Tensor cast(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Type &dstType,
                           poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}) {
  return map(graph, expr::Cast(expr::_1, dstType), {src}, prog, debugContext);
}

/// Converts `src` into `dst` (same shape).
inline void cast(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &dst,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}) {
  mapWithOutput(graph, expr::Cast(expr::_1, dst.elementType()), {src}, dst, prog, debugContext);
}

/// Converts `src` into `dst` (same shape), as cast(graph, src, dst, prog) under PopLibs' name for the form with an
/// output.
inline void castWithOutput(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &dst,
                           poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {}) {
  cast(graph, src, dst, prog, debugContext.getPathName());
}

} // namespace popops

#endif // POPOPS_CAST_HPP
