// poplin's vertex cycle estimates, registered with the graph by poplin::addCodelets. Its vertex classes are
// MultiVertices: a figure is per worker, over its share of the work. They read the vertex through poplar's
// VertexIntrospector only (field sizes and plain values), so libpoplar needs no poplin header.
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

// ConvPartialnx1<In, Out>, per worker. Half inputs: Graphcore's ConvPartialnx1 estimate (PopLibs
// lib/poplin/PerformanceEstimation.hpp, getConvPartialnx1SupervisorCycleEstimate, with 16 conv units and the
// kernel's rows as separate passes): the vertex's output rows are dealt to the workers, and a worker with r rows of
// width w costs 19 + r x (18, 30 or 34 for a width of 0, 1 or 2, else 35 + 4 (w - 3)); each kernel position costs
// the busiest worker times the worker contexts (at least the least busy one's + 9), + 32 cycles of AMP loads + 15;
// each kernel row adds 15 and each of its positions 20; the supervisor pays 95 + 16 once and, per input-channel
// group of 16, 23 + per output-channel group of 16 (23 + the kernel's rows). Float inputs: the float product's peak
// form above (16 multiply-accumulates per cycle per tile) over the convolution's multiply-accumulates.
poplar::PerfEstimateFunc convPartialnx1(Type in) {
  return [in](const VertexIntrospector &v, const poplar::Target &target) {
    const unsigned workers = workersOf(target);
    const std::uint64_t ci = plainU32(v, target, "inChans"), kh = plainU32(v, target, "kernelH"),
                        kw = plainU32(v, target, "kernelW"), rows = plainU32(v, target, "outRows"),
                        width = plainU32(v, target, "outWidth");
    std::uint64_t outs = 0;
    try {
      outs = v.getFieldInfo("out").size();
    } catch (const poplar::unknown_field &) {
    }
    const std::uint64_t co = rows && width ? outs / (rows * width) : 0;
    if (in != poplar::HALF)
      return poplar::VertexPerfEstimate(loopCycles(26, outs * ci * kh * kw / workers, 16, 1));
    const std::uint64_t rowCost = width == 0 ? 18 : width == 1 ? 30 : width == 2 ? 34 : 35 + 4 * (width - 3);
    std::uint64_t busiest = 0, idlest = ~std::uint64_t(0);
    for (unsigned w = 0; w < workers; ++w) {
      const std::uint64_t r = rows / workers + (w < rows % workers ? 1 : 0);
      busiest = std::max(busiest, workers * (19 + r * rowCost));
      idlest = std::min(idlest, workers * (19 + r * rowCost));
    }
    const std::uint64_t position = 32 + 15 + std::max(busiest, idlest + 9);
    const std::uint64_t kernel = kh * (15 + kw * (20 + position));
    const std::uint64_t whole = 95 + 16 + (ci + 15) / 16 * (23 + (co + 15) / 16 * (23 + kernel));
    return poplar::VertexPerfEstimate((whole + workers - 1) / workers);
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
  for (const auto &[in, out] : products) // the same instances as MatMul's
    graph.registerPerfEstimator(templateVertex("poplin::ConvPartialnx1", {in, out}), convPartialnx1(in));
}

} // namespace poplin::detail
