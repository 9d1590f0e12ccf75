/** \file cyclesTables.hpp
 *
 * Helpers with which a PopLibs library registers its vertices' cycle estimators with a graph: a table of
 * (vertex name, estimator) entries built with CYCLE_ESTIMATOR_ENTRY, and the cost of reading a vector field of
 * each layout. Graphcore marks this header as internal to PopLibs; it is installed because other PopLibs headers
 * and tools include it. Header-only, C++11.
 */
#ifndef poputil_cyclesTables_hpp
#define poputil_cyclesTables_hpp

#include <poplar/Graph.hpp>
#include <poplar/PerfEstimateFunc.hpp>
#include <poplar/Target.hpp>
#include <poplar/VectorLayout.hpp>
#include <poplar/VertexIntrospector.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

/// The name of the estimator function of vertex class `codelet`: getPerfEstimateFor<codelet>.
#define MAKE_PERF_ESTIMATOR_NAME(codelet) getPerfEstimateFor##codelet

/// A table entry for the untemplated vertex ns::codelet, estimated by MAKE_PERF_ESTIMATOR_NAME(codelet).
#define CYCLE_ESTIMATOR_ENTRY_NOPARAMS(ns, codelet)                                                                 \
  poputil::internal::makePerfEstimatorEntry(#ns "::" #codelet, MAKE_PERF_ESTIMATOR_NAME(codelet))

/// A table entry for ns::codelet<args...>: the estimator is called with the vertex, the target and `args`.
#define CYCLE_ESTIMATOR_ENTRY(ns, codelet, ...)                                                                     \
  poputil::internal::makePerfEstimatorEntry(#ns "::" #codelet, MAKE_PERF_ESTIMATOR_NAME(codelet), __VA_ARGS__)

/// Inside an estimator (parameters `vertex` and `target`): the field `field` of the vertex.
#define CODELET_FIELD(field) const auto field = vertex.getFieldInfo(#field)

/// Inside an estimator: the initial value of the plain field `field`, read as `type`.
#define CODELET_SCALAR_VAL(field, type) const auto field = vertex.getFieldInfo(#field).getInitialValue<type>(target);

/// Inside an estimator: the initial values of the vector field `field`, read as `type`.
#define CODELET_VECTOR_VALS(field, type)                                                                            \
  const auto field = vertex.getFieldInfo(#field).getInitialValues<type>(target);

/// Inside an estimator: the initial values of the two-dimensional field `field`, one vector of `type` per row.
#define CODELET_VECTOR_2D_VALS(field, type)                                                                         \
  const auto field = vertex.getFieldInfo(#field).getInitialValues<std::vector<type> >(target);

namespace poputil {
namespace internal {

/// Vertex names (templateVertex spelling) with their estimators.
typedef std::vector<std::pair<std::string, poplar::PerfEstimateFunc> > PerfEstimatorTable;

/// The entry for `codelet` instantiated with `args` (its name as templateVertex spells it); the estimator is `f`
/// called as f(vertex, target, args...).
template <typename F, typename... Args>
inline std::pair<std::string, poplar::PerfEstimateFunc> makePerfEstimatorEntry(const std::string &codelet, F f,
                                                                                Args &&...args) {
  using std::placeholders::_1;
  using std::placeholders::_2;
  const std::string name = poputil::templateVertex(codelet, args...);
  return std::make_pair(name, poplar::PerfEstimateFunc(std::bind(f, _1, _2, std::forward<Args>(args)...)));
}

/// Registers every entry of `table` with `graph` (Graph::registerPerfEstimator).
inline void registerPerfFunctions(poplar::Graph &graph, const PerfEstimatorTable &table) {
  for (std::size_t i = 0; i < table.size(); ++i)
    graph.registerPerfEstimator(table[i].first, poplar::PerfEstimateFunc(table[i].second));
}

/// Cycles a vertex spends turning a vector field of `layout` into a pointer and a size before its loop: nothing
/// for a plain pointer or span, 2 for a short span or a 32-bit-scaled pointer (a shift and a mask), 1 for a
/// 64- or 128-bit-scaled pointer (a shift).
inline std::uint64_t getUnpackCost(const poplar::layout::Vector layout) {
  switch (layout) {
  case poplar::layout::Vector::NotAVector:
  case poplar::layout::Vector::Span:
  case poplar::layout::Vector::OnePtr:
    return 0;
  case poplar::layout::Vector::ShortSpan:
  case poplar::layout::Vector::ScaledPtr32:
    return 2;
  case poplar::layout::Vector::ScaledPtr64:
  case poplar::layout::Vector::ScaledPtr128:
    return 1;
  }
  throw poputil::poplibs_error("getUnpackCost: unknown poplar::layout::Vector value; pass one of its enumerators");
}

/// The same for one item of a vector list: a DeltaN item costs what a 32-bit-scaled pointer does, a
/// DeltaNElements item 5; the other list layouts have no estimate and are refused.
inline std::uint64_t getUnpackCost(const poplar::layout::VectorList layout) {
  switch (layout) {
  case poplar::layout::VectorList::DeltaN:
    return getUnpackCost(poplar::layout::Vector::ScaledPtr32);
  case poplar::layout::VectorList::DeltaNElements:
    return 5;
  case poplar::layout::VectorList::NotAVector:
  case poplar::layout::VectorList::OnePtr:
  case poplar::layout::VectorList::ScaledPtr32:
  case poplar::layout::VectorList::ScaledPtr64:
  case poplar::layout::VectorList::ScaledPtr128:
    throw poputil::poplibs_error("getUnpackCost: no unpack cost is known for vector-list layout " +
                                 poplar::layout::to_string(layout) + "; only DeltaN and DeltaNElements have one");
  }
  throw poputil::poplibs_error("getUnpackCost: unknown poplar::layout::VectorList value; pass one of its enumerators");
}

/// Cycles to step from one item of a vector list to the next (reading its delta): 3 for DeltaN, 2 for
/// DeltaNElements; the other list layouts are refused as in getUnpackCost.
inline std::uint64_t getVectorListDeltaUnpackCost(const poplar::layout::VectorList layout) {
  switch (layout) {
  case poplar::layout::VectorList::DeltaN:
    return 3;
  case poplar::layout::VectorList::DeltaNElements:
    return 2;
  case poplar::layout::VectorList::NotAVector:
  case poplar::layout::VectorList::OnePtr:
  case poplar::layout::VectorList::ScaledPtr32:
  case poplar::layout::VectorList::ScaledPtr64:
  case poplar::layout::VectorList::ScaledPtr128:
    throw poputil::poplibs_error("getVectorListDeltaUnpackCost: no delta cost is known for vector-list layout " +
                                 poplar::layout::to_string(layout) + "; only DeltaN and DeltaNElements have one");
  }
  throw poputil::poplibs_error(
      "getVectorListDeltaUnpackCost: unknown poplar::layout::VectorList value; pass one of its enumerators");
}

} // namespace internal
} // namespace poputil

#endif // poputil_cyclesTables_hpp
