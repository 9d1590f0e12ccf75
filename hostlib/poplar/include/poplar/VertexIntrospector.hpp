// What a performance estimator (PerfEstimateFunc) may ask about a vertex: its class and the shape of its fields.
#ifndef POPLAR_VERTEX_INTROSPECTOR_HPP
#define POPLAR_VERTEX_INTROSPECTOR_HPP

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "poplar/ComputeSet.hpp"
#include "poplar/VectorLayout.hpp"
#include "poplar/exceptions.hpp"

namespace poplar {

class Target;

/// One field of a vertex: an edge (rank 1: `size()` elements; when it is connected to one piece of a constant
/// made with Graph::addConstant, with the constant's values), a VectorList edge (rank 2: `size()` items of
/// `getSizeAtIndex(i)` elements each) or a plain field (rank 0, with the value it was given).
class FieldData {
public:
  /// The size of one item of a field, as `field[i]` returns it (`field[i].size()` is `getSizeAtIndex(i)`).
  struct SizeT {
    std::size_t value;
    std::size_t size() const { return value; }
  };

  FieldData() = default;
  FieldData(unsigned rank, std::size_t size, std::vector<std::size_t> itemSizes, std::vector<unsigned char> bytes,
            std::string name = std::string())
      : rank_(rank), size_(size), itemSizes_(itemSizes), bytes_(bytes), name_(name) {}
  /// The field's name.
  std::string name() const { return name_; }
  unsigned rank() const { return rank_; }
  std::size_t size() const { return size_; }
  std::size_t getSizeAtIndex(std::size_t i) const { return i < itemSizes_.size() ? itemSizes_[i] : 0; }
  /// The size of item `i`: `field[i].size()` is `field.getSizeAtIndex(i)`.
  SizeT operator[](std::size_t i) const {
    SizeT s = {getSizeAtIndex(i)};
    return s;
  }
  /// The layout of the vector at `nestingLevel` (0: the field itself, 1: a VectorList's items). This emulator lays
  /// every vector out as a pointer and a size whatever the codelet declares, which the SDK calls Span; a plain
  /// field is NotAVector. Throws poplar_error when the field has no vector at that level.
  layout::Vector getProfilerVectorLayout(std::size_t nestingLevel) const {
    if (rank_ == 0)
      return layout::Vector::NotAVector;
    if (nestingLevel >= rank_)
      throw poplar_error("FieldData::getProfilerVectorLayout: field '" + name_ + "' has " + std::to_string(rank_) +
                         " vector level(s); pass a nestingLevel below " + std::to_string(rank_));
    return layout::Vector::Span;
  }
  /// The layout of a VectorList field: DeltaNElements (the device header's default layout, which is how the
  /// emulator's edges behave for every declared layout); NotAVector for other fields.
  layout::VectorList getProfilerVectorListLayout() const {
    return rank_ == 2 ? layout::VectorList::DeltaNElements : layout::VectorList::NotAVector;
  }
  /// The value of a plain field, as type T (0 when the field has no value).
  template <typename T> T getInitialValue(const Target &) const {
    T v = T();
    std::memcpy(&v, bytes_.data(), bytes_.size() < sizeof(T) ? bytes_.size() : sizeof(T));
    return v;
  }

  /// The values of a field. With T a scalar type: a plain field that holds several (an array member), one value
  /// for a plain scalar, or an edge's constant values; throws poplar_error when the field's bytes are not a whole
  /// number of Ts. With T = std::vector<U> (a VectorList field, rank 2): one vector of U per item, each of
  /// getSizeAtIndex(i) values; throws poplar_error for a field of another rank, or when an item is not connected
  /// to a graph constant (its values are not known before the program runs).
  template <typename T> std::vector<T> getInitialValues(const Target &target) const {
    std::vector<T> result;
    getInitialValuesOverload(target, result);
    return result;
  }

private:
  // getInitialValues with T a scalar type.
  template <typename T> void getInitialValuesOverload(const Target &, std::vector<T> &result) const {
    if (bytes_.size() % sizeof(T) != 0)
      throw poplar_error("FieldData::getInitialValues: field '" + name_ + "' holds " +
                         std::to_string(bytes_.size()) + " bytes, not a whole number of " +
                         std::to_string(sizeof(T)) + "-byte values");
    result.assign(bytes_.size() / sizeof(T), T());
    if (!result.empty())
      std::memcpy(&result[0], bytes_.data(), bytes_.size());
  }
  // getInitialValues with T = std::vector<U>: the items of a VectorList field (rank 2), whose bytes are the items'
  // values one after the other.
  template <typename U> void getInitialValuesOverload(const Target &, std::vector<std::vector<U> > &result) const {
    if (rank_ != 2)
      throw poplar_error("FieldData::getInitialValues<std::vector<T>>: field '" + name_ + "' has rank " +
                         std::to_string(rank_) + "; call getInitialValues<T> with a scalar T for a field of rank 0 or 1");
    std::size_t total = 0;
    for (std::size_t i = 0; i < itemSizes_.size(); ++i)
      total += itemSizes_[i];
    if (bytes_.size() != total * sizeof(U))
      throw poplar_error("FieldData::getInitialValues: the items of field '" + name_ +
                         "' are not all graph constants (Graph::addConstant) of " + std::to_string(sizeof(U)) +
                         "-byte values, so their values are not known before the program runs");
    result.assign(itemSizes_.size(), std::vector<U>());
    std::size_t offset = 0;
    for (std::size_t i = 0; i < itemSizes_.size(); ++i) {
      result[i].resize(itemSizes_[i]);
      if (itemSizes_[i] != 0)
        std::memcpy(&result[i][0], bytes_.data() + offset, itemSizes_[i] * sizeof(U));
      offset += itemSizes_[i] * sizeof(U);
    }
  }

  unsigned rank_ = 0;
  std::size_t size_ = 0;
  std::vector<std::size_t> itemSizes_;
  std::vector<unsigned char> bytes_;
  std::string name_;
};

/// A read-only view of one vertex of a graph, for a PerfEstimateFunc.
class VertexIntrospector {
public:
  VertexIntrospector(const void *graph, unsigned vertex) : graph_(graph), vertex_(vertex) {}
  /// Field `name`; throws poplar::unknown_field when the vertex has no such field.
  FieldData getFieldInfo(const std::string &name) const;
  ComputeSet getComputeSet() const;
  std::string getClassName() const;

private:
  const void *graph_;
  unsigned vertex_;
};

} // namespace poplar

#endif
