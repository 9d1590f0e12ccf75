// Internal to the PopLibs libraries: the pieces their vertex cycle estimators share (docs/time-model.md). Each
// library registers its own vertices' estimators with the graph when its addCodelets runs
// (Graph::registerPerfEstimator), reading a vertex only through poplar's VertexIntrospector; what the formulas have
// in common (the loop form, the data-path width, a vertex's element totals) is kept here once.
#pragma once

#include <cstdint>
#include <vector>

#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Target.hpp>
#include <poplar/Type.hpp>
#include <poplar/VertexIntrospector.hpp>

namespace poplibs_support {

/// One edge or VectorList field of a vertex class as its codelet declares it: the element type and whether the
/// vertex reads it, writes it, or both (InOut). The introspector does not give directions, so each estimator lists
/// its class's fields.
struct EstimateField {
  const char *name;
  poplar::Type type;
  bool in, out;
};

/// Elements a vertex reads and writes, the element size of its data, and its runs (edges and list items: each is
/// one loop, one overhead, in the libraries' codelets).
struct FieldTotals {
  std::uint64_t in = 0, out = 0;
  unsigned elemBytes = 4;
  unsigned runs = 0;
};

/// The totals over the connected fields among `fields` (a field the vertex has not connected counts nothing). The
/// element size is that of the last piece of more than one element, taking the edges by name and then the lists by
/// name (poplar's order of a vertex's fields), whatever order `fields` lists them in.
FieldTotals fieldTotals(const poplar::VertexIntrospector &v, const poplar::Target &target,
                        const std::vector<EstimateField> &fields);

/// A plain unsigned field's value (0 when the vertex has none).
std::uint64_t plainU32(const poplar::VertexIntrospector &v, const poplar::Target &target, const char *name);

/// PopLibs' basic loop form: a fixed overhead plus one pass of `cyclesPerVector` per vector of the data path.
std::uint64_t loopCycles(std::uint64_t overhead, std::uint64_t elems, std::uint64_t vectorWidth,
                         std::uint64_t cyclesPerVector);

/// Elements of `elemBytes` per data-path vector; a target that does not say has the IPU's 64-bit data path.
std::uint64_t dataPathElements(const poplar::Target &target, unsigned elemBytes);

/// The same for a data path of `dataPathBits` bits (0: the IPU's 64), for estimates made from a target's figures.
std::uint64_t dataPathElements(unsigned dataPathBits, unsigned elemBytes);

/// The target's worker contexts (at least 1): the workers a MultiVertex's work is shared by.
unsigned workersOf(const poplar::Target &target);

/// The cycles of a one-worker vertex with no formula of its own over `elems` elements, `vectorWidth` at a time: the
/// basic loop with overhead 20 and 2 cycles (a load/operate and a store) per vector.
std::uint64_t elementLoopCycles(std::uint64_t elems, std::uint64_t vectorWidth);

/// The estimator of a one-worker vertex with no formula of its own: the basic loop with overhead 20 and 2 cycles
/// (a load/operate and a store) per data-path vector of the larger of what it reads and what it writes over
/// `fields`.
poplar::PerfEstimateFunc elementLoopEstimator(const std::vector<EstimateField> &fields);

} // namespace poplibs_support
