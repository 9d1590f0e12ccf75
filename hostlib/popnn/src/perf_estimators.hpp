// Internal: the cycle estimates of popnn's vertices, which popnn::addCodelets registers with the graph
// (Graph::registerPerfEstimator) so that poplar's IPU Model charges them without knowing popnn. Formulas and
// sources: docs/time-model.md.
#pragma once

#include <poplar/Graph.hpp>

namespace popnn::detail {

/// Registers the estimator of every popnn vertex class (the non-linearities, ROI align, CTC loss) with `graph`.
void registerPerfEstimators(poplar::Graph &graph);

} // namespace popnn::detail
