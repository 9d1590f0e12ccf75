// popnn's vertex cycle estimates, registered with the graph by popnn::addCodelets; each vertex runs on one worker.
#include "perf_estimators.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <poplar/Target.hpp>
#include <poplar/VertexIntrospector.hpp>

#include "perf_estimate.hpp"

namespace popnn::detail {

namespace {

using poplibs_support::EstimateField;

// A non-linearity (forward in place, or the gradient) in the form of popops' binary and unary op estimators: the
// basic loop with an overhead of 20 and 5 per run, a load/operate and a store (2 cycles) per data-path vector of
// the larger of its input and output.
poplar::PerfEstimateFunc nonLinearity(std::vector<EstimateField> fields) {
  return [fields](const poplar::VertexIntrospector &v, const poplar::Target &target) {
    const poplibs_support::FieldTotals e = poplibs_support::fieldTotals(v, target, fields);
    return poplar::VertexPerfEstimate(poplibs_support::loopCycles(
        20 + 5 * e.runs, std::max(e.in, e.out), poplibs_support::dataPathElements(target, e.elemBytes), 2));
  };
}

} // namespace

void registerPerfEstimators(poplar::Graph &graph) {
  using poplibs_support::elementLoopEstimator;
  const poplar::Type U = poplar::UNSIGNED_INT, F = poplar::FLOAT;
  // Each class in both element types: X for float, XHalf for half (popnn_codelets.cpp).
  for (const poplar::Type t : {poplar::FLOAT, poplar::HALF}) {
    const std::string suffix = t == poplar::HALF ? "Half" : "";
    graph.registerPerfEstimator("popnn::NonLinearity" + suffix, nonLinearity({{"data", t, true, true}}));
    graph.registerPerfEstimator(
        "popnn::NonLinearityGrad" + suffix,
        nonLinearity({{"act", t, true, false}, {"outGrad", t, true, false}, {"inGrad", t, false, true}}));
    graph.registerPerfEstimator("popnn::RoiAlignForward" + suffix,
                                elementLoopEstimator({{"feat", t, true, false},
                                                      {"roi", t, true, false},
                                                      {"batch", poplar::INT, true, false},
                                                      {"out", t, false, true}}));
    graph.registerPerfEstimator("popnn::RoiAlignInputGradient" + suffix,
                                elementLoopEstimator({{"topGrad", t, true, false},
                                                      {"rois", t, true, false},
                                                      {"batch", poplar::INT, true, false},
                                                      {"acc", F, false, true},
                                                      {"out", t, false, true}}));
    graph.registerPerfEstimator("popnn::CtcLossGradient" + suffix,
                                elementLoopEstimator({{"probs", t, true, false},
                                                      {"label", U, true, false},
                                                      {"dataLength", U, true, false},
                                                      {"labelLength", U, true, false},
                                                      {"alpha", F, false, true},
                                                      {"beta", F, false, true},
                                                      {"grad", F, false, true},
                                                      {"loss", F, false, true}}));
  }
}

} // namespace popnn::detail
