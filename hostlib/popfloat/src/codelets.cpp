// popfloat::experimental::addCodelets: loads popfloat.gp (the gfloat cast vertices) from beside libpopfloat.so and
// popops' codelets, which GfloatCast also uses, and registers the gfloat vertices' cycle estimates (the basic
// loop over their elements: poplibs_support::elementLoopEstimator).
#include "popfloat/experimental/codelets.hpp"

#include "perf_estimate.hpp"
#include "poplibs_support.hpp"
#include "popops/codelets.hpp"
#include "vertex_names.hpp"

namespace popfloat {
namespace experimental {

namespace {

void registerPerfEstimators(poplar::Graph &graph) {
  using poplibs_support::elementLoopEstimator;
  using poputil::detail::templateVertex;
  const poplar::Type I = poplar::INT;
  graph.registerPerfEstimator("popfloat::GfloatParams",
                              elementLoopEstimator({{"gfStruct", I, true, false}, {"param", I, false, true}}));
  for (poplar::Type in : {poplar::FLOAT, poplar::HALF}) {
    graph.registerPerfEstimator(templateVertex("popfloat::CastToGfloatInPlace", {in}),
                                elementLoopEstimator({{"inOut", in, true, true}, {"param", I, true, false}}));
    for (poplar::Type out : {poplar::FLOAT, poplar::HALF})
      graph.registerPerfEstimator(
          templateVertex("popfloat::CastToGfloat", {in, out}),
          elementLoopEstimator({{"in", in, true, false}, {"out", out, false, true}, {"param", I, true, false}}));
    for (poplar::Type packed : {poplar::SIGNED_CHAR, poplar::SHORT}) {
      graph.registerPerfEstimator(
          templateVertex("popfloat::CastToGfloat", {in, packed}),
          elementLoopEstimator({{"in", in, true, false}, {"out", packed, false, true}, {"param", I, true, false}}));
      graph.registerPerfEstimator(
          templateVertex("popfloat::CastGfloatToNative", {packed, in}),
          elementLoopEstimator({{"in", packed, true, false}, {"out", in, false, true}, {"param", I, true, false}}));
    }
  }
}

} // namespace

void addCodelets(poplar::Graph &graph) {
  popops::addCodelets(graph);
  poplibs_support::addLibraryCodelets(graph, "popfloat", reinterpret_cast<const void *>(&addCodelets),
                                      POPFLOAT_DATA_RELDIR);
  registerPerfEstimators(graph);
}

} // namespace experimental
} // namespace popfloat
