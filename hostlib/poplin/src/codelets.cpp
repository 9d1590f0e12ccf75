// poplin::addCodelets: loads poplin.gp, which popc built for the tiles with the library, from beside libpoplin.so
// (poplibs_support::addLibraryCodelets, shared by the PopLibs libraries).
#include "poplin/codelets.hpp"

#include "poplibs_support.hpp"

namespace poplin {

void addCodelets(poplar::Graph &graph) {
  poplibs_support::addLibraryCodelets(graph, "poplin", reinterpret_cast<const void *>(&addCodelets), POPLIN_DATA_RELDIR);
}

} // namespace poplin
