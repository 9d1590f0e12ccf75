// Internal: the cycle estimates of popops' vertices, which popops::addCodelets registers with the graph
// (Graph::registerPerfEstimator) so that poplar's IPU Model charges them without knowing popops (the way PopLibs
// gives Poplar its estimators). Formulas and sources: docs/time-model.md.
#pragma once

#include <poplar/Graph.hpp>

namespace popops::detail {

/// Registers the estimator of every MapInterpreter, Reduce, DynamicSlice/DynamicUpdate and MultiSlice/MultiUpdate
/// vertex class with `graph`.
void registerPerfEstimators(poplar::Graph &graph);

} // namespace popops::detail
