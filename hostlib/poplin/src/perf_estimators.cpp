// poplin's vertex cycle estimates, registered with the graph by poplin::addCodelets. Both vertex classes are
// MultiVertices: a figure is per worker, over its share of the work. They read the vertex through poplar's
// VertexIntrospector only (field sizes, the plain rows, inner and cols), so libpoplar needs no poplin header.
#include "perf_estimators.hpp"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include <poplar/Target.hpp>
#include <poplar/VertexIntrospector.hpp>

#include "perf_estimate.hpp"
#include "vertex_names.hpp"

namespace poplin::detail {

namespace {

using poplar::Type;
using poplar::VertexIntrospector;
using poplibs_support::dataPathElements;
using poplibs_support::FieldTotals;
using poplibs_support::fieldTotals;
using poplibs_support::loopCycles;
using poplibs_support::plainU32;
using poplibs_support::workersOf;

// A half-input product on the AMP the way Graphcore's PopLibs estimates its ConvPartial1x1Out vertex (PopLibs
// lib/poplin/PerformanceEstimation.hpp, getConvPartial1x1SupervisorCycleEstimate; docs/time-model.md): the product
// is a 1x1 convolution of `rows` positions, `inner` input channels in groups of 16 and `cols` output channels in
// groups of 16 (one pass of the 16 conv units per group). A worker's share of the positions, n, costs 41, 42 or
// 43 + 4 (n - 3) per group pair, plus (2 + 4 n) where the first input group zeroes the float partials; a pair costs
// the busiest worker's figure times the worker contexts, plus the supervisor's 6 + 16 coefficient loads + 18. The
// supervisor adds 50 + 11 once, 13 per further input group and 10 for the first. Returns the vertex's whole figure.
std::uint64_t ampHalfProductCycles(std::uint64_t rows, std::uint64_t inner, std::uint64_t cols, unsigned workers) {
  auto pairCycles = [&](bool zeroing) {
    std::uint64_t busiest = 0, idlest = ~std::uint64_t(0);
    for (unsigned w = 0; w < workers; ++w) {
      const std::uint64_t n = rows / workers + (w < rows % workers ? 1 : 0);
      std::uint64_t c = n == 0 ? 28 : n == 1 ? 41 : n == 2 ? 42 : 43 + (n - 3) * 4;
      if (zeroing && n > 0)
        c += 2 + 4 * n;
      busiest = std::max(busiest, c * workers);
      idlest = std::min(idlest, c * workers);
    }
    return std::max(busiest, idlest + 14) + 6 + 16 + 18;
  };
  const std::uint64_t inGroups = (inner + 15) / 16, outGroups = (cols + 15) / 16;
  return 50 + 11 + (inGroups - 1) * (13 + outGroups * pairCycles(false)) + 10 + outGroups * pairCycles(true);
}

// MatMul<In, Out> (a, b: In; c: Out). The element size is c's when c holds more than one element (poplar's field
// order: a, b, c), so a half product with float partials is charged as a float one, as it always was. Half data:
// the AMP's ConvPartial1x1Out form above, per worker. Float: PopLibs' float AMP estimate is marked as not right by
// its authors; we keep the published peak, 16 multiply-accumulates per cycle per tile (62.5 TFLOPS over 1,472
// tiles at 1.33 GHz), each worker doing its share of the product.
poplar::PerfEstimateFunc matMul(Type in, Type out) {
  return [in, out](const VertexIntrospector &v, const poplar::Target &target) {
    const FieldTotals e =
        fieldTotals(v, target, {{"a", in, true, false}, {"b", in, true, false}, {"c", out, false, true}});
    const unsigned workers = workersOf(target);
    const std::uint64_t rows = plainU32(v, target, "rows"), inner = plainU32(v, target, "inner"),
                        cols = plainU32(v, target, "cols");
    if (e.elemBytes == 2 && rows && inner && cols)
      return poplar::VertexPerfEstimate((ampHalfProductCycles(rows, inner, cols, workers) + workers - 1) / workers);
    return poplar::VertexPerfEstimate(loopCycles(26, rows * inner * cols / workers, 16, 1));
  };
}

// ReducePartials<In, Out>, PopLibs' reduce estimate per worker: 4, plus per output 1, plus per partial (1 + its
// data-path vectors), over the worker's share of the outputs, of the edges (the runs) and of the partials.
poplar::PerfEstimateFunc reducePartials(Type in, Type out) {
  return [in, out](const VertexIntrospector &v, const poplar::Target &target) {
    const FieldTotals e = fieldTotals(v, target, {{"in", in, true, false}, {"out", out, false, true}});
    const std::uint64_t width = dataPathElements(target, e.elemBytes), share = workersOf(target);
    return poplar::VertexPerfEstimate(4 + e.out / share + e.runs / share + (e.in / share + width - 1) / width +
                                      e.runs / share);
  };
}

} // namespace

void registerPerfEstimators(poplar::Graph &graph) {
  using poputil::detail::templateVertex;
  // The instances poplin_codelets.cpp lists.
  const std::vector<std::pair<Type, Type>> products = {
      {poplar::FLOAT, poplar::FLOAT}, {poplar::HALF, poplar::FLOAT}, {poplar::HALF, poplar::HALF}};
  for (const auto &[in, out] : products)
    graph.registerPerfEstimator(templateVertex("poplin::MatMul", {in, out}), matMul(in, out));
  const std::vector<std::pair<Type, Type>> reductions = {{poplar::FLOAT, poplar::FLOAT},
                                                         {poplar::FLOAT, poplar::HALF},
                                                         {poplar::HALF, poplar::HALF},
                                                         {poplar::HALF, poplar::FLOAT}};
  for (const auto &[in, out] : reductions)
    graph.registerPerfEstimator(templateVertex("poplin::ReducePartials", {in, out}), reducePartials(in, out));
}

} // namespace poplin::detail
