// Internal: the profile summary (target, graph, memory per tile with a histogram, execution).
#pragma once

#include <cstdint>
#include <ostream>

#include "compiler.hpp"
#include "poplar/Target.hpp"

namespace poplar::detail {

/// Prints the summary in the seed's layout. `cycles` is the last run's (when `ran`).
void printSummary(std::ostream &out, const Target &target, const CompiledGraph &cg, bool ran, std::uint64_t cycles,
                  bool showSteps);

} // namespace poplar::detail
