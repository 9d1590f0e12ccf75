// Loading popops' vertices into a graph.
#ifndef POPOPS_CODELETS_HPP
#define POPOPS_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popops {

/// Adds popops' vertices (precompiled for the tiles when libpopops was built) to `graph`; call it once per graph
/// before any popops function. Throws poputil::poplibs_error when the codelet file next to the library is missing
/// or was built for another tile ISA.
void addCodelets(poplar::Graph &graph);

} // namespace popops

#endif // POPOPS_CODELETS_HPP
