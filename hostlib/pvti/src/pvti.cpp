// libpvti's public API over the session: channels, tracepoints, graphs and series (pvti/pvti.hpp).
#include <mutex>

#include "session.hpp"

namespace pvti {

namespace {
using detail::Session;

/// Every channel declared in the process (listTraceChannel); a function's static, so that channels declared in
/// other libraries' static initialisers find it whatever the order.
struct Channels {
  std::mutex mutex;
  std::vector<TraceChannel *> list;
};
Channels &channels() {
  static Channels *c = new Channels(); // never destroyed: channels may outlive every other static
  return *c;
}

void record(const char *type, TraceChannel *channel, const char *label) {
  Session &s = Session::get();
  if (s.wants(channel))
    s.record(type, channel, label ? label : "");
}
void record(const char *type, TraceChannel *channel, const std::string &label) {
  Session &s = Session::get();
  if (s.wants(channel))
    s.record(type, channel, label);
}
} // namespace

TraceChannel traceDrivers("Drivers");
TraceChannel tracePoplar("Poplar");
TraceChannel traceFramework("Framework");

TraceChannel::TraceChannel(const char *n, bool e) : name(n), enabled(e) {
  Channels &c = channels();
  std::lock_guard<std::mutex> lock(c.mutex);
  c.list.push_back(this);
}

void enableTraceChannel(TraceChannel *channel) { channel->enabled = true; }
void disableTraceChannel(TraceChannel *channel) { channel->enabled = false; }
bool checkTraceChannel(TraceChannel *channel) { return Session::get().wants(channel); }

std::vector<TraceChannel *> listTraceChannel() {
  Channels &c = channels();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.list;
}

std::string getCurrentTraceFilename() { return Session::get().filename(); }
void closeTrace() { Session::get().close(); }

Client::Client() { Session::get(); }
Client::~Client() = default;

Tracepoint::Tracepoint(TraceChannel *channel, const std::string &traceLabel)
    : channel_(channel), label_(), begun_(checkTraceChannel(channel)) {
  if (begun_) {
    label_ = traceLabel; // copied only when it will be written
    Session::get().record("begin", channel_, label_);
  }
}
Tracepoint::Tracepoint(TraceChannel *channel, const char *traceLabel)
    : channel_(channel), label_(), begun_(checkTraceChannel(channel)) {
  if (begun_) {
    label_ = traceLabel ? traceLabel : "";
    Session::get().record("begin", channel_, label_);
  }
}
Tracepoint::~Tracepoint() {
  // The end follows a recorded begin even if the channel was turned off since, so every interval is closed.
  Session &s = Session::get();
  if (begun_ && s.on())
    s.record("end", channel_, label_);
}

void Tracepoint::begin(TraceChannel *channel, const std::string &l) { record("begin", channel, l); }
void Tracepoint::begin(TraceChannel *channel, const char *l) { record("begin", channel, l); }
void Tracepoint::end(TraceChannel *channel, const std::string &l) { record("end", channel, l); }
void Tracepoint::end(TraceChannel *channel, const char *l) { record("end", channel, l); }
void Tracepoint::event(TraceChannel *channel, const std::string &l) { record("event", channel, l); }
void Tracepoint::event(TraceChannel *channel, const char *l) { record("event", channel, l); }

Graph::Graph(const std::string &name, const std::string &unit, bool enable)
    : name_(name), unit_(unit), enabled_(enable) {}

Series Graph::addSeries(const std::string &name) { return Series(name_, unit_, name, enabled_); }

Series::Series(const std::string &graph, const std::string &unit, const std::string &name, bool enabled)
    : graph_(graph), unit_(unit), name_(name), enabled_(enabled) {}

void Series::add(double value) {
  Session &s = Session::get();
  if (enabled_ && s.on())
    s.sample(graph_, unit_, name_, value);
}

} // namespace pvti
