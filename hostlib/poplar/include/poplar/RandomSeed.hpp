// The tiles' hardware random generator state: read it into a tensor, and set it from one, to repeat a sequence of
// random numbers (poprand's functions with no seed, stochastic rounding).
#ifndef POPLAR_RANDOM_SEED_HPP
#define POPLAR_RANDOM_SEED_HPP

#include "poplar/DebugContext.hpp"
#include "poplar/Graph.hpp"
#include "poplar/Program.hpp"
#include "poplar/Tensor.hpp"

namespace poplar {

/// A new UNSIGNED_INT tensor {tiles, workers, 4} (row t on tile t) and a copy of the generator state of every
/// worker of every tile into it appended to `prog`: what setHwSeeds takes back. The emulator keeps the state in a
/// graph variable of that shape (per worker: two key words and a 64-bit counter), created on first use and shared
/// with poprand; the values differ from an IPU's, the round trip is exact.
Tensor getHwSeeds(Graph &graph, program::Sequence &prog, const DebugContext &debugContext = {});

/// Appends to `prog` a copy of `hwSeeds` (as getHwSeeds returns) into the generator state of every worker of every
/// tile. Throws poplar_error when hwSeeds is not UNSIGNED_INT of shape {tiles, workers, 4}.
void setHwSeeds(Graph &graph, const Tensor &hwSeeds, program::Sequence &prog, const DebugContext &debugContext = {});

} // namespace poplar

#endif
