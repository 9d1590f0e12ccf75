// Internal: a count of the steps the tensor-view walks take (Tensor's run gathering, Graph::getTileMapping,
// Graph::getSortedContiguousRegions). Tests read it to check that a walk over a view costs in proportion to the
// view's runs and the mapping's runs it touches, not to the elements or to the whole mapping per run; wall time
// would make such a test flaky.
#pragma once

#include <cstdint>

namespace poplar::detail {

/// Adds `steps` to the count (relaxed: concurrent graphs only make the total approximate).
void countViewSteps(std::uint64_t steps);
/// The steps counted since the process started.
std::uint64_t viewSteps();

} // namespace poplar::detail
