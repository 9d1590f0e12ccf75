// Graph construction in the system trace (trace.hpp): one interval open at a time in the process.
#include "trace.hpp"

#include <atomic>

namespace poplar::detail {

namespace {
constexpr const char *kGraphConstruction = "Graph construction";
std::atomic<bool> constructing{false};
} // namespace

void graphConstructionBegins() {
  if (pvti::checkTraceChannel(&pvti::tracePoplar) && !constructing.exchange(true))
    pvti::Tracepoint::begin(&pvti::tracePoplar, kGraphConstruction);
}

void graphConstructionEnds() {
  if (constructing.exchange(false))
    pvti::Tracepoint::end(&pvti::tracePoplar, kGraphConstruction);
}

} // namespace poplar::detail
