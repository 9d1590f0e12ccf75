// Random number generation on the tiles: uniform, log-uniform, normal, truncated normal and Bernoulli
// distributions, dropout, and the per-tile generator state (setSeed, getHwSeeds, setHwSeeds).
//
// Every generator takes `seed`: when it points at a tensor of two UNSIGNED_INT elements, element k of the result
// (k counts `reference`'s elements in row-major order) is a function of the seed's value, `seedModifier` and k
// only, so the same seed gives the same numbers on any number of tiles and any tile mapping, and a different
// seedModifier gives different numbers. When `seed` is null, the numbers come from the tiles' generator state
// (set by setSeed or setHwSeeds) and advance it; they then depend on the layout of `reference`.
// The result has the shape and tile mapping of `reference` and is computed where its elements live.
#ifndef POPRAND_RANDOMGEN_HPP
#define POPRAND_RANDOMGEN_HPP

#include <cstdint>
#include <string>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>

#include "poputil/exceptions.hpp"

namespace poprand {

/// Dropout: each element of `input` is kept with probability `keepProbability` and then multiplied by `scale`
/// (typically 1 / keepProbability), else set to zero. `reference` (the shape of `input`) fixes the layout of the
/// result and the element numbering of the mask; the mask equals bernoulli(..., keepProbability) drawn with the
/// same seed and seedModifier. `input` is FLOAT or HALF.
poplar::Tensor dropout(poplar::Graph &graph, const poplar::Tensor *seed, const uint32_t seedModifier,
                       const poplar::Tensor &input, const poplar::Tensor &reference, double keepProbability,
                       double scale, poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// As above; the result is laid out like `reference` when `outputClonesRef`, else like `input`.
poplar::Tensor dropout(poplar::Graph &graph, const poplar::Tensor *seed, const uint32_t seedModifier,
                       const poplar::Tensor &input, const poplar::Tensor &reference, double keepProbability,
                       double scale, bool outputClonesRef, poplar::program::Sequence &prog,
                       const poplar::DebugContext &debugContext = {});

/// Shaped dropout: one keep/drop draw per element of `reference`, whose shape broadcasts to `input`'s (numpy
/// rules), so whole rows, columns or planes are dropped together. The result is laid out like `input`.
poplar::Tensor shapedDropout(poplar::Graph &graph, const poplar::Tensor *seed, const uint32_t seedModifier,
                             const poplar::Tensor &input, const poplar::Tensor &reference, double keepProbability,
                             double scale, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {});

/// Uniform distribution on [minVal, maxVal] (maxVal >= minVal). `outType` is FLOAT, HALF or INT. FLOAT and HALF
/// values stay inside the interval after rounding (throws poputil::poplibs_error when it holds no value of the
/// type, e.g. HALF beyond 65504). For INT, minVal and maxVal are integers and every integer of [minVal, maxVal]
/// can occur; the probabilities are equal when maxVal - minVal + 1 is a power of two, otherwise biased by at most
/// (maxVal - minVal + 1) / 2^32.
poplar::Tensor uniform(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                       const poplar::Tensor &reference, const poplar::Type &outType, double minVal, double maxVal,
                       poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// Log-uniform distribution on [minVal, maxVal]: the logarithm of the values is uniform. `outType` is FLOAT,
/// HALF or INT (values rounded to the nearest integer, kept inside the interval). `base` (> 1) is accepted for
/// compatibility: a log-uniform distribution is the same in every base. Throws poputil::poplibs_error when
/// minVal < 1, maxVal <= minVal, or the interval holds no value of `outType`.
poplar::Tensor logUniform(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                          const poplar::Tensor &reference, const poplar::Type &outType, double minVal, double maxVal,
                          poplar::program::Sequence &prog, double base = 2.718281828459045,
                          const poplar::DebugContext &debugContext = {});

/// Bernoulli distribution: 1 with probability `prob` (in [0, 1]), else 0. `outType` is FLOAT, HALF or INT.
poplar::Tensor bernoulli(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                         const poplar::Tensor &reference, const poplar::Type &outType, double prob,
                         poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// Normal distribution with mean `mean` and standard deviation `stdDev` (>= 0). `outType` is FLOAT or HALF.
poplar::Tensor normal(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                      const poplar::Tensor &reference, const poplar::Type &outType, double mean, double stdDev,
                      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// Normal distribution truncated symmetrically to [mean - alpha * stdDev, mean + alpha * stdDev] (alpha > 0):
/// values outside are drawn again. `outType` is FLOAT or HALF.
poplar::Tensor truncatedNormal(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier,
                               const poplar::Tensor &reference, const poplar::Type &outType, double mean, double stdDev,
                               double alpha, poplar::program::Sequence &prog,
                               const poplar::DebugContext &debugContext = {});

/// Sets the generator state of every worker of every tile from `masterSeed` (two UNSIGNED_INT elements) and
/// `seedModifier`; the generators with a null seed then give repeatable numbers.
void setSeed(poplar::Graph &graph, const poplar::Tensor &masterSeed, uint32_t seedModifier,
             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});

/// A copy of the generator state: UNSIGNED_INT of shape {tiles, workers, 4} (per worker: key, key, counter low,
/// counter high), mapped like the state (row t on tile t).
poplar::Tensor getHwSeeds(poplar::Graph &graph, poplar::program::Sequence &prog,
                          const poplar::DebugContext &debugContext = {});

/// Restores the generator state from `hwSeeds` (as getHwSeeds returns: UNSIGNED_INT {tiles, workers, 4}).
void setHwSeeds(poplar::Graph &graph, const poplar::Tensor &hwSeeds, poplar::program::Sequence &prog,
                const poplar::DebugContext &debugContext = {});

} // namespace poprand

#endif // POPRAND_RANDOMGEN_HPP
