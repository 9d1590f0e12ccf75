// Internal: the cycle estimates of poplin's vertices (MatMul, ReducePartials, ConvPartialnx1), which poplin::addCodelets registers
// with the graph (Graph::registerPerfEstimator) so that poplar's IPU Model charges them without knowing poplin.
// Formulas and sources: docs/time-model.md.
#pragma once

#include <poplar/Graph.hpp>

namespace poplin::detail {

/// Registers the estimator of every MatMul, ReducePartials and ConvPartialnx1 instance with `graph`.
void registerPerfEstimators(poplar::Graph &graph);

} // namespace poplin::detail
