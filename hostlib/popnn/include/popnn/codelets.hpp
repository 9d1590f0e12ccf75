// Loading popnn's vertices into a graph.
#ifndef POPNN_CODELETS_HPP
#define POPNN_CODELETS_HPP

#include <poplar/Graph.hpp>

namespace popnn {

/// Adds popnn's vertices (precompiled for the tiles when libpopnn was built) to `graph`; call it once per graph
/// before any popnn function, after popops::addCodelets (popnn's functions also use popops' vertices). Throws
/// poputil::poplibs_error when the codelet file next to the library is missing or was built for another tile ISA.
void addCodelets(poplar::Graph &graph);

} // namespace popnn

#endif // POPNN_CODELETS_HPP
