// poprand::addCodelets: loads poprand.gp, which popc built for the tiles with the library, from beside
// libpoprand.so (poplibs_support::addLibraryCodelets, shared by the PopLibs libraries), and gives the graph its
// generator state and its vertices' cycle estimators (perf_estimators.hpp).
#include "poprand/codelets.hpp"

#include "hw_state.hpp"
#include "perf_estimators.hpp"
#include "poplibs_support.hpp"

namespace poprand {

void addCodelets(poplar::Graph &graph) {
  poplibs_support::addLibraryCodelets(graph, "poprand", reinterpret_cast<const void *>(&addCodelets),
                                      POPRAND_DATA_RELDIR);
  detail::registerPerfEstimators(graph);
  detail::createHwState(graph);
}

} // namespace poprand
