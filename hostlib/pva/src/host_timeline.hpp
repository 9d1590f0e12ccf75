// popvis: the system trace's host events (libpvti's file, docs/system-trace.md) as a timeline section of the page,
// with the IPU's steps laid inside the host's "device run" interval.
#ifndef POPVIS_HOST_TIMELINE_HPP
#define POPVIS_HOST_TIMELINE_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "pva/pva.hpp"

namespace popvis {

/// One interval of the trace: a begin paired with its end.
struct HostSpan {
  std::string channel, name;
  std::int64_t tid, begin, end; ///< ns since the session started
  unsigned depth;               ///< nesting under other intervals of the same thread
};

/// What a trace file holds that the page shows.
struct HostTrace {
  std::vector<HostSpan> spans;                               ///< by begin time
  std::vector<std::pair<std::int64_t, std::string>> instants; ///< instant events: time, "channel: name"
};

/// Reads a trace file; throws std::runtime_error naming the line of a malformed record, or when the file does not
/// start with the format's header.
HostTrace readHostTrace(const std::string &path);

/// The colour of a program step's type (OnTileExecute, DoExchange, StreamCopy, others), the same in every chart.
std::string stepColour(const std::string &type);

/// The page's section: an SVG timeline of the host intervals (a row per channel, thread and nesting depth, instant
/// events as marks), the IPU steps of `steps` stretched over the last "device run" interval (the emulator's
/// wall time is not the IPU's: the steps keep their shares of the run's cycles), and a table of the intervals.
std::string hostTimelineSection(const HostTrace &trace, const std::vector<pva::Report::Step> &steps,
                                std::uint64_t totalCycles);

} // namespace popvis

#endif // POPVIS_HOST_TIMELINE_HPP
