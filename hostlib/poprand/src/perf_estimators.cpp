// poprand's vertex cycle estimates, registered with the graph by poprand::addCodelets: each is a one-worker vertex
// charged the basic loop over its fields (poplibs_support::elementLoopEstimator).
#include "perf_estimators.hpp"

#include <string>
#include <utility>

#include "perf_estimate.hpp"

namespace poprand::detail {

void registerPerfEstimators(poplar::Graph &graph) {
  using poplibs_support::elementLoopEstimator;
  const poplar::Type U = poplar::UNSIGNED_INT;
  // Generate<Name>Seeded and Generate<Name>Hw for each element type, ApplyMask<Name> for float and half
  // (poprand_codelets.cpp).
  const std::pair<const char *, poplar::Type> types[] = {
      {"Float", poplar::FLOAT}, {"Half", poplar::HALF}, {"Int", poplar::INT}};
  for (const auto &[name, t] : types) {
    const std::string n = name;
    graph.registerPerfEstimator("poprand::Generate" + n + "Seeded",
                                elementLoopEstimator({{"out", t, false, true},
                                                      {"in", t, true, false},
                                                      {"offsets", U, true, false},
                                                      {"seed", U, true, false}}));
    graph.registerPerfEstimator(
        "poprand::Generate" + n + "Hw",
        elementLoopEstimator({{"out", t, false, true}, {"in", t, true, false}, {"state", U, true, true}}));
    if (t != poplar::INT)
      graph.registerPerfEstimator(
          "poprand::ApplyMask" + n,
          elementLoopEstimator({{"in", t, true, false}, {"mask", t, true, false}, {"out", t, false, true}}));
  }
  graph.registerPerfEstimator("poprand::SetSeed",
                              elementLoopEstimator({{"seed", U, true, false}, {"state", U, false, true}}));
}

} // namespace poprand::detail
