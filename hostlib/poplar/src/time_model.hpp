// Internal: the IPU Model's time model (docs/time-model.md). Every vertex has an estimate; a compute set costs its
// slowest tile under the six-context barrel, an exchange its busiest tile's bytes over the exchange bandwidth, and
// every step ends with a sync of the Target's sync delay. Cards that run real hardware models report measured cycles.
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir.hpp"
#include "graph_impl.hpp"
#include "poplar/PerfEstimateFunc.hpp"

namespace poplar::detail {

/// The estimate of vertex `v`: setPerfEstimate, else its type's registered estimator (the PopLibs libraries register
/// theirs when their addCodelets runs), else the default (worker cycles; a MultiVertex's figure is per worker).
VertexPerfEstimate vertexPerfEstimate(const GraphImpl &g, unsigned v);

/// The cycle estimates of a whole graph, computed once per compile: each vertex's estimator runs once, because the
/// time model, the program estimates and the graph profile all read the same figures.
struct CycleEstimates {
  std::vector<std::uint64_t> vertex;            ///< vertexPerfEstimate(g, v).cycles for every vertex v
  /// Estimated cycles of each compute set on each tile: the vertices dealt round-robin over the six worker slots (a
  /// MultiVertex occupies all six), the tile's time is its busiest slot times the number of worker contexts.
  std::vector<std::vector<std::uint64_t>> tile; ///< [compute set][tile]
};
CycleEstimates estimateCycles(const GraphImpl &g);

/// What the model charges one lowered program.
struct ProgramEstimate {
  std::uint64_t cycles = 0;                  ///< the whole program
  std::vector<std::uint64_t> topStepCycles;  ///< each top-level step (cycle stamps excluded), in order
};

/// Estimates every program of `m` (lowered from `g`, before instrumentation); `cycles` is estimateCycles(g).
std::vector<ProgramEstimate> estimatePrograms(const GraphImpl &g, const ir::Module &m, const CycleEstimates &cycles);

} // namespace poplar::detail
