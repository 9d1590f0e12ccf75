// popops::addCodelets: loads popops.gp, which popc built for the tiles with the library, from beside libpopops.so
// (poplibs_support::addLibraryCodelets, shared by the PopLibs libraries), and registers its vertices' cycle
// estimators with the graph, which the IPU Model charges (perf_estimators.hpp).
#include "popops/codelets.hpp"

#include "perf_estimators.hpp"
#include "poplibs_support.hpp"

namespace popops {

void addCodelets(poplar::Graph &graph) {
  poplibs_support::addLibraryCodelets(graph, "popops", reinterpret_cast<const void *>(&addCodelets),
                                      POPOPS_DATA_RELDIR);
  detail::registerPerfEstimators(graph);
}

} // namespace popops
