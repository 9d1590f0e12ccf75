// libpvti: the host-side trace library of Graphcore's SDK (the "PopVision trace instrumentation library"), with the
// same public names: trace channels, tracepoints (begin / end / instant events, and scoped tracepoints: a
// Tracepoint object spans its own lifetime), graphs of metric series, and the PVTI_OPTIONS environment variable
// that turns tracing on and chooses the directory. libpoplar records its own events through it (graph
// construction, compile passes, engine load, each Engine::run, stream copies and callbacks, host syncs, device
// waits), so a program that adds its own tracepoints gets one timeline of both.
//
// Tracing is off unless PVTI_OPTIONS is set, e.g. PVTI_OPTIONS='{"enable":"true","directory":"traces"}'; then
// the first use of the library opens one trace file in that directory. The file is JSON lines (not the SDK's
// database format): docs/system-trace.md describes every record. When tracing is off each call returns at once.
// Compiles as C++11, as users build.
#ifndef PVTI_PVTI_HPP
#define PVTI_PVTI_HPP

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace pvti {

/// A category of events: each event names its channel; a channel can be turned off at run time (its events are
/// then not recorded) or left out of a session by PVTI_OPTIONS' "channels" list. Declare one with a name that
/// lives as long as the channel (a string literal): `pvti::TraceChannel channel = {"MyApp"};`.
struct TraceChannel {
  /// A channel named `name`, on when `enabled`; it joins the session's list (listTraceChannel).
  TraceChannel(const char *name, bool enabled = true);
  const char *name; ///< the name every event of the channel carries
  bool enabled;     ///< false: its events are dropped (enableTraceChannel / disableTraceChannel)
};

/// The predefined channels: the host runtime's events (host syncs, stream copies, device waits) go to Drivers,
/// libpoplar's (graph construction, compile, load, run) to Poplar; Framework is for the caller's framework.
extern TraceChannel traceDrivers;
extern TraceChannel tracePoplar;
extern TraceChannel traceFramework;

/// Turns `channel` on for this session.
void enableTraceChannel(TraceChannel *channel);
/// Turns `channel` off for this session: its events are no longer recorded.
void disableTraceChannel(TraceChannel *channel);
/// True when an event on `channel` would be recorded now: tracing is on, the channel is on and PVTI_OPTIONS'
/// "channels" list (if any) names it. Lets a caller skip building an event's label when nothing would record it.
bool checkTraceChannel(TraceChannel *channel);
/// Every channel declared so far in the process.
std::vector<TraceChannel *> listTraceChannel();
/// The path of this session's trace file; empty when tracing is off.
std::string getCurrentTraceFilename();
/// Ends the session: writes the file's closing record and closes it. Events after it are dropped. Done at exit
/// when the program does not call it.
void closeTrace();

/// Keeps the trace session alive as long as the object lives: a singleton that records events from its own
/// destructor should hold one, so that the session is created before it and closed after it.
class Client {
public:
  Client();
  ~Client();
};

/// Events. The static functions record one event now; an object records a begin at construction and the matching
/// end when it goes out of scope (a scoped tracepoint). begin and end pair by channel, label and thread.
class Tracepoint {
public:
  /// A scoped tracepoint: begin now, end when destroyed.
  Tracepoint(TraceChannel *channel, const std::string &traceLabel);
  Tracepoint(TraceChannel *channel, const char *traceLabel);
  ~Tracepoint();

  /// Records the beginning of the interval `traceLabel` on `channel`.
  static void begin(TraceChannel *channel, const std::string &traceLabel);
  static void begin(TraceChannel *channel, const char *traceLabel);
  /// Records the end of the interval `traceLabel` on `channel` (the latest unmatched begin of that label).
  static void end(TraceChannel *channel, const std::string &traceLabel);
  static void end(TraceChannel *channel, const char *traceLabel);
  /// Records an instant event (no duration).
  static void event(TraceChannel *channel, const std::string &traceLabel);
  static void event(TraceChannel *channel, const char *traceLabel);

  Tracepoint(const Tracepoint &) = delete; // one object, one interval
  Tracepoint &operator=(const Tracepoint &) = delete;

private:
  TraceChannel *channel_;
  std::string label_;
  bool begun_; ///< whether the begin was recorded (tracing on), so that the end is recorded only then
};

/// One line of a Graph: values over time, each recorded with the time it was added.
class Series {
public:
  /// Records `value` now.
  void add(double value);
  /// The series' name.
  const std::string &name() const { return name_; }

private:
  friend class Graph;
  Series(const std::string &graph, const std::string &unit, const std::string &name, bool enabled);
  std::string graph_, unit_, name_;
  bool enabled_;
};

/// A metric graph: a named quantity in a unit, with one or more series (a line each), e.g.
/// `pvti::Graph g("Throughput", "items/s"); pvti::Series s = g.addSeries("worker 0"); s.add(1234.0);`.
class Graph {
public:
  /// A graph named `name` in `unit`; a graph made with `enable` false records nothing.
  Graph(const std::string &name, const std::string &unit = "", bool enable = true);
  /// A new series of this graph.
  Series addSeries(const std::string &name);

private:
  std::string name_, unit_;
  bool enabled_;
};

} // namespace pvti

#endif // PVTI_PVTI_HPP
