// poplin::addCodelets: loads poplin.gp, which popc built for the tiles with the library, from beside libpoplin.so
// (poplibs_support::addLibraryCodelets, shared by the PopLibs libraries), and registers its vertices' cycle
// estimators with the graph, which the IPU Model charges (perf_estimators.hpp).
#include "poplin/codelets.hpp"

#include "perf_estimators.hpp"
#include "poplibs_support.hpp"

namespace poplin {

void addCodelets(poplar::Graph &graph) {
  poplibs_support::addLibraryCodelets(graph, "poplin", reinterpret_cast<const void *>(&addCodelets), POPLIN_DATA_RELDIR);
  detail::registerPerfEstimators(graph);
}

} // namespace poplin
