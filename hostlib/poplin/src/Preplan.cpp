// Preplanning: each listed convolution or product planned through the planning cache by the same planner call
// (same problem, options and target) as the building functions make, so that they later hit the cache.
#include <tuple>

#include "poplin/ConvPreplan.hpp"
#include "poputil/exceptions.hpp"

#include "MatMulPlan.hpp"
#include "conv_plan.hpp"
#include "matmul_build.hpp"

namespace poplin {

namespace {

const poplar::Target &targetOf(const poplar::Target *t, const char *what) {
  if (!t)
    throw poputil::poplibs_error(std::string(what) + ": an entry has no target (a null Target pointer)");
  return *t;
}

const poplar::OptionFlags &optionsOf(const poplar::OptionFlags *o) {
  static const poplar::OptionFlags none;
  return o ? *o : none;
}

// A 2-D shape as the one group of a grouped product; 3-D shapes as they are (problemOf checks them).
std::vector<std::size_t> asGrouped(const std::vector<std::size_t> &s) {
  if (s.size() == 2)
    return {1, s[0], s[1]};
  return s;
}

} // namespace

bool operator<(const MatMulParams &a, const MatMulParams &b) {
  return std::tie(a.inputType, a.outputType, a.aShape, a.bShape) <
         std::tie(b.inputType, b.outputType, b.aShape, b.bShape);
}

void preplanMatMuls(const std::set<MatMulPlanParams> &matmuls, matmul::PlanningCache &cache) {
  const char *what = "poplin::preplanMatMuls";
  for (const MatMulPlanParams &m : matmuls) {
    const MatMulParams &p = std::get<1>(m);
    detail::MatMulOptions o = detail::parseMatMulOptions(optionsOf(std::get<2>(m)), what);
    detail::MatMulProblem problem =
        detail::problemOf(asGrouped(p.aShape), asGrouped(p.bShape), p.inputType, p.outputType, what);
    detail::getMatMulPlan(targetOf(std::get<0>(m), what), problem, o, &cache, what);
  }
}

void preplanConvolutions(const std::set<ConvPlanParams> &convs, PlanningCache &cache) {
  const char *what = "poplin::preplanConvolutions";
  for (const ConvPlanParams &c : convs) {
    detail::MatMulOptions o = detail::convMatMulOptions(optionsOf(std::get<2>(c)), what);
    detail::MatMulProblem problem = detail::convFwdProblem(std::get<1>(c), what);
    detail::getMatMulPlan(targetOf(std::get<0>(c), what), problem, o, &cache, what);
  }
}

void preplanConvolutions(poplar::Graph &, const std::set<ConvPlanParams> &convs, PlanningCache &cache) {
  preplanConvolutions(convs, cache);
}

void preplan(const std::set<ConvPlanParams> &convs, const std::set<MatMulPlanParams> &matmuls,
             PlanningCache &cache) {
  preplanConvolutions(convs, cache);
  preplanMatMuls(matmuls, cache);
}

} // namespace poplin
