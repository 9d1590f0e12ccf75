// Internal: how popops spreads work: over the tiles by where the output lives, and on each tile over its workers.
#pragma once

#include <cstddef>
#include <vector>

#include <poplar/Interval.hpp>

namespace popops::detail {

/// Splits the intervals of one tile into at most `workers` groups of about equal element counts (an interval may
/// be cut); each group is one vertex's runs. Empty input gives no group.
std::vector<std::vector<poplar::Interval> > splitForWorkers(const std::vector<poplar::Interval> &intervals,
                                                            unsigned workers);

} // namespace popops::detail
