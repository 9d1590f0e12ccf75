// Readable summaries of the graph and execution profiles (ProfileValue), as Poplar prints them.
#ifndef POPLAR_PROFILESUMMARY_HPP
#define POPLAR_PROFILESUMMARY_HPP

#include <ostream>

#include "poplar/OptionFlags.hpp"
#include "poplar/ProfileValue.hpp"

namespace poplar {

/// Prints the graph summary, then (when `executionProfile` is not an empty map) the execution summary.
/// Engine::printProfileSummary(out, options) prints this for the engine's getGraphProfile() and
/// getExecutionProfile().
/// Options (each "true" or "false"; an unknown one is invalid_option): "showExecutionSteps" (every simulated step),
/// "showVarStorage" (bytes live at each program step), "showOptimizations" (optimizationInfo),
/// "showPerIpuMemoryUsage" (memory per IPU), "colours" (ANSI colours; CLICOLOR=0 turns them off and
/// CLICOLOR_FORCE=1 on, whatever the option says; by default they are on when writing to a terminal's std::cout).
void printProfileSummary(std::ostream &out, const ProfileValue &graphProfile,
                         const ProfileValue &executionProfile = ProfileValue(),
                         const OptionFlags &options = OptionFlags());
/// The target, graph and memory parts of the summary.
void printGraphSummary(std::ostream &out, const ProfileValue &graphProfile,
                       const OptionFlags &options = OptionFlags());
/// The execution part of the summary (cycles, tile cycles by activity, steps).
void printExecutionSummary(std::ostream &out, const ProfileValue &graphProfile, const ProfileValue &executionProfile,
                           const OptionFlags &options = OptionFlags());

} // namespace poplar

#endif // POPLAR_PROFILESUMMARY_HPP
