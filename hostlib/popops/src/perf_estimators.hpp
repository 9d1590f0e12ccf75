// Internal: the cycle estimates of popops' vertices, which popops::addCodelets registers with the graph
// (Graph::registerPerfEstimator) so that poplar's IPU Model charges them without knowing popops (the way PopLibs
// gives Poplar its estimators). Formulas and sources: docs/time-model.md.
#pragma once

#include <cstdint>
#include <vector>

#include <poplar/Graph.hpp>

namespace popops::detail {

// The formulas, on figures rather than a vertex, so that popops/PerformanceEstimation.hpp's functions
// (PerformanceEstimation.cpp) give what the registered estimators charge.

/// The MapInterpreter (a MultiVertex over one tile's output elements): each of `workers` pays 29 (4-byte
/// elements) or 26 (2-byte) and its share of the supervisor's overhead, then loops over its share of `outElems`
/// a data-path vector (`dataPathBits`, 0 = 64) at a time, `perVector` cycles each.
std::uint64_t mapCycles(unsigned workers, unsigned dataPathBits, unsigned elemBytes, std::uint64_t outElems,
                        std::uint64_t perVector);

/// DynamicSlice/DynamicUpdate: the busiest of `workers` sharing column regions of `vectors` data-path vectors
/// each, `rows` rows sliced.
std::uint64_t dynamicSliceCycles(const std::vector<std::uint64_t> &vectors, unsigned workers, unsigned elemBytes,
                                 std::uint64_t rows);

/// MultiSlice: `outElems` copied a data-path vector (`vectorWidth` elements) per cycle, `runs` edges and items.
std::uint64_t multiSliceCycles(std::uint64_t runs, std::uint64_t outElems, std::uint64_t vectorWidth);

/// The MultiUpdate family: the busiest of `workers` sharing column regions of `vectors` vectors each, `edges`
/// plain edges (offsets, a scale), `itemsPerRegion` list items per region and `rows` base rows.
std::uint64_t multiUpdateCycles(const std::vector<std::uint64_t> &vectors, unsigned workers, std::uint64_t edges,
                                std::uint64_t itemsPerRegion, std::uint64_t rows);

/// Registers the estimator of every popops vertex class with `graph`: MapInterpreter, Reduce, DynamicSlice and
/// DynamicUpdate, MultiSlice and MultiUpdate by their own formulas, the others (Fill, Transpose, sort, histogram,
/// spline, casts, ForLoopCounter) by the basic loop.
void registerPerfEstimators(poplar::Graph &graph);

} // namespace popops::detail
