// popops' vertex cycle estimates, registered with the graph by popops::addCodelets. Each reads the vertex through
// poplar's VertexIntrospector only (field sizes, plain values, the expression code's constant words), so libpoplar
// needs no popops header; the figures are those the IPU Model charged when poplar held them (docs/time-model.md).
#include "perf_estimators.hpp"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <vector>

#include <poplar/Target.hpp>
#include <poplar/VertexIntrospector.hpp>

#include "../codelets/map_code.h"
#include "vertex_names.hpp"

namespace popops::detail {

namespace {

using poplar::Type;
using poplar::VertexIntrospector;

/// One field of a vertex class as its codelet declares it: the element type and whether the vertex reads it,
/// writes it, or both (InOut).
struct Field {
  const char *name;
  Type type;
  bool in, out;
};

// Elements a vertex reads and writes, the element size of its data, and its runs (edges and list items: each is
// one loop, one overhead, in popops' codelets).
struct Totals {
  std::uint64_t in = 0, out = 0;
  unsigned elemBytes = 4;
  unsigned runs = 0;
};

// The totals over `fields`, listed as poplar orders a vertex's fields (edges by name, then lists by name): the
// element size is that of the last field piece of more than one element, the data the loops stride through.
Totals totalsOf(const VertexIntrospector &v, const poplar::Target &target, std::initializer_list<Field> fields) {
  Totals t;
  auto add = [&](const Field &f, std::uint64_t n) {
    if (f.in)
      t.in += n;
    if (f.out)
      t.out += n;
    if (n > 1)
      t.elemBytes = std::max<unsigned>(1, unsigned(target.getTypeSize(f.type)));
    t.runs++;
  };
  for (const Field &f : fields) {
    poplar::FieldData d;
    try {
      d = v.getFieldInfo(f.name);
    } catch (const poplar::unknown_field &) {
      continue; // not connected: no data, no loop
    }
    if (d.rank() == 2)
      for (std::size_t i = 0; i < d.size(); ++i)
        add(f, d.getSizeAtIndex(i));
    else if (d.rank() == 1)
      add(f, d.size());
  }
  return t;
}

// A plain unsigned field's value (0 when the vertex has none).
std::uint64_t plainU32(const VertexIntrospector &v, const poplar::Target &target, const char *name) {
  try {
    return v.getFieldInfo(name).getInitialValue<std::uint32_t>(target);
  } catch (const poplar::unknown_field &) {
    return 0;
  }
}

// PopLibs' basic loop form: a fixed overhead plus one pass of `cyclesPerVector` per vector of the data path.
std::uint64_t loopCycles(std::uint64_t overhead, std::uint64_t elems, std::uint64_t vectorWidth,
                         std::uint64_t cyclesPerVector) {
  vectorWidth = std::max<std::uint64_t>(1, vectorWidth);
  return overhead + (elems + vectorWidth - 1) / vectorWidth * cyclesPerVector;
}

// Elements of `elemBytes` per data-path vector; a target that does not say has the IPU's 64-bit data path.
std::uint64_t dataPathElements(const poplar::Target &target, unsigned elemBytes) {
  const unsigned bits = target.getDataPathWidth() ? target.getDataPathWidth() : 64;
  return std::max(1u, bits / (8 * elemBytes));
}

unsigned workersOf(const poplar::Target &target) { return std::max(1u, target.getNumWorkerContexts()); }

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
  const Totals e = totalsOf(v, target,
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
  const std::uint64_t share = workersOf(target);
  const std::uint64_t perVector = opCycles + (e.out ? std::max<std::uint64_t>(1, operands / e.out) : 1);
  return loopCycles((e.elemBytes == 2 ? 26 : 29) + (11 + share - 1) / share, (e.out + share - 1) / share,
                    dataPathElements(target, e.elemBytes), perVector);
}

// Reduce<In, Out>, PopLibs' reduce estimate: 4, plus per output 1, plus per partial (1 + its data-path vectors); the
// partials here are the `in` runs.
poplar::PerfEstimateFunc reduce(Type in, Type out) {
  return [in, out](const VertexIntrospector &v, const poplar::Target &target) {
    const Totals e = totalsOf(
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

// DynamicSlice/DynamicUpdate the way Graphcore's PopLibs estimates DynamicSlice2D and DynamicUpdateSlice2D
// (popopsCycleEstimators.cpp): 27, then per column region (its width in data-path vectors: 29 + vectors for 32-bit
// elements, 31 + 2 x vectors for 16-bit, 50 + 2 x vectors for 8-bit) times the rows sliced, + 13. Ours is a
// MultiVertex: the busiest worker's figure, its pieces of regions charged as regions.
poplar::PerfEstimateFunc dynamicSlice(Type t, bool update) {
  return [t, update](const VertexIntrospector &v, const poplar::Target &target) {
    const Totals e = totalsOf(v, target,
                              {{"offset", poplar::UNSIGNED_INT, true, false},
                               {"baseT", t, true, update},
                               {"subT", t, update, !update}});
    const std::uint64_t sub = std::max<std::uint64_t>(1, plainU32(v, target, "numSubElements"));
    const auto vectors = regionVectors(v, target, dataPathElements(target, e.elemBytes));
    return poplar::VertexPerfEstimate(busiestWorker(vectors, workersOf(target), 27, [&](std::uint64_t n) {
      return (e.elemBytes >= 4 ? 29 + n : e.elemBytes == 2 ? 31 + 2 * n : 50 + 2 * n) * sub + 13;
    }));
  };
}

// MultiSlice: copies at the data path's width per cycle after 30 cycles and 4 per run (edge or list item).
poplar::PerfEstimateFunc multiSlice(Type t) {
  return [t](const VertexIntrospector &v, const poplar::Target &target) {
    const Totals e = totalsOf(v, target,
                              {{"offsets", poplar::UNSIGNED_INT, true, false},
                               {"baseT", t, true, false},
                               {"subT", t, false, true}});
    return poplar::VertexPerfEstimate(loopCycles(30 + 4 * e.runs, e.out, dataPathElements(target, e.elemBytes), 1));
  };
}

// The MultiUpdate family (a MultiVertex, as PopLibs' MultiUpdateOp): MultiSlice's copy form per worker over its
// share of the columns, the busiest worker's figure: 30 and 4 per edge (offsets, MultiUpdateAdd's scale), then per
// piece of a region 4 per row item of that region and one cycle per data-path vector of its base rows. `scale` is
// MultiUpdateAdd's scale type (no scale field when `scaled` is false).
poplar::PerfEstimateFunc multiUpdate(Type t, bool scaled, Type scale) {
  return [=](const VertexIntrospector &v, const poplar::Target &target) {
    const Field offsets{"offsets", poplar::UNSIGNED_INT, true, false};
    const Field base{"baseT", t, true, true}, subs{"subT", t, true, false};
    const Totals e = scaled ? totalsOf(v, target, {offsets, {"scale", scale, true, false}, base, subs})
                            : totalsOf(v, target, {offsets, base, subs});
    const auto vectors = regionVectors(v, target, dataPathElements(target, e.elemBytes));
    const std::uint64_t edges = scaled ? 2 : 1;
    const std::uint64_t regions = std::max<std::uint64_t>(1, vectors.size());
    const std::uint64_t itemsPerRegion = (e.runs - std::min<std::uint64_t>(e.runs, edges)) / regions;
    const std::uint64_t rows = std::max<std::uint64_t>(1, plainU32(v, target, "numBaseElements"));
    return poplar::VertexPerfEstimate(busiestWorker(vectors, workersOf(target), 30 + 4 * edges, [&](std::uint64_t n) {
      return 4 * itemsPerRegion + n * rows;
    }));
  };
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
}

} // namespace popops::detail
