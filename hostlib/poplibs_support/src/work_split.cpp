// poplibs_support::splitForWorkers: see poplibs_support.hpp.
#include <algorithm>

#include "poplibs_support.hpp"

namespace poplibs_support {

std::vector<std::vector<poplar::Interval> > splitForWorkers(const std::vector<poplar::Interval> &intervals,
                                                            unsigned workers) {
  std::size_t total = 0;
  for (const auto &iv : intervals)
    total += iv.size();
  std::vector<std::vector<poplar::Interval> > groups;
  if (total == 0)
    return groups;
  workers = std::max(1u, workers);
  const std::size_t perGroup = (total + workers - 1) / workers;
  std::size_t room = 0; // elements the last group can still take
  for (const auto &iv : intervals)
    for (std::size_t b = iv.begin(); b < iv.end();) {
      if (room == 0) {
        groups.emplace_back();
        room = perGroup;
      }
      const std::size_t e = std::min<std::size_t>(iv.end(), b + room);
      groups.back().push_back(poplar::Interval(b, e));
      room -= e - b;
      b = e;
    }
  return groups;
}

} // namespace poplibs_support
