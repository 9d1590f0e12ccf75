// Internal: the compute sets poprand adds. Every generator is one compute set of Generate<Type><Source> vertices
// on the tiles of its result, up to one per worker, each over a share of its tile's runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <poplar/Graph.hpp>
#include <poplar/Interval.hpp>
#include <poplar/Program.hpp>

namespace poprand::detail {

/// What the vertices draw: the fields of codelets/params.h.
struct Draw {
  unsigned kind = 0;
  float a = 0, b = 0, c = 0, d = 0;
  unsigned u0 = 0, u1 = 0;
};

/// Throws poplibs_error unless `seed` is null or a tensor of two UNSIGNED_INT elements.
void checkSeed(const poplar::Tensor *seed, const std::string &name);

/// Sets u0/u1 of `draw` to "keep when the random word is below probability * 2^32"; throws poplibs_error for
/// a probability outside [0, 1] (`what` names it).
void setKeepProbability(Draw &draw, double probability, const std::string &what, const std::string &name);

/// A new variable of `type` with the shape and tile mapping of `like` (which must be completely mapped).
poplar::Tensor cloneWithType(poplar::Graph &graph, const poplar::Tensor &like, const poplar::Type &type,
                             const std::string &name);

/// Appends the compute set that fills `out` with `draw`, element k of out (row-major) being element k of the
/// reference. `in` (dropout's input, out's shape) may be null. With a null `seed` the draws come from the tiles'
/// generator state.
void generate(poplar::Graph &graph, const poplar::Tensor *seed, uint32_t seedModifier, const poplar::Tensor &out,
              const poplar::Tensor *in, const Draw &draw, poplar::program::Sequence &prog, const std::string &name);

/// The call's name in messages and debug names: the prefix, or "poprand::<fn>".
std::string opName(const poplar::DebugContext &debugContext, const char *fn);

} // namespace poprand::detail
