// A vertex's performance estimate and the function type that computes one (Graph::registerPerfEstimator). On an
// IPU Model target the Engine's cycles are built from these estimates (docs/time-model.md).
#ifndef POPLAR_PERF_ESTIMATE_FUNC_HPP
#define POPLAR_PERF_ESTIMATE_FUNC_HPP

#include <cstdint>
#include <functional>

namespace poplar {

class Target;
class VertexIntrospector;

/// The estimated cost of one run of a vertex: cycles of the worker that runs it (for a MultiVertex, of each of its
/// workers), and floating-point operations.
struct VertexPerfEstimate {
  VertexPerfEstimate() = default;
  VertexPerfEstimate(std::uint64_t c, std::uint64_t f = 0) : cycles(c), flops(f) {}
  std::uint64_t cycles = 0;
  std::uint64_t flops = 0;
};

/// Computes a vertex's estimate from its fields (sizes, initial values of plain fields) and the target.
typedef std::function<VertexPerfEstimate(const VertexIntrospector &vertex, const Target &target)> PerfEstimateFunc;

} // namespace poplar

#endif
