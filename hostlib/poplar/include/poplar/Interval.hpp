// A half-open range of element indices [begin, end), as tile mappings report them.
#ifndef POPLAR_INTERVAL_HPP
#define POPLAR_INTERVAL_HPP

#include <cstddef>
#include <ostream>

#include "poplar/detail/StandardHeaders.hpp"

namespace poplar {

/// The elements begin() .. end()-1 of a flattened tensor.
class Interval {
public:
  Interval() : begin_(0), end_(0) {}
  /// [begin, end); throws poplar::index_error when end < begin.
  Interval(std::size_t begin, std::size_t end);
  std::size_t begin() const { return begin_; }
  std::size_t end() const { return end_; }
  /// The SDK's other name of begin(): the first index in the interval.
  std::size_t lower() const { return begin_; }
  /// The SDK's other name of end(): one past the last index in the interval.
  std::size_t upper() const { return end_; }
  /// end() - begin().
  std::size_t size() const { return end_ - begin_; }
  bool operator==(const Interval &o) const { return begin_ == o.begin_ && end_ == o.end_; }
  bool operator!=(const Interval &o) const { return !(*this == o); }
  bool operator<(const Interval &o) const { return begin_ < o.begin_ || (begin_ == o.begin_ && end_ < o.end_); }

private:
  std::size_t begin_;
  std::size_t end_;
};

/// Prints "[begin, end)".
std::ostream &operator<<(std::ostream &os, const Interval &i);

} // namespace poplar

#endif // POPLAR_INTERVAL_HPP
