// Internal: the profile summary (target, graph, memory per tile with a histogram, execution).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compiler.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/ProfileValue.hpp"
#include "poplar/Target.hpp"

namespace poplar::detail {

/// 1234567 -> "1,234,567": how every profile summary prints a count (profile.cpp, profiling/summary.cpp).
std::string grouped(std::uint64_t v);

/// printProfileSummary's options as Graphcore's SDK names them; every value is "true" or "false".
struct SummaryOptions {
  bool showExecutionSteps = false;
  bool showVarStorage = false;
  bool showOptimizations = false;
  bool showPerIpuMemoryUsage = false;
  bool colours = false;
};
/// Reads printProfileSummary's options; throws poplar::invalid_option naming an unknown option (and the known
/// ones) or a value that is not true/false.
SummaryOptions parseSummaryOptions(const OptionFlags &opts);

/// Prints the summary in the seed's layout. `cycles` is the last run's (when `ran`).
/// `stepCycles` are the cycles of each top-level step of program `program` (empty when not instrumented). When
/// `estimated`, cycles and stepCycles are the IPU Model time model's and `measuredCycles` the card's own count.
void printSummary(std::ostream &out, const Target &target, const CompiledGraph &cg, bool ran, std::uint64_t cycles,
                  unsigned program, const std::vector<std::uint64_t> &stepCycles, bool showSteps,
                  bool estimated = false, std::uint64_t measuredCycles = 0);

/// The sections printProfileSummary's options showPerIpuMemoryUsage, showOptimizations and showVarStorage add,
/// from the graph profile (profiling/summary.cpp); nothing when none is set.
void printOptionalSections(std::ostream &out, const ProfileValue &graphProfile, const OptionFlags &options);

} // namespace poplar::detail
