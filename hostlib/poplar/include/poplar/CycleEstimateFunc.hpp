// The cycles-only vertex estimator of the SDK's 2.x API (Graph::registerCycleEstimator); PerfEstimateFunc is its
// successor, which also gives flops.
#ifndef POPLAR_CYCLE_ESTIMATE_FUNC_HPP
#define POPLAR_CYCLE_ESTIMATE_FUNC_HPP

#include <cstdint>
#include <functional>

namespace poplar {

class Target;
class VertexIntrospector;

/// Computes a vertex's estimated worker cycles from its fields and the target.
typedef std::function<std::uint64_t(const VertexIntrospector &vertex, const Target &target)> CycleEstimateFunc;

} // namespace poplar

#endif
