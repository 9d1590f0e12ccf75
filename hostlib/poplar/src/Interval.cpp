// Half-open element ranges.
#include "poplar/Interval.hpp"

#include "poplar/exceptions.hpp"

namespace poplar {

Interval::Interval(std::size_t begin, std::size_t end) : begin_(begin), end_(end) {
  if (end < begin)
    throw index_error("Interval: end " + std::to_string(end) + " is before begin " + std::to_string(begin));
}

std::ostream &operator<<(std::ostream &os, const Interval &i) {
  return os << "[" << i.begin() << ", " << i.end() << ")";
}

} // namespace poplar
