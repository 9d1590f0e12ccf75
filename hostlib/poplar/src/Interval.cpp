// Half-open element ranges.
#include "poplar/Interval.hpp"

#include "poplar/exceptions.hpp"

namespace poplar {

void detail::intervalEndBeforeBegin(const std::string &begin, const std::string &end) {
  throw index_error("Interval: end " + end + " is before begin " + begin);
}

Interval::Interval(std::size_t begin, std::size_t end) : GenericInterval<std::size_t>(begin, end) {}

std::ostream &operator<<(std::ostream &os, const Interval &i) {
  return os << "[" << i.begin() << ", " << i.end() << ")";
}

} // namespace poplar
