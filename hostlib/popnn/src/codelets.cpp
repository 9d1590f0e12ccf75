// popnn::addCodelets: loads popnn.gp, which popc built for the tiles with the library, from beside libpopnn.so
// (poplibs_support::addLibraryCodelets, shared by the PopLibs libraries), and registers its vertices' cycle
// estimators with the graph, which the IPU Model charges (perf_estimators.hpp).
#include "popnn/codelets.hpp"

#include "perf_estimators.hpp"
#include "poplibs_support.hpp"

namespace popnn {

void addCodelets(poplar::Graph &graph) {
  poplibs_support::addLibraryCodelets(graph, "popnn", reinterpret_cast<const void *>(&addCodelets), POPNN_DATA_RELDIR);
  detail::registerPerfEstimators(graph);
}

} // namespace popnn
