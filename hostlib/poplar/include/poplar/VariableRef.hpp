// References to graph variables and to runs of their elements, as Tensor::getVarRegions() reports them.
#ifndef POPLAR_VARIABLE_REF_HPP
#define POPLAR_VARIABLE_REF_HPP

#include <cstddef>
#include <functional>
#include <ostream>

#include "poplar/Interval.hpp"

namespace poplar {

/// One variable of a graph (created by Graph::addVariable or Graph::addConstant), by its id in that graph.
struct VariableRef {
  VariableRef() : id(~0u) {}
  explicit VariableRef(unsigned variableId) : id(variableId) {}
  unsigned id; ///< the variable's index in its graph, in creation order
  bool operator==(const VariableRef &o) const { return id == o.id; }
  bool operator!=(const VariableRef &o) const { return id != o.id; }
  bool operator<(const VariableRef &o) const { return id < o.id; }
  /// A hash of the reference (std::hash<VariableRef> uses it).
  std::size_t hash() const { return std::size_t(id) * 0x9e3779b97f4a7c15ull; }
};

/// The elements `interval` (flattened, row-major) of variable `var`.
struct VariableInterval {
  VariableInterval() {}
  VariableInterval(VariableRef v, Interval i) : var(v), interval(i) {}
  VariableRef var;
  Interval interval;
  bool operator==(const VariableInterval &o) const { return var == o.var && interval == o.interval; }
  bool operator!=(const VariableInterval &o) const { return !(*this == o); }
  bool operator<(const VariableInterval &o) const {
    return var < o.var || (var == o.var && interval < o.interval);
  }
};

/// Prints "var<id>[begin, end)".
inline std::ostream &operator<<(std::ostream &os, const VariableInterval &v) {
  return os << "var" << v.var.id << v.interval;
}

} // namespace poplar

namespace std {
/// Hashing VariableRef, so that it can key unordered containers.
template <> struct hash<poplar::VariableRef> {
  std::size_t operator()(const poplar::VariableRef &v) const noexcept { return v.hash(); }
};
} // namespace std

#endif // POPLAR_VARIABLE_REF_HPP
