// Internal: the steps of a lowered program as lines (what the profile and the liveness report are indexed by).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir.hpp"

namespace poplar::detail::ir {

/// One line of a program's step list: a step, or a marker inside a construct ("Else", "Case 3", "Default").
struct StepLine {
  std::string what;
  std::uint64_t bytes = 0; ///< bytes exchanged or streamed
  unsigned depth = 0;      ///< nesting inside control flow
  const Step *step = nullptr; ///< null for markers
};

/// The lines of `body` in program order (cycle stamps are not listed: they are the profiler's, not the user's).
std::vector<StepLine> listSteps(const Body &body);

} // namespace poplar::detail::ir
