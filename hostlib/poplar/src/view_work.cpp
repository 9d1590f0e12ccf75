// The step count of view_work.hpp: one process-wide relaxed counter.
#include "view_work.hpp"

#include <atomic>

namespace poplar::detail {

namespace {
std::atomic<std::uint64_t> gSteps{0};
}

void countViewSteps(std::uint64_t steps) { gSteps.fetch_add(steps, std::memory_order_relaxed); }

std::uint64_t viewSteps() { return gSteps.load(std::memory_order_relaxed); }

} // namespace poplar::detail
