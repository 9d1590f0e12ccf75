// A half-open range of element indices [begin, end), as tile mappings report them: GenericInterval<T> for any
// arithmetic index type, and Interval, the std::size_t one every Poplar call takes.
#ifndef POPLAR_INTERVAL_HPP
#define POPLAR_INTERVAL_HPP

#include <cstddef>
#include <ostream>
#include <string>

#include "poplar/detail/StandardHeaders.hpp"

namespace poplar {

namespace detail {
/// Throws poplar::index_error for an interval whose end is before its begin (out of line: exceptions.hpp is not
/// needed here).
void intervalEndBeforeBegin(const std::string &begin, const std::string &end);
} // namespace detail

/// The indices begin() .. end()-1, of type T.
template <class T> class GenericInterval {
public:
  GenericInterval() : begin_(), end_() {}
  /// [begin, end); throws poplar::index_error when end < begin.
  GenericInterval(T begin, T end) : begin_(begin), end_(end) {
    if (end < begin)
      detail::intervalEndBeforeBegin(std::to_string(begin), std::to_string(end));
  }
  const T &begin() const { return begin_; }
  const T &end() const { return end_; }
  /// The SDK's other name of begin(): the first index in the interval.
  const T &lower() const { return begin_; }
  /// The SDK's other name of end(): one past the last index in the interval.
  const T &upper() const { return end_; }
  /// end() - begin().
  T size() const { return end_ - begin_; }
  bool operator==(const GenericInterval &o) const { return begin_ == o.begin_ && end_ == o.end_; }
  bool operator!=(const GenericInterval &o) const { return !(*this == o); }
  /// Ordered by begin, then by end.
  bool operator<(const GenericInterval &o) const {
    return begin_ < o.begin_ || (begin_ == o.begin_ && end_ < o.end_);
  }
  bool operator>(const GenericInterval &o) const { return o < *this; }
  bool operator<=(const GenericInterval &o) const { return !(o < *this); }
  bool operator>=(const GenericInterval &o) const { return !(*this < o); }

protected:
  T begin_;
  T end_;
};

/// Prints "[begin, end)".
template <class T> std::ostream &operator<<(std::ostream &os, const GenericInterval<T> &i) {
  return os << "[" << i.begin() << ", " << i.end() << ")";
}

/// The elements begin() .. end()-1 of a flattened tensor: the SDK's GenericInterval<std::size_t>, under its own name
/// here (it converts both ways), so the library's binary interface keeps the name Interval.
class Interval : public GenericInterval<std::size_t> {
public:
  Interval() {}
  /// [begin, end); throws poplar::index_error when end < begin.
  Interval(std::size_t begin, std::size_t end);
  Interval(const GenericInterval<std::size_t> &i) : GenericInterval<std::size_t>(i) {}
  std::size_t begin() const { return begin_; }
  std::size_t end() const { return end_; }
  std::size_t lower() const { return begin_; }
  std::size_t upper() const { return end_; }
  std::size_t size() const { return end_ - begin_; }
  bool operator==(const Interval &o) const { return begin_ == o.begin_ && end_ == o.end_; }
  bool operator!=(const Interval &o) const { return !(*this == o); }
  bool operator<(const Interval &o) const { return begin_ < o.begin_ || (begin_ == o.begin_ && end_ < o.end_); }
  bool operator>(const Interval &o) const { return o < *this; }
  bool operator<=(const Interval &o) const { return !(o < *this); }
  bool operator>=(const Interval &o) const { return !(*this < o); }
};

/// Prints "[begin, end)".
std::ostream &operator<<(std::ostream &os, const Interval &i);

} // namespace poplar

#endif // POPLAR_INTERVAL_HPP
