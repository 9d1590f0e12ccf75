// popops' vertex cycle estimates, registered with the graph by popops::addCodelets. Each reads the vertex through
// poplar's VertexIntrospector only (field sizes, plain values, the expression code's constant words), so libpoplar
// needs no popops header; the figures are those the IPU Model charged when poplar held them (docs/time-model.md).
#include "perf_estimators.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <poplar/Target.hpp>
#include <poplar/VertexIntrospector.hpp>

#include "../codelets/map_code.h"
#include "perf_estimate.hpp"
#include "popops/PerformanceEstimation.hpp"
#include "vertex_names.hpp"

namespace popops::detail {

namespace {

using poplar::Type;
using poplar::VertexIntrospector;

using poplibs_support::dataPathElements;
using poplibs_support::EstimateField;
using poplibs_support::fieldTotals;
using poplibs_support::FieldTotals;
using poplibs_support::loopCycles;
using poplibs_support::plainU32;
using poplibs_support::workersOf;

// Cycles per data-path vector of the operations in a MapInterpreter's expression, read in the codelet's own
// encoding (map_code.h, so the estimate follows the codelet when it changes), priced by kind as Graphcore's op
// tables price the common cases (popopsCycleEstimators.hpp): a binary op or a cast 1 cycle per vector (ADD, SUB,
// MUL at the natural width), a unary op 6 (EXPONENT float: 6 per 2 elements), a ternary op 2; a load or a constant
// nothing (its load is charged per operand). A code the graph does not hold as a constant counts one operation.
std::uint64_t mapCodeCycles(const std::vector<std::uint32_t> &code) {
  namespace mc = popops::mapcode;
  std::uint64_t cycles = 0;
  for (std::size_t i = mc::kHeaderWords; i < code.size(); ++i) {
    const unsigned kind = code[i] & mc::kKindMask;
    if (kind == mc::END)
      break;
    if (kind == mc::CONST) // its value word follows
      ++i;
    cycles += kind == mc::UNARY                          ? 6
              : kind == mc::BINARY || kind == mc::CAST ? 1
              : kind == mc::TERNARY                    ? 2
                                                       : 0;
  }
  return std::max<std::uint64_t>(1, cycles);
}

// MapInterpreter, a MultiVertex, the way Graphcore estimates BinaryOp1D/UnaryOp1D (popopsCycleEstimators.cpp): each
// worker pays 29 (float) or 26 (half) and its share of the supervisor's 11, then per data-path vector of its output
// share one cycle per operand loaded and one for the operation with the store (ADD of two floats: 3, the table's
// 1 + 2). The `code` edge is the expression, not data: it is left out of the operands.
poplar::VertexPerfEstimate mapInterpreter(const VertexIntrospector &v, const poplar::Target &target) {
  const Type U = poplar::UNSIGNED_INT;
  const FieldTotals e = fieldTotals(v, target,
                            {{"code", U, true, false},
                             {"inB", poplar::BOOL, true, false},
                             {"inF", poplar::FLOAT, true, false},
                             {"inH", poplar::HALF, true, false},
                             {"inI", poplar::INT, true, false},
                             {"inU", U, true, false},
                             {"outB", poplar::BOOL, false, true},
                             {"outF", poplar::FLOAT, false, true},
                             {"outH", poplar::HALF, false, true},
                             {"outI", poplar::INT, false, true},
                             {"outU", U, false, true}});
  std::uint64_t operands = 0, opCycles = 1;
  try {
    const poplar::FieldData code = v.getFieldInfo("code");
    operands = e.in > code.size() ? e.in - code.size() : 0;
    opCycles = mapCodeCycles(code.getInitialValues<std::uint32_t>(target));
  } catch (const poplar::unknown_field &) {
  }
  const std::uint64_t perVector = opCycles + (e.out ? std::max<std::uint64_t>(1, operands / e.out) : 1);
  return mapCycles(workersOf(target), target.getDataPathWidth(), e.elemBytes, e.out, perVector);
}

// Reduce<In, Out>, PopLibs' reduce estimate: 4, plus per output 1, plus per partial (1 + its data-path vectors); the
// partials here are the `in` runs.
poplar::PerfEstimateFunc reduce(Type in, Type out) {
  return [in, out](const VertexIntrospector &v, const poplar::Target &target) {
    const FieldTotals e = fieldTotals(
        v, target, {{"counts", poplar::UNSIGNED_INT, true, false}, {"out", out, false, true}, {"in", in, true, false}});
    const std::uint64_t width = dataPathElements(target, e.elemBytes);
    return poplar::VertexPerfEstimate(4 + e.out + e.runs + (e.in + width - 1) / width + e.runs);
  };
}

// The data-path vectors of each column region of a slice vertex, read from its baseT list: packed, one item per
// region holding all numBaseElements rows of it; otherwise numBaseElements items (rows) per region. Empty when the
// vertex has no baseT.
std::vector<std::uint64_t> regionVectors(const VertexIntrospector &v, const poplar::Target &target,
                                         std::uint64_t width) {
  const std::uint64_t rows = std::max<std::uint64_t>(1, plainU32(v, target, "numBaseElements"));
  const bool packed = plainU32(v, target, "packed") != 0;
  std::vector<std::uint64_t> vectors;
  poplar::FieldData base;
  try {
    base = v.getFieldInfo("baseT");
  } catch (const poplar::unknown_field &) {
    return vectors;
  }
  for (std::size_t r = 0; r < base.size(); r += packed ? 1 : rows) {
    const std::uint64_t cols = packed ? base.getSizeAtIndex(r) / rows : base.getSizeAtIndex(r);
    vectors.push_back((cols + width - 1) / width);
  }
  return vectors;
}

// The busiest worker of a slice MultiVertex whose workers share its regions' vectors as the codelet deals them
// (slice_codelets.h, forWorkerColumns: the vectors of all regions end to end, cut into equal shares): `fixed`, plus
// piece(n) for each piece of n vectors of a region that the worker owns.
template <typename Piece>
std::uint64_t busiestWorker(const std::vector<std::uint64_t> &vectors, std::uint64_t workers, std::uint64_t fixed,
                            Piece piece) {
  std::uint64_t total = 0;
  for (std::uint64_t n : vectors)
    total += n;
  const std::uint64_t share = (total + workers - 1) / workers;
  std::uint64_t busiest = fixed;
  for (std::uint64_t lo = 0; lo < total; lo += share) {
    const std::uint64_t hi = std::min(total, lo + share);
    std::uint64_t cycles = fixed, at = 0;
    for (std::uint64_t n : vectors) {
      const std::uint64_t a = std::max(lo, at), b = std::min(hi, at + n);
      if (a < b)
        cycles += piece(b - a);
      at += n;
    }
    busiest = std::max(busiest, cycles);
  }
  return busiest;
}

} // namespace

std::uint64_t mapCycles(unsigned workers, unsigned dataPathBits, unsigned elemBytes, std::uint64_t outElems,
                        std::uint64_t perVector) {
  const std::uint64_t share = std::max(1u, workers);
  const std::uint64_t supervisor = popops::internal::basicOpSupervisorOverhead();
  return loopCycles((elemBytes == 2 ? 26 : 29) + (supervisor + share - 1) / share, (outElems + share - 1) / share,
                    dataPathElements(dataPathBits, elemBytes), perVector);
}

// Graphcore's DynamicSlice2D/DynamicUpdateSlice2D estimate (popopsCycleEstimators.cpp): 27, then per column region
// (29 + vectors for 32-bit elements, 31 + 2 x vectors for 16-bit, 50 + 2 x vectors for 8-bit) times the rows
// sliced, + 13. Ours is a MultiVertex: the busiest worker's figure, its pieces of regions charged as regions.
std::uint64_t dynamicSliceCycles(const std::vector<std::uint64_t> &vectors, unsigned workers, unsigned elemBytes,
                                 std::uint64_t rows) {
  return busiestWorker(vectors, std::max(1u, workers), 27, [&](std::uint64_t n) {
    return (elemBytes >= 4 ? 29 + n : elemBytes == 2 ? 31 + 2 * n : 50 + 2 * n) * rows + 13;
  });
}

// Copies at the data path's width per cycle after 30 cycles and 4 per run (edge or list item).
std::uint64_t multiSliceCycles(std::uint64_t runs, std::uint64_t outElems, std::uint64_t vectorWidth) {
  return loopCycles(30 + 4 * runs, outElems, vectorWidth, 1);
}

// MultiSlice's copy form per worker over its share of the columns: 30 and 4 per edge, then per piece of a region 4
// per row item of that region and one cycle per data-path vector of its base rows.
std::uint64_t multiUpdateCycles(const std::vector<std::uint64_t> &vectors, unsigned workers, std::uint64_t edges,
                                std::uint64_t itemsPerRegion, std::uint64_t rows) {
  return busiestWorker(vectors, std::max(1u, workers), 30 + 4 * edges,
                       [&](std::uint64_t n) { return 4 * itemsPerRegion + n * rows; });
}

namespace {

// DynamicSlice/DynamicUpdate (dynamicSliceCycles) over the vertex's column regions.
poplar::PerfEstimateFunc dynamicSlice(Type t, bool update) {
  return [t, update](const VertexIntrospector &v, const poplar::Target &target) {
    const FieldTotals e = fieldTotals(v, target,
                              {{"offset", poplar::UNSIGNED_INT, true, false},
                               {"baseT", t, true, update},
                               {"subT", t, update, !update}});
    const std::uint64_t sub = std::max<std::uint64_t>(1, plainU32(v, target, "numSubElements"));
    const auto vectors = regionVectors(v, target, dataPathElements(target, e.elemBytes));
    return poplar::VertexPerfEstimate(dynamicSliceCycles(vectors, workersOf(target), e.elemBytes, sub));
  };
}

// MultiSlice (multiSliceCycles) over the vertex's runs.
poplar::PerfEstimateFunc multiSlice(Type t) {
  return [t](const VertexIntrospector &v, const poplar::Target &target) {
    const FieldTotals e = fieldTotals(v, target,
                              {{"offsets", poplar::UNSIGNED_INT, true, false},
                               {"baseT", t, true, false},
                               {"subT", t, false, true}});
    return poplar::VertexPerfEstimate(multiSliceCycles(e.runs, e.out, dataPathElements(target, e.elemBytes)));
  };
}

// The MultiUpdate family (a MultiVertex, as PopLibs' MultiUpdateOp): MultiSlice's copy form per worker over its
// share of the columns, the busiest worker's figure: 30 and 4 per edge (offsets, MultiUpdateAdd's scale), then per
// piece of a region 4 per row item of that region and one cycle per data-path vector of its base rows. `scale` is
// MultiUpdateAdd's scale type (no scale field when `scaled` is false).
poplar::PerfEstimateFunc multiUpdate(Type t, bool scaled, Type scale) {
  return [=](const VertexIntrospector &v, const poplar::Target &target) {
    const EstimateField offsets{"offsets", poplar::UNSIGNED_INT, true, false};
    const EstimateField base{"baseT", t, true, true}, subs{"subT", t, true, false};
    const FieldTotals e = scaled ? fieldTotals(v, target, {offsets, {"scale", scale, true, false}, base, subs})
                            : fieldTotals(v, target, {offsets, base, subs});
    const auto vectors = regionVectors(v, target, dataPathElements(target, e.elemBytes));
    const std::uint64_t edges = scaled ? 2 : 1;
    const std::uint64_t regions = std::max<std::uint64_t>(1, vectors.size());
    const std::uint64_t itemsPerRegion = (e.runs - std::min<std::uint64_t>(e.runs, edges)) / regions;
    const std::uint64_t rows = std::max<std::uint64_t>(1, plainU32(v, target, "numBaseElements"));
    return poplar::VertexPerfEstimate(multiUpdateCycles(vectors, workersOf(target), edges, itemsPerRegion, rows));
  };
}

// The vertices with no formula of their own, each charged the basic loop over its fields
// (poplibs_support::elementLoopEstimator): the instances the codelets list (VertexInstances).
void registerLoopEstimators(poplar::Graph &graph) {
  using poplibs_support::elementLoopEstimator;
  using poputil::detail::templateVertex;
  const Type F = poplar::FLOAT, H = poplar::HALF, I = poplar::INT, U = poplar::UNSIGNED_INT;
  const Type U8 = poplar::UNSIGNED_CHAR, U16 = poplar::UNSIGNED_SHORT, U64 = poplar::UNSIGNED_LONGLONG;
  for (Type t : {U8, U16, U64}) {
    graph.registerPerfEstimator(templateVertex("popops::Fill", {t}), elementLoopEstimator({{"out", t, false, true}}));
    graph.registerPerfEstimator(templateVertex("popops::Fill2d", {t}), elementLoopEstimator({{"out", t, false, true}}));
  }
  for (Type t : {U, U16, U8})
    graph.registerPerfEstimator(templateVertex("popops::Transpose", {t}),
                                elementLoopEstimator({{"src", t, true, false}, {"dst", t, false, true}}));
  for (Type t : {I, U})
    graph.registerPerfEstimator(
        templateVertex("popops::ForLoopCounter", {t}),
        elementLoopEstimator({{"count", t, true, true}, {"limit", t, true, false}, {"comparisonResult", U, false, true}}));
  for (Type t : {F, H})
    for (Type c : {U, F})
      graph.registerPerfEstimator(
          templateVertex("popops::Histogram", {t, c}),
          elementLoopEstimator({{"data", t, true, false}, {"levels", t, true, false}, {"counts", c, false, true}}));
  graph.registerPerfEstimator("popops::UCharToHalf",
                              elementLoopEstimator({{"in", U8, true, false}, {"out", H, false, true}}));
  for (Type t : {F, H}) {
    graph.registerPerfEstimator(
        templateVertex("popops::CastToQuarter", {t}),
        elementLoopEstimator({{"in", t, true, false}, {"out", U8, false, true}, {"metadata", U8, true, false}}));
    graph.registerPerfEstimator(
        templateVertex("popops::CastFromQuarter", {t}),
        elementLoopEstimator({{"in", U8, true, false}, {"out", t, false, true}, {"metadata", U8, true, false}}));
    graph.registerPerfEstimator(templateVertex("popops::SplineBasis", {t}),
                                elementLoopEstimator({{"pseudo", t, true, false},
                                                      {"kernelSize", I, true, false},
                                                      {"isOpenSpline", U8, true, false},
                                                      {"basis", t, false, true},
                                                      {"weightIndex", I, false, true}}));
    graph.registerPerfEstimator(templateVertex("popops::SplineWeighting", {t}),
                                elementLoopEstimator({{"input", t, true, false},
                                                      {"weight", t, true, false},
                                                      {"basis", t, true, false},
                                                      {"weightIndex", I, true, false},
                                                      {"output", t, false, true}}));
  }
  // The casts of 8- and 16-bit integers (cast_int_codelets.h), each way.
  for (Type small : {poplar::CHAR, poplar::SIGNED_CHAR, U8, poplar::SHORT, U16})
    for (Type other : {F, H, I, U}) {
      graph.registerPerfEstimator(templateVertex("popops::CastInt", {small, other}),
                                  elementLoopEstimator({{"in", small, true, false}, {"out", other, false, true}}));
      graph.registerPerfEstimator(templateVertex("popops::CastInt", {other, small}),
                                  elementLoopEstimator({{"in", other, true, false}, {"out", small, false, true}}));
    }
  for (Type k : {F, H, I, U}) {
    graph.registerPerfEstimator(templateVertex("popops::SortKeys", {k}),
                                elementLoopEstimator({{"keys", k, true, true}}));
    graph.registerPerfEstimator(
        templateVertex("popops::MergeSplitKeys", {k}),
        elementLoopEstimator({{"lo", k, true, true}, {"hi", k, true, true}, {"tmp", k, false, true}}));
    for (Type v : {U, U16}) {
      graph.registerPerfEstimator(templateVertex("popops::SortKV", {k, v}),
                                  elementLoopEstimator({{"keys", k, true, true}, {"values", v, true, true}}));
      graph.registerPerfEstimator(templateVertex("popops::MergeSplitKV", {k, v}),
                                  elementLoopEstimator({{"lo", k, true, true},
                                                        {"hi", k, true, true},
                                                        {"tmp", k, false, true},
                                                        {"loValues", v, true, true},
                                                        {"hiValues", v, true, true},
                                                        {"tmpValues", v, false, true}}));
    }
  }
}

} // namespace

void registerPerfEstimators(poplar::Graph &graph) {
  using poputil::detail::templateVertex;
  graph.registerPerfEstimator("popops::MapInterpreter", mapInterpreter);
  // The instances slice_codelets.h and popops_codelets.cpp list (VertexInstances).
  const std::vector<std::pair<Type, Type>> reduces = {
      {poplar::FLOAT, poplar::FLOAT}, {poplar::HALF, poplar::HALF}, {poplar::HALF, poplar::FLOAT},
      {poplar::FLOAT, poplar::HALF},  {poplar::INT, poplar::INT},   {poplar::UNSIGNED_INT, poplar::UNSIGNED_INT},
      {poplar::BOOL, poplar::BOOL}};
  for (const auto &[in, out] : reduces)
    graph.registerPerfEstimator(templateVertex("popops::Reduce", {in, out}), reduce(in, out));
  for (Type t : {poplar::UNSIGNED_INT, poplar::UNSIGNED_SHORT, poplar::UNSIGNED_CHAR, poplar::UNSIGNED_LONGLONG}) {
    graph.registerPerfEstimator(templateVertex("popops::DynamicSlice", {t}), dynamicSlice(t, false));
    graph.registerPerfEstimator(templateVertex("popops::DynamicUpdate", {t}), dynamicSlice(t, true));
    graph.registerPerfEstimator(templateVertex("popops::MultiSlice", {t}), multiSlice(t));
    graph.registerPerfEstimator(templateVertex("popops::MultiUpdate", {t}), multiUpdate(t, false, t));
  }
  const std::vector<std::pair<Type, Type>> adds = {{poplar::FLOAT, poplar::FLOAT},
                                                   {poplar::INT, poplar::INT},
                                                   {poplar::UNSIGNED_INT, poplar::UNSIGNED_INT},
                                                   {poplar::HALF, poplar::HALF},
                                                   {poplar::HALF, poplar::FLOAT}};
  for (const auto &[t, s] : adds)
    graph.registerPerfEstimator(templateVertex("popops::MultiUpdateAdd", {t, s}), multiUpdate(t, true, s));
  for (Type t : {poplar::FLOAT, poplar::INT, poplar::UNSIGNED_INT, poplar::HALF}) {
    graph.registerPerfEstimator(templateVertex("popops::MultiUpdateMax", {t}), multiUpdate(t, false, t));
    graph.registerPerfEstimator(templateVertex("popops::MultiUpdateMul", {t}), multiUpdate(t, false, t));
  }
  registerLoopEstimators(graph);
}

} // namespace popops::detail
