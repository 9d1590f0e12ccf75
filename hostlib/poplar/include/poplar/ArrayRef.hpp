// ArrayRef: a read-only view of a contiguous array (a vector, an initializer list, a std::array or a pointer and a
// size) that the Poplar API takes where it only reads a list, so callers never build a vector to pass one.
#ifndef POPLAR_ARRAY_REF_HPP
#define POPLAR_ARRAY_REF_HPP

#include <array>
#include <cstddef>
#include <initializer_list>
#include <vector>

#include "poplar/detail/StandardHeaders.hpp"

namespace poplar {

/// A non-owning view of `size()` elements of type T. The elements must outlive the ArrayRef: keep one only for
/// the duration of the call it is passed to (a braced list lives until the end of the full expression).
template <typename T> class ArrayRef {
public:
  typedef T value_type;
  typedef const T *iterator;
  typedef const T *const_iterator;
  typedef std::size_t size_type;

  /// An empty list.
  ArrayRef() : data_(0), size_(0) {}
  /// `size` elements starting at `data`.
  ArrayRef(const T *data, std::size_t size) : data_(data), size_(size) {}
  /// The elements of `v`.
  ArrayRef(const std::vector<T> &v) : data_(v.empty() ? 0 : &v[0]), size_(v.size()) {}
  /// The elements of `a`.
  template <std::size_t N> ArrayRef(const std::array<T, N> &a) : data_(N ? &a[0] : 0), size_(N) {}
  /// The elements of a C array.
  template <std::size_t N> ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}
  /// The elements of a braced list, e.g. t.reshape({2, 3}).
  ArrayRef(const std::initializer_list<T> &l) : data_(0), size_(l.size()) {
    // Assigned here, not in the initializer list: the list outlives the call, which is all ArrayRef needs.
    if (size_)
      data_ = l.begin();
  }

  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// Element i (unchecked, as for std::vector).
  const T &operator[](std::size_t i) const { return data_[i]; }
  const T &front() const { return data_[0]; }
  const T &back() const { return data_[size_ - 1]; }
  /// A copy of the elements.
  std::vector<T> cloneAsVector() const { return std::vector<T>(begin(), end()); }
  /// The same as cloneAsVector(), so an ArrayRef converts where a vector is needed.
  operator std::vector<T>() const { return cloneAsVector(); }

private:
  const T *data_;
  std::size_t size_;
};

/// True when both lists have the same elements in the same order.
template <typename T> bool operator==(const ArrayRef<T> &a, const ArrayRef<T> &b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i]))
      return false;
  return true;
}
template <typename T> bool operator!=(const ArrayRef<T> &a, const ArrayRef<T> &b) { return !(a == b); }

} // namespace poplar

#endif // POPLAR_ARRAY_REF_HPP
