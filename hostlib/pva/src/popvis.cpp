// popvis: turns a profile report directory into one self-contained HTML page (inline SVG charts, nothing fetched
// from the network) and prints Poplar's text summary (printGraphSummary, printExecutionSummary).
//   popvis report DIR [--output FILE] [--trace TRACE]   writes FILE (default DIR/report.html); TRACE, a system
//   trace (libpvti, docs/system-trace.md), adds the host timeline
//   popvis compare DIR_A DIR_B [--output FILE]          writes FILE (default DIR_B/compare.html): the two reports'
//   memory and cycles per step side by side
#include <algorithm>
#include <cstring>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "explore.hpp"
#include "host_timeline.hpp"
#include "html_escape.hpp"
#include "poplar/ProfileSummary.hpp"
#include "poplar/detail/Grouped.hpp"
#include "pva/pva.hpp"

namespace {

constexpr double kWidth = 900, kBarHeight = 18;

using popvis::escape;
// The summary's digit grouping (libpoplar), so the page and printProfileSummary print a count alike.
using poplar::detail::grouped;

/// Vertical bars, one per value (memory per tile).
std::string columnChart(const std::string &id, const std::vector<std::uint64_t> &values, std::uint64_t limit) {
  std::ostringstream os;
  double h = 200, maxV = 1;
  for (auto v : values)
    maxV = std::max(maxV, double(v));
  // The tile's memory size is drawn as a line only when use comes near it; otherwise the bars would be slivers.
  if (double(limit) > 2 * maxV)
    limit = 0;
  maxV = std::max(maxV, double(limit));
  double w = values.empty() ? kWidth : kWidth / double(values.size());
  os << "<svg class=\"chart\" id=\"" << id << "\" width=\"" << kWidth + 60 << "\" height=\"" << h + 30
     << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (std::size_t i = 0; i < values.size(); ++i) {
    double bh = double(values[i]) / maxV * h;
    os << "<rect data-tile=\"" << i << "\" style=\"cursor:pointer\" x=\"" << 50 + w * double(i) << "\" y=\"" << h - bh << "\" width=\"" << std::max(w - 1, 0.5)
       << "\" height=\"" << bh << "\" fill=\"#4e79a7\"><title>tile " << i << ": " << grouped(values[i])
       << " B</title></rect>\n";
  }
  if (limit)
    os << "<line x1=\"50\" x2=\"" << 50 + kWidth << "\" y1=\"" << h - double(limit) / maxV * h << "\" y2=\""
       << h - double(limit) / maxV * h << "\" stroke=\"#e15759\" stroke-dasharray=\"4\"/>"
       << "<text x=\"52\" y=\"" << h - double(limit) / maxV * h - 3 << "\" font-size=\"11\">tile memory "
       << grouped(limit) << " B</text>\n";
  os << "<text x=\"0\" y=\"12\" font-size=\"11\">" << grouped(std::uint64_t(maxV)) << "</text>"
     << "<text x=\"50\" y=\"" << h + 20 << "\" font-size=\"11\">tile 0</text><text x=\"" << kWidth
     << "\" y=\"" << h + 20 << "\" font-size=\"11\">tile " << (values.empty() ? 0 : values.size() - 1)
     << "</text></svg>\n";
  return os.str();
}

/// Horizontal bars with labels (memory by category, by vertex type, cycles by vertex type).
std::string barChart(const std::string &id, const std::vector<std::pair<std::string, std::uint64_t>> &rows,
                     const std::string &unit) {
  std::ostringstream os;
  std::uint64_t maxV = 1;
  for (const auto &r : rows)
    maxV = std::max(maxV, r.second);
  os << "<svg class=\"chart\" id=\"" << id << "\" width=\"" << kWidth << "\" height=\""
     << kBarHeight * double(rows.size()) + 10 << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    double y = kBarHeight * double(i), w = double(rows[i].second) / double(maxV) * 500;
    os << "<text x=\"0\" y=\"" << y + 13 << "\" font-size=\"12\">" << escape(rows[i].first) << "</text>"
       << "<rect x=\"220\" y=\"" << y + 2 << "\" width=\"" << std::max(w, 1.0) << "\" height=\"" << kBarHeight - 4
       << "\" fill=\"#59a14f\"/><text x=\"" << 226 + w << "\" y=\"" << y + 13 << "\" font-size=\"12\">"
       << grouped(rows[i].second) << " " << unit << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

std::string timeline(const std::vector<pva::Report::Step> &steps, std::uint64_t total) {
  std::ostringstream os;
  double scale = kWidth / double(std::max<std::uint64_t>(total, 1));
  os << "<svg class=\"chart\" id=\"timeline\" width=\"" << kWidth + 20 << "\" height=\"90\" "
     << "xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (const auto &s : steps) {
    // Bar height shows tile balance: a full-height bar keeps every tile busy.
    double h = 10 + 40 * std::clamp(s.tileBalance, 0.0, 1.0);
    os << "<rect x=\"" << double(s.cyclesFrom) * scale << "\" y=\"" << 60 - h << "\" width=\""
       << std::max(double(s.cycles) * scale, 1.0) << "\" height=\"" << h << "\" fill=\"" << popvis::stepColour(s.type)
       << "\"><title>" << escape(s.type + " " + s.name) << ": " << grouped(s.cycles) << " cycles, "
       << s.activeTiles << " tiles</title></rect>\n";
  }
  os << "<text x=\"0\" y=\"78\" font-size=\"11\">0</text><text x=\"" << kWidth - 80
     << "\" y=\"78\" font-size=\"11\">" << grouped(total) << " cycles</text></svg>\n";
  return os.str();
}

std::string livenessChart(const std::vector<pva::Report::Liveness> &programs) {
  std::ostringstream os;
  std::uint64_t maxV = 1;
  std::size_t maxN = 1;
  for (const auto &p : programs) {
    maxN = std::max(maxN, p.liveBytes.size());
    for (auto b : p.liveBytes)
      maxV = std::max(maxV, b);
  }
  const char *colours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948"};
  double h = 160;
  os << "<svg class=\"chart\" id=\"liveness\" width=\"" << kWidth + 60 << "\" height=\"" << h + 30
     << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
  for (std::size_t p = 0; p < programs.size(); ++p) {
    os << "<polyline fill=\"none\" stroke-width=\"2\" stroke=\"" << colours[p % 6] << "\" points=\"";
    const auto &l = programs[p].liveBytes;
    for (std::size_t i = 0; i < l.size(); ++i)
      os << 50 + kWidth * double(i) / double(std::max<std::size_t>(maxN - 1, 1)) << ","
         << h - double(l[i]) / double(maxV) * h << " ";
    if (l.size() == 1)
      os << 50 + kWidth << "," << h - double(l[0]) / double(maxV) * h;
    os << "\"><title>program " << p << "</title></polyline>\n";
  }
  os << "<text x=\"0\" y=\"12\" font-size=\"11\">" << grouped(maxV) << " B</text><text x=\"50\" y=\"" << h + 20
     << "\" font-size=\"11\">step 0</text></svg>\n";
  return os.str();
}

template <typename Map> std::vector<std::pair<std::string, std::uint64_t>> sortedRows(const Map &m) {
  std::vector<std::pair<std::string, std::uint64_t>> rows(m.begin(), m.end());
  std::sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
  return rows;
}

void writePage(std::ostream &out, const pva::Report &r, const std::string &dir, const popvis::HostTrace *trace) {
  auto tiles = r.tiles();
  std::vector<std::uint64_t> perTile;
  std::uint64_t totalBytes = 0;
  for (const auto &t : tiles) {
    perTile.push_back(t.totalIncludingGaps);
    totalBytes += t.totalIncludingGaps;
  }
  // Estimated active cycles by vertex type (the cycle estimates the graph gave its vertices).
  std::map<std::string, std::uint64_t> cyclesByType;
  const auto &g = r.graphProfile();
  if (g["computeSets"].contains("cycleEstimates")) {
    const auto &names = g["vertexTypes"]["names"];
    for (const auto &row : g["computeSets"]["cycleEstimates"]["activeCyclesByVertexType"].asVector())
      for (std::size_t i = 0; i < row.size() && i < names.size(); ++i)
        cyclesByType[names[i].asString()] += row[i].asUInt();
  }
  out << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Profile: " << escape(dir)
      << "</title>\n<style>body{font-family:sans-serif;margin:20px;color:#222}h2{margin-top:28px}"
         "table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
         "text-align:right}td.l,th.l{text-align:left}.key span{display:inline-block;width:12px;height:12px;"
         "margin:0 4px 0 12px}</style></head><body>\n"
      << "<h1>Profile report</h1>\n<p>" << escape(dir) << ": " << escape(r.targetType()) << ", " << r.numTiles()
      << " tiles, " << grouped(totalBytes) << " bytes placed"
      << (r.hasExecution() ? ", " + grouped(r.totalCycles()) + " cycles run" : std::string(", not run")) << "</p>\n"
      << "<h2>Memory per tile (bytes, code and data, gaps included)</h2>\n"
      << columnChart("memory-per-tile", perTile, g["target"]["bytesPerTile"].asUInt())
      << "<h2>Memory by category (bytes, all tiles)</h2>\n" << barChart("memory-by-category", sortedRows(r.memoryByCategory()), "B")
      << "<h2>Vertex state by vertex type (bytes, all tiles)</h2>\n"
      << barChart("memory-by-vertex-type", sortedRows(r.memoryByVertexType()), "B");
  std::uint64_t estimated = 0;
  for (const auto &kv : cyclesByType)
    estimated += kv.second;
  if (estimated)
    out << "<h2>Estimated active cycles by vertex type</h2>\n"
        << barChart("cycles-by-vertex-type", sortedRows(cyclesByType), "cycles");
  out << "<h2>Live bytes at each program step (all tiles)</h2>\n" << livenessChart(r.liveness());
  if (r.hasExecution()) {
    auto steps = r.steps();
    out << "<h2>Execution timeline (measured cycles; bar height = tile balance)</h2>\n<p class=\"key\">";
    for (const char *t : {"OnTileExecute", "DoExchange", "StreamCopy", "control flow"})
      out << "<span style=\"background:" << popvis::stepColour(t) << "\"></span>" << t;
    out << "</p>\n" << timeline(steps, r.totalCycles())
        << "<h2>Steps</h2>\n<table id=\"steps\"><tr><th>From</th><th>Cycles (estimated)</th><th>Measured</th>"
           "<th>Tiles</th><th>Balance</th>"
           "<th class=\"l\">Type</th><th class=\"l\">Name</th></tr>\n";
    const auto &measured = r.executionProfile()["simulation"]["steps"];
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const auto &s = steps[i];
      out << "<tr><td>" << grouped(s.cyclesFrom) << "</td><td>" << grouped(s.cycles) << "</td><td>"
          << (measured[i].contains("measuredCycles") ? grouped(measured[i]["measuredCycles"].asUInt()) : "")
          << "</td><td>" << s.activeTiles
          << "</td><td>" << std::fixed << std::setprecision(2) << s.tileBalance << "</td><td class=\"l\">"
          << escape(s.type) << "</td><td class=\"l\">" << escape(s.name) << "</td></tr>\n";
    }
    out << "</table>\n";
  }
  out << popvis::exploreSection(popvis::exploreData(r));
  if (trace)
    out << popvis::hostTimelineSection(*trace, r.hasExecution() ? r.steps() : std::vector<pva::Report::Step>{},
                                       r.hasExecution() ? r.totalCycles() : 0);
  out << "</body></html>\n";
}

/// The text summary on stdout is Poplar's own (printGraphSummary / printExecutionSummary over the report's
/// profiles): one summary printer for the SDK's API and this tool.
void printSummary(std::ostream &out, const pva::Report &r) {
  poplar::printGraphSummary(out, r.graphProfile());
  if (r.hasExecution())
    poplar::printExecutionSummary(out, r.graphProfile(), r.executionProfile());
  else
    out << "Execution: none recorded\n\n";
}

int usage() {
  std::cerr << "usage: popvis report DIR [--output FILE] [--trace TRACE]\n"
               "       popvis compare DIR_A DIR_B [--output FILE]\n"
               "  DIR holds profile.json/.cbor (and execution.json/.cbor), as the engine options\n"
               "  autoReport.all=true autoReport.directory=DIR write them; FILE defaults to DIR/report.html\n"
               "  TRACE: a system trace file (PVTI_OPTIONS, docs/system-trace.md) shown as the host timeline\n"
               "  compare: memory and cycles per step of two reports side by side; FILE defaults to\n"
               "  DIR_B/compare.html\n";
  return 2;
}

/// popvis compare DIR_A DIR_B [--output FILE].
int compare(int argc, char **argv) {
  if (argc < 4)
    return usage();
  std::string a = argv[2], b = argv[3], output = b + "/compare.html";
  for (int i = 4; i < argc; ++i) {
    if (std::strcmp(argv[i], "--output") == 0 && i + 1 < argc)
      output = argv[++i];
    else
      return usage();
  }
  try {
    const pva::Report ra = pva::Report::open(a), rb = pva::Report::open(b);
    std::ofstream f(output);
    f << popvis::comparePage(popvis::exploreData(ra), a, popvis::exploreData(rb), b);
    if (!f) {
      std::cerr << "popvis: cannot write '" << output << "'; pass --output FILE in a writable directory\n";
      return 1;
    }
    std::cout << "A: " << grouped(ra.totalCycles()) << " cycles; B: " << grouped(rb.totalCycles()) << " cycles\n"
              << "Comparison: " << output << "\n";
  } catch (const std::exception &e) {
    std::cerr << "popvis: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 2 && std::strcmp(argv[1], "compare") == 0)
    return compare(argc, argv);
  if (argc < 3 || std::strcmp(argv[1], "report") != 0)
    return usage();
  std::string dir = argv[2], output = dir + "/report.html", tracePath;
  for (int i = 3; i < argc; ++i) {
    if (std::strcmp(argv[i], "--output") == 0 && i + 1 < argc)
      output = argv[++i];
    else if (std::strcmp(argv[i], "--trace") == 0 && i + 1 < argc)
      tracePath = argv[++i];
    else
      return usage();
  }
  try {
    pva::Report r = pva::Report::open(dir);
    popvis::HostTrace trace;
    if (!tracePath.empty())
      trace = popvis::readHostTrace(tracePath);
    std::ofstream f(output);
    writePage(f, r, dir, tracePath.empty() ? nullptr : &trace);
    if (!f) {
      std::cerr << "popvis: cannot write '" << output << "'; pass --output FILE in a writable directory\n";
      return 1;
    }
    printSummary(std::cout, r);
    if (!tracePath.empty())
      std::cout << "Host timeline: " << trace.spans.size() << " intervals, " << trace.instants.size()
                << " instant events from " << tracePath << "\n";
    std::cout << "Report: " << output << "\n";
  } catch (const std::exception &e) {
    std::cerr << "popvis: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
