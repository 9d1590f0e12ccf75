// Loading the tile code that programs using popfloat compute with.
#ifndef POPFLOAT_EXPERIMENTAL_CODELETS_HPP
#define POPFLOAT_EXPERIMENTAL_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popfloat {
namespace experimental {

/// Adds to `graph` the codelets a popfloat program needs: popops' (popfloat has no tile code of its own here).
/// Safe to call more than once.
void addCodelets(poplar::Graph &graph);

} // namespace experimental
} // namespace popfloat

#endif // POPFLOAT_EXPERIMENTAL_CODELETS_HPP
