// popvis: reads the system trace and draws the host timeline (host_timeline.hpp).
#include "host_timeline.hpp"
#include "html_escape.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include <nlohmann/json.hpp>

namespace popvis {

namespace {

constexpr double kLeft = 170, kWidth = 900, kRow = 16;

using popvis::escape;

std::string ms(std::int64_t ns) {
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(3);
  os << double(ns) / 1e6;
  return os.str();
}

std::string colourFor(const std::string &channel) {
  if (channel == "Poplar")
    return "#4e79a7";
  if (channel == "Drivers")
    return "#f28e2b";
  return "#59a14f"; // the user's channels
}

} // namespace

std::string stepColour(const std::string &type) {
  if (type == "OnTileExecute")
    return "#4e79a7";
  if (type == "DoExchange")
    return "#f28e2b";
  if (type == "StreamCopy")
    return "#59a14f";
  return "#b07aa1";
}

HostTrace readHostTrace(const std::string &path) {
  std::ifstream f(path);
  if (!f)
    throw std::runtime_error("cannot read the trace file '" + path + "'");
  HostTrace t;
  std::map<std::tuple<std::string, std::string, std::int64_t>, std::vector<std::int64_t>> open;
  std::string line;
  for (unsigned n = 1; std::getline(f, line); ++n) {
    nlohmann::json r = nlohmann::json::parse(line, nullptr, false);
    if (!r.is_object())
      throw std::runtime_error(path + ":" + std::to_string(n) + ": not a JSON object");
    if (n == 1) {
      if (r.value("format", "") != "ipu-emu-pvti")
        throw std::runtime_error(path + ": not a system trace (its first line is not the ipu-emu-pvti header)");
      continue;
    }
    const std::string type = r.value("type", "");
    if (type != "begin" && type != "end" && type != "event")
      continue; // samples, the close record, records of later versions
    const std::string channel = r.value("channel", ""), name = r.value("name", "");
    const std::int64_t ts = r.value("ts", std::int64_t(0)), tid = r.value("tid", std::int64_t(0));
    auto &stack = open[{channel, name, tid}];
    if (type == "begin")
      stack.push_back(ts);
    else if (type == "end" && !stack.empty()) {
      t.spans.push_back(HostSpan{channel, name, tid, stack.back(), ts, 0});
      stack.pop_back();
    } else if (type == "event")
      t.instants.emplace_back(ts, channel + ": " + name);
  }
  // Outer intervals first at equal begins, so that nesting depths come out right.
  std::sort(t.spans.begin(), t.spans.end(), [](const HostSpan &a, const HostSpan &b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end > b.end;
  });
  std::map<std::pair<std::string, std::int64_t>, std::vector<std::int64_t>> ends; // per channel and thread
  for (auto &s : t.spans) {
    auto &stack = ends[{s.channel, s.tid}];
    while (!stack.empty() && stack.back() < s.end)
      stack.pop_back();
    s.depth = unsigned(stack.size());
    stack.push_back(s.end);
  }
  return t;
}

std::string hostTimelineSection(const HostTrace &trace, const std::vector<pva::Report::Step> &steps,
                                std::uint64_t totalCycles) {
  std::ostringstream os;
  if (trace.spans.empty())
    return "<h2>Host timeline</h2>\n<p>The trace holds no intervals.</p>\n";
  std::int64_t t0 = trace.spans.front().begin, t1 = t0;
  for (const auto &s : trace.spans)
    t1 = std::max(t1, s.end);
  for (const auto &e : trace.instants) {
    t0 = std::min(t0, e.first);
    t1 = std::max(t1, e.first);
  }
  const double scale = kWidth / double(std::max<std::int64_t>(t1 - t0, 1));
  auto x = [&](std::int64_t t) { return kLeft + double(t - t0) * scale; };

  // Rows: instant events, then per channel and thread one row per nesting depth, then the IPU.
  std::map<std::pair<std::string, std::int64_t>, unsigned> depths;
  for (const auto &s : trace.spans)
    depths[{s.channel, s.tid}] = std::max(depths[{s.channel, s.tid}], s.depth + 1);
  std::map<std::pair<std::string, std::int64_t>, double> laneY;
  double y = kRow + 6;
  for (const auto &[lane, n] : depths) {
    laneY[lane] = y;
    y += kRow * n + 6;
  }
  const HostSpan *deviceRun = nullptr;
  for (const auto &s : trace.spans)
    if (s.name == "device run")
      deviceRun = &s;
  const double ipuY = y;
  if (deviceRun && !steps.empty())
    y += kRow + 6;

  os << "<h2>Host timeline (system trace)</h2>\n<p>" << trace.spans.size() << " intervals and "
     << trace.instants.size() << " instant events over " << ms(t1 - t0)
     << " ms; the IPU row stretches the run's steps over the host's <i>device run</i> interval, each step keeping "
        "its share of the run's cycles.</p>\n"
     << "<svg class=\"chart\" id=\"host-timeline\" width=\"" << kLeft + kWidth + 20 << "\" height=\"" << y + 24
     << "\" xmlns=\"http://www.w3.org/2000/svg\">\n<text x=\"0\" y=\"" << kRow - 4
     << "\" font-size=\"11\">instant events</text>\n";
  for (const auto &[ts, label] : trace.instants)
    os << "<path class=\"host-instant\" data-name=\"" << escape(label) << "\" d=\"M" << x(ts) << " 2 l4 " << kRow - 6
       << " l-8 0 z\" fill=\"#e15759\"><title>" << escape(label) << " at " << ms(ts - t0) << " ms</title></path>\n";
  for (const auto &[lane, ly] : laneY)
    os << "<text x=\"0\" y=\"" << ly + kRow - 4 << "\" font-size=\"11\">" << escape(lane.first) << " (thread "
       << lane.second << ")</text>\n";
  for (const auto &s : trace.spans) {
    const double top = laneY[{s.channel, s.tid}] + kRow * s.depth;
    os << "<rect class=\"host-event\" data-name=\"" << escape(s.name) << "\" data-channel=\"" << escape(s.channel)
       << "\" data-begin-ns=\"" << s.begin - t0 << "\" data-duration-ns=\"" << s.end - s.begin << "\" x=\""
       << x(s.begin) << "\" y=\"" << top << "\" width=\"" << std::max(double(s.end - s.begin) * scale, 1.0)
       << "\" height=\"" << kRow - 2 << "\" fill=\"" << colourFor(s.channel) << "\" stroke=\"#fff\" stroke-width=\"0.5\">"
       << "<title>" << escape(s.channel + ": " + s.name) << ", " << ms(s.end - s.begin) << " ms from "
       << ms(s.begin - t0) << " ms</title></rect>\n";
  }
  if (deviceRun && !steps.empty()) {
    os << "<text x=\"0\" y=\"" << ipuY + kRow - 4 << "\" font-size=\"11\">IPU steps</text>\n";
    const double span = double(deviceRun->end - deviceRun->begin) / double(std::max<std::uint64_t>(totalCycles, 1));
    for (const auto &st : steps) {
      const std::int64_t b = deviceRun->begin + std::int64_t(double(st.cyclesFrom) * span);
      os << "<rect class=\"ipu-step\" data-name=\"" << escape(st.type + " " + st.name) << "\" x=\"" << x(b)
         << "\" y=\"" << ipuY << "\" width=\"" << std::max(double(st.cycles) * span * scale, 1.0) << "\" height=\""
         << kRow - 2 << "\" fill=\"" << stepColour(st.type) << "\"><title>" << escape(st.type + " " + st.name) << ": "
         << st.cycles << " cycles</title></rect>\n";
    }
  }
  os << "<text x=\"" << kLeft << "\" y=\"" << y + 16 << "\" font-size=\"11\">0 ms</text><text x=\""
     << kLeft + kWidth - 80 << "\" y=\"" << y + 16 << "\" font-size=\"11\">" << ms(t1 - t0) << " ms</text></svg>\n";

  os << "<table id=\"host-events\"><tr><th>From (ms)</th><th>Duration (ms)</th><th class=\"l\">Channel</th>"
        "<th class=\"l\">Interval</th></tr>\n";
  for (const auto &s : trace.spans)
    os << "<tr><td>" << ms(s.begin - t0) << "</td><td>" << ms(s.end - s.begin) << "</td><td class=\"l\">"
       << escape(s.channel) << "</td><td class=\"l\">" << std::string(2 * s.depth, '.') << escape(s.name)
       << "</td></tr>\n";
  os << "</table>\n";
  return os.str();
}

} // namespace popvis
