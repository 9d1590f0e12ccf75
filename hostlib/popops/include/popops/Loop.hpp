// Counted loops of programs whose count lives on the device: the body sees the count as a tensor.
#ifndef POPOPS_LOOP_HPP
#define POPOPS_LOOP_HPP

#include <cstddef>
#include <functional>
#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

namespace popops {

/// A loop body made from the loop's count (a one-element UNSIGNED_INT tensor on tile 0).
typedef std::function<poplar::program::Program(const poplar::Tensor &)> CountedLoopBodyType;

/// for (i = begin; i < end; i += step) body(i): the count starts at `begin` and the device adds `step` after each
/// pass; the number of passes, ceil((end - begin) / step), is fixed when the graph is built. Throws
/// poputil::poplibs_error when step is 0 or begin is not below end (as PopLibs does).
poplar::program::Sequence countedLoop(poplar::Graph &graph, std::size_t begin, std::size_t end, std::size_t step,
                                      const CountedLoopBodyType &body, const poplar::DebugContext &debugContext = {});

/// countedLoop(graph, 0, count, 1, body): `count` passes with the count 0, 1, ... count - 1.
poplar::program::Sequence countedLoop(poplar::Graph &graph, std::size_t count, const CountedLoopBodyType &body,
                                      const poplar::DebugContext &debugContext = {});

/// Appends to `prog` a compute set on `tile` that adds `countStep` to `count` (a one-element INT or UNSIGNED_INT
/// tensor) and returns a new one-element UNSIGNED_INT tensor on `tile` holding 1 while the new count differs from
/// `countLimit` (a one-element tensor of count's type), else 0: the predicate of a RepeatWhileTrue.
poplar::Tensor addForLoopCounterVertex(poplar::Graph &graph, const poplar::Tensor &count,
                                       const poplar::Tensor &countLimit, int countStep, unsigned tile,
                                       poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// for (count = initialCount; count != countLimit; count += countStep) body, with the limit read on the device at
/// run time. `count` (INT or UNSIGNED_INT, one element, mapped) is set by the loop and may be read by `body`;
/// `countLimit` has count's type. Throws poputil::poplibs_error for other types or shapes.
poplar::program::Sequence countedForLoop(poplar::Graph &graph, const poplar::Tensor &count, int initialCount,
                                         const poplar::Tensor &countLimit, int countStep,
                                         const poplar::program::Program &body,
                                         const poplar::DebugContext &debugContext = {});

/// As above with a count of countLimit's type created on tile 0 (the body cannot see it).
poplar::program::Sequence countedForLoop(poplar::Graph &graph, int initialCount, const poplar::Tensor &countLimit,
                                         int countStep, const poplar::program::Program &body,
                                         const poplar::DebugContext &debugContext = {});

} // namespace popops

#endif // POPOPS_LOOP_HPP
