// popops::addCodelets: loads popops.gp, which popc built for the tiles with the library, from beside libpopops.so
// (poplibs_support::addLibraryCodelets, shared by the PopLibs libraries).
#include "popops/codelets.hpp"

#include "poplibs_support.hpp"

namespace popops {

void addCodelets(poplar::Graph &graph) {
  poplibs_support::addLibraryCodelets(graph, "popops", reinterpret_cast<const void *>(&addCodelets), POPOPS_DATA_RELDIR);
}

} // namespace popops
