// Internal, shared by libpoplar (poplar/RandomSeed.hpp) and libpoprand: where the emulator keeps the tiles'
// hardware-like random generator state. Not part of the SDK's API.
#ifndef POPLAR_DETAIL_HW_SEED_STATE_HPP
#define POPLAR_DETAIL_HW_SEED_STATE_HPP

#include "poplar/Graph.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {
namespace detail {

/// The generator state of `graph` (shared by its copies; a virtual graph has its own): an UNSIGNED_INT variable
/// {tiles, workers, 4}, row t on tile t, per worker: key0, key1, counter low, counter high. Without one, returns an
/// invalid Tensor, or with `create` makes it as resetHwSeedState does.
Tensor hwSeedState(Graph &graph, bool create);

/// Creates (or replaces) the state of `graph`, each worker's as poprand::setSeed of seed {0, 0} and modifier 0
/// would set it: key {0, hwSeedModifierMix(0)}, counter {0, tile * workers + worker}.
void resetHwSeedState(Graph &graph);

/// The key word a seed modifier mixes into the second seed word.
inline unsigned hwSeedModifierMix(unsigned seedModifier) { return (seedModifier * 0x9E3779B9u) ^ 0x5BD1E995u; }

} // namespace detail
} // namespace poplar

#endif
