// Internal: libpoplar's own events in the system trace (libpvti, docs/system-trace.md): graph construction, the
// compile phases, engine construction and load, each run, tensor reads and writes. With tracing off each helper
// costs one check and builds no label.
#ifndef POPLAR_TRACE_HPP
#define POPLAR_TRACE_HPP

#include <optional>
#include <string>

#include "pvti/pvti.hpp"

namespace poplar::detail {

/// A scoped tracepoint on the Poplar channel whose label is built (by `label()`) only when tracing is on.
class TraceScope {
public:
  template <typename LabelFn> explicit TraceScope(LabelFn label) {
    if (pvti::checkTraceChannel(&pvti::tracePoplar))
      point_.emplace(&pvti::tracePoplar, label());
  }

private:
  std::optional<pvti::Tracepoint> point_;
};

/// Consecutive phases of one task (the compiler's passes): next() ends the phase under way and begins the next;
/// the last one ends with the object, also when a phase throws.
class TracePhases {
public:
  TracePhases() : on_(pvti::checkTraceChannel(&pvti::tracePoplar)) {}
  TracePhases(const TracePhases &) = delete;
  TracePhases &operator=(const TracePhases &) = delete;
  ~TracePhases() { next(nullptr); }
  void next(const char *phase) {
    if (!on_)
      return;
    if (current_)
      pvti::Tracepoint::end(&pvti::tracePoplar, current_);
    current_ = phase;
    if (current_)
      pvti::Tracepoint::begin(&pvti::tracePoplar, current_);
  }

private:
  bool on_;
  const char *current_ = nullptr;
};

/// Graph construction spans from a Graph made for a target to the next compile: the first marks its beginning
/// (unless one is open), the compile its end.
void graphConstructionBegins();
void graphConstructionEnds();

} // namespace poplar::detail

#endif // POPLAR_TRACE_HPP
