// Internal: the cycle estimates of popops' vertices, which popops::addCodelets registers with the graph
// (Graph::registerPerfEstimator) so that poplar's IPU Model charges them without knowing popops (the way PopLibs
// gives Poplar its estimators). Formulas and sources: docs/time-model.md.
#pragma once

#include <poplar/Graph.hpp>

namespace popops::detail {

/// Registers the estimator of every popops vertex class with `graph`: MapInterpreter, Reduce, DynamicSlice and
/// DynamicUpdate, MultiSlice and MultiUpdate by their own formulas, the others (Fill, Transpose, sort, histogram,
/// spline, casts, ForLoopCounter) by the basic loop.
void registerPerfEstimators(poplar::Graph &graph);

} // namespace popops::detail
