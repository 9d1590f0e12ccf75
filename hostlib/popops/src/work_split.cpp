// Internal: see work_split.hpp.
#include "work_split.hpp"

#include <algorithm>

namespace popops::detail {

std::vector<std::vector<poplar::Interval> > splitForWorkers(const std::vector<poplar::Interval> &intervals,
                                                            unsigned workers) {
  std::size_t total = 0;
  for (const auto &i : intervals)
    total += i.size();
  std::vector<std::vector<poplar::Interval> > groups;
  if (total == 0)
    return groups;
  workers = std::max(1u, workers);
  const std::size_t perGroup = (total + workers - 1) / workers;
  std::size_t room = 0;
  for (const auto &iv : intervals) {
    std::size_t b = iv.begin();
    while (b < iv.end()) {
      if (room == 0) {
        groups.emplace_back();
        room = perGroup;
      }
      std::size_t e = std::min<std::size_t>(iv.end(), b + room);
      groups.back().push_back(poplar::Interval(b, e));
      room -= e - b;
      b = e;
    }
  }
  return groups;
}

} // namespace popops::detail
