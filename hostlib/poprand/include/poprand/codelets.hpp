// Loading poprand's vertices into a graph.
#ifndef POPRAND_CODELETS_HPP
#define POPRAND_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace poprand {

/// Adds poprand's vertices (precompiled for the tiles when libpoprand was built) to `graph` and gives the graph
/// its hardware-like random state (one key and counter per tile and worker, see getHwSeeds); call it once per
/// graph before any poprand function. Throws poputil::poplibs_error when the codelet file next to the library is
/// missing or was built for another tile ISA.
void addCodelets(poplar::Graph &graph);

} // namespace poprand

#endif // POPRAND_CODELETS_HPP
