// Internal: the cycle estimates of poprand's vertices, which poprand::addCodelets registers with the graph
// (Graph::registerPerfEstimator) so that poplar's IPU Model charges them without knowing poprand. Formulas and
// sources: docs/time-model.md.
#pragma once

#include <poplar/Graph.hpp>

namespace poprand::detail {

/// Registers the estimator of every poprand vertex class (the generators, ApplyMask, SetSeed) with `graph`.
void registerPerfEstimators(poplar::Graph &graph);

} // namespace poprand::detail
