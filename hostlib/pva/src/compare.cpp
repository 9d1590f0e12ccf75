// popvis compare: two reports side by side (explore.hpp), drawn from the same JSON the explorable views use.
#include <algorithm>
#include <set>
#include <sstream>

#include "explore.hpp"
#include "html_escape.hpp"

namespace popvis {

namespace {

std::uint64_t sum(const nlohmann::json &v) {
  std::uint64_t s = 0;
  for (const auto &x : v)
    s += x.get<std::uint64_t>();
  return s;
}

/// B's change over A as a signed percentage ("+12.5%"), or "-" when A is zero.
std::string change(std::uint64_t a, std::uint64_t b) {
  if (!a)
    return "-";
  std::ostringstream os;
  os.precision(1);
  os << std::fixed << (b >= a ? "+" : "") << (double(b) - double(a)) / double(a) * 100 << "%";
  return os.str();
}

std::string cycles(const nlohmann::json &step, const char *key) {
  return step.is_null() || step[key].is_null() ? "" : std::to_string(step[key].get<std::uint64_t>());
}

} // namespace

std::string comparePage(const nlohmann::json &a, const std::string &nameA, const nlohmann::json &b,
                        const std::string &nameB) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Compare: " << escape(nameA) << " and "
     << escape(nameB) << "</title>\n<style>body{font-family:sans-serif;margin:20px;color:#222}"
        "table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;border-bottom:1px solid #ddd;"
        "text-align:right}td.l,th.l{text-align:left}</style></head><body>\n<h1>Two reports side by side</h1>\n"
     << "<p>A: " << escape(nameA) << " (" << a["numTiles"] << " tiles, " << a["totalCycles"] << " cycles)<br>B: "
     << escape(nameB) << " (" << b["numTiles"] << " tiles, " << b["totalCycles"] << " cycles)</p>\n";
  // Memory by category, all tiles.
  std::set<std::string> cats;
  for (const auto &[k, v] : a["categories"].items())
    cats.insert(k);
  for (const auto &[k, v] : b["categories"].items())
    cats.insert(k);
  os << "<h2>Memory by category (bytes, all tiles)</h2>\n<table id=\"compare-memory\"><tr><th class=\"l\">Category"
        "</th><th>A</th><th>B</th><th>B vs A</th></tr>\n";
  std::uint64_t ta = 0, tb = 0;
  for (const auto &c : cats) {
    std::uint64_t va = a["categories"].contains(c) ? sum(a["categories"][c]) : 0;
    std::uint64_t vb = b["categories"].contains(c) ? sum(b["categories"][c]) : 0;
    ta += va;
    tb += vb;
    os << "<tr data-category=\"" << escape(c) << "\" data-a=\"" << va << "\" data-b=\"" << vb << "\"><td class=\"l\">"
       << escape(c) << "</td><td>" << va << "</td><td>" << vb << "</td><td>" << change(va, vb) << "</td></tr>\n";
  }
  os << "<tr data-category=\"total\" data-a=\"" << ta << "\" data-b=\"" << tb << "\"><td class=\"l\">total</td><td>"
     << ta << "</td><td>" << tb << "</td><td>" << change(ta, tb) << "</td></tr></table>\n";
  // Memory per tile, each tile's categories summed.
  auto perTile = [](const nlohmann::json &r, std::size_t t) {
    std::uint64_t s = 0;
    for (const auto &[k, v] : r["categories"].items())
      s += t < v.size() ? v[t].get<std::uint64_t>() : 0;
    return s;
  };
  const std::size_t tiles = std::max(a["numTiles"].get<std::size_t>(), b["numTiles"].get<std::size_t>());
  os << "<h2>Memory per tile (bytes)</h2>\n<table id=\"compare-tiles\"><tr><th>Tile</th><th>A</th><th>B</th>"
        "<th>B vs A</th></tr>\n";
  for (std::size_t t = 0; t < tiles; ++t) {
    const std::uint64_t va = perTile(a, t), vb = perTile(b, t);
    os << "<tr data-tile=\"" << t << "\" data-a=\"" << va << "\" data-b=\"" << vb << "\"><td>" << t << "</td><td>"
       << va << "</td><td>" << vb << "</td><td>" << change(va, vb) << "</td></tr>\n";
  }
  os << "</table>\n";
  // Cycles per step, matched by position in the run (the same program gives the same steps).
  const std::size_t steps = std::max(a["steps"].size(), b["steps"].size());
  os << "<h2>Cycles per step (estimated by the time model; measured on the RV32 tiles)</h2>\n"
        "<table id=\"compare-steps\"><tr><th>Step</th><th class=\"l\">A</th><th>A estimated</th><th>A measured</th>"
        "<th class=\"l\">B</th><th>B estimated</th><th>B measured</th><th>estimated B vs A</th></tr>\n";
  for (std::size_t i = 0; i < steps; ++i) {
    const nlohmann::json sa = i < a["steps"].size() ? a["steps"][i] : nlohmann::json();
    const nlohmann::json sb = i < b["steps"].size() ? b["steps"][i] : nlohmann::json();
    const std::uint64_t ca = sa.is_null() ? 0 : sa["cycles"].get<std::uint64_t>();
    const std::uint64_t cb = sb.is_null() ? 0 : sb["cycles"].get<std::uint64_t>();
    os << "<tr data-step=\"" << i << "\" data-a=\"" << cycles(sa, "cycles") << "\" data-b=\"" << cycles(sb, "cycles")
       << "\"><td>" << i << "</td><td class=\"l\">" << (sa.is_null() ? "" : escape(sa["name"].get<std::string>()))
       << "</td><td>" << cycles(sa, "cycles") << "</td><td>" << cycles(sa, "measured") << "</td><td class=\"l\">"
       << (sb.is_null() ? "" : escape(sb["name"].get<std::string>())) << "</td><td>" << cycles(sb, "cycles")
       << "</td><td>" << cycles(sb, "measured") << "</td><td>" << change(ca, cb) << "</td></tr>\n";
  }
  os << "</table>\n</body></html>\n";
  return os.str();
}

} // namespace popvis
