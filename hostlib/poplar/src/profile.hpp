// Internal: what the profile summary (profiling/summary.cpp) and its callers share.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "compiler.hpp"
#include "poplar/detail/Grouped.hpp"
#include "poplar/OptionFlags.hpp"
#include "poplar/ProfileValue.hpp"
#include "poplar/Target.hpp"

namespace poplar::detail {

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

} // namespace poplar::detail
