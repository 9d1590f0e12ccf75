// Converting a tensor's elements to another type, QUARTER (8-bit floats read with metadata) included.
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
/// truncate toward zero; non-zero is true). A QUARTER `src` (created with metadata) is read with its metadata into
/// FLOAT, HALF, CHAR, SIGNED_CHAR or UNSIGNED_CHAR (an 8-bit integer gets the nearest integer, ties to even, taken
/// through a 32-bit integer, unsigned for UNSIGNED_CHAR so that negatives give 0, and cut to its low byte, as the
/// tile's conversion does). A cast to QUARTER is written with its destination's metadata: the result gets a
/// metadata variable of its own (result.getMetadata()), set to F143 with scale 0 until the host or a program
/// rewrites it before the cast runs; from a QUARTER src the result shares src's metadata (a copy). Throws
/// poputil::poplibs_error for a pair of types that has no conversion.
poplar::Tensor cast(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Type &dstType,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// As above, for a QUARTER result: a new QUARTER variable whose metadata is `metadata` (a one-element
/// QUARTER_METADATA tensor, e.g. from poplar::createVariableMetadataTensor) holding src's FLOAT, HALF, CHAR,
/// SIGNED_CHAR, UNSIGNED_CHAR or QUARTER (read with its own metadata) values
/// divided by 2^scale and rounded to nearest (ties to even) in the metadata's format; values beyond the format's
/// largest saturate, infinities and NaN become its NaN. The device reads the metadata when the program runs. For
/// another dstType the metadata is not used.
poplar::Tensor cast(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Type &dstType,
                    const poplar::Tensor &metadata, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {});

/// Converts `src` into `dst` (same shape); a QUARTER dst or src is written or read with its own metadata.
void cast(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &dst,
          poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// Converts `src` into `dst` (same shape), as cast(graph, src, dst, prog) under PopLibs' name for the form with an
/// output.
void castWithOutput(poplar::Graph &graph, const poplar::Tensor &src, const poplar::Tensor &dst,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// A program that converts `src` into `dst` (same shape), as cast(graph, src, dst, prog) does.
poplar::program::Program cast(poplar::Graph &graph, poplar::Tensor src, poplar::Tensor dst,
                              const poplar::DebugContext &debugContext = {});

/// Adds to `cs` the vertices that convert `src` into `dst` (same shape), each on the tile of its output elements.
void cast(poplar::Graph &graph, poplar::Tensor src, poplar::Tensor dst, poplar::ComputeSet cs);

/// A new tensor of `dstType` with src's shape and mapping, written by vertices added to `cs`; a QUARTER result
/// gets its metadata as in the program form without metadata.
poplar::Tensor cast(poplar::Graph &graph, poplar::Tensor src, const poplar::Type &dstType, poplar::ComputeSet cs,
                    const poplar::DebugContext &debugContext = {});

/// As above for a QUARTER result with `metadata` (see the program form).
poplar::Tensor cast(poplar::Graph &graph, poplar::Tensor src, const poplar::Type &dstType,
                    const poplar::Tensor &metadata, poplar::ComputeSet cs,
                    const poplar::DebugContext &debugContext = {});

/// A one-element BOOL tensor, computed on the device, that is true when casting the one element of FLOAT `input`
/// to `outputType` (HALF) changes it by less than `tolerance` times its magnitude (false for zero, for a value
/// beyond HALF's range and for NaN). Deprecated in PopLibs. Throws poputil::poplibs_error for another input type,
/// output type or element count.
poplar::Tensor checkAccuracyWhenCast(poplar::Graph &graph, const poplar::Tensor &input, poplar::Type outputType,
                                     double tolerance, poplar::program::Sequence &prog,
                                     const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_CAST_HPP
