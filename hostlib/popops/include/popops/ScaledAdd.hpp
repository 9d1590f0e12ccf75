// A += scale * B and relatives, in place, in one compute set. HALF data is updated in float and rounded once, so
// a FLOAT scale (tensor or constant) keeps its precision; B may be HALF or FLOAT when A is either.
#ifndef POPOPS_SCALEDADD_HPP
#define POPOPS_SCALEDADD_HPP

#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

namespace popops {

/// How the scaleA of scaledAddTo applies: DEFAULT is A = scaleA * A + scaleB * B; X_MINUS_AX_PLUS_BY is
/// A = A - scaleA * A + scaleB * B (that is, (1 - scaleA) * A + scaleB * B, e.g. an interpolation towards B).
enum class ScaledAddSpecialisation { DEFAULT, X_MINUS_AX_PLUS_BY };

/// A += scaleB * B (B broadcasts to A's shape).
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// A += scaleB * B with scaleB a one-element tensor (of A's type, or FLOAT for HALF data).
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// A = scaleA * A + scaleB * B.
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// A = scaleA * A + scaleB * B with one-element scale tensors.
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// A = scaleA' * A + scaleB * B with scaleA' as `speciality` says (ScaledAddSpecialisation).
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                 poplar::program::Sequence &prog, const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// The same with one-element scale tensors.
void scaledAddTo(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B, poplar::Tensor scaleB,
                 poplar::program::Sequence &prog, const ScaledAddSpecialisation speciality,
                 const poplar::DebugContext &debugContext = {},
                 const poplar::OptionFlags &options = poplar::OptionFlags());
/// A -= scaleB * B.
void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags());
/// A -= scaleB * B with scaleB a one-element tensor (of A's type, or FLOAT for HALF data).
void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor B, poplar::Tensor scaleB,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags());

/// A = scaleA * A - scaleB * B.
void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, float scaleA, poplar::Tensor B, float scaleB,
                        poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags());
/// A = scaleA * A - scaleB * B with one-element scale tensors.
void scaledSubtractFrom(poplar::Graph &graph, poplar::Tensor A, poplar::Tensor scaleA, poplar::Tensor B,
                        poplar::Tensor scaleB, poplar::program::Sequence &prog,
                        const poplar::DebugContext &debugContext = {},
                        const poplar::OptionFlags &options = poplar::OptionFlags());

} // namespace popops

#endif // POPOPS_SCALEDADD_HPP
