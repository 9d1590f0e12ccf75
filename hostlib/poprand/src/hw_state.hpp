// Internal: the tiles' hardware-like generator state. Each graph that poprand::addCodelets saw owns one
// UNSIGNED_INT variable {tiles, workers, 4} (row t on tile t; per worker: key0, key1, counter low, counter high),
// found again by the graph's shared state and tile count.
#pragma once

#include <string>

#include <poplar/Graph.hpp>

namespace poprand::detail {

/// Creates the state of `graph` unless it has one (poplar::getHwSeeds creates it too), initialised as setSeed of
/// seed {0, 0} and modifier 0 would.
void createHwState(poplar::Graph &graph);

/// The state of `graph`; throws poplibs_error (naming `name`) when poprand::addCodelets was not called on it.
poplar::Tensor hwState(poplar::Graph &graph, const std::string &name);

/// The key word setSeed xors into the second seed word for `seedModifier`.
unsigned modifierMix(unsigned seedModifier);

} // namespace poprand::detail
