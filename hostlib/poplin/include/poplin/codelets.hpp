// Loading poplin's vertices into a graph.
#ifndef POPLIN_CODELETS_HPP
#define POPLIN_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace poplin {

/// Adds poplin's vertices (precompiled for the tiles when libpoplin was built) to `graph`; call it once per graph
/// before any poplin function (popops::addCodelets too: poplin uses popops). Throws poputil::poplibs_error when the
/// codelet file next to the library is missing or was built for another tile ISA.
void addCodelets(poplar::Graph &graph);

} // namespace poplin

#endif // POPLIN_CODELETS_HPP
